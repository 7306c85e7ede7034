// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * The provider's registration with libibverbs, the context (the kernel's
 * GET_CONTEXT names the UB device; a liburma context is opened on it),
 * the queries (the kernel's), PDs (the kernel's) and MRs (liburma
 * segments under a token ID of their own, keyed as roub.ko keys them).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "roub.h"

/*
 * liburma is initialised once per process; the provider does it for its
 * first context unless the application did (URMA_EEXIST), and undoes only
 * its own. Protected by roub_urma_lock.
 */
static pthread_mutex_t roub_urma_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned int roub_urma_users;
static bool roub_urma_ours;

static int roub_urma_get(void)
{
	urma_status_t st;
	int ret = 0;

	pthread_mutex_lock(&roub_urma_lock);
	if (roub_urma_users == 0) {
		st = urma_init(NULL);
		if (st == URMA_SUCCESS)
			roub_urma_ours = true;
		else if (st == URMA_EEXIST)
			roub_urma_ours = false;
		else
			ret = ENODEV;
	}
	if (!ret)
		roub_urma_users++;
	pthread_mutex_unlock(&roub_urma_lock);
	return ret;
}

static void roub_urma_put(void)
{
	pthread_mutex_lock(&roub_urma_lock);
	if (--roub_urma_users == 0 && roub_urma_ours)
		urma_uninit();
	pthread_mutex_unlock(&roub_urma_lock);
}

/*
 * ROUB_RC_MODE: the guide's environment variable (RS or RM, the first two
 * characters, any case); unset, the kernel's module parameter, so that
 * user and kernel QPs of one host agree; RS when neither says.
 */
enum roub_rc_mode roub_rc_mode(void)
{
	const char *v = getenv("ROUB_RC_MODE");
	char buf[8] = "";
	FILE *f;

	if (!v) {
		f = fopen("/sys/module/roub/parameters/ROUB_RC_MODE", "r");
		if (f) {
			if (!fgets(buf, sizeof(buf), f))
				buf[0] = 0;
			fclose(f);
		}
		v = buf;
	}
	if (toupper((unsigned char)v[0]) == 'R' &&
	    toupper((unsigned char)v[1]) == 'M')
		return ROUB_RC_MODE_RM;
	if (v[0] && !(toupper((unsigned char)v[0]) == 'R' &&
		      toupper((unsigned char)v[1]) == 'S'))
		fprintf(stderr, "libroub: ROUB_RC_MODE \"%s\" is neither RS nor RM: RS\n",
			v);
	return ROUB_RC_MODE_RS;
}

static int roub_query_device_ex(struct ibv_context *context,
				const struct ibv_query_device_ex_input *input,
				struct ibv_device_attr_ex *attr,
				size_t attr_size)
{
	struct ib_uverbs_ex_query_device_resp resp;
	size_t resp_size = sizeof(resp);

	return ibv_cmd_query_device_any(context, input, attr, attr_size, &resp,
					&resp_size);
}

static int roub_query_port(struct ibv_context *context, uint8_t port,
			   struct ibv_port_attr *attr)
{
	struct ibv_query_port cmd;

	return ibv_cmd_query_port(context, port, attr, &cmd, sizeof(cmd));
}

static struct ibv_pd *roub_alloc_pd(struct ibv_context *context)
{
	struct ib_uverbs_alloc_pd_resp resp;
	struct ibv_alloc_pd cmd;
	struct ibv_pd *pd;
	int ret;

	pd = calloc(1, sizeof(*pd));
	if (!pd) {
		errno = ENOMEM;
		return NULL;
	}
	ret = ibv_cmd_alloc_pd(context, pd, &cmd, sizeof(cmd), &resp,
			       sizeof(resp));
	if (ret) {
		free(pd);
		errno = ret;
		return NULL;
	}
	return pd;
}

static int roub_dealloc_pd(struct ibv_pd *pd)
{
	int ret = ibv_cmd_dealloc_pd(pd);

	if (!ret)
		free(pd);
	return ret;
}

struct roub_mr *roub_mr_find(struct roub_context *ctx, uint32_t lkey)
{
	uint32_t tid = lkey >> ROUB_KEY_RAND_BITS;
	struct roub_mr *mr;

	for (mr = ctx->mrs[tid % ROUB_MR_HASH]; mr; mr = mr->next)
		if (mr->vmr.ibv_mr.lkey == lkey)
			return mr;
	return NULL;
}

