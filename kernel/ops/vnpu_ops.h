/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * vnpu operator library: freestanding C shared by the module (as FPU
 * units) and the host (tests, benchmarks). No libc, no kernel APIs: the
 * only includes are the fixed-width types and the UAPI, which defines the
 * operator ids and attributes.
 *
 * An operator is a struct vnpu_op_impl: check() validates dtypes, shapes
 * and attributes (integer code only), tiles() says how many independent
 * pieces of work the call splits into, and run() computes one piece. The
 * module runs each piece between kernel_fpu_begin() and kernel_fpu_end(),
 * so a piece must be short (about 1 ms of work, and never more than
 * VNPU_OPS_PIECE_WORK element-operations). Data travels by
 * pointer only; no float or double crosses into module code, which is
 * why the helpers operators share live in vnpu_ops_impl.h.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#ifndef __VNPU_OPS_H__
#define __VNPU_OPS_H__

#include <vnpu_ops_types.h>
#include <uapi/drm/vnpu_accel.h>
#include "vnpu_dtype.h"

/*
 * For a stack array or struct written in full before it is read, on a hot
 * path: Debian's kernels zero every stack variable on entry
 * (CONFIG_INIT_STACK_ALL_ZERO), and under QEMU's emulation the `rep stos`
 * doing it costs a trip through the translator's loop per 8 bytes, about
 * 7 % of a small elementwise task. Nothing else changes.
 */
#if defined(__has_attribute)
#if __has_attribute(__uninitialized__)
#define VNPU_NOINIT __attribute__((__uninitialized__))
#endif
#endif
#ifndef VNPU_NOINIT
#define VNPU_NOINIT
#endif

#define VNPU_OPS_MAX_RANK	DRM_VNPU_MAX_RANK
#define VNPU_OPS_MAX_TENSORS	DRM_VNPU_MAX_TENSORS
/* Per-engine scratch memory an operator may use (GEMM packing, ...). */
#define VNPU_OPS_SCRATCH	(2u << 20)
/* Elements an elementwise piece handles. */
#define VNPU_OPS_TILE_ELEMS	(64u << 10)
/*
 * Memory all pieces of one call share (the partial results of split rows):
 * the last VNPU_OPS_SHARED bytes of the scratch memory of the engine that
 * owns the call. Pieces of a call with phases use only the first
 * VNPU_OPS_SCRATCH - VNPU_OPS_SHARED bytes of their own scratch memory.
 */
#define VNPU_OPS_SHARED		(64u << 10)
/* Phases a call may have (see struct vnpu_op_impl's phases). */
#define VNPU_OPS_MAX_PHASES	4

/*
 * Work one piece may do, in element-operations (an element read and
 * accumulated, a window tap, a multiply-add of the GEMM micro-kernel):
 * tens of milliseconds natively, a few seconds in a TCG guest, far below
 * the soft-lockup threshold. The engines run a piece with preemption off,
 * so every check() rejects a call whose smallest piece would exceed it
 * (see Documentation/ops.md, "Piece work").
 */
#define VNPU_OPS_PIECE_WORK	BIT_ULL(26)

/* Error codes of check(), the values of the kernel's errnos. */
#define VNPU_OPS_EINVAL		22
#define VNPU_OPS_EOPNOTSUPP	95

/* CPU features the library may use, found by the caller. */
#define VNPU_CPU_AVX2_FMA	BIT(0)
#define VNPU_CPU_AVX512		BIT(1)
#define VNPU_CPU_F16C		BIT(2)
/*
 * x86-64's baseline vector unit, always there; code that has a portable
 * path besides its SSE2 one takes the portable path without this bit, so
 * tests can compare the two.
 */
#define VNPU_CPU_SSE2		BIT(3)

/**
 * struct vnpu_tview - a tensor as an operator sees it
 * @data: address of element [0, 0, ...]
 * @dtype: DRM_VNPU_DTYPE_*
 * @rank: number of dimensions
 * @shape: size of each dimension
 * @strides: distance in elements between neighbours of each dimension
 *	     (non-negative; 0 repeats an element, as broadcasting does)
 */
struct vnpu_tview {
	void *data;
	u32 dtype;
	u32 rank;
	s64 shape[VNPU_OPS_MAX_RANK];
	s64 strides[VNPU_OPS_MAX_RANK];
};

