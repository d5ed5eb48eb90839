// SPDX-License-Identifier: MIT
/*
 * The one dtype list (kernel/ops/vnpu_dtypes.def) against what each dtype
 * is meant to be, and every table and switch derived from it against the
 * others: the lookups of vnpu_dtype.h, the operator library's element
 * access and elementwise staging, the AI CPU operators' element access,
 * the .om and ACL sizes, and atc's sizes, names and ONNX numbers.
 */
#include <stdint.h>
#include <string.h>

#include <drm/vnpu_accel.h>

#include "vnpu_eltwise_common.h"
#include "kselftest_harness.h"
#include "ir.h"
#include "aicpu/aicpu.h"
#include "om_read.h"
#include "om_format.h"
#include "acl/acl_base_rt.h"

/* What each dtype must be, written out by hand, in the list's order. */
static const struct want {
	uint32_t dtype;
	const char *uapi;	/* DRM_VNPU_DTYPE_ suffix */
	uint32_t size;
	int cls;
	const char *name;
	int onnx;		/* TensorProto.DataType */
} want[] = {
	{ DRM_VNPU_DTYPE_FLOAT, "FLOAT", 4, VNPU_DTYPE_CLASS_FLOAT, "float32", 1 },
	{ DRM_VNPU_DTYPE_FLOAT16, "FLOAT16", 2, VNPU_DTYPE_CLASS_FLOAT, "float16", 10 },
	{ DRM_VNPU_DTYPE_BF16, "BF16", 2, VNPU_DTYPE_CLASS_FLOAT, "bfloat16", 16 },
	{ DRM_VNPU_DTYPE_DOUBLE, "DOUBLE", 8, VNPU_DTYPE_CLASS_FLOAT, "float64", 11 },
	{ DRM_VNPU_DTYPE_INT8, "INT8", 1, VNPU_DTYPE_CLASS_INT, "int8", 3 },
	{ DRM_VNPU_DTYPE_INT16, "INT16", 2, VNPU_DTYPE_CLASS_INT, "int16", 5 },
	{ DRM_VNPU_DTYPE_INT32, "INT32", 4, VNPU_DTYPE_CLASS_INT, "int32", 6 },
	{ DRM_VNPU_DTYPE_INT64, "INT64", 8, VNPU_DTYPE_CLASS_INT, "int64", 7 },
	{ DRM_VNPU_DTYPE_UINT8, "UINT8", 1, VNPU_DTYPE_CLASS_UINT, "uint8", 2 },
	{ DRM_VNPU_DTYPE_UINT16, "UINT16", 2, VNPU_DTYPE_CLASS_UINT, "uint16", 4 },
	{ DRM_VNPU_DTYPE_UINT32, "UINT32", 4, VNPU_DTYPE_CLASS_UINT, "uint32", 12 },
	{ DRM_VNPU_DTYPE_UINT64, "UINT64", 8, VNPU_DTYPE_CLASS_UINT, "uint64", 13 },
	{ DRM_VNPU_DTYPE_BOOL, "BOOL", 1, VNPU_DTYPE_CLASS_BOOL, "bool", 9 },
};
#define NWANT ((int)(sizeof(want) / sizeof(want[0])))

