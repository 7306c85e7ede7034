// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// The one place that talks to /dev/uburma/<dev>: open and UBURMA_CMD.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include <ub/uburma_ioctl.h>

namespace urma {

// Path of the char device of a UB device.
std::string uburma_dev_path(const std::string &dev_name);

// Opens the char device of dev_name; returns the fd or -errno.
int uburma_open(const std::string &dev_name);

// Runs one command with its argument struct; returns 0 or -errno.
int uburma_cmd(int fd, uint32_t command, void *args, size_t len);

template <typename T> int uburma_cmd(int fd, uint32_t command, T *args)
{
    return uburma_cmd(fd, command, args, sizeof(*args));
}

// Closes an fd on scope exit.
class Fd {
public:
    explicit Fd(int fd) : fd_(fd) {}
    ~Fd();
    Fd(const Fd &) = delete;
    Fd &operator=(const Fd &) = delete;
    int get() const { return fd_; }
    int release()
    {
        int fd = fd_;
        fd_ = -1;
        return fd;
    }

private:
    int fd_;
};

}  // namespace urma
