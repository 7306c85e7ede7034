// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// Library life cycle (urma_init / urma_uninit) and contexts: a context is an
// open file of /dev/uburma/<dev>, so the kernel frees everything the context
// created when it is closed, or when the process dies.
#include <pthread.h>
#include <sys/random.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <new>

#include "bond.h"
#include "device.h"
#include "log.h"
#include "object.h"
#include "provider_ops.h"
#include "uburma_cmd.h"
#include "urma_api.h"

namespace urma {
namespace {

// An address space ID is 24 bits; 0 means "choose one".
constexpr uint32_t kMaxUasid = 1u << 24;

// g_init_lock serialises urma_init/urma_uninit; g_uasid is valid while
// g_initialized. g_uasid_chosen: the application asked for g_uasid.
// The kernel owns uasids: one another process owns is refused (EADDRINUSE);
// a random one that collides is replaced by one the kernel picks.
std::mutex g_init_lock;
std::atomic<bool> g_initialized{false};
std::atomic<uint32_t> g_uasid{0};
std::atomic<bool> g_uasid_chosen{false};

uint32_t random_uasid()
{
    uint32_t v = 0;

    while (v == 0) {
        if (getrandom(&v, sizeof(v), 0) != sizeof(v))
            v = static_cast<uint32_t>(getpid()) ^ static_cast<uint32_t>(time(nullptr));
        v %= kMaxUasid;
    }
    return v;
}

}  // namespace
}  // namespace urma

