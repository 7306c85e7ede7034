// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * ums.ko: registers the AF_SMC family, which net/smc (smc.ko, or SMC built
 * into the kernel) owns when it is there: then loading fails with -EEXIST.
 * While loaded, TCP puts the SMC option (kind 254, magic 0xE2D4C3D9) in
 * the SYN and SYN/ACK of clcsocks (the static key tcp_have_smc, counted).
 */
#include <linux/module.h>
#include <linux/random.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include <net/tcp.h>

#include "link.h"
#include "ums.h"

struct workqueue_struct *ums_wq;
/* This host's system ID in CLC messages, chosen at load. */
u8 ums_peer_id[UMS_CLC_PEER_ID_LEN];

static unsigned int ums_net_id;

/**
 * ums_net() - the UMS state of a network namespace
 * @net: the namespace
 *
 * Return: its struct ums_net.
 */
struct ums_net *ums_net(const struct net *net)
{
	return net_generic(net, ums_net_id);
}

static int __net_init ums_net_init(struct net *net)
{
	int rc = ums_sysctl_init_net(net);

	if (rc)
		return rc;
	rc = ums_proc_init_net(net);
	if (rc)
		ums_sysctl_exit_net(net);
	return rc;
}

static void __net_exit ums_net_exit(struct net *net)
{
	ums_proc_exit_net(net);
	ums_sysctl_exit_net(net);
}

static struct pernet_operations ums_net_ops = {
	.init	= ums_net_init,
	.exit	= ums_net_exit,
	.id	= &ums_net_id,
	.size	= sizeof(struct ums_net),
};

static const struct net_proto_family ums_family_ops = {
	.family	= PF_SMC,
	.owner	= THIS_MODULE,
	.create	= ums_create,
};

static int __init ums_init(void)
{
	int rc;

	get_random_bytes(ums_peer_id, sizeof(ums_peer_id));
	ums_wq = alloc_workqueue("ums", 0, 0);
	if (!ums_wq)
		return -ENOMEM;
	rc = ums_link_init();
	if (rc)
		goto err_wq;
	rc = register_pernet_subsys(&ums_net_ops);
	if (rc)
		goto err_link;
	rc = proto_register(&ums_proto, 1);
	if (rc)
		goto err_pernet;
	rc = proto_register(&ums_proto6, 1);
	if (rc)
		goto err_proto;
	static_branch_inc(&tcp_have_smc);
	rc = sock_register(&ums_family_ops);
	if (rc) {
		if (rc == -EEXIST)
			pr_err("ums: the AF_SMC socket family is taken: smc.ko is loaded or SMC is built into the kernel (CONFIG_SMC=y); unload smc first\n");
		goto err_key;
	}
	ums_debugfs_init();
	return 0;

err_key:
	static_branch_dec(&tcp_have_smc);
	proto_unregister(&ums_proto6);
err_proto:
	proto_unregister(&ums_proto);
err_pernet:
	unregister_pernet_subsys(&ums_net_ops);
err_link:
	ums_link_exit();
err_wq:
	destroy_workqueue(ums_wq);
	return rc;
}

static void __exit ums_exit(void)
{
	sock_unregister(PF_SMC);
	ums_debugfs_exit();
	/* every socket held the module: links and their connections remain */
	ums_link_exit();
	destroy_workqueue(ums_wq);
	static_branch_dec(&tcp_have_smc);
	proto_unregister(&ums_proto6);
	proto_unregister(&ums_proto);
	unregister_pernet_subsys(&ums_net_ops);
}

module_init(ums_init);
module_exit(ums_exit);

MODULE_DESCRIPTION("UMS: the AF_SMC socket family over UB, with fallback to TCP");
MODULE_LICENSE("GPL");
