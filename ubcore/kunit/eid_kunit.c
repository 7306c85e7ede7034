// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The UB/URMA stack authors
 *
 * KUnit tests of the EID text and IPv4-mapping conversions.
 */
#include <kunit/test.h>
#include <linux/string.h>

#include <ub/ubcore_eid.h>

static void eid_parse_ok(struct kunit *test, const char *in,
			 union ubcore_eid *eid)
{
	KUNIT_ASSERT_EQ_MSG(test, ubcore_eid_parse(in, strlen(in), eid), 0,
			    "input \"%s\"", in);
}

static void eid_ipv4_is_mapped(struct kunit *test)
{
	static const u8 want[UBCORE_EID_SIZE] = {
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 192, 168, 7, 1
	};
	union ubcore_eid eid;

	eid_parse_ok(test, "192.168.7.1", &eid);
	KUNIT_EXPECT_EQ(test, memcmp(eid.raw, want, sizeof(want)), 0);
	KUNIT_EXPECT_TRUE(test, ubcore_eid_is_ipv4(&eid));
	KUNIT_EXPECT_EQ(test, ntohl(eid.in4.prefix), 0x0000ffff);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(eid.in4.reserved), 0);

	ubcore_eid_from_ipv4(&eid, htonl(0x7f000001));
	KUNIT_EXPECT_EQ(test, ntohl(eid.in4.addr), 0x7f000001);
	KUNIT_EXPECT_TRUE(test, ubcore_eid_is_ipv4(&eid));
}

static void eid_ipv6_forms(struct kunit *test)
{
	union ubcore_eid full, compressed;

	eid_parse_ok(test, "fe80:0000:0000:0000:0000:0000:0000:0001", &full);
	eid_parse_ok(test, "fe80::1", &compressed);
	KUNIT_EXPECT_EQ(test, memcmp(full.raw, compressed.raw, UBCORE_EID_SIZE), 0);
	KUNIT_EXPECT_EQ(test, full.raw[0], 0xfe);
	KUNIT_EXPECT_EQ(test, full.raw[15], 1);
	KUNIT_EXPECT_FALSE(test, ubcore_eid_is_ipv4(&full));

	/* The text form of an IPv4-mapped address is the same EID as IPv4. */
	eid_parse_ok(test, "::ffff:10.0.0.2", &full);
	eid_parse_ok(test, "10.0.0.2", &compressed);
	KUNIT_EXPECT_EQ(test, memcmp(full.raw, compressed.raw, UBCORE_EID_SIZE), 0);
}

static void eid_parse_trailing_newline(struct kunit *test)
{
	union ubcore_eid a, b;

	eid_parse_ok(test, "2001:db8::5\n", &a);
	eid_parse_ok(test, "2001:db8::5", &b);
	KUNIT_EXPECT_EQ(test, memcmp(a.raw, b.raw, UBCORE_EID_SIZE), 0);
}

static void eid_parse_rejects(struct kunit *test)
{
	static const char * const bad[] = {
		"", "\n", "1.2.3", "1.2.3.4.5", "256.1.1.1", "1.2.3.4 ",
		"fe80::1::2", "fe80::g", "hello", "1.2.3.4\n\n",
		"0000:0000:0000:0000:0000:0000:0000:0000:0", ":",
	};
	union ubcore_eid eid;
	size_t i;

	memset(&eid, 0xa5, sizeof(eid));
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test,
				    ubcore_eid_parse(bad[i], strlen(bad[i]), &eid),
				    -EINVAL, "input \"%s\"", bad[i]);
	/* A failed parse leaves the output untouched. */
	KUNIT_EXPECT_EQ(test, eid.raw[0], 0xa5);
	KUNIT_EXPECT_EQ(test, eid.raw[15], 0xa5);
}

static void eid_format_round_trip(struct kunit *test)
{
	static const char * const in[] = {
		"127.0.0.1", "fe80::1", "2001:db8:1:2:3:4:5:6", "::",
	};
	char buf[UBCORE_EID_STR_LEN + 1];
	union ubcore_eid eid, back;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(in); i++) {
		eid_parse_ok(test, in[i], &eid);
		KUNIT_ASSERT_GT(test, ubcore_eid_format(&eid, buf, sizeof(buf)), 0);
		KUNIT_EXPECT_STREQ(test, buf, in[i]);
		eid_parse_ok(test, buf, &back);
		KUNIT_EXPECT_EQ(test, memcmp(eid.raw, back.raw, UBCORE_EID_SIZE), 0);
	}
}

static void eid_format_longest_fits(struct kunit *test)
{
	char buf[UBCORE_EID_STR_LEN + 1];
	union ubcore_eid eid;

	eid_parse_ok(test, "ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffe", &eid);
	KUNIT_EXPECT_EQ(test, ubcore_eid_format(&eid, buf, sizeof(buf)),
			UBCORE_EID_STR_LEN);
	KUNIT_EXPECT_EQ(test, ubcore_eid_format(&eid, buf, UBCORE_EID_STR_LEN),
			-ENOSPC);
}

static struct kunit_case ubcore_eid_cases[] = {
	KUNIT_CASE(eid_ipv4_is_mapped),
	KUNIT_CASE(eid_ipv6_forms),
	KUNIT_CASE(eid_parse_trailing_newline),
	KUNIT_CASE(eid_parse_rejects),
	KUNIT_CASE(eid_format_round_trip),
	KUNIT_CASE(eid_format_longest_fits),
	{}
};

static struct kunit_suite ubcore_eid_suite = {
	.name = "ubcore_eid",
	.test_cases = ubcore_eid_cases,
};

kunit_test_suite(ubcore_eid_suite);
