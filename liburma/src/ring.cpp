// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
#include "ring.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <utility>

namespace urma {

bool ring_info_valid(const udma_ring_info &info, uint32_t want_entry_size, size_t page_size)
{
    if (info.entry_cnt == 0 || (info.entry_cnt & (info.entry_cnt - 1)) != 0)
        return false;
    if (info.entry_size != want_entry_size)
        return false;
    if (info.mmap_len == 0 || info.mmap_len % page_size != 0 || info.mmap_offset % page_size != 0)
        return false;
    // The control page, then the entries; computed in 64 bits so a huge
    // count cannot wrap.
    uint64_t need = static_cast<uint64_t>(page_size) +
                    static_cast<uint64_t>(info.entry_cnt) * info.entry_size;
    return info.mmap_len >= need;
}

RingMapping::RingMapping(RingMapping &&other) noexcept
{
    *this = std::move(other);
}

RingMapping &RingMapping::operator=(RingMapping &&other) noexcept
{
    if (this != &other) {
        unmap();
        std::swap(addr_, other.addr_);
        std::swap(len_, other.len_);
        std::swap(page_size_, other.page_size_);
        std::swap(entry_cnt_, other.entry_cnt_);
        std::swap(entry_size_, other.entry_size_);
    }
    return *this;
}

int RingMapping::map(int fd, const udma_ring_info &info, uint32_t want_entry_size)
{
    size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));

    unmap();
    if (!ring_info_valid(info, want_entry_size, page))
        return -EINVAL;
    void *p = mmap(nullptr, info.mmap_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
                   static_cast<off_t>(info.mmap_offset));
    if (p == MAP_FAILED)
        return -errno;
    addr_ = p;
    len_ = info.mmap_len;
    page_size_ = page;
    entry_cnt_ = info.entry_cnt;
    entry_size_ = info.entry_size;
    return 0;
}

void RingMapping::unmap() noexcept
{
    if (addr_ != nullptr)
        munmap(addr_, len_);
    addr_ = nullptr;
    len_ = 0;
    entry_cnt_ = 0;
    entry_size_ = 0;
}

void *RingMapping::entry(uint32_t i) const
{
    if (addr_ == nullptr)
        return nullptr;
    return static_cast<char *>(addr_) + page_size_ +
           static_cast<size_t>(i & (entry_cnt_ - 1)) * entry_size_;
}

}  // namespace urma
