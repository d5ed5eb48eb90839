// SPDX-License-Identifier: MIT
/*
 * aclnnQuantMatmulV2 on the real driver against a C reference of CANN's
 * formula, out = fp16((x1 @ x2 + bias) * deqScale): a batched x1 read
 * through a strided view, x2 transposed (adjX2) and broadcast over the
 * batch, the scales packed in UINT64 as CANN does (align(n, 16) of
 * them), and without bias; QuantMatmul with one float scale; bad dtypes,
 * shapes and scales (161002), NULLs (161001).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclnnop/aclnn_quant_matmul_v2.h"
#include "aclnnop/aclnn_quant_matmul.h"

/* The harness's setjmp and the larger test bodies trip -Wclobbered. */
#pragma GCC diagnostic ignored "-Wclobbered"
#include "kselftest_harness.h"

#include "aclnn_test_util.h"

/* IEEE half to float (normal, subnormal, zero; no Inf/NaN here). */
static float half_to_float(uint16_t h)
{
	int e = (h >> 10) & 31, m = h & 1023;
	float v = e ? ldexpf((float)(m | 1024), e - 25) : ldexpf((float)m, -24);

	return h & 0x8000 ? -v : v;
}

enum { B = 2, M = 3, K = 5, N = 4, T = 16 };

TEST_F(nn, quant_matmul_v2)
{
	int8_t x1[B * M * 2 * K], x2[N * K];
	int32_t bias[N];
	uint64_t deq[T];
	float scale[N] = { 0.5f, 0.0125f, 1.0f / 3, 2.0f };
	uint16_t o[B * M * N];
	int64_t s1[3] = { B, M, K }, st1[3] = { M * 2 * K, 2 * K, 2 };
	int64_t s2[2] = { N, K }, sb[1] = { N }, sd[1] = { T }, sd5[1] = { 5 };
	int64_t so[3] = { B, M, N }, so2[2] = { M, N }, sk[2] = { N, K + 1 };
	aclTensor *t1, *t2, *tb, *td, *to, *tbad, *tf, *t5, *tk, *ti;
	void *od;
	aclOpExecutor *ex;
	uint64_t ws;
	int b, i, j, k, nb, bad_n = 0;

	for (i = 0; i < (int)sizeof(x1); i++)
		x1[i] = (int8_t)((i * 37 + 11) % 255 - 127);
	for (i = 0; i < (int)sizeof(x2); i++)
		x2[i] = (int8_t)((i * 53 + 7) % 251 - 125);
	for (i = 0; i < N; i++)
		bias[i] = 1000 * i - 1500;
	memset(deq, 0, sizeof(deq));
	for (i = 0; i < N; i++) {
		uint32_t bits;

		memcpy(&bits, &scale[i], 4);
		deq[i] = bits;	/* the float32 scale in the low 32 bits */
	}
	t1 = view(s1, 3, st1, 0, sizeof(x1), ACL_INT8, dev(self, x1, sizeof(x1)));
	t2 = tens(s2, 2, ACL_INT8, dev(self, x2, sizeof(x2)));
	tb = tens(sb, 1, ACL_INT32, dev(self, bias, sizeof(bias)));
	td = tens(sd, 1, ACL_UINT64, dev(self, deq, sizeof(deq)));
	od = dev(self, NULL, sizeof(o));
	to = tens(so, 3, ACL_FLOAT16, od);
	for (nb = 0; nb < 2; nb++) {
		ASSERT_EQ(0, aclnnQuantMatmulV2GetWorkspaceSize(t1, t2, nb ? NULL : tb, td,
								 false, true, to, &ws, &ex));
		ASSERT_EQ(0, run(self, aclnnQuantMatmulV2, ws, ex));
		get(o, od, sizeof(o));
		for (b = 0; b < B; b++)
			for (i = 0; i < M; i++)
				for (j = 0; j < N; j++) {
					int32_t acc = nb ? 0 : bias[j];
					float want, got;

					for (k = 0; k < K; k++)
						acc += x1[(b * M + i) * 2 * K + 2 * k] * x2[j * K + k];
					want = (float)acc * scale[j];
					got = half_to_float(o[(b * M + i) * N + j]);
					/* one fp16 rounding: within half an ulp (2^-11) */
					bad_n += fabsf(got - want) > fabsf(want) / 2048 + 1e-7f;
				}
		EXPECT_EQ(0, bad_n) TH_LOG("bias %s", nb ? "none" : "given");
	}
	/* refusals: dtypes, deqScale length, k, out shape, NULLs */
	tf = tens(so, 3, ACL_FLOAT, od);
	EXPECT_EQ(INV, aclnnQuantMatmulV2GetWorkspaceSize(t1, t2, tb, td, false, true, tf,
							  &ws, &ex));
	ti = tens(s2, 2, ACL_INT32, od);
	EXPECT_EQ(INV, aclnnQuantMatmulV2GetWorkspaceSize(t1, ti, tb, td, false, true, to,
							  &ws, &ex));
	EXPECT_EQ(INV, aclnnQuantMatmulV2GetWorkspaceSize(t1, t2, td, td, false, true, to,
							  &ws, &ex));
	t5 = tens(sd5, 1, ACL_UINT64, od);
	EXPECT_EQ(INV, aclnnQuantMatmulV2GetWorkspaceSize(t1, t2, tb, t5, false, true, to,
							  &ws, &ex));
	tk = tens(sk, 2, ACL_INT8, od);
	EXPECT_EQ(INV, aclnnQuantMatmulV2GetWorkspaceSize(t1, tk, tb, td, false, true, to,
							  &ws, &ex));
	EXPECT_EQ(INV, aclnnQuantMatmulV2GetWorkspaceSize(t1, t2, tb, td, false, false, to,
							  &ws, &ex));
	tbad = tens(so2, 2, ACL_FLOAT16, od);
	EXPECT_EQ(INV, aclnnQuantMatmulV2GetWorkspaceSize(t1, t2, tb, td, false, true, tbad,
							  &ws, &ex));
	EXPECT_EQ(NUL, aclnnQuantMatmulV2GetWorkspaceSize(t1, t2, tb, NULL, false, true, to,
							  &ws, &ex));
	EXPECT_EQ(NUL, aclnnQuantMatmulV2GetWorkspaceSize(NULL, t2, tb, td, false, true, to,
							  &ws, &ex));
}