static struct ibv_mr *roub_reg_mr(struct ibv_pd *pd, void *addr, size_t length,
				  uint64_t hca_va, int access)
{
	const int supported = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
			      IBV_ACCESS_REMOTE_READ;
	struct roub_context *ctx = to_rctx(pd->context);
	urma_seg_cfg_t cfg = { 0 };
	struct roub_mr *mr;
	uint16_t rnd = 0;
	uint32_t key, tid;
	int err;

	/*
	 * The optional range (relaxed ordering, which perftest asks for) may
	 * be ignored, as the kernel's core does with IB_ACCESS_OPTIONAL.
	 */
	access &= ~IBV_ACCESS_OPTIONAL_RANGE;
	if (access & ~supported) {
		errno = EOPNOTSUPP; /* atomics, MW bind, zero-based, on demand */
		return NULL;
	}
	if (hca_va != (uintptr_t)addr || !length) {
		errno = EINVAL; /* the UB VA is the process's */
		return NULL;
	}
	mr = calloc(1, sizeof(*mr));
	if (!mr) {
		errno = ENOMEM;
		return NULL;
	}
	mr->token_id = urma_alloc_token_id(ctx->uctx);
	if (!mr->token_id) {
		err = errno ? errno : ENOMEM;
		goto err_free;
	}
	tid = mr->token_id->token_id;
	if (tid > ROUB_KEY_MAX_TOKEN_ID) {
		err = ENOSPC;
		goto err_tid;
	}
	if (getrandom(&rnd, sizeof(rnd), 0) != sizeof(rnd))
		rnd = (uint16_t)getpid();
	key = tid << ROUB_KEY_RAND_BITS |
	      (rnd & ((1U << ROUB_KEY_RAND_BITS) - 1));
	cfg.va = (uintptr_t)addr;
	cfg.len = length;
	cfg.token_id = mr->token_id;
	cfg.token_value.token = key;
	/* the target checks the token: the rkey is the secret */
	cfg.flag.bs.token_policy = URMA_TOKEN_PLAIN_TEXT;
	cfg.flag.bs.access = roub_seg_access(access);
	cfg.flag.bs.token_id_valid = URMA_TOKEN_ID_VALID;
	errno = 0;
	mr->tseg = urma_register_seg(ctx->uctx, &cfg);
	if (!mr->tseg) {
		err = errno ? errno : ENOMEM;
		goto err_tid;
	}
	mr->vmr.ibv_mr.context = pd->context;
	mr->vmr.ibv_mr.pd = pd;
	mr->vmr.ibv_mr.addr = addr;
	mr->vmr.ibv_mr.length = length;
	mr->vmr.ibv_mr.lkey = key;
	mr->vmr.ibv_mr.rkey = key;
	mr->vmr.mr_type = IBV_MR_TYPE_MR;
	mr->vmr.access = access;
	pthread_rwlock_wrlock(&ctx->lock);
	mr->next = ctx->mrs[tid % ROUB_MR_HASH];
	ctx->mrs[tid % ROUB_MR_HASH] = mr;
	pthread_rwlock_unlock(&ctx->lock);
	return &mr->vmr.ibv_mr;

err_tid:
	urma_free_token_id(mr->token_id);
err_free:
	free(mr);
	errno = err;
	return NULL;
}

static int roub_dereg_mr(struct verbs_mr *vmr)
{
	struct roub_mr *mr = (struct roub_mr *)vmr;
	struct roub_context *ctx = to_rctx(vmr->ibv_mr.context);
	struct roub_mr **p;
	urma_status_t st;

	pthread_rwlock_wrlock(&ctx->lock);
	for (p = &ctx->mrs[(vmr->ibv_mr.lkey >> ROUB_KEY_RAND_BITS) % ROUB_MR_HASH];
	     *p; p = &(*p)->next) {
		if (*p == mr) {
			*p = mr->next;
			break;
		}
	}
	pthread_rwlock_unlock(&ctx->lock);
	st = urma_unregister_seg(mr->tseg);
	if (st != URMA_SUCCESS)
		return (int)st;
	urma_free_token_id(mr->token_id);
	free(mr);
	return 0;
}

static void roub_free_context(struct ibv_context *ibctx)
{
	struct roub_context *ctx = to_rctx(ibctx);

	urma_delete_context(ctx->uctx);
	roub_urma_put();
	pthread_rwlock_destroy(&ctx->lock);
	verbs_uninit_context(&ctx->vctx);
	free(ctx);
}

