// SPDX-License-Identifier: GPL-2.0-only
/*
 * vnpu: the module's side of the operator library. Everything that calls
 * into kernel/ops (FPU units) does so between kernel_fpu_begin() and
 * kernel_fpu_end(), one short piece at a time.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include <linux/fpu.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include <asm/cpufeature.h>

#include "vnpu_opcall.h"
#include "ops/vnpu_ops.h"

static u32 vnpu_cpu_features;

/* GEMM rate of the variant @cpu selects, in flops per microsecond. */
static u64 vnpu_simd_rate(u32 cpu, float *buf)
{
	u64 start = ktime_get_ns(), ns, flops = 0;

	do {
		kernel_fpu_begin();
		flops += vnpu_gemm_probe(cpu, buf);
		kernel_fpu_end();
		ns = ktime_get_ns() - start;
	} while (ns < 2 * NSEC_PER_MSEC);
	return div64_u64(flops * NSEC_PER_USEC, ns);
}

/*
 * simd=auto: the widest unit, unless a narrower one runs the GEMM
 * micro-kernel at least twice as fast. Under an emulator (QEMU's TCG)
 * each fused multiply-add lane is a call into its soft-float library:
 * there SSE2 ran this probe at 112 flop/us and AVX2+FMA at 7. On real
 * hardware the widest wins. The margin keeps the choice stable from load
 * to load.
 */
static u32 vnpu_simd_pick(u32 features)
{
	static const u32 narrower[] = { VNPU_CPU_AVX512, VNPU_CPU_AVX2_FMA };
	u64 best_rate, rate, first;
	float *buf;
	u32 best = features, cand = features;
	size_t i;

	buf = kvmalloc_array(VNPU_GEMM_PROBE_FLOATS, sizeof(*buf), GFP_KERNEL);
	if (!buf)
		return features;
	/*
	 * Values in [1, 2) with scattered mantissas, written as bits (no FPU
	 * needed): products that round, as real data's do.
	 */
	for (i = 0; i < VNPU_GEMM_PROBE_FLOATS; i++)
		((u32 *)buf)[i] = 0x3f800000 | ((i * 2654435761u) & 0x7fffff);
	best_rate = vnpu_simd_rate(features, buf);
	first = best_rate;
	for (i = 0; i < ARRAY_SIZE(narrower); i++) {
		if (!(cand & narrower[i]))
			continue;
		cand &= ~narrower[i];
		rate = vnpu_simd_rate(cand, buf);
		if (rate >= 2 * best_rate) {
			best = cand;
			best_rate = rate;
		}
	}
	kvfree(buf);
	/*
	 * A narrower unit that wins by that much means an emulator: there
	 * SSE2 instructions cost several integer ones too (3 to 19 ns each
	 * against 0.3 to 2 under TCG), so code with a portable path besides
	 * its SSE2 one (the VPC's resampling) takes the portable one.
	 */
	if (best != features) {
		best &= ~VNPU_CPU_SSE2;
		pr_info("vnpu: simd=auto: the narrower unit runs GEMM %llu flop/us against %llu; using it\n",
			best_rate, first);
	}
	return best;
}

/* The vector-unit ceilings the simd parameter names, widest first. */
static const struct {
	const char *name;
	u32 drop;		/* the feature bits the ceiling removes */
} vnpu_simd_caps[] = {
	{ "avx512", 0 },
	{ "avx2", VNPU_CPU_AVX512 },
	{ "sse2", VNPU_CPU_AVX512 | VNPU_CPU_AVX2_FMA },
};

/**
 * vnpu_ops_setup() - note which vector units the operators may use
 * @simd: the simd module parameter: "auto" (timed: vnpu_simd_pick()) or a
 *	ceiling from vnpu_simd_caps
 *
 * Return: 0, or -EINVAL for a name it does not know.
 */
int vnpu_ops_setup(const char *simd)
{
	u32 drop = 0;
	size_t i;

	if (boot_cpu_has(X86_FEATURE_XMM2))
		vnpu_cpu_features |= VNPU_CPU_SSE2;
	if (boot_cpu_has(X86_FEATURE_AVX2) && boot_cpu_has(X86_FEATURE_FMA))
		vnpu_cpu_features |= VNPU_CPU_AVX2_FMA;
	if (boot_cpu_has(X86_FEATURE_AVX512F) &&
	    boot_cpu_has(X86_FEATURE_AVX512BW) &&
	    boot_cpu_has(X86_FEATURE_AVX512VL))
		vnpu_cpu_features |= VNPU_CPU_AVX512;
	if (boot_cpu_has(X86_FEATURE_F16C))
		vnpu_cpu_features |= VNPU_CPU_F16C;
	if (!strcmp(simd, "auto")) {
		vnpu_cpu_features = vnpu_simd_pick(vnpu_cpu_features);
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(vnpu_simd_caps); i++)
		if (!strcmp(simd, vnpu_simd_caps[i].name))
			break;
	if (i == ARRAY_SIZE(vnpu_simd_caps)) {
		pr_err("vnpu: simd=%s is not auto, avx512, avx2 or sse2\n", simd);
		return -EINVAL;
	}
	drop = vnpu_simd_caps[i].drop;
	vnpu_cpu_features &= ~drop;
	return 0;
}

/**
 * vnpu_ops_simd_name() - the widest vector unit the operators use
 *
 * Return: "avx512", "avx2" or "sse2".
 */