/* n past 2^40 (a stride-0 view) is refused in phase 1. */
TEST_F(nn, quant_matmul_v2_huge_n_refused)
{
	int64_t s1[2] = { 2, 3 }, s2[2] = { 3, 1LL << 41 }, so[2] = { 2, 1LL << 41 };
	int64_t sd[1] = { 1LL << 41 }, z2[2] = { 0, 0 }, z1[1] = { 0 };
	void *d = dev(self, NULL, 256);
	aclTensor *t1 = tens(s1, 2, ACL_INT8, d), *t2 = view(s2, 2, z2, 0, 1, ACL_INT8, d);
	aclTensor *td = view(sd, 1, z1, 0, 1, ACL_UINT64, d);
	aclTensor *to = view(so, 2, z2, 0, 1, ACL_FLOAT16, d);
	aclOpExecutor *ex;
	uint64_t ws;

	EXPECT_EQ(INV, aclnnQuantMatmulV2GetWorkspaceSize(t1, t2, NULL, td, false, false, to,
							  &ws, &ex));
}

TEST_F(nn, quant_matmul_float_scale)
{
	int8_t x1[M * K], x2[K * N];
	int32_t bias[N] = { 7, -100000, 0, 33 };
	uint16_t o[M * N];
	int64_t s1[2] = { M, K }, s2[2] = { K, N }, sb[1] = { N }, so[2] = { M, N };
	const float scale = 0.03125f;
	aclTensor *t1, *t2, *tb, *to;
	void *od;
	aclOpExecutor *ex;
	uint64_t ws;
	int i, j, k, bad_n = 0;

	for (i = 0; i < M * K; i++)
		x1[i] = (int8_t)(i * 29 % 256 - 128);
	for (i = 0; i < K * N; i++)
		x2[i] = (int8_t)(127 - i * 13 % 255);
	t1 = tens(s1, 2, ACL_INT8, dev(self, x1, sizeof(x1)));
	t2 = tens(s2, 2, ACL_INT8, dev(self, x2, sizeof(x2)));
	tb = tens(sb, 1, ACL_INT32, dev(self, bias, sizeof(bias)));
	od = dev(self, NULL, sizeof(o));
	to = tens(so, 2, ACL_FLOAT16, od);
	ASSERT_EQ(0, aclnnQuantMatmulGetWorkspaceSize(t1, t2, tb, scale, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnQuantMatmul, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < M; i++)
		for (j = 0; j < N; j++) {
			int32_t acc = bias[j];
			float want, got;

			for (k = 0; k < K; k++)
				acc += x1[i * K + k] * x2[k * N + j];
			want = (float)acc * scale;
			got = half_to_float(o[i * N + j]);
			bad_n += fabsf(got - want) > fabsf(want) / 2048 + 1e-7f;
		}
	EXPECT_EQ(0, bad_n);
	EXPECT_EQ(INV, aclnnQuantMatmulGetWorkspaceSize(t1, t2, tb, NAN, to, &ws, &ex));
	EXPECT_EQ(INV, aclnnQuantMatmulGetWorkspaceSize(t1, t1, tb, scale, to, &ws, &ex));
	EXPECT_EQ(NUL, aclnnQuantMatmulGetWorkspaceSize(t1, t2, tb, scale, NULL, &ws, &ex));
}

TEST_HARNESS_MAIN
