// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * KUnit tests of the TP connection state machine (tp_fsm.c). Every
 * expectation below is written from the user guide 5.1.1.4 (figure 14, the
 * transitions 1401-1425) and the protocols of 5.1.1.1/5.1.1.2, plus the rows
 * tp_fsm.c documents as not drawn in the figure ("X.."); none is computed
 * from the table under test. Two machines exchange their management
 * messages through a queue owned by the test; the clock is a fake one.
 */
#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/string.h>

#include "../tp_fsm.h"

#define MS	1000000ULL
#define RTO	(100 * MS)
#define RETRIES	3
#define QLEN	32

struct fake_end {
	struct ubcore_tp_fsm fsm;
	struct fsm_ctx *ctx;
	struct fake_end *peer;
	u64 timer;		/* deadline the machine asked for, 0: none */
	int creates, destroys, create_err, check_err;
	int done_calls, done_result, lost_calls, lost_result;
	int destroys_at_lost;	/* destroys when the loss was reported */
	int sent[UBCORE_TPM_DCONN_NOTIFY + 1];
	bool drop_tx;		/* messages this end sends are lost */
};

struct queued {
	struct fake_end *to;
	enum ubcore_tp_msg_type type;
	u32 tpn;
	int status;
};

struct fsm_ctx {
	u64 clock;
	struct ubcore_tp_fsm_stats stats;
	struct fake_end a, b;
	struct queued q[QLEN];
	unsigned int head, tail;
};

static struct fake_end *end_of(struct ubcore_tp_fsm *fsm)
{
	return container_of(fsm, struct fake_end, fsm);
}

static u64 fake_now(struct ubcore_tp_fsm *fsm)
{
	return end_of(fsm)->ctx->clock;
}

static void fake_set_timer(struct ubcore_tp_fsm *fsm, u64 deadline)
{
	end_of(fsm)->timer = deadline;
}

static int fake_send(struct ubcore_tp_fsm *fsm, enum ubcore_tp_msg_type type,
		     int status)
{
	struct fake_end *e = end_of(fsm);
	struct fsm_ctx *ctx = e->ctx;

	e->sent[type]++;
	if (e->drop_tx || !e->peer)
		return 0;
	if (ctx->tail - ctx->head >= QLEN)
		return -ENOBUFS;
	ctx->q[ctx->tail++ % QLEN] = (struct queued){
		.to = e->peer, .type = type, .tpn = fsm->local_tpn,
		.status = status };
	return 0;
}

static int fake_tp_create(struct ubcore_tp_fsm *fsm)
{
	struct fake_end *e = end_of(fsm);

	if (e->create_err)
		return e->create_err;
	e->creates++;
	return 0;
}

static void fake_tp_destroy(struct ubcore_tp_fsm *fsm)
{
	end_of(fsm)->destroys++;
}

static int fake_check(struct ubcore_tp_fsm *fsm, enum ubcore_tp_event ev,
		      const struct ubcore_tp_fsm_msg *msg)
{
	return end_of(fsm)->check_err;
}

static void fake_done(struct ubcore_tp_fsm *fsm, int result)
{
	struct fake_end *e = end_of(fsm);

	e->done_calls++;
	e->done_result = result;
}

static void fake_lost(struct ubcore_tp_fsm *fsm, int result)
{
	struct fake_end *e = end_of(fsm);

	e->lost_calls++;
	e->lost_result = result;
	e->destroys_at_lost = e->destroys;
}

static const struct ubcore_tp_fsm_ops fake_ops = {
	.now = fake_now,
	.set_timer = fake_set_timer,
	.send = fake_send,
	.tp_create = fake_tp_create,
	.tp_destroy = fake_tp_destroy,
	.check = fake_check,
	.done = fake_done,
	.lost = fake_lost,
};

static const enum ubcore_tp_event rx_event[] = {
	[UBCORE_TPM_CONN_REQ] = UBCORE_TPE_RX_CONN_REQ,
	[UBCORE_TPM_CONN_REP] = UBCORE_TPE_RX_CONN_REP,
	[UBCORE_TPM_CONN_ACK] = UBCORE_TPE_RX_CONN_ACK,
	[UBCORE_TPM_CONN_REJ] = UBCORE_TPE_RX_CONN_REJ,
	[UBCORE_TPM_REUSE_REQ] = UBCORE_TPE_RX_REUSE_REQ,
	[UBCORE_TPM_REUSE_REP] = UBCORE_TPE_RX_REUSE_REP,
	[UBCORE_TPM_DCONN_NOTIFY] = UBCORE_TPE_RX_DCONN_NOTIFY,
};

/* a: EID 10.0.0.1 TPN 10; b: EID 10.0.0.2 TPN 20, so a < b in peer compare */
static int fsm_init(struct kunit *test)
{
	struct fsm_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	union ubcore_eid ea = { .raw = { [15] = 1 } };
	union ubcore_eid eb = { .raw = { [15] = 2 } };

	KUNIT_ASSERT_NOT_NULL(test, ctx);
	ctx->clock = 1000 * MS;
	ubcore_tp_fsm_init(&ctx->a.fsm, &fake_ops, &ctx->stats, &ea, &eb, 10,
			   RTO, RETRIES);
	ubcore_tp_fsm_init(&ctx->b.fsm, &fake_ops, &ctx->stats, &eb, &ea, 20,
			   RTO, RETRIES);
	ctx->a.ctx = ctx;
	ctx->b.ctx = ctx;
	ctx->a.peer = &ctx->b;
	ctx->b.peer = &ctx->a;
	test->priv = ctx;
	return 0;
}

/* Delivers one queued message; false when the queue is empty. */
static bool deliver_one(struct kunit *test)
{
	struct fsm_ctx *ctx = test->priv;
	struct queued m;
	struct ubcore_tp_fsm_msg msg;

	if (ctx->head == ctx->tail)
		return false;
	m = ctx->q[ctx->head++ % QLEN];
	msg.peer_tpn = m.tpn;
	msg.status = m.status;
	ubcore_tp_fsm_event(&m.to->fsm, rx_event[m.type], &msg);
	return true;
}

static void deliver_all(struct kunit *test)
{
	int n = 0;

	while (deliver_one(test))
		KUNIT_ASSERT_LT(test, ++n, 100);
}

