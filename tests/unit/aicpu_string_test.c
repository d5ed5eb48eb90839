// SPDX-License-Identifier: MIT
/*
 * String tensors in the host operators (lib/aicpu, ASan and UBSan):
 * StringNormalizer and Cast to and from STRING against values worked out
 * here (the float texts are what numpy's str() prints, as ONNX's test
 * data has them), and every malformed head (offset before the text or
 * past the buffer, negative or overlong length) failing the op with a
 * reason instead of a read outside the buffer.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "kselftest_harness.h"
#include "aicpu_test_call.h"

/* n strings packed into buf as the layout says; bytes used. */
static uint64_t pack(void *buf, const char *const *s, int64_t n)
{
	uint8_t *b = buf;
	int64_t pos = n * 16;

	for (int64_t i = 0; i < n; i++) {
		int64_t len = (int64_t)strlen(s[i]);

		memcpy(b + i * 16, &pos, 8);
		memcpy(b + i * 16 + 8, &len, 8);
		memcpy(b + pos, s[i], (size_t)len + 1);
		pos += len + 1;
	}
	return (uint64_t)pos;
}

/* String i of a buffer, checked against its cap, as a C string. */
static const char *str_at(const void *buf, uint64_t cap, int64_t i, char *out)
{
	int64_t off, len;

	memcpy(&off, (const uint8_t *)buf + i * 16, 8);
	memcpy(&len, (const uint8_t *)buf + i * 16 + 8, 8);
	if (off < 0 || len < 0 || len > 200 || (uint64_t)(off + len) > cap)
		return "<bad head>";
	memcpy(out, (const uint8_t *)buf + off, (size_t)len);
	out[len] = 0;
	return out;
}

static void set_head(void *buf, int64_t i, int64_t off, int64_t len)
{
	memcpy((uint8_t *)buf + i * 16, &off, 8);
	memcpy((uint8_t *)buf + i * 16 + 8, &len, 8);
}

/* StringNormalizer over n strings of rank r (1: [n], 2: [1, n]). */
static int strnorm(struct aicpu_call *c, const char *const *in, int64_t n,
		   uint32_t r, const char *const *stop, int64_t nstop,
		   int action, int sensitive, uint8_t *x, uint8_t *sw,
		   uint8_t *y, uint64_t ycap)
{
	int64_t d2[2] = { 1, n };
	uint64_t swb = nstop ? pack(sw, stop, nstop) : 0;

	pack(x, in, n);
	call_init(c, AICPU_OP_STRNORM, nstop ? 2 : 1, 1);
	c->ints[AICPU_ATTR_IN] = nstop ? 3 : 1;
	c->ints[0] = action;
	c->ints[1] = sensitive;
	c->ints[2] = nstop;
	c->t[0] = tens(x, STR, r, r == 1 ? &n : d2, 256 * (uint64_t)n);
	if (nstop)
		c->t[1] = tens(sw, U8, 1, (int64_t[]){ (int64_t)swb }, swb);
	c->t[c->nin] = tens(y, STR, r, r == 1 ? &n : d2, ycap);
	return aicpu_run(c);
}

