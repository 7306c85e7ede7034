// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// A queue ring of udma mapped from the device file (udma_abi.h): the kernel
// tells where it is in the create command's udata; liburma maps it after
// the create and unmaps it when the object is deleted.
#pragma once

#include <cstddef>
#include <cstdint>

#include <ub/udma_abi.h>

namespace urma {

// Whether a ring description is one the library can use: a power-of-two
// entry count, the entry size the device fixes, and a mapping that holds
// the control page and every entry. Rejecting a bad one here keeps a
// confused kernel from making the data path index outside the mapping.
bool ring_info_valid(const udma_ring_info &info, uint32_t want_entry_size, size_t page_size);

// One mmap'ed ring; move-only, unmapped on destruction. Standard layout so
// it can sit in the objects' private wrappers (see object.h).
class RingMapping {
public:
    RingMapping() = default;
    ~RingMapping() { unmap(); }
    RingMapping(const RingMapping &) = delete;
    RingMapping &operator=(const RingMapping &) = delete;
    RingMapping(RingMapping &&other) noexcept;
    RingMapping &operator=(RingMapping &&other) noexcept;

    // Maps info's range of fd (MAP_SHARED, read/write); returns 0 or
    // -errno (EINVAL for a description ring_info_valid() refuses).
    int map(int fd, const udma_ring_info &info, uint32_t want_entry_size);
    void unmap() noexcept;

    bool mapped() const { return addr_ != nullptr; }
    void *addr() const { return addr_; }
    size_t len() const { return len_; }
    uint32_t entry_cnt() const { return entry_cnt_; }
    uint32_t entry_size() const { return entry_size_; }
    udma_ring_ctrl *ctrl() const { return static_cast<udma_ring_ctrl *>(addr_); }
    // Entry i of the ring (free-running index), after the control page.
    void *entry(uint32_t i) const;

private:
    void *addr_ = nullptr;
    size_t len_ = 0;
    size_t page_size_ = 0;
    uint32_t entry_cnt_ = 0;
    uint32_t entry_size_ = 0;
};

}  // namespace urma