static const struct verbs_context_ops roub_ctx_ops = {
	.alloc_pd = roub_alloc_pd,
	.create_cq = roub_create_cq,
	.create_qp = roub_create_qp,
	.dealloc_pd = roub_dealloc_pd,
	.dereg_mr = roub_dereg_mr,
	.destroy_cq = roub_destroy_cq,
	.destroy_qp = roub_destroy_qp,
	.free_context = roub_free_context,
	.modify_qp = roub_modify_qp,
	.poll_cq = roub_poll_cq,
	.post_recv = roub_post_recv,
	.post_send = roub_post_send,
	.query_device_ex = roub_query_device_ex,
	.query_port = roub_query_port,
	.query_qp = roub_query_qp,
	.reg_mr = roub_reg_mr,
};

static struct verbs_context *roub_alloc_context(struct ibv_device *ibdev,
						int cmd_fd, void *private_data)
{
	struct {
		struct ib_uverbs_get_context_resp ibv;
		struct roub_alloc_ucontext_resp drv;
	} resp;
	struct ibv_get_context cmd;
	urma_device_attr_t dattr;
	struct roub_context *ctx;
	urma_device_t *udev;
	int ret;

	(void)private_data;
	/* the kernel's enum rdma_driver_id has no value for RoUB: UNKNOWN */
	ctx = (struct roub_context *)_verbs_init_and_alloc_context(
		ibdev, cmd_fd, sizeof(*ctx), &((struct roub_context *)NULL)->vctx,
		RDMA_DRIVER_UNKNOWN);
	if (!ctx)
		return NULL;
	memset(&resp, 0, sizeof(resp));
	ret = ibv_cmd_get_context(&ctx->vctx, &cmd, sizeof(cmd), &resp.ibv,
				  sizeof(resp));
	if (ret)
		goto err_ctx;
	resp.drv.ub_dev_name[sizeof(resp.drv.ub_dev_name) - 1] = 0;
	pthread_rwlock_init(&ctx->lock, NULL);
	verbs_set_ops(&ctx->vctx, &roub_ctx_ops);

	ret = roub_urma_get();
	if (ret) {
		fprintf(stderr, "libroub: %s: liburma has no UB devices (is uburma loaded?)\n",
			ibdev->name);
		goto err_lock;
	}
	/* the UB device is seen in this network namespace only */
	udev = urma_get_device_by_name(resp.drv.ub_dev_name);
	if (!udev) {
		fprintf(stderr, "libroub: %s: UB device %s not found in this network namespace\n",
			ibdev->name, resp.drv.ub_dev_name);
		ret = ENODEV;
		goto err_urma;
	}
	errno = 0;
	ctx->uctx = urma_create_context(udev, resp.drv.eid_index);
	if (!ctx->uctx) {
		ret = errno ? errno : ENODEV;
		fprintf(stderr, "libroub: %s: liburma context on %s: %s\n",
			ibdev->name, resp.drv.ub_dev_name, strerror(ret));
		goto err_urma;
	}
	if (urma_query_device(udev, &dattr) == URMA_SUCCESS)
		ctx->max_inline = dattr.dev_cap.max_jfs_inline_len;
	return &ctx->vctx;

err_urma:
	roub_urma_put();
err_lock:
	pthread_rwlock_destroy(&ctx->lock);
err_ctx:
	verbs_uninit_context(&ctx->vctx);
	free(ctx);
	errno = ret;
	return NULL;
}

static struct verbs_device *roub_alloc_device(struct verbs_sysfs_dev *sysfs_dev)
{
	struct verbs_device *dev;

	(void)sysfs_dev;
	dev = calloc(1, sizeof(*dev));
	return dev;
}

static void roub_uninit_device(struct verbs_device *dev)
{
	free(dev);
}

/*
 * roub.ko's devices have no parent device (no modalias) and no driver ID
 * of their own in the kernel's enum: libibverbs matches them by name,
 * "roub_<UB device>".
 */
static const struct verbs_match_ent roub_match_table[] = {
	{ .u.modalias = "rdma_device:*Nroub_*", .kind = VERBS_MATCH_MODALIAS },
	{ 0 },
};

static const struct verbs_device_ops roub_dev_ops = {
	.name = "roub",
	.match_min_abi_version = ROUB_UVERBS_ABI_VERSION,
	.match_max_abi_version = ROUB_UVERBS_ABI_VERSION,
	.match_table = roub_match_table,
	.alloc_device = roub_alloc_device,
	.uninit_device = roub_uninit_device,
	.alloc_context = roub_alloc_context,
};

/* libibverbs dlopen()s the provider; the constructor registers it. */
__attribute__((constructor)) static void roub_register_driver(void)
{
	verbs_register_driver_34(&roub_dev_ops);
}
