// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * RMBs and send buffers: vmalloc memory registered as segments of the
 * link group's token ID (an RMB with remote READ and WRITE, under its own
 * random token value; a send buffer local only), of 16 KiB x 2^n bytes,
 * kept in the group's pool when a connection ends for the next one.
 */
#include <linux/log2.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "link.h"

/* Unused buffers a link group keeps at most (its memory stays taken). */
#define UMS_POOL_MAX	8

/**
 * ums_buf_size() - the buffer size of a socket buffer size
 * @sockbuf: SO_SNDBUF or SO_RCVBUF (net.ums.snd_buf, rcv_buf)
 *
 * Return: the largest 16 KiB x 2^n not above @sockbuf, at least
 * %UMS_BUF_MIN and at most %UMS_BUF_MAX.
 */
u32 ums_buf_size(int sockbuf)
{
	if (sockbuf <= UMS_BUF_MIN)
		return UMS_BUF_MIN;
	if (sockbuf >= UMS_BUF_MAX)
		return UMS_BUF_MAX;
	return rounddown_pow_of_two(sockbuf);
}

static bool ums_buf_remote(const struct ums_buf *buf)
{
	return UBCORE_SEG_FLAG_ACCESS(buf->seg->seg.attr) &
	       UBCORE_ACCESS_WRITE;
}

static struct ums_buf *ums_buf_alloc(struct ums_lgr *lgr, u32 size,
				     bool remote)
{
	u32 access = remote ? UBCORE_ACCESS_READ | UBCORE_ACCESS_WRITE :
			      UBCORE_ACCESS_LOCAL_ONLY;
	struct ubcore_seg_cfg cfg = {
		.len = size,
		.token_id = lgr->token,
		.token_value = get_random_u32(),
		.flag = UBCORE_SEG_FLAG_ACCESS_SET(access),
	};
	struct ums_buf *buf;

	buf = kzalloc(sizeof(*buf), GFP_KERNEL);
	if (!buf)
		return ERR_PTR(-ENOMEM);
	buf->size = size;
	buf->mem = vzalloc(size);
	if (!buf->mem) {
		kfree(buf);
		return ERR_PTR(-ENOMEM);
	}
	cfg.va = (uintptr_t)buf->mem;
	buf->seg = ubcore_register_seg(lgr->dev, &cfg, NULL);
	if (IS_ERR(buf->seg)) {
		int rc = PTR_ERR(buf->seg);

		vfree(buf->mem);
		kfree(buf);
		return ERR_PTR(rc);
	}
	return buf;
}

/**
 * ums_buf_get() - a buffer for a new connection: from the pool or new
 * @lgr: the link group
 * @size: its size (ums_buf_size())
 * @remote: an RMB (the peer writes into it), else a send buffer
 *
 * Context: process context, under the group's @dp_sem (read), its
 * objects not destroyed.
 * Return: the buffer or an ERR_PTR.
 */
struct ums_buf *ums_buf_get(struct ums_lgr *lgr, u32 size, bool remote)
{
	struct ums_buf *buf;

	spin_lock_bh(&lgr->lock);
	list_for_each_entry(buf, &lgr->free_bufs, node) {
		if (buf->size == size && ums_buf_remote(buf) == remote) {
			list_del(&buf->node);
			spin_unlock_bh(&lgr->lock);
			return buf;
		}
	}
	spin_unlock_bh(&lgr->lock);
	return ums_buf_alloc(lgr, size, remote);
}

/**
 * ums_buf_put() - give a buffer back to its group's pool
 * @lgr: the link group
 * @buf: the buffer, which the peer writes into no more
 *
 * Past %UMS_POOL_MAX unused buffers it is freed instead.
 *
 * Context: process context, under the group's @dp_sem (read), its
 * objects not destroyed.
 */
void ums_buf_put(struct ums_lgr *lgr, struct ums_buf *buf)
{
	struct ums_buf *b;
	int n = 0;

	spin_lock_bh(&lgr->lock);
	list_for_each_entry(b, &lgr->free_bufs, node)
		n++;
	if (n < UMS_POOL_MAX) {
		list_add(&buf->node, &lgr->free_bufs);
		buf = NULL;
	}
	spin_unlock_bh(&lgr->lock);
	if (buf)
		ums_buf_free(buf);
}

/**
 * ums_buf_free() - unregister (unless done) and free a buffer
 * @buf: the buffer, or NULL
 *
 * Context: process context; under its group's @dp_sem if registered.
 */
void ums_buf_free(struct ums_buf *buf)
{
	if (!buf)
		return;
	if (buf->seg)
		ubcore_unregister_seg(buf->seg);
	vfree(buf->mem);
	kfree(buf);
}
