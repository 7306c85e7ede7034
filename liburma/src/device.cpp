// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// Device discovery and device queries (urma_get_device_list and friends).
#include "device.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <mutex>
#include <system_error>
#include <vector>

#include "log.h"
#include "uburma_cmd.h"
#include "urma_api.h"

namespace fs = std::filesystem;

namespace urma {
namespace {

const char kUburmaClass[] = "/sys/class/" UBURMA_CLASS_NAME;
const char kUbcoreClass[] = "/sys/class/ubcore";

struct Device {
    urma_device_t dev{};
    urma_sysfs_dev priv;
};

// g_lock protects g_devices; entries are never removed before
// clear_devices(), so an urma_device_t * stays valid until urma_uninit().
std::mutex g_lock;
std::vector<std::unique_ptr<Device>> g_devices;

bool device_present(const Device &d)
{
    std::error_code ec;
    return fs::exists(fs::path(kUburmaClass) / d.priv.dev_name, ec);
}

Device *find_locked(const std::string &name)
{
    for (auto &d : g_devices)
        if (d->priv.dev_name == name)
            return d.get();
    return nullptr;
}

void add_locked(const std::string &name)
{
    auto d = std::make_unique<Device>();

    d->priv.dev_name = name;
    std::strncpy(d->dev.name, name.c_str(), sizeof(d->dev.name) - 1);
    std::snprintf(d->dev.path, sizeof(d->dev.path), "%s/%s", kUbcoreClass, name.c_str());
    d->dev.type = URMA_TRANSPORT_UB;
    d->dev.ops = nullptr;
    d->dev.sysfs_dev = &d->priv;
    g_devices.push_back(std::move(d));
}

// The devices present now, in discovery order.
std::vector<urma_device_t *> present_devices()
{
    std::vector<urma_device_t *> out;
    std::lock_guard<std::mutex> guard(g_lock);

    for (auto &d : g_devices)
        if (device_present(*d))
            out.push_back(&d->dev);
    return out;
}

template <typename T> bool query(urma_device_t *dev, uint32_t command, T *args)
{
    Fd fd(uburma_open(dev->sysfs_dev->dev_name));
    int ret;

    if (fd.get() < 0) {
        URMA_LOG_ERR("cannot open %s: %s\n", uburma_dev_path(dev->name).c_str(),
                     std::strerror(-fd.get()));
        errno = -fd.get();
        return false;
    }
    ret = uburma_cmd(fd.get(), command, args);
    if (ret) {
        URMA_LOG_ERR("command %u on %s failed: %s\n", command, dev->name, std::strerror(-ret));
        errno = -ret;
        return false;
    }
    return true;
}

}  // namespace

void fill_device_attr(const uburma_cmd_query_device &cmd, urma_device_attr_t *dev_attr)
{
    std::memset(dev_attr, 0, sizeof(*dev_attr));
    urma_device_cap_t *cap = &dev_attr->dev_cap;
    cap->max_jfc = cmd.out.max_jfc;
    cap->max_jfs = cmd.out.max_jfs;
    cap->max_jfr = cmd.out.max_jfr;
    cap->max_jetty = cmd.out.max_jetty;
    cap->max_jetty_grp = cmd.out.max_jetty_grp;
    cap->max_jetty_in_jetty_grp = cmd.out.max_jetty_in_jetty_grp;
    cap->feature.bs.jetty_grp = cmd.out.max_jetty_grp != 0;
    cap->max_jfc_depth = cmd.out.max_jfc_depth;
    cap->max_jfs_depth = cmd.out.max_jfs_depth;
    cap->max_jfr_depth = cmd.out.max_jfr_depth;
    cap->max_jfs_inline_len = cmd.out.max_jfs_inline_size;
    cap->max_jfs_sge = cmd.out.max_jfs_sge;
    cap->max_jfs_rsge = cmd.out.max_jfs_rsge;
    cap->max_jfr_sge = cmd.out.max_jfr_sge;
    cap->max_msg_size = cmd.out.max_msg_size;
    cap->max_read_size = static_cast<uint32_t>(std::min<uint64_t>(cmd.out.max_read_size, UINT32_MAX));
    cap->max_write_size = static_cast<uint32_t>(std::min<uint64_t>(cmd.out.max_write_size, UINT32_MAX));
    // The kernel's atomic bits are the user guide's (CAS 1, SWAP 2, FAA 4,
    // FSUB 8, FOR 16, FXOR 32) and FAND 64, which the guide lacks
    // (ubcore_device.h); urma_atomic_feature_t has FAND between FSUB and FOR.
    const uint32_t a = cmd.out.atomic_feature;
    cap->atomic_feat.bs.cas = !!(a & 1u);
    cap->atomic_feat.bs.swap = !!(a & 2u);
    cap->atomic_feat.bs.fetch_and_add = !!(a & 4u);
    cap->atomic_feat.bs.fetch_and_sub = !!(a & 8u);
    cap->atomic_feat.bs.fetch_and_or = !!(a & 16u);
    cap->atomic_feat.bs.fetch_and_xor = !!(a & 32u);
    cap->atomic_feat.bs.fetch_and_and = !!(a & 64u);
    cap->trans_mode = static_cast<uint16_t>(cmd.out.trans_mode);
    cap->congestion_ctrl_alg = static_cast<uint16_t>(cmd.out.congestion_ctrl_alg);
    // udma takes every priority (ubcore checks 0..15 only) and carries all
    // of them on the connection manager's reliable TPs: each is an RTP
    // service level. UMDK's urma_perftest picks its jetty priority by
    // looking for exactly the RTP type here when the device has TP-aware
    // imports (ctx->ops->import_jetty_ex); the kernel has no per-priority
    // answer to report.
    for (uint32_t i = 0; i < URMA_MAX_PRIORITY_CNT; i++) {
        cap->priority_info[i].SL = i;
        cap->priority_info[i].tp_type.bs.rtp = 1;
    }
    dev_attr->port_cnt = 1;
    dev_attr->port_attr[0].state = static_cast<urma_port_state_t>(cmd.out.port_state);
    dev_attr->port_attr[0].active_mtu = static_cast<urma_mtu_t>(cmd.out.active_mtu);
    dev_attr->port_attr[0].max_mtu = URMA_MTU_8192;
    dev_attr->reserved_jetty_id_min = 1;
    dev_attr->reserved_jetty_id_max = cmd.out.reserved_jetty_id_max;
}

bool uburma_present()
{
    std::error_code ec;
    return fs::is_directory(kUburmaClass, ec);
}

int scan_devices()
{
    std::vector<std::string> names;
    std::error_code ec;

    for (const auto &entry : fs::directory_iterator(kUburmaClass, ec))
        names.push_back(entry.path().filename().string());
    std::lock_guard<std::mutex> guard(g_lock);
    for (const auto &name : names)
        if (find_locked(name) == nullptr)
            add_locked(name);
    int n = 0;
    for (auto &d : g_devices)
        n += device_present(*d);
    return n;
}

bool is_known_device(const urma_device_t *dev)
{
    std::lock_guard<std::mutex> guard(g_lock);
    for (auto &d : g_devices)
        if (&d->dev == dev)
            return true;
    return false;
}

void clear_devices()
{
    std::lock_guard<std::mutex> guard(g_lock);
    g_devices.clear();
}

}  // namespace urma

