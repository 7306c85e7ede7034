/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * Segments: memory a device exposes to remote access, named by a UB virtual
 * address and guarded by a token (token ID + token value); and the remote
 * segments an initiator imports. Names and values follow UMDK's
 * urma_types.h / urma_opcode.h.
 *
 * Access rights (user guide 9.2): LOCAL_ONLY grants every local right and
 * refuses remote access, and excludes the other bits; otherwise remote
 * rights are the READ / WRITE / ATOMIC bits given, where WRITE needs READ
 * and ATOMIC needs WRITE and READ. Local access always has every right.
 */
#ifndef _UB_UBCORE_SEGMENT_H
#define _UB_UBCORE_SEGMENT_H

#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/bug.h>
#include <linux/mm.h>
#include <linux/mm_types.h>
#include <linux/types.h>

#include <ub/ubcore_eid.h>
#include <ub/ubcore_uobj.h>

struct ubcore_device;

#define UBCORE_ACCESS_LOCAL_ONLY	0x1
#define UBCORE_ACCESS_READ		0x2
#define UBCORE_ACCESS_WRITE		0x4
#define UBCORE_ACCESS_ATOMIC		0x8
#define UBCORE_ACCESS_MASK		0xf

/* Token IDs are 20 bits in UB; 0 is never allocated. */
#define UBCORE_TOKEN_ID_BITS		20

/* Token policies, as urma_token_policy_t (bits 0-2 of the flags below). */
#define UBCORE_TOKEN_NONE		0
#define UBCORE_TOKEN_PLAIN_TEXT		1

/* urma_reg_seg_flag_t, as bits of a u32. */
#define UBCORE_SEG_FLAG_TOKEN_POLICY(f)	((f) & 0x7)
#define UBCORE_SEG_FLAG_CACHEABLE	BIT(3)
#define UBCORE_SEG_FLAG_DSVA		BIT(4)
#define UBCORE_SEG_FLAG_ACCESS(f)	(((f) >> 5) & 0x3f)
#define UBCORE_SEG_FLAG_ACCESS_SET(a)	(((a) & 0x3f) << 5)
#define UBCORE_SEG_FLAG_NON_PIN		BIT(11)
#define UBCORE_SEG_FLAG_USER_IOVA	BIT(12)
#define UBCORE_SEG_FLAG_TOKEN_ID_VALID	BIT(13)

/**
 * struct ubcore_token_id - a token ID of a device
 * @ub_dev: the device
 * @uctx: the owning context, or NULL
 * @token_id: 1 .. min(2^20, cap.max_token_id) - 1
 * @flag: urma_token_id_flag_t bits
 * @use_cnt: segments registered with this token ID; freeing it while
 *	segments use it fails with -EBUSY
 * @seg_list: those segments (struct ubcore_target_seg.node), so that a
 *	lookup by token ID walks only them; the device's seg_lock
 */
struct ubcore_token_id {
	struct ubcore_device *ub_dev;
	struct ubcore_ucontext *uctx;
	u32 token_id;
	u32 flag;
	atomic_t use_cnt;
	struct list_head seg_list;
};

/* UB virtual address, as urma_ubva_t. */
struct ubcore_ubva {
	union ubcore_eid eid;
	u32 uasid;
	u64 va;
};

/* Exportable description of a segment, as urma_seg_t. */
struct ubcore_seg {
	struct ubcore_ubva ubva;
	u64 len;
	u32 attr;	/* urma_seg_attr_t bits */
	u32 token_id;
};

/**
 * struct ubcore_seg_cfg - what to register
 * @va: start (user VA for a user context, kernel VA otherwise)
 * @len: bytes; not zero
 * @token_id: the token ID; required
 * @token_value: remote peers must present this value
 * @flag: UBCORE_SEG_FLAG_* bits (urma_reg_seg_flag_t)
 * @user_ctx: the creator's value
 * @iova: IO address when UBCORE_SEG_FLAG_USER_IOVA is set
 * @umem: the pages of a user range [@va, @va + @len), pinned by the caller
 *	with ubcore_umem_get(NULL, ...) before it took its locks; ubcore
 *	adopts them when the registration succeeds (the caller releases them
 *	otherwise). NULL: ubcore pins them itself.
 */
struct ubcore_seg_cfg {
	u64 va;
	u64 len;
	struct ubcore_token_id *token_id;
	u32 token_value;
	u32 flag;
	u64 user_ctx;
	u64 iova;
	struct ubcore_umem *umem;
};

/* Page pointers per chunk of a umem: a page of them (2 MiB of range). */
#define UBCORE_UMEM_CHUNK	(PAGE_SIZE / sizeof(struct page *))

/**
 * struct ubcore_umem - pinned user pages of a segment
 * @owning_mm: the mm charged (pinned_vm) for the pages; grabbed (mmgrab)
 * @va: first byte
 * @length: bytes
 * @nr_pages: pages pinned (the page that holds @va first)
 * @nr_chunks: entries of @chunk
 * @chunk: the page pointers, UBCORE_UMEM_CHUNK per chunk; the pages are
 *	pinned with FOLL_LONGTERM | FOLL_WRITE (local access always has every
 *	right). Use ubcore_umem_page().
 */