const char *vnpu_ops_simd_name(void)
{
	if (vnpu_cpu_features & VNPU_CPU_AVX512)
		return "avx512";
	if (vnpu_cpu_features & VNPU_CPU_AVX2_FMA)
		return "avx2";
	return "sse2";
}

/**
 * vnpu_ops_features() - the VNPU_CPU_* features found at load
 *
 * Return: the feature bits.
 */
u32 vnpu_ops_features(void)
{
	return vnpu_cpu_features;
}

/**
 * vnpu_op_call_fill() - describe a KERNEL task's arguments to the library
 * @call: filled in; tensor data pointers are left NULL. It holds a zeroed
 *	or previously filled call: tensor slots past the tensor count are
 *	kept zero, so only the slots the last call used need clearing, not
 *	the whole 2.7 KB structure on every task.
 * @op: the operator
 * @ka: the validated-in-structure argument block entry
 */
void vnpu_op_call_fill(struct vnpu_op_call *call, u32 op,
		       const struct drm_vnpu_kernel_args *ka)
{
	u32 i, n = ka->num_inputs + ka->num_outputs;
	u32 old = min_t(u32, call->num_in + call->num_out,
			VNPU_OPS_MAX_TENSORS);

	if (old > n)
		memset(&call->t[n], 0, (old - n) * sizeof(call->t[0]));
	call->op = op;
	call->num_in = ka->num_inputs;
	call->num_out = ka->num_outputs;
	call->cpu = vnpu_cpu_features;
	call->shared = NULL;
	/* A helper's copy of another engine's call may still point there. */
	call->bad_data = NULL;
	call->beat = NULL;
	call->beat_arg = NULL;
	/* Like the slots, the attributes of a call without any stay zero. */
	if (ka->attr_size)
		memcpy(&call->attrs, &ka->tensors[n], sizeof(call->attrs));
	else if (call->has_attrs)
		memset(&call->attrs, 0, sizeof(call->attrs));
	call->has_attrs = !!ka->attr_size;
	for (i = 0; i < n; i++) {
		call->t[i].data = NULL;
		call->t[i].dtype = ka->tensors[i].dtype;
		call->t[i].rank = ka->tensors[i].rank;
		memcpy(call->t[i].shape, ka->tensors[i].shape,
		       sizeof(call->t[i].shape));
		memcpy(call->t[i].strides, ka->tensors[i].strides,
		       sizeof(call->t[i].strides));
	}
}

/**
 * vnpu_ops_check() - does the operator accept these tensors and attributes?
 * @op: enum drm_vnpu_op
 * @ka: the arguments (tensor descriptors already checked one by one)
 * @scratch: a call to fill, allocated here on first use and reused for
 *	the batch's other tasks (one allocation a batch, not one a task);
 *	the caller kfree()s it
 *
 * Return: 0, -ENOMEM, or -EINVAL for an unknown operator or a call it
 * rejects.
 */
int vnpu_ops_check(u32 op, const struct drm_vnpu_kernel_args *ka,
		   struct vnpu_op_call **scratch)
{
	const struct vnpu_op_impl *impl;
	struct vnpu_op_call *call = *scratch;
	int ret;

	if (!call) {
		/* Zeroed: vnpu_op_call_fill() relies on empty slots. */
		call = kzalloc(sizeof(*call), GFP_KERNEL);
		if (!call)
			return -ENOMEM;
		*scratch = call;
	}
	vnpu_op_call_fill(call, op, ka);
	kernel_fpu_begin();
	impl = vnpu_op_find(op);
	ret = impl ? vnpu_op_check(impl, call) : -EINVAL;
	kernel_fpu_end();
	return ret ? -EINVAL : 0;
}

/**
 * vnpu_ops_prepare() - find a call's operator and its phases
 * @call: the call
 * @impl: out, the operator
 * @ends: out, VNPU_OPS_MAX_PHASES entries: pieces up to the end of each
 *	phase (the last one is the number of pieces)
 *
 * Return: the number of phases (at least 1), or -EINVAL for an unknown
 * operator.
 */
int vnpu_ops_prepare(struct vnpu_op_call *call,
		     const struct vnpu_op_impl **impl, u64 *ends)
{
	int n = -EINVAL;

	kernel_fpu_begin();
	*impl = vnpu_op_find(call->op);
	if (*impl)
		n = vnpu_op_phases(*impl, call, ends);
	kernel_fpu_end();
	return n;
}

/**
 * vnpu_ops_run_tile() - compute one piece in an FPU section
 * @impl: the operator
 * @call: the call
 * @tile: the piece
 */
void vnpu_ops_run_tile(const struct vnpu_op_impl *impl,
		       struct vnpu_op_call *call, u64 tile)
{
	kernel_fpu_begin();
	impl->run(call, tile);
	kernel_fpu_end();
}

/**
 * vnpu_op_call_alloc() - a call with its scratch memory, for one engine
 *
 * Return: the call or NULL.
 */
struct vnpu_op_call *vnpu_op_call_alloc(void)
{
	struct vnpu_op_call *call;

	call = kzalloc(sizeof(*call), GFP_KERNEL);
	if (!call)
		return NULL;
	call->scratch = vmalloc(VNPU_OPS_SCRATCH);
	if (!call->scratch) {
		kfree(call);
		return NULL;
	}
	return call;
}

/**
 * vnpu_op_call_free() - free a call from vnpu_op_call_alloc()
 * @call: the call, or NULL
 */
void vnpu_op_call_free(struct vnpu_op_call *call)
{
	if (!call)
		return;
	vfree(call->scratch);
	kfree(call);
}