/* Drops every queued message (they were lost on the way). */
static void drop_all(struct fsm_ctx *ctx)
{
	ctx->head = ctx->tail;
}

/* The names of the rows taken since the machine started, "a,b,c". */
static void trail(const struct ubcore_tp_fsm *fsm, char *buf, size_t size)
{
	u32 i, first = fsm->trail_len > UBCORE_TP_FSM_TRAIL ?
		       fsm->trail_len - UBCORE_TP_FSM_TRAIL : 0;
	size_t len = 0;

	buf[0] = '\0';
	for (i = first; i < fsm->trail_len && len < size; i++)
		len += scnprintf(buf + len, size - len, "%s%s", i > first ? "," : "",
				 ubcore_tp_fsm_table[fsm->trail[i % UBCORE_TP_FSM_TRAIL]].name);
}

#define EXPECT_TRAIL(test, fsm, want) do {				\
		char __buf[160];					\
		trail(fsm, __buf, sizeof(__buf));			\
		KUNIT_EXPECT_STREQ(test, __buf, want);			\
	} while (0)

#define S(x)	UBCORE_TPS_##x
#define E(x)	UBCORE_TPE_##x

/*
 * The table, written from the guide: (state, event) -> (row, next state).
 * Every pair not listed here must have no row.
 */
static const struct {
	u8 from, event;
	const char *name;
	u8 to;
} guide[] = {
	{ S(RESET), E(LOCAL_OPEN), "1401", S(REQ_SENT) },
	{ S(REQ_SENT), E(TIMEOUT), "1402", S(TIMEOUT) },
	{ S(TIMEOUT), E(AUTO), "1403/1407", S(RESET) },
	{ S(RESET), E(RX_CONN_REQ), "1404", S(REQ_RECEIVED) },
	{ S(REQ_RECEIVED), E(CHECK_OK), "1405", S(REP_SENT) },
	{ S(REP_SENT), E(TIMEOUT), "1406", S(TIMEOUT) },
	{ S(REQ_SENT), E(RX_CONN_REQ), "1408", S(PEER_COMPARE) },
	{ S(PEER_COMPARE), E(CMP_INITIATOR), "1409", S(REQ_SENT) },
	{ S(PEER_COMPARE), E(CMP_TARGET), "1410", S(REQ_RECEIVED) },
	{ S(REQ_SENT), E(RX_CONN_REP), "1411", S(REP_RECEIVED) },
	{ S(REP_RECEIVED), E(AUTO), "1412", S(INITIATOR_ESTABLISHED) },
	{ S(REP_SENT), E(RX_CONN_ACK), "1413", S(TARGET_ESTABLISHED) },
	{ S(TARGET_ESTABLISHED), E(LOCAL_OPEN), "1414", S(REUSE_SENT) },
	{ S(INITIATOR_ESTABLISHED), E(RX_REUSE_REQ), "1415", S(REUSE_RECEIVED) },
	{ S(REUSE_RECEIVED), E(CHECK_OK), "1416", S(REUSED) },
	{ S(REUSE_SENT), E(TIMEOUT), "1417", S(TARGET_ESTABLISHED) },
	{ S(REUSE_SENT), E(RX_REUSE_REP), "1418", S(REUSED) },
	{ S(REUSE_RECEIVED), E(CHECK_FAIL), "1419", S(INITIATOR_ESTABLISHED) },
	{ S(REUSED), E(LOCAL_CLOSE), "1420", S(NOTIFY_SENT_ON_REUSE) },
	{ S(REUSED), E(RX_DCONN_NOTIFY), "1421", S(NOTIFY_RECEIVED_ON_REUSE) },
	{ S(NOTIFY_RECEIVED_ON_REUSE), E(AUTO), "1422", S(INITIATOR_ESTABLISHED) },
	{ S(NOTIFY_SENT_ON_REUSE), E(AUTO), "1423", S(TARGET_ESTABLISHED) },
	{ S(TARGET_ESTABLISHED), E(RX_DCONN_NOTIFY), "1424r", S(NOTIFY_RECEIVED) },
	{ S(NOTIFY_RECEIVED), E(AUTO), "1407n", S(RESET) },
	{ S(INITIATOR_ESTABLISHED), E(LOCAL_CLOSE), "1424s", S(NOTIFY_SENT) },
	{ S(NOTIFY_SENT), E(AUTO), "1425", S(RESET) },
	/* 5.1.1.2 reject protocol */
	{ S(REQ_RECEIVED), E(CHECK_FAIL), "X1", S(RESET) },
	{ S(REQ_SENT), E(RX_CONN_REJ), "X2", S(RESET) },
	{ S(REUSE_SENT), E(RX_CONN_REJ), "X3", S(TARGET_ESTABLISHED) },
	/* retransmission and duplicates */
	{ S(REQ_SENT), E(TIMER_RETRY), "X4", S(REQ_SENT) },
	{ S(REP_SENT), E(TIMER_RETRY), "X5", S(REP_SENT) },
	{ S(REUSE_SENT), E(TIMER_RETRY), "X6", S(REUSE_SENT) },
	{ S(REP_SENT), E(RX_CONN_REQ), "X7", S(REP_SENT) },
	{ S(INITIATOR_ESTABLISHED), E(RX_CONN_REP), "X8",
	  S(INITIATOR_ESTABLISHED) },
	{ S(REUSED), E(RX_REUSE_REQ), "X9", S(REUSED) },
	{ S(REP_SENT), E(LOCAL_OPEN), "X10", S(REP_SENT) },
	/* peer loss */
	{ S(INITIATOR_ESTABLISHED), E(RX_DCONN_NOTIFY), "X11", S(RESET) },
	{ S(REQ_SENT), E(PEER_LOST), "X12", S(RESET) },
	{ S(REP_SENT), E(PEER_LOST), "X13", S(RESET) },
	{ S(REUSE_SENT), E(PEER_LOST), "X14", S(RESET) },
	{ S(INITIATOR_ESTABLISHED), E(PEER_LOST), "X15", S(RESET) },
	{ S(TARGET_ESTABLISHED), E(PEER_LOST), "X16", S(RESET) },
	{ S(REUSED), E(PEER_LOST), "X17", S(RESET) },
};

