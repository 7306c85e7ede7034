/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * Bonding devices (user guide 6.2): one UB device over two or more member
 * devices of one provider, with one EID of its own (the bonding EID). Its
 * objects are ordinary objects of the bonding device; its packets leave
 * through the members, the member of each packet chosen by the device's
 * mode, and reach a peer bonding EID at the address that peer has behind
 * the chosen member's plane (ubcore_bond_set_peers()). ubagg.ko creates
 * them from its topology (ubagg/README.md); the provider carries them out
 * (ubcore_ops.add_bond).
 */
#ifndef _UB_UBCORE_BOND_H
#define _UB_UBCORE_BOND_H

#include <linux/types.h>
#include <net/net_namespace.h>

#include <uapi/ub/ubagg_topo.h>
#include <ub/ubcore_device.h>
#include <ub/ubcore_eid.h>

/* Members of a bonding device at most: one per IODie of a node. */
#define UBCORE_BOND_MAX_MEMBERS	UBAGG_IODIE_NUM

/**
 * struct ubcore_bond_cfg - what a bonding device is made of
 * @name: its name ("bonding_dev_0"), free in @net
 * @net: its network namespace: the members' (the host's)
 * @eid: the bonding EID, its one EID (index 0)
 * @mode: enum ubagg_bond_mode
 * @member_cnt: 2 .. UBCORE_BOND_MAX_MEMBERS
 * @members: the members, registered devices of one provider in @net, none
 *	logical or bonding; member i serves plane (IODie) i
 */
struct ubcore_bond_cfg {
	const char *name;
	struct net *net;
	union ubcore_eid eid;
	u32 mode;
	u32 member_cnt;
	struct ubcore_device *members[UBCORE_BOND_MAX_MEMBERS];
};

/**
 * struct ubcore_bond_peer - how a bonding device reaches a peer
 * @eid: the peer's bonding EID
 * @addr: the address of the peer on plane i, reached through member i;
 *	all zero when member i has no path to it
 */
struct ubcore_bond_peer {
	union ubcore_eid eid;
	union ubcore_eid addr[UBCORE_BOND_MAX_MEMBERS];
};

/**
 * struct ubcore_bond_info - a bonding device now
 * @mode: enum ubagg_bond_mode
 * @member_cnt: its members
 * @peer_cnt: peers it has addresses of
 * @member: per member: its device's name, whether its port is up, whether
 *	the mode sends through it now (ActiveBackup: the one; Balance: every
 *	one up; Standalone: the first), and the packets sent through it
 */
struct ubcore_bond_info {
	u32 mode;
	u32 member_cnt;
	u32 peer_cnt;
	struct {
		char name[UBCORE_MAX_DEV_NAME];
		bool up;
		bool active;
		u64 tx_packets;
	} member[UBCORE_BOND_MAX_MEMBERS];
};

struct ubcore_device *ubcore_bond_create(const struct ubcore_bond_cfg *cfg);
int ubcore_bond_delete(struct ubcore_device *bond);
int ubcore_bond_set_peers(struct ubcore_device *bond,
			  const struct ubcore_bond_peer *peers, u32 cnt);
int ubcore_bond_query(struct ubcore_device *bond,
		      struct ubcore_bond_info *info);
int ubcore_register_bond(struct ubcore_device *dev, const char *name,
			 struct net *net);

#endif /* _UB_UBCORE_BOND_H */