TEST(strnorm_filters_and_changes_case)
{
	static const char *const in[] = { "Monday", "tuesday", "monday", "Straße" };
	static const char *const stop[] = { "monday" };
	uint8_t x[1024], sw[64], y[1024];
	struct aicpu_call c;
	char s[256];

	/* case-sensitive: only the exact "monday" goes; UPPER leaves ß */
	ASSERT_EQ(0, strnorm(&c, in, 4, 1, stop, 1, 2, 1, x, sw, y, sizeof(y)))
		TH_LOG("%s", c.why);
	ASSERT_EQ(1, c.t[2].rank);
	ASSERT_EQ(3, c.t[2].dims[0]);
	EXPECT_STREQ("MONDAY", str_at(y, sizeof(y), 0, s));
	EXPECT_STREQ("TUESDAY", str_at(y, sizeof(y), 1, s));
	EXPECT_STREQ("STRAßE", str_at(y, sizeof(y), 2, s));
	/* insensitive, [1, C]: both Mondays go; LOWER */
	ASSERT_EQ(0, strnorm(&c, in, 4, 2, stop, 1, 1, 0, x, sw, y, sizeof(y)))
		TH_LOG("%s", c.why);
	ASSERT_EQ(2, c.t[2].rank);
	EXPECT_EQ(1, c.t[2].dims[0]);
	EXPECT_EQ(2, c.t[2].dims[1]);
	EXPECT_STREQ("tuesday", str_at(y, sizeof(y), 0, s));
	EXPECT_STREQ("straße", str_at(y, sizeof(y), 1, s));
	/* no stopwords, NONE: the input unchanged */
	ASSERT_EQ(0, strnorm(&c, in, 4, 1, NULL, 0, 0, 1, x, sw, y, sizeof(y)));
	EXPECT_EQ(4, c.t[1].dims[0]);
	EXPECT_STREQ("Monday", str_at(y, sizeof(y), 0, s));
	EXPECT_STREQ("Straße", str_at(y, sizeof(y), 3, s));
}

TEST(strnorm_utf8_letters)
{
	static const char *const in[] = { "élan", "Привет", "Ωmega", "İi" };
	uint8_t x[1024], y[1024];
	struct aicpu_call c;
	char s[256];

	ASSERT_EQ(0, strnorm(&c, in, 4, 1, NULL, 0, 2, 1, x, NULL, y, sizeof(y)));
	EXPECT_STREQ("ÉLAN", str_at(y, sizeof(y), 0, s));
	EXPECT_STREQ("ПРИВЕТ", str_at(y, sizeof(y), 1, s));
	EXPECT_STREQ("ΩMEGA", str_at(y, sizeof(y), 2, s));
	EXPECT_STREQ("İI", str_at(y, sizeof(y), 3, s));	/* dotted I kept */
	ASSERT_EQ(0, strnorm(&c, in, 4, 1, NULL, 0, 1, 1, x, NULL, y, sizeof(y)));
	EXPECT_STREQ("привет", str_at(y, sizeof(y), 1, s));
	EXPECT_STREQ("ωmega", str_at(y, sizeof(y), 2, s));
}

TEST(strnorm_all_dropped_is_one_empty_string)
{
	static const char *const in[] = { "monday", "MONDAY" };
	static const char *const stop[] = { "Monday" };
	uint8_t x[512], sw[64], y[512];
	struct aicpu_call c;
	char s[256];

	ASSERT_EQ(0, strnorm(&c, in, 2, 1, stop, 1, 2, 0, x, sw, y, sizeof(y)));
	ASSERT_EQ(1, c.t[2].rank);
	EXPECT_EQ(1, c.t[2].dims[0]);
	EXPECT_STREQ("", str_at(y, sizeof(y), 0, s));
	ASSERT_EQ(0, strnorm(&c, in, 2, 2, stop, 1, 2, 0, x, sw, y, sizeof(y)));
	ASSERT_EQ(2, c.t[2].rank);
	EXPECT_EQ(1, c.t[2].dims[0]);
	EXPECT_EQ(1, c.t[2].dims[1]);
}