/* Every state x every event: the row the guide gives, or none. */
static void table_matches_guide(struct kunit *test)
{
	unsigned int s, ev, i, rows = 0;

	for (s = 0; s < UBCORE_TPS_COUNT; s++) {
		for (ev = 0; ev < UBCORE_TPE_COUNT; ev++) {
			const struct ubcore_tp_fsm_row *row =
				ubcore_tp_fsm_lookup(s, ev);

			for (i = 0; i < ARRAY_SIZE(guide); i++)
				if (guide[i].from == s && guide[i].event == ev)
					break;
			if (i == ARRAY_SIZE(guide)) {
				KUNIT_EXPECT_NULL_MSG(test, row, "%s x %s",
						      ubcore_tp_state_name(s),
						      ubcore_tp_event_name(ev));
				continue;
			}
			rows++;
			KUNIT_ASSERT_NOT_NULL_MSG(test, row, "%s x %s",
						  ubcore_tp_state_name(s),
						  ubcore_tp_event_name(ev));
			KUNIT_EXPECT_STREQ(test, row->name, guide[i].name);
			KUNIT_EXPECT_EQ_MSG(test, row->to, guide[i].to, "row %s",
					    guide[i].name);
		}
	}
	KUNIT_EXPECT_EQ(test, rows, (unsigned int)ARRAY_SIZE(guide));
	KUNIT_EXPECT_EQ(test, ubcore_tp_fsm_table_size,
			(unsigned int)ARRAY_SIZE(guide));
}

/*
 * A loss tells the provider before the users: every row that loses the
 * TP destroys it too (the provider's tp_closed, tp.c cm_tp_destroy()),
 * and the engine destroys before it reports the loss.
 */
static void loss_destroys_the_tp(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ubcore_tp_fsm_table_size; i++) {
		const struct ubcore_tp_fsm_row *row = &ubcore_tp_fsm_table[i];

		if (row->actions & UBCORE_TPA_LOST)
			KUNIT_EXPECT_TRUE_MSG(test,
					      row->actions & UBCORE_TPA_TP_DESTROY,
					      "row %s", row->name);
	}
}

/* The states the guide calls 暂态/瞬态 or leaves automatically. */
static void transient_states_are_the_guides(struct kunit *test)
{
	static const u8 transient[] = {
		S(TIMEOUT), S(PEER_COMPARE), S(REP_RECEIVED), S(NOTIFY_SENT),
		S(REUSE_RECEIVED), S(NOTIFY_RECEIVED_ON_REUSE),
		S(NOTIFY_SENT_ON_REUSE), S(REQ_RECEIVED), S(NOTIFY_RECEIVED),
	};
	unsigned int s, i;

	for (s = 0; s < UBCORE_TPS_COUNT; s++) {
		bool want = false;

		for (i = 0; i < ARRAY_SIZE(transient); i++)
			want |= transient[i] == s;
		KUNIT_EXPECT_EQ_MSG(test, ubcore_tp_state_is_transient(s), want,
				    "%s", ubcore_tp_state_name(s));
	}
}

/*
 * The engine from every state with every external event: where it rests,
 * through which rows, or that it refuses (state unchanged, counted).
 * The machine is a; its peer compare loses nothing (a < b), its checks pass.
 */
static const struct {
	u8 from, event;
	const char *trail;	/* NULL: refused */
	u8 to;
} engine[] = {
	{ S(RESET), E(LOCAL_OPEN), "1401", S(REQ_SENT) },
	{ S(RESET), E(RX_CONN_REQ), "1404,1405", S(REP_SENT) },
	{ S(REQ_SENT), E(RX_CONN_REQ), "1408,1409", S(REQ_SENT) },
	{ S(REQ_SENT), E(RX_CONN_REP), "1411,1412", S(INITIATOR_ESTABLISHED) },
	{ S(REQ_SENT), E(RX_CONN_REJ), "X2", S(RESET) },
	{ S(REQ_SENT), E(TIMER_RETRY), "X4", S(REQ_SENT) },
	{ S(REQ_SENT), E(TIMEOUT), "1402,1403/1407", S(RESET) },
	{ S(REQ_SENT), E(PEER_LOST), "X12", S(RESET) },
	{ S(REP_SENT), E(RX_CONN_ACK), "1413", S(TARGET_ESTABLISHED) },
	{ S(REP_SENT), E(TIMEOUT), "1406,1403/1407", S(RESET) },
	{ S(REP_SENT), E(TIMER_RETRY), "X5", S(REP_SENT) },
	{ S(REP_SENT), E(RX_CONN_REQ), "X7", S(REP_SENT) },
	{ S(REP_SENT), E(LOCAL_OPEN), "X10", S(REP_SENT) },
	{ S(REP_SENT), E(PEER_LOST), "X13", S(RESET) },
	{ S(INITIATOR_ESTABLISHED), E(RX_REUSE_REQ), "1415,1416", S(REUSED) },
	{ S(INITIATOR_ESTABLISHED), E(LOCAL_CLOSE), "1424s,1425", S(RESET) },
	{ S(INITIATOR_ESTABLISHED), E(RX_CONN_REP), "X8",
	  S(INITIATOR_ESTABLISHED) },
	{ S(INITIATOR_ESTABLISHED), E(RX_DCONN_NOTIFY), "X11", S(RESET) },
	{ S(INITIATOR_ESTABLISHED), E(PEER_LOST), "X15", S(RESET) },
	{ S(TARGET_ESTABLISHED), E(LOCAL_OPEN), "1414", S(REUSE_SENT) },
	{ S(TARGET_ESTABLISHED), E(RX_DCONN_NOTIFY), "1424r,1407n", S(RESET) },
	{ S(TARGET_ESTABLISHED), E(PEER_LOST), "X16", S(RESET) },
	{ S(REUSE_SENT), E(RX_REUSE_REP), "1418", S(REUSED) },
	{ S(REUSE_SENT), E(TIMEOUT), "1417", S(TARGET_ESTABLISHED) },
	{ S(REUSE_SENT), E(TIMER_RETRY), "X6", S(REUSE_SENT) },
	{ S(REUSE_SENT), E(RX_CONN_REJ), "X3", S(TARGET_ESTABLISHED) },
	{ S(REUSE_SENT), E(PEER_LOST), "X14", S(RESET) },
	{ S(REUSED), E(LOCAL_CLOSE), "1420,1423", S(TARGET_ESTABLISHED) },
	{ S(REUSED), E(RX_DCONN_NOTIFY), "1421,1422", S(INITIATOR_ESTABLISHED) },
	{ S(REUSED), E(RX_REUSE_REQ), "X9", S(REUSED) },
	{ S(REUSED), E(PEER_LOST), "X17", S(RESET) },
};

