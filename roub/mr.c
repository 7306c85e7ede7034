// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * Protection domains and memory regions.
 *
 * A PD is roub's own: UB has no protection domain (a segment is guarded
 * by its token, a jetty by its JFR's), so a PD groups nothing below.
 *
 * An MR is a segment under a token ID of its own. The kernel MR that
 * ib_alloc_pd() asks for (get_dma_mr) covers the linear map, whose
 * addresses are what ib_dma_map_*() gives on a device without a DMA
 * device (the core's virtual DMA): local access only is
 * ubcore_register_linear_seg() (UBCORE_ACCESS_LOCAL_ONLY); with remote
 * rights (IB_PD_UNSAFE_GLOBAL_RKEY) it is ubcore_register_seg() over the
 * same range with those rights, which is what "unsafe" says: every page
 * of the linear map is open to whoever has the rkey. Its key is both
 * lkey and rkey, and the segment's token value (roub.h "Keys"). User MRs
 * (reg_user_mr) and fast registration (alloc_mr/map_mr_sg) are not in
 * this milestone.
 */
#include <linux/random.h>
#include <linux/slab.h>

#include "roub.h"

/* A process's PD (libroub's ibv_alloc_pd) is the same nothing. */
int roub_alloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	return 0;
}

int roub_dealloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	return 0;
}

static struct ubcore_target_seg *roub_dma_seg(struct ubcore_device *ub,
					      struct ubcore_token_id *tid,
					      u32 key, u32 access)
{
	struct ubcore_seg_cfg cfg = {
		.va = PAGE_OFFSET,
		.len = (uintptr_t)high_memory - PAGE_OFFSET,
		.token_id = tid,
		.token_value = key,
		/* the target checks the token: the rkey is the secret */
		.flag = UBCORE_SEG_FLAG_ACCESS_SET(access) |
			UBCORE_TOKEN_PLAIN_TEXT,
	};

	if (access == UBCORE_ACCESS_LOCAL_ONLY)
		return ubcore_register_linear_seg(ub, tid);
	return ubcore_register_seg(ub, &cfg, NULL);
}

struct ib_mr *roub_get_dma_mr(struct ib_pd *ibpd, int access)
{
	struct roub_dev *rdev = to_roub_dev(ibpd->device);
	struct ubcore_device *ub = rdev->ub_dev;
	struct roub_mr *mr;
	u32 key;
	int ret;

	if (access & (IB_ACCESS_REMOTE_ATOMIC | IB_ACCESS_MW_BIND)) {
		ibdev_warn_ratelimited(&rdev->ibdev, "get_dma_mr: atomic and MW access are not supported (0x%x)\n",
				       access);
		return ERR_PTR(-EOPNOTSUPP);
	}
	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	mr->token_id = ubcore_alloc_token_id(ub, 0, NULL);
	if (IS_ERR(mr->token_id)) {
		ret = PTR_ERR(mr->token_id);
		goto err_free;
	}
	key = roub_key_make(mr->token_id->token_id, get_random_u32());
	mr->tseg = roub_dma_seg(ub, mr->token_id, key, roub_seg_access(access));
	if (IS_ERR(mr->tseg)) {
		ret = PTR_ERR(mr->tseg);
		goto err_token;
	}
	mr->ibmr.lkey = key;
	mr->ibmr.rkey = key;
	mr->ibmr.iova = PAGE_OFFSET;
	mr->ibmr.length = mr->tseg->seg.len;
	ret = xa_insert(&rdev->mrs, mr->token_id->token_id, mr, GFP_KERNEL);
	if (ret)
		goto err_seg;
	return &mr->ibmr;

err_seg:
	ubcore_unregister_seg(mr->tseg);
err_token:
	ubcore_free_token_id(mr->token_id);
err_free:
	kfree(mr);
	return ERR_PTR(ret);
}

/*
 * No uverbs: roub has no alloc_ucontext, so no user reaches this. The core
 * requires the op; user MRs come with the userspace provider (libroub).
 */
struct ib_mr *roub_reg_user_mr(struct ib_pd *ibpd, u64 start, u64 length,
			       u64 virt, int access, struct ib_udata *udata)
{
	return ERR_PTR(-EOPNOTSUPP);
}

int roub_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata)
{
	struct roub_mr *mr = container_of(ibmr, struct roub_mr, ibmr);
	struct roub_dev *rdev = to_roub_dev(ibmr->device);

	xa_erase(&rdev->mrs, mr->token_id->token_id);
	ubcore_unregister_seg(mr->tseg);
	ubcore_free_token_id(mr->token_id);
	kfree_rcu(mr, rcu);
	return 0;
}

/**
 * roub_lkey_seg() - the segment of a local key
 * @rdev: the device
 * @lkey: an SGE's lkey
 *
 * Context: any; under rcu_read_lock() (the MR is freed after a grace
 * period; using one while it is deregistered is the caller's bug, as in
 * verbs).
 * Return: the segment, or NULL (no MR with this key).
 */
struct ubcore_target_seg *roub_lkey_seg(struct roub_dev *rdev, u32 lkey)
{
	struct roub_mr *mr = xa_load(&rdev->mrs, roub_key_token_id(lkey));

	return mr && mr->ibmr.lkey == lkey ? mr->tseg : NULL;
}