using urma::is_known_device;

extern "C" {

urma_device_t **urma_get_device_list(int *num_devices)
{
    if (num_devices == nullptr) {
        URMA_LOG_ERR("num_devices is NULL\n");
        errno = EINVAL;
        return nullptr;
    }
    urma::scan_devices();
    std::vector<urma_device_t *> devs = urma::present_devices();
    *num_devices = static_cast<int>(devs.size());
    if (devs.empty()) {
        errno = ENODEV;
        return nullptr;
    }
    // NULL-terminated, as callers may walk it either way.
    auto **list = static_cast<urma_device_t **>(std::calloc(devs.size() + 1, sizeof(urma_device_t *)));
    if (list == nullptr) {
        errno = ENOMEM;
        return nullptr;
    }
    std::copy(devs.begin(), devs.end(), list);
    return list;
}

void urma_free_device_list(urma_device_t **device_list)
{
    std::free(device_list);
}

urma_device_t *urma_get_device_by_name(char *dev_name)
{
    if (dev_name == nullptr || dev_name[0] == '\0') {
        URMA_LOG_ERR("device name is empty\n");
        errno = EINVAL;
        return nullptr;
    }
    urma::scan_devices();
    for (urma_device_t *dev : urma::present_devices())
        if (std::strcmp(dev->name, dev_name) == 0)
            return dev;
    URMA_LOG_ERR("no UB device named %.64s\n", dev_name);
    errno = ENODEV;
    return nullptr;
}

urma_status_t urma_query_device(urma_device_t *dev, urma_device_attr_t *dev_attr)
{
    struct uburma_cmd_query_device cmd = {};

    if (dev == nullptr || dev_attr == nullptr || !is_known_device(dev)) {
        URMA_LOG_ERR("invalid argument: dev %p attr %p\n", static_cast<void *>(dev),
                     static_cast<void *>(dev_attr));
        return URMA_EINVAL;
    }
    if (!urma::query(dev, UBURMA_CMD_QUERY_DEVICE, &cmd))
        return errno == ENOENT || errno == ENODEV ? URMA_FAIL : static_cast<urma_status_t>(errno);

    urma::fill_device_attr(cmd, dev_attr);
    return URMA_SUCCESS;
}

urma_eid_info_t *urma_get_eid_list(urma_device_t *dev, uint32_t *cnt)
{
    struct uburma_cmd_get_eid_list cmd = {};

    if (dev == nullptr || cnt == nullptr || !is_known_device(dev)) {
        URMA_LOG_ERR("invalid argument: dev %p cnt %p\n", static_cast<void *>(dev),
                     static_cast<void *>(cnt));
        errno = EINVAL;
        return nullptr;
    }
    *cnt = 0;
    std::vector<uburma_eid_info> infos(URMA_MAX_EID_CNT);
    cmd.in.max_cnt = URMA_MAX_EID_CNT;
    cmd.in.eids_addr = reinterpret_cast<uintptr_t>(infos.data());
    if (!urma::query(dev, UBURMA_CMD_GET_EID_LIST, &cmd))
        return nullptr;
    if (cmd.out.cnt == 0) {
        errno = ENOENT;
        return nullptr;
    }
    auto *list = static_cast<urma_eid_info_t *>(std::calloc(cmd.out.cnt, sizeof(urma_eid_info_t)));
    if (list == nullptr) {
        errno = ENOMEM;
        return nullptr;
    }
    for (uint32_t i = 0; i < cmd.out.cnt; i++) {
        std::memcpy(list[i].eid.raw, infos[i].eid, sizeof(list[i].eid.raw));
        list[i].eid_index = infos[i].eid_index;
    }
    *cnt = cmd.out.cnt;
    return list;
}

void urma_free_eid_list(urma_eid_info_t *eid_list)
{
    std::free(eid_list);
}

urma_device_t *urma_get_device_by_eid(urma_eid_t eid, urma_transport_type_t type)
{
    // UMDK: only devices of the given transport type are searched; none
    // of them with the EID is ENODEV (udma's devices are URMA_TRANSPORT_UB).
    urma::scan_devices();
    for (urma_device_t *dev : urma::present_devices()) {
        if (dev->type != type)
            continue;
        uint32_t cnt = 0;
        urma_eid_info_t *list = urma_get_eid_list(dev, &cnt);
        bool match = false;

        for (uint32_t i = 0; i < cnt && !match; i++)
            match = std::memcmp(list[i].eid.raw, eid.raw, sizeof(eid.raw)) == 0;
        urma_free_eid_list(list);
        if (match)
            return dev;
    }
    errno = ENODEV;
    return nullptr;
}

}  // extern "C"
