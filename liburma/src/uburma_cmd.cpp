// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
#include "uburma_cmd.h"

#include <fcntl.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>

namespace urma {

// The node's name as the kernel's uevent gives it (DEVNAME=): a logical
// device (user guide 6.3.1) has its physical device's name, seen in
// another network namespace, and its node carries that namespace
// (/dev/uburma/<dev>@<netns inode>); sysfs, mounted for the caller's
// namespace, shows the device of that name there.
std::string uburma_dev_path(const std::string &dev_name)
{
    std::ifstream uevent("/sys/class/" UBURMA_CLASS_NAME "/" + dev_name + "/uevent");
    const std::string key = "DEVNAME=";
    std::string line;

    while (std::getline(uevent, line))
        if (line.compare(0, key.size(), key) == 0 && line.size() > key.size())
            return "/dev/" + line.substr(key.size());
    return "/dev/" UBURMA_CLASS_NAME "/" + dev_name;
}

int uburma_open(const std::string &dev_name)
{
    int fd = open(uburma_dev_path(dev_name).c_str(), O_RDWR | O_CLOEXEC);

    return fd < 0 ? -errno : fd;
}

int uburma_cmd(int fd, uint32_t command, void *args, size_t len)
{
    struct uburma_cmd_hdr hdr = {};

    hdr.command = command;
    hdr.args_len = static_cast<uint32_t>(len);
    hdr.args_addr = reinterpret_cast<uintptr_t>(args);
    return ioctl(fd, UBURMA_CMD, &hdr) == 0 ? 0 : -errno;
}

Fd::~Fd()
{
    if (fd_ >= 0)
        close(fd_);
}

}  // namespace urma