static void every_state_every_event(struct kunit *test)
{
	struct fsm_ctx *ctx = test->priv;
	struct fake_end *a = &ctx->a;
	union ubcore_eid ea = a->fsm.local_eid, eb = a->fsm.peer_eid;
	unsigned int s, ev, i;

	for (s = 0; s < UBCORE_TPS_COUNT; s++) {
		for (ev = 0; ev < UBCORE_TPE_COUNT; ev++) {
			struct ubcore_tp_fsm_msg msg = { .peer_tpn = 20 };
			u32 refused = a->fsm.refused;
			s64 total = atomic64_read(&ctx->stats.refused);
			int ret;

			ubcore_tp_fsm_init(&a->fsm, &fake_ops, &ctx->stats,
					   &ea, &eb, 10, RTO, RETRIES);
			a->fsm.refused = refused;
			a->fsm.state = s;
			a->peer = NULL;
			ret = ubcore_tp_fsm_event(&a->fsm, ev, &msg);

			for (i = 0; i < ARRAY_SIZE(engine); i++)
				if (engine[i].from == s && engine[i].event == ev)
					break;
			if (i == ARRAY_SIZE(engine)) {
				KUNIT_EXPECT_EQ_MSG(test, ret,
						    ev < UBCORE_TPE_EXTERNAL_COUNT ?
						    -EPROTO : -EINVAL,
						    "%s x %s",
						    ubcore_tp_state_name(s),
						    ubcore_tp_event_name(ev));
				KUNIT_EXPECT_EQ(test, a->fsm.state, s);
				KUNIT_EXPECT_EQ(test, a->fsm.trail_len, 0U);
				KUNIT_EXPECT_EQ(test, a->fsm.refused, refused + 1);
				KUNIT_EXPECT_EQ(test,
						atomic64_read(&ctx->stats.refused),
						total + 1);
				continue;
			}
			KUNIT_EXPECT_EQ_MSG(test, ret, 0, "%s x %s",
					    ubcore_tp_state_name(s),
					    ubcore_tp_event_name(ev));
			KUNIT_EXPECT_EQ_MSG(test, a->fsm.state, engine[i].to,
					    "%s x %s", ubcore_tp_state_name(s),
					    ubcore_tp_event_name(ev));
			EXPECT_TRAIL(test, &a->fsm, engine[i].trail);
			KUNIT_EXPECT_EQ(test, a->fsm.refused, refused);
		}
	}
}

/* One end opens, the other answers: 5.1.1.1, then teardown (1424, 1425). */
static void open_then_close(struct kunit *test)
{
	struct fsm_ctx *ctx = test->priv;
	struct fake_end *a = &ctx->a, *b = &ctx->b;

	KUNIT_ASSERT_EQ(test, ubcore_tp_fsm_event(&a->fsm, E(LOCAL_OPEN), NULL), 0);
	KUNIT_EXPECT_EQ(test, a->fsm.state, S(REQ_SENT));
	KUNIT_EXPECT_EQ(test, a->creates, 1);
	KUNIT_EXPECT_EQ(test, a->timer, ctx->clock + RTO);
	deliver_all(test);
	KUNIT_EXPECT_EQ(test, a->fsm.state, S(INITIATOR_ESTABLISHED));
	KUNIT_EXPECT_EQ(test, b->fsm.state, S(TARGET_ESTABLISHED));
	EXPECT_TRAIL(test, &a->fsm, "1401,1411,1412");
	EXPECT_TRAIL(test, &b->fsm, "1404,1405,1413");
	KUNIT_EXPECT_EQ(test, a->sent[UBCORE_TPM_CONN_REQ], 1);
	KUNIT_EXPECT_EQ(test, b->sent[UBCORE_TPM_CONN_REP], 1);
	KUNIT_EXPECT_EQ(test, a->sent[UBCORE_TPM_CONN_ACK], 1);
	KUNIT_EXPECT_EQ(test, a->fsm.peer_tpn, 20U);
	KUNIT_EXPECT_EQ(test, b->fsm.peer_tpn, 10U);
	KUNIT_EXPECT_EQ(test, a->done_calls, 1);
	KUNIT_EXPECT_EQ(test, a->done_result, 0);
	KUNIT_EXPECT_EQ(test, b->creates, 1);
	KUNIT_EXPECT_EQ(test, a->timer, 0ULL);
	KUNIT_EXPECT_EQ(test, b->timer, 0ULL);

	KUNIT_ASSERT_EQ(test, ubcore_tp_fsm_event(&a->fsm, E(LOCAL_CLOSE), NULL), 0);
	deliver_all(test);
	KUNIT_EXPECT_EQ(test, a->fsm.state, S(RESET));
	KUNIT_EXPECT_EQ(test, b->fsm.state, S(RESET));
	EXPECT_TRAIL(test, &a->fsm, "1401,1411,1412,1424s,1425");
	EXPECT_TRAIL(test, &b->fsm, "1404,1405,1413,1424r,1407n");
	KUNIT_EXPECT_EQ(test, a->destroys, 1);
	KUNIT_EXPECT_EQ(test, b->destroys, 1);
	KUNIT_EXPECT_EQ(test, a->lost_calls + b->lost_calls, 0);
	KUNIT_EXPECT_EQ(test, atomic64_read(&ctx->stats.refused), 0LL);
}

