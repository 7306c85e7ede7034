// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// include/uapi/ub/uboe_wire.h from userspace (a decoder or fuzzer includes
// it): it compiles as C++17, and every header has the size and byte offsets
// docs/uboe-wire.md gives.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>

#include "ub/uboe_wire.h"

namespace {

TEST(UboeWire, HeaderSizes)
{
    EXPECT_EQ(sizeof(uboe_tph), 16U);
    EXPECT_EQ(sizeof(uboe_eidh), 32U);
    EXPECT_EQ(sizeof(uboe_tpackh), 4U);
    EXPECT_EQ(sizeof(uboe_btah), 12U);
    EXPECT_EQ(sizeof(uboe_atah), 12U);
    EXPECT_EQ(sizeof(uboe_tvetah), 4U);
    EXPECT_EQ(sizeof(uboe_maetah), 16U);
    EXPECT_EQ(sizeof(uboe_mtetah), 4U);
    EXPECT_EQ(sizeof(uboe_immetah), 16U);
    EXPECT_EQ(sizeof(uboe_ntfetah), 24U);
    EXPECT_EQ(sizeof(uboe_invetah), 24U);
    EXPECT_EQ(sizeof(uboe_ofstetah), 4U);
    EXPECT_EQ(sizeof(uboe_taidetah), 4U);
    EXPECT_EQ(sizeof(uboe_mgmtetah), 8U);
    EXPECT_EQ(sizeof(uboe_udetah), 4U);
}

TEST(UboeWire, Offsets)
{
    EXPECT_EQ(offsetof(uboe_tph, opcode), 1U);
    EXPECT_EQ(offsetof(uboe_tph, pkt_len), 2U);
    EXPECT_EQ(offsetof(uboe_tph, flags_dtpn), 4U);
    EXPECT_EQ(offsetof(uboe_tph, stpn), 8U);
    EXPECT_EQ(offsetof(uboe_tph, psn), 12U);
    EXPECT_EQ(offsetof(uboe_eidh, dst_eid), 16U);
    EXPECT_EQ(offsetof(uboe_tpackh, window), 2U);
    EXPECT_EQ(offsetof(uboe_btah, ini_tassn), 2U);
    EXPECT_EQ(offsetof(uboe_btah, odr_rc), 4U);
    EXPECT_EQ(offsetof(uboe_btah, ext), 8U);
    EXPECT_EQ(offsetof(uboe_atah, ini_tassn), 2U);
    EXPECT_EQ(offsetof(uboe_atah, rsp_rc), 4U);
    EXPECT_EQ(offsetof(uboe_atah, ext), 8U);
    EXPECT_EQ(offsetof(uboe_maetah, token_id), 8U);
    EXPECT_EQ(offsetof(uboe_maetah, len), 12U);
    EXPECT_EQ(offsetof(uboe_immetah, token_value), 8U);
    EXPECT_EQ(offsetof(uboe_immetah, msg_len), 12U);
    EXPECT_EQ(offsetof(uboe_ntfetah, va), 8U);
    EXPECT_EQ(offsetof(uboe_ntfetah, token_id), 16U);
    EXPECT_EQ(offsetof(uboe_ntfetah, token_value), 20U);
    EXPECT_EQ(offsetof(uboe_invetah, len), 8U);
    EXPECT_EQ(offsetof(uboe_invetah, token_id), 16U);
    EXPECT_EQ(offsetof(uboe_invetah, token_value), 20U);
    EXPECT_EQ(offsetof(uboe_taidetah, rsvd), 2U);
    EXPECT_EQ(offsetof(uboe_mgmtetah, type), 1U);
    EXPECT_EQ(offsetof(uboe_mgmtetah, body_len), 2U);
    EXPECT_EQ(offsetof(uboe_mgmtetah, msg_id), 4U);
}

// The seed's TAOpcode values (ub-transaction-layer: 四类事务, ATAH).
TEST(UboeWire, SeedOpcodes)
{
    EXPECT_EQ(UBOE_TA_SEND, 0x0);
    EXPECT_EQ(UBOE_TA_SEND_IMM, 0x1);
    EXPECT_EQ(UBOE_TA_WRITE, 0x3);
    EXPECT_EQ(UBOE_TA_WRITE_IMM, 0x4);
    EXPECT_EQ(UBOE_TA_WRITE_NOTIFY, 0x5);
    EXPECT_EQ(UBOE_TA_READ, 0x6);
    EXPECT_EQ(UBOE_TA_CAS, 0x7);
    EXPECT_EQ(UBOE_TA_FXOR, 0xf);
    EXPECT_EQ(UBOE_TA_MANAGEMENT, 0x10);
    EXPECT_EQ(UBOE_TA_TAACK, 0x11);
    EXPECT_EQ(UBOE_TA_READ_RESP, 0x12);
    EXPECT_EQ(UBOE_TA_ATOMIC_RESP, 0x13);
    // ours, beyond the seed's table: URMA's WRITE_ATOMIC and FLUSH_DMA
    EXPECT_EQ(UBOE_TA_WRITE_ATOMIC_ADD, 0x19);
    EXPECT_EQ(UBOE_TA_FLUSH, 0x1a);
}

// Flags and masks do not overlap the fields next to them.
TEST(UboeWire, Masks)
{
    const uint32_t tph_flags = UBOE_TPH_F_ACKREQ | UBOE_TPH_F_FIRST | UBOE_TPH_F_LAST |
                               UBOE_TPH_F_EID | UBOE_TPH_F_ICRC | UBOE_TPH_F_RSVD;
    EXPECT_EQ(tph_flags, 0xff000000U);
    EXPECT_EQ(tph_flags & UBOE_TPN_MASK, 0U);
    const uint32_t btah_word = (7U << 29) | UBOE_BTAH_RC_TYPE_MASK | UBOE_BTAH_SE |
                               UBOE_BTAH_RC_RSVD | UBOE_ID_MASK;
    EXPECT_EQ(btah_word, 0xffffffffU);
    EXPECT_EQ(UBOE_BTAH_TCO, 1U << 29);
    const uint32_t atah_word = (7U << UBOE_ATAH_RSPST_SHIFT) | UBOE_ATAH_RSPST_RSVD |
                               UBOE_ATAH_RSPINFO_MASK | UBOE_ID_MASK;
    EXPECT_EQ(atah_word, 0xffffffffU);
    EXPECT_EQ(UBOE_MTETAH_RSVD | UBOE_ID_MASK | (0xffU << UBOE_MTETAH_HINT_SHIFT), 0xffffffffU);
    EXPECT_EQ(UBOE_EXT_MAETAH | UBOE_EXT_MTETAH | UBOE_EXT_IMMETAH | UBOE_EXT_NTFETAH |
                  UBOE_EXT_INVETAH | UBOE_EXT_OFSTETAH | UBOE_EXT_TAIDETAH |
                  UBOE_EXT_MGMTETAH | UBOE_EXT_RSVD,
              0xffffU);
}

}  // namespace