extern "C" {

urma_status_t urma_init(urma_init_attr_t *conf)
{
    std::lock_guard<std::mutex> guard(urma::g_init_lock);

    if (urma::g_initialized) {
        URMA_LOG_ERR("urma_init was called before\n");
        return URMA_EEXIST;
    }
    if (conf != nullptr && conf->uasid >= urma::kMaxUasid) {
        URMA_LOG_ERR("uasid %u out of range\n", conf->uasid);
        return URMA_EINVAL;
    }
    if (!urma::uburma_present()) {
        URMA_LOG_ERR("no UB devices: the uburma kernel module is not loaded\n");
        return URMA_FAIL;
    }
    urma::scan_devices();
    urma::g_uasid_chosen = conf != nullptr && conf->uasid != 0;
    urma::g_uasid = urma::g_uasid_chosen ? conf->uasid : urma::random_uasid();
    urma::g_initialized = true;
    return URMA_SUCCESS;
}

urma_status_t urma_uninit(void)
{
    std::lock_guard<std::mutex> guard(urma::g_init_lock);

    if (!urma::g_initialized) {
        URMA_LOG_ERR("urma_uninit without urma_init\n");
        return URMA_FAIL;
    }
    urma::clear_devices();
    urma::g_uasid = 0;
    urma::g_initialized = false;
    return URMA_SUCCESS;
}

urma_status_t urma_get_uasid(uint32_t *uasid)
{
    if (uasid == nullptr) {
        URMA_LOG_ERR("uasid is NULL\n");
        return URMA_EINVAL;
    }
    if (!urma::g_initialized) {
        URMA_LOG_ERR("urma_init has not been called\n");
        return URMA_FAIL;
    }
    *uasid = urma::g_uasid;
    return URMA_SUCCESS;
}

urma_context_t *urma_create_context(urma_device_t *dev, uint32_t eid_index)
{
    if (dev == nullptr || !urma::is_known_device(dev)) {
        URMA_LOG_ERR("invalid device %p\n", static_cast<void *>(dev));
        errno = EINVAL;
        return nullptr;
    }
    uint32_t cnt = 0;
    urma_eid_info_t *eids = urma_get_eid_list(dev, &cnt);
    urma_eid_info_t *found = nullptr;

    for (uint32_t i = 0; i < cnt; i++)
        if (eids[i].eid_index == eid_index)
            found = &eids[i];
    if (found == nullptr) {
        URMA_LOG_ERR("%s has no EID at index %u\n", dev->name, eid_index);
        urma_free_eid_list(eids);
        errno = EINVAL;
        return nullptr;
    }
    urma_eid_t eid = found->eid;
    urma_free_eid_list(eids);

    urma::Fd fd(urma::uburma_open(dev->sysfs_dev->dev_name));
    if (fd.get() < 0) {
        URMA_LOG_ERR("cannot open %s: %s\n", urma::uburma_dev_path(dev->name).c_str(),
                     std::strerror(-fd.get()));
        errno = -fd.get();
        return nullptr;
    }
    // The device's limits, for the checks of every create.
    struct uburma_cmd_query_device query = {};
    int ret = urma::uburma_cmd(fd.get(), UBURMA_CMD_QUERY_DEVICE, &query);
    if (ret != 0) {
        URMA_LOG_ERR("cannot query %s: %s\n", dev->name, std::strerror(-ret));
        errno = -ret;
        return nullptr;
    }
    // The kernel's user context: objects need it, and it gives the async fd.
    struct uburma_cmd_create_ctx create = {};
    create.in.eid_index = eid_index;
    uint32_t asked = urma::g_uasid;
    create.in.uasid = asked;
    ret = urma::uburma_cmd(fd.get(), UBURMA_CMD_CREATE_CTX, &create);
    if (ret == -EADDRINUSE && !urma::g_uasid_chosen) {
        // Our random uasid is another process's: take one the kernel picks.
        create = {};
        create.in.eid_index = eid_index;
        ret = urma::uburma_cmd(fd.get(), UBURMA_CMD_CREATE_CTX, &create);
        if (ret == 0)
            urma::g_uasid.compare_exchange_strong(asked, create.out.uasid);
    }
    if (ret != 0) {
        URMA_LOG_ERR("cannot create a context on %s eid %u: %s\n", dev->name, eid_index,
                     std::strerror(-ret));
        errno = -ret;
        return nullptr;
    }
    urma::Fd async_fd(create.out.async_fd);
    auto *impl = new (std::nothrow) urma::ContextImpl();
    if (impl != nullptr)
        impl->segs = new (std::nothrow) urma::SegRegistry();
    if (impl == nullptr || impl->segs == nullptr) {
        delete impl;
        errno = ENOMEM;
        return nullptr;
    }
    urma_device_attr_t attr;
    urma::fill_device_attr(query, &attr);
    impl->cap = attr.dev_cap;
    urma_context_t *ctx = &impl->pub;
    ctx->dev = dev;
    ctx->ops = urma::provider_ops();
    ctx->dev_fd = fd.release();
    ctx->async_fd = async_fd.release();
    ctx->eid = eid;
    ctx->eid_index = eid_index;
    ctx->uasid = create.out.uasid;
    ctx->ref.atomic_cnt = 1;
    // a bonding device's contexts have its mode (urma_admin agg add)
    urma::BondState bond;
    impl->bonding = urma::read_bond(dev, &bond);
    ctx->aggr_mode = impl->bonding ? bond.mode : URMA_AGGR_MODE_STANDALONE;
    pthread_mutex_init(&ctx->mutex, nullptr);
    return ctx;
}

urma_status_t urma_delete_context(urma_context_t *ctx)
{
    if (ctx == nullptr) {
        URMA_LOG_ERR("context is NULL\n");
        return URMA_EINVAL;
    }
    // Objects created in the context hold references on it.
    if (ctx->ref.atomic_cnt.load() > 1) {
        URMA_LOG_ERR("context of %s still has %lu objects\n", ctx->dev->name,
                     ctx->ref.atomic_cnt.load() - 1);
        return URMA_EAGAIN;
    }
    close(ctx->dev_fd);
    if (ctx->async_fd >= 0)
        close(ctx->async_fd);
    pthread_mutex_destroy(&ctx->mutex);
    auto *impl = urma::from_pub<urma::ContextImpl>(ctx);
    delete impl->segs;
    delete impl;
    return URMA_SUCCESS;
}

}  // extern "C"
