// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
#include "queue.h"

#include <cerrno>
#include <new>

namespace urma {

int SendQueue::map(int fd, const udma_ring_info &info)
{
    int ret = ring_.map(fd, info, UDMA_SQE_SIZE);
    if (ret != 0)
        return ret;
    wrid_ = new (std::nothrow) uint64_t[ring_.entry_cnt()]();
    if (wrid_ == nullptr) {
        ring_.unmap();
        return -ENOMEM;
    }
    // A new ring starts at 0; reading it keeps the library right should
    // the kernel ever start elsewhere.
    pi_ = load_acquire(&ring_.ctrl()->pi);
    return 0;
}

int RecvQueue::map(int fd, const udma_ring_info &info)
{
    int ret = ring_.map(fd, info, UDMA_RQE_SIZE);
    if (ret != 0)
        return ret;
    pi_ = load_acquire(&ring_.ctrl()->pi);
    return 0;
}

int CompQueue::map(int fd, const udma_ring_info &info)
{
    int ret = ring_.map(fd, info, UDMA_CQE_SIZE);
    if (ret != 0)
        return ret;
    ci_ = load_acquire(&ring_.ctrl()->ci);
    return 0;
}

}  // namespace urma