/* Both ends open, the requests cross; @b_first: b's request lands first. */
static void simultaneous_open(struct kunit *test, bool b_first)
{
	struct fsm_ctx *ctx = test->priv;
	struct fake_end *a = &ctx->a, *b = &ctx->b;

	KUNIT_ASSERT_EQ(test, ubcore_tp_fsm_event(&a->fsm, E(LOCAL_OPEN), NULL), 0);
	KUNIT_ASSERT_EQ(test, ubcore_tp_fsm_event(&b->fsm, E(LOCAL_OPEN), NULL), 0);
	if (b_first) {	/* swap the two queued CONN_REQs */
		struct queued t = ctx->q[ctx->head % QLEN];

		ctx->q[ctx->head % QLEN] = ctx->q[(ctx->head + 1) % QLEN];
		ctx->q[(ctx->head + 1) % QLEN] = t;
	}
	deliver_all(test);

	/* a (10.0.0.1) < b (10.0.0.2): a stays initiator, b serves it */
	KUNIT_EXPECT_EQ(test, a->fsm.state, S(REUSED));
	KUNIT_EXPECT_EQ(test, b->fsm.state, S(REUSED));
	EXPECT_TRAIL(test, &a->fsm, "1401,1408,1409,1411,1412,1415,1416");
	EXPECT_TRAIL(test, &b->fsm, "1401,1408,1410,1405,1413,1414,1418");
	/* exactly one TP: one resource per end, each naming the other */
	KUNIT_EXPECT_EQ(test, a->creates, 1);
	KUNIT_EXPECT_EQ(test, b->creates, 1);
	KUNIT_EXPECT_EQ(test, a->destroys + b->destroys, 0);
	KUNIT_EXPECT_EQ(test, a->fsm.peer_tpn, b->fsm.local_tpn);
	KUNIT_EXPECT_EQ(test, b->fsm.peer_tpn, a->fsm.local_tpn);
	KUNIT_EXPECT_EQ(test, a->sent[UBCORE_TPM_CONN_REP], 0);
	KUNIT_EXPECT_EQ(test, b->sent[UBCORE_TPM_CONN_ACK], 0);
	/* both local opens succeed, once each */
	KUNIT_EXPECT_EQ(test, a->done_calls, 1);
	KUNIT_EXPECT_EQ(test, a->done_result, 0);
	KUNIT_EXPECT_EQ(test, b->done_calls, 1);
	KUNIT_EXPECT_EQ(test, b->done_result, 0);
	KUNIT_EXPECT_EQ(test, a->timer, 0ULL);
	KUNIT_EXPECT_EQ(test, b->timer, 0ULL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&ctx->stats.refused), 0LL);
}

static void simultaneous_open_a_first(struct kunit *test)
{
	simultaneous_open(test, false);
}

static void simultaneous_open_b_first(struct kunit *test)
{
	simultaneous_open(test, true);
}

/* Same, but the larger end's request is delayed past the establishment. */
static void simultaneous_open_late_request(struct kunit *test)
{
	struct fsm_ctx *ctx = test->priv;
	struct fake_end *a = &ctx->a, *b = &ctx->b;
	struct ubcore_tp_fsm_msg msg = {};
	struct queued late;

	KUNIT_ASSERT_EQ(test, ubcore_tp_fsm_event(&a->fsm, E(LOCAL_OPEN), NULL), 0);
	KUNIT_ASSERT_EQ(test, ubcore_tp_fsm_event(&b->fsm, E(LOCAL_OPEN), NULL), 0);
	/* hold b's CONN_REQ (queued second), deliver a's; b answers */
	late = ctx->q[(ctx->head + 1) % QLEN];
	KUNIT_ASSERT_EQ(test, late.type, UBCORE_TPM_CONN_REQ);
	KUNIT_ASSERT_PTR_EQ(test, late.to, a);
	ctx->q[(ctx->head + 1) % QLEN] = ctx->q[ctx->head % QLEN];
	ctx->head++;
	deliver_all(test);
	KUNIT_EXPECT_EQ(test, a->fsm.state, S(REUSED));
	KUNIT_EXPECT_EQ(test, b->fsm.state, S(REUSED));
	/* the stale request finds a reused TP: no row, refused, no change */
	msg.peer_tpn = late.tpn;
	KUNIT_EXPECT_EQ(test, ubcore_tp_fsm_event(&a->fsm, E(RX_CONN_REQ), &msg),
			-EPROTO);
	KUNIT_EXPECT_EQ(test, a->fsm.state, S(REUSED));
	KUNIT_EXPECT_EQ(test, a->creates + b->creates, 2);
}

static void establish_reused(struct kunit *test)
{
	struct fsm_ctx *ctx = test->priv;

	KUNIT_ASSERT_EQ(test, ubcore_tp_fsm_event(&ctx->a.fsm, E(LOCAL_OPEN), NULL), 0);
	deliver_all(test);
	KUNIT_ASSERT_EQ(test, ubcore_tp_fsm_event(&ctx->b.fsm, E(LOCAL_OPEN), NULL), 0);
	deliver_all(test);
	KUNIT_ASSERT_EQ(test, ctx->a.fsm.state, S(REUSED));
	KUNIT_ASSERT_EQ(test, ctx->b.fsm.state, S(REUSED));
	EXPECT_TRAIL(test, &ctx->a.fsm, "1401,1411,1412,1415,1416");
	EXPECT_TRAIL(test, &ctx->b.fsm, "1404,1405,1413,1414,1418");
	KUNIT_EXPECT_EQ(test, ctx->b.done_calls, 1);
	KUNIT_EXPECT_EQ(test, ctx->b.done_result, 0);
}

/* Reuse (1414-1418), then the initiator closes first (1420...). */
static void reuse_teardown_initiator_first(struct kunit *test)
{
	struct fsm_ctx *ctx = test->priv;
	struct fake_end *a = &ctx->a, *b = &ctx->b;

	establish_reused(test);
	KUNIT_ASSERT_EQ(test, ubcore_tp_fsm_event(&a->fsm, E(LOCAL_CLOSE), NULL), 0);
	deliver_all(test);
	KUNIT_EXPECT_EQ(test, a->fsm.state, S(TARGET_ESTABLISHED));
	KUNIT_EXPECT_EQ(test, b->fsm.state, S(INITIATOR_ESTABLISHED));
	KUNIT_EXPECT_EQ(test, a->destroys + b->destroys, 0);
	KUNIT_ASSERT_EQ(test, ubcore_tp_fsm_event(&b->fsm, E(LOCAL_CLOSE), NULL), 0);
	deliver_all(test);
	KUNIT_EXPECT_EQ(test, a->fsm.state, S(RESET));
	KUNIT_EXPECT_EQ(test, b->fsm.state, S(RESET));
	EXPECT_TRAIL(test, &a->fsm, "1401,1411,1412,1415,1416,1420,1423,1424r,1407n");
	EXPECT_TRAIL(test, &b->fsm, "1404,1405,1413,1414,1418,1421,1422,1424s,1425");
	KUNIT_EXPECT_EQ(test, a->destroys, 1);
	KUNIT_EXPECT_EQ(test, b->destroys, 1);
}