struct ubcore_umem {
	struct mm_struct *owning_mm;
	u64 va;
	u64 length;
	unsigned long nr_pages;
	unsigned long nr_chunks;
	struct page ***chunk;
};

/**
 * ubcore_umem_page() - the pinned page that holds a byte of a umem
 * @umem: the umem
 * @va: the byte's address, in [@umem->va, @umem->va + @umem->length)
 *
 * Context: any; @umem stays pinned while its segment's reference is held.
 * Return: the page, or NULL (and a warning) when @va is outside @umem.
 */
static inline struct page *ubcore_umem_page(const struct ubcore_umem *umem,
					    u64 va)
{
	unsigned long idx;

	idx = ((va & PAGE_MASK) - (umem->va & PAGE_MASK)) >> PAGE_SHIFT;
	if (WARN_ON_ONCE(va < umem->va || idx >= umem->nr_pages))
		return NULL;
	return umem->chunk[idx / UBCORE_UMEM_CHUNK][idx % UBCORE_UMEM_CHUNK];
}

struct ubcore_umem *ubcore_umem_get(struct ubcore_device *dev, u64 va,
				    u64 len);
void ubcore_umem_release(struct ubcore_device *dev, struct ubcore_umem *umem);

/**
 * struct ubcore_target_seg - a registered (local) or imported (remote)
 *	segment
 * @ub_dev: the device
 * @uctx: the owning context, or NULL
 * @seg: UB VA, length, attributes and token ID
 * @token_id: the token ID of a registered segment (its use count is held),
 *	NULL for an imported one
 * @token_value: the token to check (registered) or present (imported)
 * @umem: pinned pages of a registered user segment, else NULL
 * @mva: local mapping address of an imported segment (0: not mapped)
 * @user_ctx: the creator's value
 * @node: in its token ID's seg_list (registered segments only)
 * @obj_ref: lifetime against lookups for the data path
 * @access_fail: remote accesses to it that its target refused
 *	(ubcore_report_access_fail()); registered segments only
 * @invalid: remote access has ended (a SEND_WITH_INVALIDATE named the
 *	segment, ubcore_invalidate_seg()): remote lookups
 *	(ubcore_find_get_remote_seg()) skip it and targets refuse it; its
 *	owner still uses it locally and unregisters it as any other. Set
 *	once and never cleared, under the device's seg_lock with WRITE_ONCE;
 *	read under seg_lock by lookups, with READ_ONCE by holders of a
 *	reference. Registered segments only.
 */
struct ubcore_target_seg {
	struct ubcore_device *ub_dev;
	struct ubcore_ucontext *uctx;
	struct ubcore_seg seg;
	struct ubcore_token_id *token_id;
	u32 token_value;
	struct ubcore_umem *umem;
	u64 mva;
	u64 user_ctx;
	struct list_head node;
	struct ubcore_obj_ref obj_ref;
	atomic_t access_fail;
	bool invalid;
};

/**
 * struct ubcore_target_seg_cfg - a remote segment to import
 * @seg: as the owner exported it
 * @token_value: the token to present
 * @flag: urma_import_seg_flag_t bits
 * @mva: requested local mapping address (0: none)
 */
struct ubcore_target_seg_cfg {
	struct ubcore_seg seg;
	u32 token_value;
	u32 flag;
	u64 mva;
};

/* Returns 0 if @access is a valid combination (see above), else -EINVAL. */
int ubcore_check_seg_access(u32 access);

struct ubcore_token_id *ubcore_alloc_token_id(struct ubcore_device *dev,
					      u32 flag,
					      struct ubcore_udata *udata);
int ubcore_free_token_id(struct ubcore_token_id *token_id);

struct ubcore_target_seg *ubcore_register_seg(struct ubcore_device *dev,
					      struct ubcore_seg_cfg *cfg,
					      struct ubcore_udata *udata);
int ubcore_unregister_seg(struct ubcore_target_seg *tseg);
struct ubcore_target_seg *ubcore_register_linear_seg(struct ubcore_device *dev,
						     struct ubcore_token_id *token_id);

struct ubcore_target_seg *ubcore_import_seg(struct ubcore_device *dev,
					    struct ubcore_target_seg_cfg *cfg,
					    struct ubcore_udata *udata);
int ubcore_unimport_seg(struct ubcore_target_seg *tseg);

/*
 * The registered segment of @dev with @token_id that covers
 * [@va, @va + @len), with a reference (ubcore_obj_ref_put() when done), or
 * NULL. Any context. The caller checks the token value and access rights.
 * ubcore_find_get_seg() is for the owner's local use and finds invalidated
 * segments too; ubcore_find_get_remote_seg() is for remote access and
 * skips them.
 */
struct ubcore_target_seg *ubcore_find_get_seg(struct ubcore_device *dev,
					      u32 token_id, u64 va, u64 len);
struct ubcore_target_seg *ubcore_find_get_remote_seg(struct ubcore_device *dev,
						     u32 token_id, u64 va,
						     u64 len);

/* End remote access to a registered segment (see @invalid). Any context. */
void ubcore_invalidate_seg(struct ubcore_target_seg *tseg);

void ubcore_report_access_fail(struct ubcore_device *dev,
			       struct ubcore_target_seg *tseg,
			       const union ubcore_eid *src);

#endif /* _UB_UBCORE_SEGMENT_H */