/* The list as its users see it. */
static const struct row {
	uint32_t dtype;
	const char *uapi;
	uint32_t size;
	size_t ctype_size;
	int cls;
	const char *name;
} list[] = {
#define ROW(NAME, type, size, cls, name) \
	{ DRM_VNPU_DTYPE_##NAME, #NAME, size, sizeof(type), VNPU_DTYPE_CLASS_##cls, name },
#define VNPU_DTYPE ROW
#include "vnpu_dtypes.def"
};
#define NLIST ((int)(sizeof(list) / sizeof(list[0])))

/* The values probed: every slot a dtype could take and then some. */
#define PROBE_MAX 300

static const struct want *wanted(uint32_t dtype)
{
	for (int k = 0; k < NWANT; k++)
		if (want[k].dtype == dtype)
			return &want[k];
	return NULL;
}

TEST(list_is_what_each_dtype_must_be)
{
	ASSERT_EQ(NWANT, NLIST);
	for (int k = 0; k < NLIST; k++) {
		EXPECT_EQ(want[k].dtype, list[k].dtype);
		EXPECT_STREQ(want[k].uapi, list[k].uapi);
		EXPECT_EQ(want[k].size, list[k].size);
		EXPECT_EQ(list[k].size, list[k].ctype_size);
		EXPECT_EQ(want[k].cls, list[k].cls);
		EXPECT_STREQ(want[k].name, list[k].name);
		EXPECT_GT(VNPU_DTYPE_SLOTS, list[k].dtype);
		/* the ACL numbering is the UAPI's */
		EXPECT_EQ(want[k].dtype, (uint32_t)ir_dtype_from_onnx(want[k].onnx));
	}
}

TEST(lookups_know_exactly_the_list)
{
	for (uint32_t v = 0; v < PROBE_MAX; v++) {
		const struct want *w = wanted(v);

		EXPECT_EQ(w ? w->size : 0, vnpu_dtype_size(v));
		EXPECT_EQ(w ? w->cls : 0, vnpu_dtype_class(v));
		if (w) {
			EXPECT_STREQ(w->name, vnpu_dtype_name(v));
		} else {
			EXPECT_EQ(NULL, vnpu_dtype_name(v));
		}
		EXPECT_EQ(w && w->cls == VNPU_DTYPE_CLASS_FLOAT, vnpu_dtype_is_fp(v));
		EXPECT_EQ(w && (w->cls == VNPU_DTYPE_CLASS_INT ||
				w->cls == VNPU_DTYPE_CLASS_UINT), vnpu_dtype_is_int(v));
		EXPECT_EQ(!!w, vnpu_dtype_is_compute(v));
	}
	EXPECT_EQ(0, vnpu_dtype_size(UINT32_MAX));
	EXPECT_EQ(0, vnpu_dtype_class(1u << 31));
}

TEST(libacl_sizes_agree)
{
	for (uint32_t v = 0; v < PROBE_MAX; v++) {
		if (v == AICPU_DT_STRING) {
			EXPECT_EQ(AICPU_STR_HEAD, aicpu_dtype_size(v));
			EXPECT_EQ(OM_STRING_ELEM_BYTES, om_dtype_size(v));
			continue;
		}
		EXPECT_EQ(vnpu_dtype_size(v), aicpu_dtype_size(v));
		EXPECT_EQ(vnpu_dtype_size(v), om_dtype_size(v));
		EXPECT_EQ(vnpu_dtype_is_fp(v), aicpu_dtype_float(v));
	}
	/* the public answer agrees on every device dtype */
	for (int k = 0; k < NWANT; k++)
		EXPECT_EQ(want[k].size, aclDataTypeSize((aclDataType)want[k].dtype));
}

TEST(atc_agrees)
{
	for (int v = -1; v < PROBE_MAX; v++) {
		const struct want *w = v < 0 ? NULL : wanted((uint32_t)v);

		if (v == OM_DTYPE_STRING) {
			EXPECT_EQ(OM_STRING_ELEM_BYTES, ir_dtype_size(v));
			EXPECT_STREQ("string", ir_dtype_name(v));
			continue;
		}
		EXPECT_EQ(w ? w->size : 0, ir_dtype_size(v));
		EXPECT_STREQ(w ? w->name : "undefined", ir_dtype_name(v));
		EXPECT_EQ(w && w->cls == VNPU_DTYPE_CLASS_FLOAT, ir_dtype_is_float(v));
	}
	EXPECT_EQ(DRM_VNPU_DTYPE_FLOAT, DT_FLOAT);
	EXPECT_EQ(DRM_VNPU_DTYPE_BF16, DT_BF16);
	EXPECT_EQ(DRM_VNPU_DTYPE_UINT64, DT_UINT64);
}

/* ONNX numbers to dtypes and back: one ONNX number per dtype of the list. */
TEST(onnx_round_trip)
{
	int hits[VNPU_DTYPE_SLOTS] = { 0 };

	for (int t = -2; t < 64; t++) {
		int d = ir_dtype_from_onnx(t);

		if (d == -2)
			continue;
		if (d == OM_DTYPE_STRING) {
			EXPECT_EQ(8, t);
			continue;
		}
		ASSERT_NE(NULL, wanted((uint32_t)d));
		EXPECT_EQ(wanted((uint32_t)d)->onnx, t);
		hits[d]++;
	}
	for (int k = 0; k < NWANT; k++)
		EXPECT_EQ(1, hits[want[k].dtype]);
}

static const int64_t ints[] = {
	0, 1, -1, 2, 127, 128, -128, -129, 255, 256, 32767, 32768, -32769,
	65535, 65536, INT32_MAX, (int64_t)INT32_MIN - 1, 4294967295ll,
	1ll << 40, -(1ll << 53) - 1, INT64_MAX, INT64_MIN,
};
#define NINTS ((int)(sizeof(ints) / sizeof(ints[0])))

static const double reals[] = { 0.0, -0.0, 1.0, -2.0, 0.5, 0.25, 1024.0, -3.75 };
#define NREALS ((int)(sizeof(reals) / sizeof(reals[0])))

/*
 * The three element accessors (the operator library's, the AI CPU
 * operators', atc's) store the same bytes and read back the same values:
 * integers and BOOL wrap or test alike, exactly representable reals
 * round-trip in every floating dtype.
 */
TEST(element_access_agrees)
{
	for (int k = 0; k < NWANT; k++) {
		uint32_t d = want[k].dtype;
		uint8_t a[8], b[8], c[8];
		struct aicpu_tensor at = { .data = b, .dtype = d, .cap = 8 };
		struct ir_tensor it = { .data = c, .dtype = (int)d };

		for (int i = 0; want[k].cls != VNPU_DTYPE_CLASS_FLOAT && i < NINTS; i++) {
			memset(a, 0xa5, 8);
			memset(b, 0xa5, 8);
			memset(c, 0xa5, 8);
			vnpu_store_s64(a, d, 0, ints[i]);
			aicpu_put_int(&at, 0, ints[i]);
			ir_put_i64(&it, 0, ints[i]);
			EXPECT_EQ(0, memcmp(a, b, 8)) TH_LOG("%s %lld", want[k].uapi,
							     (long long)ints[i]);
			EXPECT_EQ(0, memcmp(a, c, 8)) TH_LOG("%s %lld", want[k].uapi,
							     (long long)ints[i]);
			EXPECT_EQ(vnpu_load_s64(a, d, 0), aicpu_get_int(&at, 0));
			EXPECT_EQ(vnpu_load_s64(a, d, 0), ir_get_i64(&it, 0));
			/* the host sides read UINT64 as signed for a double */
			if (d == DRM_VNPU_DTYPE_UINT64)
				continue;
			EXPECT_EQ(vnpu_load_f64(a, d, 0), aicpu_get(&at, 0));
			EXPECT_EQ(vnpu_load_f64(a, d, 0), ir_get_f64(&it, 0));
		}
		for (int i = 0; want[k].cls == VNPU_DTYPE_CLASS_FLOAT && i < NREALS; i++) {
			memset(a, 0xa5, 8);
			memset(b, 0xa5, 8);
			memset(c, 0xa5, 8);
			vnpu_store_f64(a, d, 0, reals[i]);
			aicpu_put(&at, 0, reals[i]);
			ir_put_f64(&it, 0, reals[i]);
			EXPECT_EQ(0, memcmp(a, b, 8)) TH_LOG("%s %g", want[k].uapi, reals[i]);
			EXPECT_EQ(0, memcmp(a, c, 8)) TH_LOG("%s %g", want[k].uapi, reals[i]);
			EXPECT_EQ(reals[i], vnpu_load_f64(a, d, 0));
			EXPECT_EQ(reals[i], aicpu_get(&at, 0));
			EXPECT_EQ(reals[i], ir_get_f64(&it, 0));
		}
	}
}

/*
 * The elementwise staging (strided runs) against the element accessors,
 * in every dtype: the same values and bytes, with UINT64 staged to fp32
 * through double as it always was.
 */
TEST(elementwise_staging_agrees)
{
	enum { N = 8, ST = 3 };

	for (int k = 0; k < NWANT; k++) {
		uint32_t d = want[k].dtype;
		uint64_t buf[N * ST], out[N * ST], ref[N * ST];
		s64 si[N], so[N];
		float f[N];
		double g[N];

		memset(buf, 0, sizeof(buf));
		for (int i = 0; i < N; i++)
			vnpu_store_s64(buf, d, i * ST, ints[(i * 5 + k) % NINTS]);
		vnpu_elt_load_s64(si, buf, d, 0, ST, N);
		vnpu_elt_load_f32(f, buf, d, 0, ST, N);
		vnpu_elt_load_f64(g, buf, d, 0, ST, N);
		for (int i = 0; i < N; i++) {
			float want_f = d == DRM_VNPU_DTYPE_UINT64 ||
				       want[k].cls == VNPU_DTYPE_CLASS_FLOAT ?
				       (float)vnpu_load_f64(buf, d, i * ST) :
				       (float)vnpu_load_s64(buf, d, i * ST);

			EXPECT_EQ(vnpu_load_s64(buf, d, i * ST), si[i]);
			EXPECT_EQ(0, memcmp(&want_f, &f[i], sizeof(float)))
				TH_LOG("%s element %d", want[k].uapi, i);
			EXPECT_EQ(vnpu_load_f64(buf, d, i * ST), g[i]);
			so[i] = ints[(i * 3 + k + 1) % NINTS];
		}
		memset(out, 0x5a, sizeof(out));
		memset(ref, 0x5a, sizeof(ref));
		vnpu_elt_store_s64(out, d, 0, ST, so, N);
		for (int i = 0; i < N; i++)
			vnpu_store_s64(ref, d, i * ST, so[i]);
		EXPECT_EQ(0, memcmp(out, ref, sizeof(out))) TH_LOG("%s", want[k].uapi);
	}
}

TEST_HARNESS_MAIN