/* Reuse, then the end that reused closes first. */
static void reuse_teardown_target_first(struct kunit *test)
{
	struct fsm_ctx *ctx = test->priv;
	struct fake_end *a = &ctx->a, *b = &ctx->b;

	establish_reused(test);
	KUNIT_ASSERT_EQ(test, ubcore_tp_fsm_event(&b->fsm, E(LOCAL_CLOSE), NULL), 0);
	deliver_all(test);
	KUNIT_EXPECT_EQ(test, b->fsm.state, S(TARGET_ESTABLISHED));
	KUNIT_EXPECT_EQ(test, a->fsm.state, S(INITIATOR_ESTABLISHED));
	KUNIT_ASSERT_EQ(test, ubcore_tp_fsm_event(&a->fsm, E(LOCAL_CLOSE), NULL), 0);
	deliver_all(test);
	KUNIT_EXPECT_EQ(test, a->fsm.state, S(RESET));
	KUNIT_EXPECT_EQ(test, b->fsm.state, S(RESET));
	EXPECT_TRAIL(test, &a->fsm, "1401,1411,1412,1415,1416,1421,1422,1424s,1425");
	EXPECT_TRAIL(test, &b->fsm, "1404,1405,1413,1414,1418,1420,1423,1424r,1407n");
	KUNIT_EXPECT_EQ(test, a->destroys, 1);
	KUNIT_EXPECT_EQ(test, b->destroys, 1);
}

/* Fires the timer at @t (fake clock); returns the timer call's result. */
static int fire_at(struct fsm_ctx *ctx, struct fake_end *e, u64 t)
{
	ctx->clock = t;
	return ubcore_tp_fsm_timer(&e->fsm);
}

/*
 * The initiator hears nothing: CONN_REQ at 0, then again after 100, 200 and
 * 400 ms (the timeout doubles), and at 100+200+400+800 = 1500 ms it gives
 * up (1402, 1403) with ETIMEDOUT and frees its TP.
 */
static void initiator_timeout_after_retries(struct kunit *test)
{
	struct fsm_ctx *ctx = test->priv;
	struct fake_end *a = &ctx->a;
	u64 t0 = ctx->clock;

	a->drop_tx = true;
	KUNIT_ASSERT_EQ(test, ubcore_tp_fsm_event(&a->fsm, E(LOCAL_OPEN), NULL), 0);
	KUNIT_EXPECT_EQ(test, a->timer, t0 + 100 * MS);
	KUNIT_EXPECT_EQ(test, fire_at(ctx, a, t0 + 100 * MS - 1), -EAGAIN);
	KUNIT_EXPECT_EQ(test, a->sent[UBCORE_TPM_CONN_REQ], 1);
	KUNIT_EXPECT_EQ(test, fire_at(ctx, a, t0 + 100 * MS), 0);
	KUNIT_EXPECT_EQ(test, a->sent[UBCORE_TPM_CONN_REQ], 2);
	KUNIT_EXPECT_EQ(test, a->timer, t0 + 300 * MS);
	KUNIT_EXPECT_EQ(test, fire_at(ctx, a, t0 + 300 * MS), 0);
	KUNIT_EXPECT_EQ(test, a->timer, t0 + 700 * MS);
	KUNIT_EXPECT_EQ(test, fire_at(ctx, a, t0 + 700 * MS), 0);
	KUNIT_EXPECT_EQ(test, a->sent[UBCORE_TPM_CONN_REQ], 4);
	KUNIT_EXPECT_EQ(test, a->timer, t0 + 1500 * MS);
	KUNIT_EXPECT_EQ(test, a->fsm.state, S(REQ_SENT));
	KUNIT_EXPECT_EQ(test, a->done_calls, 0);
	KUNIT_EXPECT_EQ(test, fire_at(ctx, a, t0 + 1499 * MS), -EAGAIN);
	KUNIT_EXPECT_EQ(test, fire_at(ctx, a, t0 + 1500 * MS), 0);
	KUNIT_EXPECT_EQ(test, a->fsm.state, S(RESET));
	EXPECT_TRAIL(test, &a->fsm, "1401,X4,X4,X4,1402,1403/1407");
	KUNIT_EXPECT_EQ(test, a->sent[UBCORE_TPM_CONN_REQ], 4);
	KUNIT_EXPECT_EQ(test, a->done_calls, 1);
	KUNIT_EXPECT_EQ(test, a->done_result, -ETIMEDOUT);
	KUNIT_EXPECT_EQ(test, a->destroys, 1);
	KUNIT_EXPECT_EQ(test, atomic64_read(&ctx->stats.retries), 3LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&ctx->stats.timeouts), 1LL);
	/* a stale expiry after the end changes nothing */
	KUNIT_EXPECT_EQ(test, fire_at(ctx, a, t0 + 5000 * MS), -ENOENT);
	KUNIT_EXPECT_EQ(test, a->fsm.state, S(RESET));
}