/**
 * struct vnpu_op_call - one operator invocation
 * @op: enum drm_vnpu_op
 * @num_in: inputs, at @t[0 .. num_in - 1]
 * @num_out: outputs, after the inputs
 * @has_attrs: @attrs came from the caller (else defaults apply)
 * @attrs: attributes
 * @t: the tensors
 * @scratch: VNPU_OPS_SCRATCH bytes of private memory, 64-byte aligned
 * @cpu: VNPU_CPU_* features available
 * @shared: VNPU_OPS_SHARED bytes every piece of the call sees, or NULL for
 *	    the end of @scratch (the caller owning the call leaves it NULL;
 *	    an engine helping with another engine's call points it at the
 *	    owner's); read it with vnpu_ops_shared()
 * @bad_data: where run() reports, through vnpu_op_bad_data(), values it
 *	      read from a tensor that it cannot compute with (parameters
 *	      that only exist at run time, which check() never sees); the
 *	      caller then fails the task. Helpers copy the owner's pointer,
 *	      so every piece reports to one word. NULL: nobody listens.
 * @beat: the caller's heartbeat, called through vnpu_op_beat() inside a
 *	  long piece (a GEMM row sliver, a convolution output row or
 *	  channel), so that a watcher sees a piece of seconds under emulation
 *	  move on; it must not sleep (the piece runs with preemption off).
 *	  Helpers copy the owner's, so their beats count for the owner's
 *	  job. NULL: nobody listens.
 * @beat_arg: @beat's argument
 */
struct vnpu_op_call {
	u32 op;
	u32 num_in;
	u32 num_out;
	u32 has_attrs;
	struct drm_vnpu_op_attrs attrs;
	struct vnpu_tview t[VNPU_OPS_MAX_TENSORS];
	void *scratch;
	u32 cpu;
	void *shared;
	u32 *bad_data;
	void (*beat)(void *arg);
	void *beat_arg;
};

/*
 * A long piece is still moving. About every VNPU_OPS_BEAT_WORK
 * element-operations, so that a piece of the largest size beats dozens
 * of times (see Documentation/ops.md, "Piece work").
 */
#define VNPU_OPS_BEAT_WORK	BIT_ULL(20)

static inline void vnpu_op_beat(const struct vnpu_op_call *c)
{
	if (c && c->beat)
		c->beat(c->beat_arg);
}

/*
 * @done more element-operations of a piece: beat once @work, the count
 * since the last beat, reaches VNPU_OPS_BEAT_WORK.
 */
static inline void vnpu_op_beat_work(const struct vnpu_op_call *c, u64 *work,
				     u64 done)
{
	*work += done;
	if (*work >= VNPU_OPS_BEAT_WORK) {
		vnpu_op_beat(c);
		*work = 0;
	}
}

/*
 * run() found data it cannot compute with: the caller fails the task
 * with -EINVAL once every piece has ended. The piece that reports writes
 * nothing it could not write correctly; pieces already run or running
 * may have written their part of the outputs.
 */
static inline void vnpu_op_bad_data(const struct vnpu_op_call *c)
{
	if (c->bad_data)
		__atomic_store_n(c->bad_data, 1, __ATOMIC_RELAXED);
}

/* The memory shared by all pieces of @c (VNPU_OPS_SHARED bytes). */
static inline void *vnpu_ops_shared(const struct vnpu_op_call *c)
{
	if (c->shared)
		return c->shared;
	return (u8 *)c->scratch + VNPU_OPS_SCRATCH - VNPU_OPS_SHARED;
}

/**
 * struct vnpu_op_impl - an operator
 * @op: enum drm_vnpu_op
 * @name: for messages
 * @check: 0, or -VNPU_OPS_EINVAL for a call that can never run
 * @tiles: number of pieces, at least 1 (0 only for empty outputs)
 * @run: compute piece @tile (pieces are independent and may run in any
 *	 order, on any engine, unless @phases says otherwise)
 * @phases: optional, NULL for calls of one phase. Splits the pieces into
 *	    phases separated by barriers: fills @ends[i] with the number of
 *	    pieces of phases 0..i (the last one equal to tiles()) and returns
 *	    how many phases there are (1..VNPU_OPS_MAX_PHASES). Every piece
 *	    of a phase finishes before any piece of the next one starts;
 *	    pieces of one phase are independent and may run in any order,
 *	    on any engine. A phase passes partial results to the next in
 *	    vnpu_ops_shared(). Running the pieces one by one in index order
 *	    is always right, so simple callers can ignore phases.
 * @flags: VNPU_OP_* below; 0 (the default) is the safe choice
 *
 * Callers never call @check directly but vnpu_op_check(), which applies
 * the rules every operator shares before the operator's own.
 */
struct vnpu_op_impl {
	u32 op;
	const char *name;
	int (*check)(const struct vnpu_op_call *c);
	u64 (*tiles)(const struct vnpu_op_call *c);
	void (*run)(const struct vnpu_op_call *c, u64 tile);
	u32 (*phases)(const struct vnpu_op_call *c, u64 *ends);
	u32 flags;
};

/*
 * The operator may be called with tensors that have no elements next to
 * an output that has some. A tensor without elements reaches no memory,
 * so the module maps nothing for it and its data pointer is NULL, while
 * its strides are whatever the caller chose (up to 2^40). Only an
 * operator audited to touch such a tensor solely through loops bounded by
 * that tensor's own shape (a sum over an empty axis writing 0, a matrix
 * product of depth 0, a concatenation with an empty piece) may carry this
 * flag; every other operator gets such calls rejected by vnpu_op_check().
 */