TEST(strnorm_refuses_bad_shapes_and_heads)
{
	static const char *const in[] = { "a", "b" };
	static const char *const stop[] = { "a" };
	uint8_t x[512], sw[64], y[512];
	struct aicpu_call c;

	/* [2, C] is not a shape the operator takes */
	ASSERT_EQ(0, strnorm(&c, in, 2, 2, NULL, 0, 0, 1, x, NULL, y, sizeof(y)));
	c.t[0].dims[0] = 2;
	c.t[0].dims[1] = 1;
	EXPECT_EQ(-EINVAL, aicpu_run(&c));
	EXPECT_NE(NULL, strstr(c.why, "[1, C]"));
	/* each malformed head of X fails the op */
	static const int64_t bad[][2] = {
		{ 512, 1 },		/* past the buffer */
		{ 8, 1 },		/* inside the heads */
		{ 40, -1 },		/* negative length */
		{ 40, 600 },		/* runs past the end */
		{ INT64_MAX, 2 },	/* offset + len overflows */
		{ -16, 4 },
	};
	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		ASSERT_EQ(0, strnorm(&c, in, 2, 1, NULL, 0, 0, 1, x, NULL, y, sizeof(y)));
		set_head(x, 1, bad[k][0], bad[k][1]);
		EXPECT_EQ(-EINVAL, aicpu_run(&c)) TH_LOG("head %zu", k);
		EXPECT_NE(NULL, strstr(c.why, "outside")) TH_LOG("%s", c.why);
	}
	/* more stopwords than the weight holds */
	ASSERT_EQ(0, strnorm(&c, in, 2, 1, stop, 1, 0, 1, x, sw, y, sizeof(y)));
	c.ints[2] = 5;
	EXPECT_EQ(-EINVAL, aicpu_run(&c));
	/* an output buffer too small for the text */
	ASSERT_EQ(0, strnorm(&c, in, 2, 1, NULL, 0, 0, 1, x, NULL, y, sizeof(y)));
	c.t[1].cap = 33;	/* the heads and one byte */
	EXPECT_EQ(-EINVAL, aicpu_run(&c));
	EXPECT_NE(NULL, strstr(c.why, "too small"));
	/* a numeric operator never reads a string tensor */
	call_init(&c, AICPU_OP_NONZERO, 1, 1);
	c.t[0] = tens(x, STR, 1, (int64_t[]){ 2 }, sizeof(x));
	c.t[1] = tens(y, I64, 2, (int64_t[]){ 1, 2 }, sizeof(y));
	EXPECT_EQ(-EINVAL, aicpu_run(&c));
}

/* Cast of n values of dtype dt (bytes at v) to strings. */
static int to_str(struct aicpu_call *c, const void *v, uint32_t dt, int64_t n,
		  uint8_t *y, uint64_t ycap)
{
	call_init(c, AICPU_OP_CAST_STRING, 1, 1);
	c->t[0] = tens((void *)v, dt, 1, &n, 8 * (uint64_t)n);
	c->t[1] = tens(y, STR, 1, &n, ycap);
	return aicpu_run(c);
}

TEST(cast_numbers_to_strings_as_numpy_prints_them)
{
	static const float f[] = {
		0.039187793f, 123456789.0f, 1e-5f, 1.5e20f, 1.0f, -0.0f,
		0.0001f, 0.9767611f, NAN, -INFINITY, 3e-45f, 1e16f,
	};
	static const char *const fs[] = {
		"0.039187793", "123456790.0", "1e-05", "1.5e+20", "1.0", "-0.0",
		"1e-04", "0.9767611", "nan", "-inf", "3e-45", "1e+16",
	};
	static const double d[] = { 0.1, 0.0001, 1.0 / 3, 1e300 };
	static const char *const ds[] = {
		"0.1", "0.0001", "0.3333333333333333", "1e+300",
	};
	static const int64_t i64[] = { -5, INT64_MIN };
	static const uint64_t u64[] = { UINT64_MAX };
	static const uint8_t b[] = { 1, 0 };
	uint8_t y[4096];
	struct aicpu_call c;
	char s[256];

	ASSERT_EQ(0, to_str(&c, f, F32, 12, y, sizeof(y))) TH_LOG("%s", c.why);
	for (int i = 0; i < 12; i++)
		EXPECT_STREQ(fs[i], str_at(y, sizeof(y), i, s));
	ASSERT_EQ(0, to_str(&c, d, F64, 4, y, sizeof(y)));
	for (int i = 0; i < 4; i++)
		EXPECT_STREQ(ds[i], str_at(y, sizeof(y), i, s));
	ASSERT_EQ(0, to_str(&c, i64, I64, 2, y, sizeof(y)));
	EXPECT_STREQ("-5", str_at(y, sizeof(y), 0, s));
	EXPECT_STREQ("-9223372036854775808", str_at(y, sizeof(y), 1, s));
	ASSERT_EQ(0, to_str(&c, u64, U64, 1, y, sizeof(y)));
	EXPECT_STREQ("18446744073709551615", str_at(y, sizeof(y), 0, s));
	ASSERT_EQ(0, to_str(&c, b, BOOL, 2, y, sizeof(y)));
	EXPECT_STREQ("True", str_at(y, sizeof(y), 0, s));
	EXPECT_STREQ("False", str_at(y, sizeof(y), 1, s));
	/* the text must fit the output's buffer */
	EXPECT_EQ(-EINVAL, to_str(&c, f, F32, 12, y, 12 * 16 + 20));
}