/* A lost CONN_REP: the initiator retries, the target answers again (X7). */
static void lost_reply_is_retransmitted(struct kunit *test)
{
	struct fsm_ctx *ctx = test->priv;
	struct fake_end *a = &ctx->a, *b = &ctx->b;
	u64 t0 = ctx->clock;

	KUNIT_ASSERT_EQ(test, ubcore_tp_fsm_event(&a->fsm, E(LOCAL_OPEN), NULL), 0);
	b->drop_tx = true;
	deliver_all(test);
	KUNIT_EXPECT_EQ(test, b->fsm.state, S(REP_SENT));
	b->drop_tx = false;
	KUNIT_EXPECT_EQ(test, fire_at(ctx, a, t0 + RTO), 0);
	deliver_all(test);
	KUNIT_EXPECT_EQ(test, a->fsm.state, S(INITIATOR_ESTABLISHED));
	KUNIT_EXPECT_EQ(test, b->fsm.state, S(TARGET_ESTABLISHED));
	EXPECT_TRAIL(test, &a->fsm, "1401,X4,1411,1412");
	EXPECT_TRAIL(test, &b->fsm, "1404,1405,X7,1413");
	KUNIT_EXPECT_EQ(test, b->sent[UBCORE_TPM_CONN_REP], 2);
	KUNIT_EXPECT_EQ(test, b->creates, 1);
	/* b's ACK timer was stopped by 1413: a late expiry is stale */
	KUNIT_EXPECT_EQ(test, fire_at(ctx, b, t0 + 10 * RTO), -ENOENT);
}

/* The target's CONN_REP gets no CONN_ACK: retries, then 1406, 1407. */
static void target_timeout_after_retries(struct kunit *test)
{
	struct fsm_ctx *ctx = test->priv;
	struct fake_end *a = &ctx->a, *b = &ctx->b;
	u64 t0 = ctx->clock;

	KUNIT_ASSERT_EQ(test, ubcore_tp_fsm_event(&a->fsm, E(LOCAL_OPEN), NULL), 0);
	KUNIT_ASSERT_TRUE(test, deliver_one(test));	/* CONN_REQ to b */
	drop_all(ctx);					/* CONN_REP lost */
	KUNIT_EXPECT_EQ(test, b->fsm.state, S(REP_SENT));
	b->drop_tx = true;
	KUNIT_EXPECT_EQ(test, fire_at(ctx, b, t0 + 100 * MS), 0);
	KUNIT_EXPECT_EQ(test, fire_at(ctx, b, t0 + 300 * MS), 0);
	KUNIT_EXPECT_EQ(test, fire_at(ctx, b, t0 + 700 * MS), 0);
	KUNIT_EXPECT_EQ(test, b->fsm.state, S(REP_SENT));
	KUNIT_EXPECT_EQ(test, fire_at(ctx, b, t0 + 1500 * MS), 0);
	KUNIT_EXPECT_EQ(test, b->fsm.state, S(RESET));
	EXPECT_TRAIL(test, &b->fsm, "1404,1405,X5,X5,X5,1406,1403/1407");
	KUNIT_EXPECT_EQ(test, b->sent[UBCORE_TPM_CONN_REP], 4);
	KUNIT_EXPECT_EQ(test, b->creates, 1);
	KUNIT_EXPECT_EQ(test, b->destroys, 1);
}

/* The reuse request gets no answer: 1417 back to Target established. */
static void reuse_timeout_after_retries(struct kunit *test)
{
	struct fsm_ctx *ctx = test->priv;
	struct fake_end *a = &ctx->a, *b = &ctx->b;
	u64 t0;

	KUNIT_ASSERT_EQ(test, ubcore_tp_fsm_event(&a->fsm, E(LOCAL_OPEN), NULL), 0);
	deliver_all(test);
	t0 = ctx->clock;
	b->drop_tx = true;
	KUNIT_ASSERT_EQ(test, ubcore_tp_fsm_event(&b->fsm, E(LOCAL_OPEN), NULL), 0);
	KUNIT_EXPECT_EQ(test, b->fsm.state, S(REUSE_SENT));
	KUNIT_EXPECT_EQ(test, fire_at(ctx, b, t0 + 100 * MS), 0);
	KUNIT_EXPECT_EQ(test, fire_at(ctx, b, t0 + 300 * MS), 0);
	KUNIT_EXPECT_EQ(test, fire_at(ctx, b, t0 + 700 * MS), 0);
	KUNIT_EXPECT_EQ(test, fire_at(ctx, b, t0 + 1500 * MS), 0);
	KUNIT_EXPECT_EQ(test, b->fsm.state, S(TARGET_ESTABLISHED));
	EXPECT_TRAIL(test, &b->fsm, "1404,1405,1413,1414,X6,X6,X6,1417");
	KUNIT_EXPECT_EQ(test, b->sent[UBCORE_TPM_REUSE_REQ], 4);
	KUNIT_EXPECT_EQ(test, b->done_calls, 1);
	KUNIT_EXPECT_EQ(test, b->done_result, -ETIMEDOUT);
	KUNIT_EXPECT_EQ(test, b->destroys, 0);	/* the TP stays, a uses it */
	KUNIT_EXPECT_EQ(test, a->fsm.state, S(INITIATOR_ESTABLISHED));
}

/* 5.1.1.2 reject: the target's check fails; its reason reaches the user. */
static void reject_rolls_back(struct kunit *test)
{
	struct fsm_ctx *ctx = test->priv;
	struct fake_end *a = &ctx->a, *b = &ctx->b;

	b->check_err = -ENOENT;
	KUNIT_ASSERT_EQ(test, ubcore_tp_fsm_event(&a->fsm, E(LOCAL_OPEN), NULL), 0);
	deliver_all(test);
	KUNIT_EXPECT_EQ(test, a->fsm.state, S(RESET));
	KUNIT_EXPECT_EQ(test, b->fsm.state, S(RESET));
	EXPECT_TRAIL(test, &a->fsm, "1401,X2");
	EXPECT_TRAIL(test, &b->fsm, "1404,X1");
	KUNIT_EXPECT_EQ(test, b->sent[UBCORE_TPM_CONN_REJ], 1);
	KUNIT_EXPECT_EQ(test, b->creates, 0);
	KUNIT_EXPECT_EQ(test, a->done_calls, 1);
	KUNIT_EXPECT_EQ(test, a->done_result, -ENOENT);
	KUNIT_EXPECT_EQ(test, a->creates, 1);
	KUNIT_EXPECT_EQ(test, a->destroys, 1);
	KUNIT_EXPECT_EQ(test, a->timer, 0ULL);
}

