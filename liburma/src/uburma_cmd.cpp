// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
#include "uburma_cmd.h"

#include <fcntl.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cerrno>

namespace urma {

std::string uburma_dev_path(const std::string &dev_name)
{
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