/* Cast of n strings to dtype dt into out. */
static int from_str(struct aicpu_call *c, const char *const *s, int64_t n,
		    uint8_t *x, uint32_t dt, void *out)
{
	pack(x, s, n);
	call_init(c, AICPU_OP_CAST_STRING, 1, 1);
	c->t[0] = tens(x, STR, 1, &n, 256 * (uint64_t)n);
	c->t[1] = tens(out, dt, 1, &n, 8 * (uint64_t)n);
	return aicpu_run(c);
}

TEST(cast_strings_to_numbers)
{
	static const char *const fs[] = { "0.47892547", "NaN", "+INF", "-inf", " 2 ", "1e3" };
	static const char *const is[] = { "-7", "2147483647", " 12" };
	static const char *const bad[] = { "1.5x" };
	static const char *const big[] = { "300" };
	uint8_t x[2048];
	float f[6];
	double d[6];
	int32_t i[3];
	int8_t i8[1];
	struct aicpu_call c;

	ASSERT_EQ(0, from_str(&c, fs, 6, x, F32, f)) TH_LOG("%s", c.why);
	EXPECT_EQ(0.47892547f, f[0]);
	EXPECT_TRUE(isnan(f[1]));
	EXPECT_TRUE(isinf(f[2]) && f[2] > 0);
	EXPECT_TRUE(isinf(f[3]) && f[3] < 0);
	EXPECT_EQ(2.0f, f[4]);
	EXPECT_EQ(1000.0f, f[5]);
	ASSERT_EQ(0, from_str(&c, fs, 1, x, F64, d));
	EXPECT_EQ(0.47892547, d[0]);
	ASSERT_EQ(0, from_str(&c, is, 3, x, I32, i)) TH_LOG("%s", c.why);
	EXPECT_EQ(-7, i[0]);
	EXPECT_EQ(2147483647, i[1]);
	EXPECT_EQ(12, i[2]);
	EXPECT_EQ(-EINVAL, from_str(&c, bad, 1, x, F32, f));
	EXPECT_NE(NULL, strstr(c.why, "not a number"));
	EXPECT_EQ(-EINVAL, from_str(&c, bad, 1, x, I32, i));
	EXPECT_EQ(-EINVAL, from_str(&c, big, 1, x, I8, i8));
	/* a head pointing past the buffer */
	ASSERT_EQ(0, from_str(&c, is, 2, x, I32, i));
	set_head(x, 1, 2048, 1);
	EXPECT_EQ(-EINVAL, aicpu_run(&c));
	/* neither or both sides strings */
	c.t[1].dtype = STR;
	EXPECT_EQ(-EINVAL, aicpu_run(&c));
}

TEST(bad_head_scan)
{
	static const char *const s[] = { "ab", "" };
	uint8_t x[64];

	pack(x, s, 2);
	EXPECT_EQ(-1, aicpu_str_bad_head(x, sizeof(x), 2));
	EXPECT_EQ(0, aicpu_str_bad_head(x, 16, 2));	/* heads do not fit */
	EXPECT_EQ(0, aicpu_str_bad_head(x, sizeof(x), -1));
	set_head(x, 1, 63, 2);
	EXPECT_EQ(1, aicpu_str_bad_head(x, sizeof(x), 2));
	set_head(x, 1, 64, 0);	/* an empty string at the very end is inside */
	EXPECT_EQ(-1, aicpu_str_bad_head(x, sizeof(x), 2));
}

TEST_HARNESS_MAIN