/* The target cannot make its TP: the request is refused, not dropped. */
static void target_create_failure_rejects(struct kunit *test)
{
	struct fsm_ctx *ctx = test->priv;
	struct fake_end *a = &ctx->a, *b = &ctx->b;

	b->create_err = -ENOMEM;
	KUNIT_ASSERT_EQ(test, ubcore_tp_fsm_event(&a->fsm, E(LOCAL_OPEN), NULL), 0);
	deliver_all(test);
	EXPECT_TRAIL(test, &b->fsm, "1404,X1");
	KUNIT_EXPECT_EQ(test, a->fsm.state, S(RESET));
	KUNIT_EXPECT_EQ(test, a->done_result, -ENOMEM);
	KUNIT_EXPECT_EQ(test, b->destroys, 0);
}

/* The initiator cannot make its TP: the open fails, nothing is sent. */
static void initiator_create_failure(struct kunit *test)
{
	struct fsm_ctx *ctx = test->priv;
	struct fake_end *a = &ctx->a;

	a->create_err = -ENOMEM;
	KUNIT_EXPECT_EQ(test, ubcore_tp_fsm_event(&a->fsm, E(LOCAL_OPEN), NULL),
			-ENOMEM);
	KUNIT_EXPECT_EQ(test, a->fsm.state, S(RESET));
	KUNIT_EXPECT_EQ(test, a->sent[UBCORE_TPM_CONN_REQ], 0);
	KUNIT_EXPECT_EQ(test, a->timer, 0ULL);
}

/* 1419: the initiator refuses the reuse; the target keeps its TP (X3). */
static void reuse_refused(struct kunit *test)
{
	struct fsm_ctx *ctx = test->priv;
	struct fake_end *a = &ctx->a, *b = &ctx->b;

	KUNIT_ASSERT_EQ(test, ubcore_tp_fsm_event(&a->fsm, E(LOCAL_OPEN), NULL), 0);
	deliver_all(test);
	a->check_err = -EACCES;
	KUNIT_ASSERT_EQ(test, ubcore_tp_fsm_event(&b->fsm, E(LOCAL_OPEN), NULL), 0);
	deliver_all(test);
	EXPECT_TRAIL(test, &a->fsm, "1401,1411,1412,1415,1419");
	EXPECT_TRAIL(test, &b->fsm, "1404,1405,1413,1414,X3");
	KUNIT_EXPECT_EQ(test, a->fsm.state, S(INITIATOR_ESTABLISHED));
	KUNIT_EXPECT_EQ(test, b->fsm.state, S(TARGET_ESTABLISHED));
	KUNIT_EXPECT_EQ(test, b->done_result, -EACCES);
	KUNIT_EXPECT_EQ(test, a->destroys + b->destroys, 0);
}

/* Peer loss on an established TP: users are told, resources freed. */
static void peer_loss(struct kunit *test)
{
	struct fsm_ctx *ctx = test->priv;
	struct fake_end *a = &ctx->a, *b = &ctx->b;

	establish_reused(test);
	KUNIT_ASSERT_EQ(test, ubcore_tp_fsm_event(&a->fsm, E(PEER_LOST), NULL), 0);
	KUNIT_EXPECT_EQ(test, a->fsm.state, S(RESET));
	KUNIT_EXPECT_EQ(test, a->lost_calls, 1);
	KUNIT_EXPECT_EQ(test, a->lost_result, -EHOSTUNREACH);
	KUNIT_EXPECT_EQ(test, a->destroys, 1);
	/* the provider (tp_closed) before the users */
	KUNIT_EXPECT_EQ(test, a->destroys_at_lost, 1);
	KUNIT_EXPECT_EQ(test, b->lost_calls, 0);
	/* nothing was sent to the lost peer */
	KUNIT_EXPECT_EQ(test, a->sent[UBCORE_TPM_DCONN_NOTIFY], 0);
}

/* The counters: each refused event is counted once, per machine and device. */
static void refusals_are_counted(struct kunit *test)
{
	struct fsm_ctx *ctx = test->priv;
	struct fake_end *a = &ctx->a, *b = &ctx->b;

	KUNIT_EXPECT_EQ(test, ubcore_tp_fsm_event(&a->fsm, E(RX_CONN_ACK), NULL),
			-EPROTO);
	KUNIT_EXPECT_EQ(test, ubcore_tp_fsm_event(&a->fsm, E(LOCAL_CLOSE), NULL),
			-EPROTO);
	KUNIT_EXPECT_EQ(test, ubcore_tp_fsm_event(&b->fsm, E(AUTO), NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, a->fsm.refused, 2U);
	KUNIT_EXPECT_EQ(test, b->fsm.refused, 1U);
	KUNIT_EXPECT_EQ(test, atomic64_read(&ctx->stats.refused), 3LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&ctx->stats.transitions), 0LL);
	KUNIT_EXPECT_EQ(test, a->fsm.state, S(RESET));
}

static struct kunit_case ubcore_tp_fsm_cases[] = {
	KUNIT_CASE(table_matches_guide),
	KUNIT_CASE(transient_states_are_the_guides),
	KUNIT_CASE(loss_destroys_the_tp),
	KUNIT_CASE(every_state_every_event),
	KUNIT_CASE(open_then_close),
	KUNIT_CASE(simultaneous_open_a_first),
	KUNIT_CASE(simultaneous_open_b_first),
	KUNIT_CASE(simultaneous_open_late_request),
	KUNIT_CASE(reuse_teardown_initiator_first),
	KUNIT_CASE(reuse_teardown_target_first),
	KUNIT_CASE(initiator_timeout_after_retries),
	KUNIT_CASE(lost_reply_is_retransmitted),
	KUNIT_CASE(target_timeout_after_retries),
	KUNIT_CASE(reuse_timeout_after_retries),
	KUNIT_CASE(reject_rolls_back),
	KUNIT_CASE(target_create_failure_rejects),
	KUNIT_CASE(initiator_create_failure),
	KUNIT_CASE(reuse_refused),
	KUNIT_CASE(peer_loss),
	KUNIT_CASE(refusals_are_counted),
	{}
};

static struct kunit_suite ubcore_tp_fsm_suite = {
	.name = "ubcore_tp_fsm",
	.init = fsm_init,
	.test_cases = ubcore_tp_fsm_cases,
};

kunit_test_suite(ubcore_tp_fsm_suite);

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