#define VNPU_OP_EMPTY_OK	BIT(0)

/*
 * Whether a call can ever run: the library's shared rules, then the
 * operator's check(). Every caller uses this, never impl->check() itself.
 * The shared rules: tensor counts and ranks in range, and no tensor
 * without elements next to an output with elements unless the operator
 * has VNPU_OP_EMPTY_OK. Returns 0 or -VNPU_OPS_EINVAL.
 */
int vnpu_op_check(const struct vnpu_op_impl *impl,
		  const struct vnpu_op_call *c);

/*
 * The phases of a call (struct vnpu_op_impl's @phases, or one phase of
 * tiles() pieces): the number of phases, @ends as @phases fills it.
 */
u32 vnpu_op_phases(const struct vnpu_op_impl *impl,
		   const struct vnpu_op_call *c, u64 *ends);

/*
 * Whether @a * @b * @c element-operations fit in one piece
 * (VNPU_OPS_PIECE_WORK), without overflowing.
 */
static inline bool vnpu_piece_fits(u64 a, u64 b, u64 c)
{
	u64 ab, abc;

	if (__builtin_mul_overflow(a, b, &ab) ||
	    __builtin_mul_overflow(ab, c, &abc))
		return false;
	return abc <= VNPU_OPS_PIECE_WORK;
}

/* Find an operator; NULL when unknown. */
const struct vnpu_op_impl *vnpu_op_find(u32 op);

/* Floats vnpu_gemm_probe() works on: the widest variant's A, B and C. */
#define VNPU_GEMM_PROBE_KC	256
#define VNPU_GEMM_PROBE_FLOATS	(12 * VNPU_GEMM_PROBE_KC + \
				 VNPU_GEMM_PROBE_KC * 32 + 12 * 32)
u64 vnpu_gemm_probe(u32 cpu, float *buf);

/* Number of elements of a view (product of its shape). */
u64 vnpu_tview_elems(const struct vnpu_tview *v);

/* Whether a view has no elements: a dimension of size 0 (rank <= 8). */
static inline bool vnpu_tview_empty(const struct vnpu_tview *v)
{
	u32 d;

	for (d = 0; d < v->rank && d < VNPU_OPS_MAX_RANK; d++)
		if (!v->shape[d])
			return true;
	return false;
}

/*
 * Element offset of the last element a view reaches, for bounds checks:
 * sum over dims of (shape - 1) * stride. Returns -1 on overflow or for a
 * negative shape or stride; 0 for empty views (which touch nothing).
 */
s64 vnpu_tview_last(const struct vnpu_tview *v);

/*
 * Operator families: each file exports a table ending with an entry whose
 * op is 0.
 */
extern const struct vnpu_op_impl vnpu_ops_eltwise[];
extern const struct vnpu_op_impl vnpu_ops_unary[];
extern const struct vnpu_op_impl vnpu_ops_cast[];
extern const struct vnpu_op_impl vnpu_ops_reduce[];
extern const struct vnpu_op_impl vnpu_ops_norm[];
extern const struct vnpu_op_impl vnpu_ops_matmul[];
extern const struct vnpu_op_impl vnpu_ops_conv[];
extern const struct vnpu_op_impl vnpu_ops_move[];
extern const struct vnpu_op_impl vnpu_ops_sort[];
extern const struct vnpu_op_impl vnpu_ops_resize[];
extern const struct vnpu_op_impl vnpu_ops_bitwise[];
extern const struct vnpu_op_impl vnpu_ops_index[];
extern const struct vnpu_op_impl vnpu_ops_activation[];
extern const struct vnpu_op_impl vnpu_ops_dropout[];
extern const struct vnpu_op_impl vnpu_ops_scan[];
extern const struct vnpu_op_impl vnpu_ops_norm_axes[];
extern const struct vnpu_op_impl vnpu_ops_loss[];
extern const struct vnpu_op_impl vnpu_ops_resize_nd[];
extern const struct vnpu_op_impl vnpu_ops_pool_nd[];
extern const struct vnpu_op_impl vnpu_ops_conv_nd[];
extern const struct vnpu_op_impl vnpu_ops_quant[];
extern const struct vnpu_op_impl vnpu_ops_matmul_int[];
extern const struct vnpu_op_impl vnpu_ops_wq_matmul[];
extern const struct vnpu_op_impl vnpu_ops_grouped_matmul[];
extern const struct vnpu_op_impl vnpu_ops_unpool[];
extern const struct vnpu_op_impl vnpu_ops_grid_sample[];
extern const struct vnpu_op_impl vnpu_ops_roi_align[];
extern const struct vnpu_op_impl vnpu_ops_vpc[];
extern const struct vnpu_op_impl vnpu_ops_aipp[];
extern const struct vnpu_op_impl vnpu_ops_llm_solve[];
extern const struct vnpu_op_impl vnpu_ops_attn[];
extern const struct vnpu_op_impl vnpu_ops_rope[];

#endif /* __VNPU_OPS_H__ */
