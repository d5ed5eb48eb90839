/* SPDX-License-Identifier: MIT */
/*
 * acl._nn: the aclnn two-phase operators for the vnpu_runtime package
 * (DeviceTensor and ops, python/vnpu_runtime/). Private: pyACL has no
 * aclnn layer, so this is shaped for speed and safety, not for pyACL.
 *
 *   Tensor(shape, strides, offset, dtype, addr, format=ACL_FORMAT_ND)
 *       an aclTensor describing device memory (strides in elements, None
 *       for contiguous); destroy() or garbage collection frees it.
 *   Workspace()
 *       a growing device buffer for one stream's operators: .size,
 *       .allocs (how many times it was allocated), .addr, free().
 *   op_id(name) -> int; op_names() -> tuple
 *   run(op_id, stream, workspace, *args) -> aclnnStatus
 *       phase 1 (GetWorkspaceSize), growth of the workspace if needed,
 *       phase 2 on the stream with the GIL released.
 *
 * Operators are rows of a table: CANN's two functions and a signature
 * string saying what each argument is, so one caller per signature (a
 * dozen) serves every operator. Arguments a Python program passes that do
 * not fit the signature raise TypeError/ValueError; what libascendcl
 * refuses comes back as its aclnnStatus.
 */
#include "acl_py.h"

#include <aclnnop/aclnn_add.h>
#include <aclnnop/aclnn_sub.h>
#include <aclnnop/aclnn_mul.h>
#include <aclnnop/aclnn_div.h>
#include <aclnnop/aclnn_maximum.h>
#include <aclnnop/aclnn_minimum.h>
#include <aclnnop/aclnn_matmul.h>
#include <aclnnop/aclnn_batch_matmul.h>
#include <aclnnop/aclnn_convolution.h>
#include <aclnnop/aclnn_relu.h>
#include <aclnnop/aclnn_gelu.h>
#include <aclnnop/aclnn_silu.h>
#include <aclnnop/aclnn_sigmoid.h>
#include <aclnnop/aclnn_tanh.h>
#include <aclnnop/aclnn_exp.h>
#include <aclnnop/aclnn_log.h>
#include <aclnnop/aclnn_sqrt.h>
#include <aclnnop/aclnn_neg.h>
#include <aclnnop/aclnn_abs.h>
#include <aclnnop/aclnn_leaky_relu.h>
#include <aclnnop/aclnn_softmax.h>
#include <aclnnop/aclnn_log_softmax.h>
#include <aclnnop/aclnn_layer_norm.h>
#include <aclnnop/aclnn_max_pool2d.h>
#include <aclnnop/aclnn_avgpool2d.h>
#include <aclnnop/aclnn_reduce_sum.h>
#include <aclnnop/aclnn_mean.h>
#include <aclnnop/aclnn_copy.h>

/* No tensor of ours has more dims than the device takes (NN_MAX_RANK). */
#define NN_PY_MAX_RANK	8
#define NN_PY_MAX_INTS	16
#define NN_PY_MAX_ARGS	12

/* ------------------------------------------------------------- Tensor -- */

typedef struct {
	PyObject_HEAD
	aclTensor *t;
	uint64_t serial;	/* unique per descriptor made: the executor cache's key */
} NnTensor;

/* Serials are handed out with the GIL held; 0 means "no tensor". */
static uint64_t nn_next_serial = 1;

static int int64_list(PyObject *seq, const char *what, int64_t *out, int max,
		      int *n)
{
	PyObject *fast = PySequence_Fast(seq, "expected a sequence of ints");
	Py_ssize_t len;

	if (!fast)
		return -1;
	len = PySequence_Fast_GET_SIZE(fast);
	if (len > max) {
		Py_DECREF(fast);
		PyErr_Format(PyExc_ValueError, "%s: at most %d values, got %zd", what, max, len);
		return -1;
	}
	for (Py_ssize_t i = 0; i < len; i++) {
		PyObject *o = PySequence_Fast_GET_ITEM(fast, i);
		long long v;

		if (!PyLong_Check(o)) {
			Py_DECREF(fast);
			PyErr_Format(PyExc_TypeError, "%s: expected ints, got %s", what,
				     Py_TYPE(o)->tp_name);
			return -1;
		}
		v = PyLong_AsLongLong(o);
		if (v == -1 && PyErr_Occurred()) {
			Py_DECREF(fast);
			PyErr_Clear();
			PyErr_Format(PyExc_ValueError, "%s: a value is out of int64's range", what);
			return -1;
		}
		out[i] = v;
	}
	Py_DECREF(fast);
	*n = (int)len;
	return 0;
}

/*
 * The storage the view reaches: offset + sum((dim - 1) * stride) + 1
 * elements, or 0 for an empty view. -1 when it overflows.
 */
static int64_t view_extent(const int64_t *dims, const int64_t *strides, int n, int64_t offset)
{
	int64_t end = offset, step;

	for (int i = 0; i < n; i++) {
		if (dims[i] == 0)
			return 0;
		if (__builtin_mul_overflow(dims[i] - 1, strides[i], &step) ||
		    __builtin_add_overflow(end, step, &end))
			return -1;
	}
	return end + 1;
}

static int tensor_init(PyObject *self, PyObject *args, PyObject *kw)
{
	static char *names[] = { "shape", "strides", "offset", "dtype", "addr", "format", NULL };
	NnTensor *o = (NnTensor *)self;
	PyObject *shape_o, *strides_o;
	int64_t dims[NN_PY_MAX_RANK], strides[NN_PY_MAX_RANK], extent;
	long long offset;
	int dtype, format = ACL_FORMAT_ND, nd = 0, ns = 0;
	void *addr;

	if (!PyArg_ParseTupleAndKeywords(args, kw, "OOLiO&|i:Tensor", names, &shape_o,
					 &strides_o, &offset, &dtype, conv_ptr, &addr, &format))
		return -1;
	if (int64_list(shape_o, "shape", dims, NN_PY_MAX_RANK, &nd) < 0)
		return -1;
	for (int i = 0; i < nd; i++)
		if (dims[i] < 0) {
			PyErr_SetString(PyExc_ValueError, "shape: negative dimension");
			return -1;
		}
	if (strides_o == Py_None) {
		int64_t s = 1;

		for (int i = nd; i-- > 0;) {
			strides[i] = s;
			if (dims[i] && __builtin_mul_overflow(s, dims[i], &s)) {
				PyErr_SetString(PyExc_ValueError, "shape: too many elements");
				return -1;
			}
		}
	} else {
		if (int64_list(strides_o, "strides", strides, NN_PY_MAX_RANK, &ns) < 0)
			return -1;
		if (ns != nd) {
			PyErr_Format(PyExc_ValueError, "%d strides for %d dims", ns, nd);
			return -1;
		}
		for (int i = 0; i < nd; i++)
			if (strides[i] < 0) {
				PyErr_SetString(PyExc_ValueError, "strides: negative stride");
				return -1;
			}
	}
	if (offset < 0) {
		PyErr_SetString(PyExc_ValueError, "offset: negative");
		return -1;
	}
	extent = view_extent(dims, strides, nd, offset);
	if (extent < 0) {
		PyErr_SetString(PyExc_ValueError, "the view's extent overflows int64");
		return -1;
	}
	/* Only device memory: the operators' tasks run through the device MMU. */
	if (addr && !is_device_addr((uintptr_t)addr)) {
		PyErr_SetString(PyExc_ValueError, "addr is not a device address (aclrtMalloc)");
		return -1;
	}
	if (o->t) {
		aclDestroyTensor(o->t);
		o->t = NULL;
	}
	/* Storage as one flat run of the elements the view reaches. */
	o->t = aclCreateTensor(dims, (uint64_t)nd, (aclDataType)dtype, strides, offset,
			       (aclFormat)format, &extent, 1, addr);
	o->serial = nn_next_serial++;
	if (!o->t) {
		/* Read once: reading the message consumes it. */
		const char *msg = aclGetRecentErrMsg();

		PyErr_Format(PyExc_ValueError, "aclCreateTensor refused it (dtype %d): %.300s",
			     dtype, msg ? msg : "");
		return -1;
	}
	return 0;
}

static void tensor_dealloc(PyObject *self)
{
	NnTensor *o = (NnTensor *)self;

	if (o->t)
		aclDestroyTensor(o->t);
	Py_TYPE(self)->tp_free(self);
}

static PyObject *tensor_destroy(PyObject *self, PyObject *noargs)
{
	NnTensor *o = (NnTensor *)self;

	if (o->t) {
		aclDestroyTensor(o->t);
		o->t = NULL;
		o->serial = 0;
	}
	Py_RETURN_NONE;
}

static PyObject *tensor_alive(PyObject *self, void *closure)
{
	return PyBool_FromLong(((NnTensor *)self)->t != NULL);
}

static PyMethodDef tensor_methods[] = {
	{ "destroy", tensor_destroy, METH_NOARGS, "Free the aclTensor (idempotent)." },
	{ NULL, NULL, 0, NULL }
};

static PyGetSetDef tensor_getset[] = {
	{ "alive", tensor_alive, NULL, "False once destroyed", NULL },
	{ NULL, NULL, NULL, NULL, NULL }
};

static PyTypeObject NnTensorType = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "acl._nn.Tensor",
	.tp_basicsize = sizeof(NnTensor),
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_doc = "Tensor(shape, strides, offset, dtype, addr, format=ACL_FORMAT_ND): an aclTensor",
	.tp_new = PyType_GenericNew,
	.tp_init = tensor_init,
	.tp_dealloc = tensor_dealloc,
	.tp_methods = tensor_methods,
	.tp_getset = tensor_getset,
};

/* ---------------------------------------------------------- Workspace -- */

typedef struct {
	PyObject_HEAD
	void *ptr;
	uint64_t size;
	uint64_t allocs;
} NnWorkspace;

static void ws_release(NnWorkspace *w)
{
	void *p = w->ptr;

	w->ptr = NULL;
	w->size = 0;
	if (p)
		NOGIL(aclrtFree(p));
}

static void ws_dealloc(PyObject *self)
{
	ws_release((NnWorkspace *)self);
	Py_TYPE(self)->tp_free(self);
}

static PyObject *ws_free(PyObject *self, PyObject *noargs)
{
	ws_release((NnWorkspace *)self);
	Py_RETURN_NONE;
}

static PyObject *ws_get_size(PyObject *self, void *c)
{
	return PyLong_FromUnsignedLongLong(((NnWorkspace *)self)->size);
}

static PyObject *ws_get_allocs(PyObject *self, void *c)
{
	return PyLong_FromUnsignedLongLong(((NnWorkspace *)self)->allocs);
}

static PyObject *ws_get_addr(PyObject *self, void *c)
{
	return ptr_obj(((NnWorkspace *)self)->ptr);
}

static PyMethodDef ws_methods[] = {
	{ "free", ws_free, METH_NOARGS,
	  "Free the buffer (the stream's work must be finished)." },
	{ NULL, NULL, 0, NULL }
};

static PyGetSetDef ws_getset[] = {
	{ "size", ws_get_size, NULL, "bytes allocated", NULL },
	{ "allocs", ws_get_allocs, NULL, "how many times the buffer was (re)allocated", NULL },
	{ "addr", ws_get_addr, NULL, "device address (0: none yet)", NULL },
	{ NULL, NULL, NULL, NULL, NULL }
};

static PyTypeObject NnWorkspaceType = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "acl._nn.Workspace",
	.tp_basicsize = sizeof(NnWorkspace),
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_doc = "Workspace(): a device buffer that grows to the largest operator's need",
	.tp_new = PyType_GenericNew,
	.tp_dealloc = ws_dealloc,
	.tp_methods = ws_methods,
	.tp_getset = ws_getset,
};

/*
 * Room for need bytes. The old buffer may still be read by queued work on
 * this stream, so the stream is drained before it is freed; growth at
 * least doubles, so that happens a handful of times per stream. The GIL
 * stays held: two threads growing one workspace must not both free it.
 */
static aclError ws_reserve(NnWorkspace *w, uint64_t need, aclrtStream stream)
{
	uint64_t size = w->size * 2;
	aclError r = ACL_SUCCESS;
	void *p = NULL;

	if (need <= w->size)
		return ACL_SUCCESS;
	if (size < need)
		size = need;
	size = (size + 4095) & ~(uint64_t)4095;
	if (w->ptr) {
		r = aclrtSynchronizeStream(stream);
		if (r != ACL_SUCCESS)
			return r;
		aclrtFree(w->ptr);
		w->ptr = NULL;
		w->size = 0;
	}
	r = aclrtMalloc(&p, size, ACL_MEM_MALLOC_HUGE_FIRST);
	if (r == ACL_SUCCESS) {
		w->ptr = p;
		w->size = size;
		w->allocs++;
	}
	return r;
}

/* ------------------------------------------------------ the operators -- */

/*
 * Argument kinds: T tensor, t tensor or None, S scalar (a Python number),
 * A int array (a sequence of ints), I int64, B bool, C int8, D double,
 * Y aclDataType (an int).
 */
union nn_arg {
	aclTensor *t;
	aclScalar *s;
	aclIntArray *a;
	int64_t i;
	bool b;
	int8_t c;
	double d;
	aclDataType y;
};

enum nn_sig {
	SIG_TT, SIG_TTST, SIG_TSST, SIG_TTT, SIG_TST, SIG_TTTC, SIG_TIT,
	SIG_TATTDTTT, SIG_TAAAABT, SIG_TAAABBICT, SIG_TABYT, SIG_TTTAAABAITC,
};

static const char *const sig_kinds[] = {
	[SIG_TT] = "TT", [SIG_TTST] = "TTST", [SIG_TSST] = "TSST", [SIG_TTT] = "TTT",
	[SIG_TST] = "TST", [SIG_TTTC] = "TTTC", [SIG_TIT] = "TIT",
	[SIG_TATTDTTT] = "TAttDTtt", [SIG_TAAAABT] = "TAAAABT",
	[SIG_TAAABBICT] = "TAAABBICT", [SIG_TABYT] = "TABYT",
	[SIG_TTTAAABAITC] = "TTtAAABAITC",
};

typedef aclnnStatus (*exec_fn)(void *, uint64_t, aclOpExecutor *, aclrtStream);
typedef void (*any_fn)(void);

struct nn_op {
	const char *name;
	enum nn_sig sig;
	any_fn prepare;		/* aclnnXxxGetWorkspaceSize, called as its sig says */
	exec_fn exec;
};

/*
 * The phase-1 functions differ only in const qualifiers from the caller
 * types below, which the ABI passes identically; storing them as any_fn
 * keeps the table one shape.
 */
#define OP(n, s, f) { n, SIG_##s, (any_fn)f##GetWorkspaceSize, (exec_fn)f }

static const struct nn_op nn_ops[] = {
	OP("add", TTST, aclnnAdd), OP("sub", TTST, aclnnSub),
	OP("adds", TSST, aclnnAdds), OP("subs", TSST, aclnnSubs),
	OP("mul", TTT, aclnnMul), OP("div", TTT, aclnnDiv),
	OP("muls", TST, aclnnMuls), OP("divs", TST, aclnnDivs),
	OP("maximum", TTT, aclnnMaximum), OP("minimum", TTT, aclnnMinimum),
	OP("matmul", TTTC, aclnnMatmul), OP("batch_matmul", TTTC, aclnnBatchMatMul),
	OP("convolution", TTTAAABAITC, aclnnConvolution),
	OP("relu", TT, aclnnRelu), OP("gelu", TT, aclnnGelu), OP("silu", TT, aclnnSilu),
	OP("sigmoid", TT, aclnnSigmoid), OP("tanh", TT, aclnnTanh), OP("exp", TT, aclnnExp),
	OP("log", TT, aclnnLog), OP("sqrt", TT, aclnnSqrt), OP("neg", TT, aclnnNeg),
	OP("abs", TT, aclnnAbs), OP("leaky_relu", TST, aclnnLeakyRelu),
	OP("softmax", TIT, aclnnSoftmax), OP("log_softmax", TIT, aclnnLogSoftmax),
	OP("layer_norm", TATTDTTT, aclnnLayerNorm),
	OP("max_pool2d", TAAAABT, aclnnMaxPool2d),
	OP("avg_pool2d", TAAABBICT, aclnnAvgPool2d),
	OP("reduce_sum", TABYT, aclnnReduceSum), OP("mean", TABYT, aclnnMean),
	OP("inplace_copy", TT, aclnnInplaceCopy),
};

#define NN_NOPS ((int)(sizeof(nn_ops) / sizeof(nn_ops[0])))

typedef aclOpExecutor **EXP;
typedef aclTensor *TP;
typedef aclScalar *SP;
typedef aclIntArray *AP;

static aclnnStatus nn_prepare(const struct nn_op *op, const union nn_arg *v,
			      uint64_t *ws, aclOpExecutor **ex)
{
	any_fn f = op->prepare;

	switch (op->sig) {
	case SIG_TT:
		return ((aclnnStatus (*)(TP, TP, uint64_t *, EXP))f)(v[0].t, v[1].t, ws, ex);
	case SIG_TTST:
		return ((aclnnStatus (*)(TP, TP, SP, TP, uint64_t *, EXP))f)(
			v[0].t, v[1].t, v[2].s, v[3].t, ws, ex);
	case SIG_TSST:
		return ((aclnnStatus (*)(TP, SP, SP, TP, uint64_t *, EXP))f)(
			v[0].t, v[1].s, v[2].s, v[3].t, ws, ex);
	case SIG_TTT:
		return ((aclnnStatus (*)(TP, TP, TP, uint64_t *, EXP))f)(
			v[0].t, v[1].t, v[2].t, ws, ex);
	case SIG_TST:
		return ((aclnnStatus (*)(TP, SP, TP, uint64_t *, EXP))f)(
			v[0].t, v[1].s, v[2].t, ws, ex);
	case SIG_TTTC:
		return ((aclnnStatus (*)(TP, TP, TP, int8_t, uint64_t *, EXP))f)(
			v[0].t, v[1].t, v[2].t, v[3].c, ws, ex);
	case SIG_TIT:
		return ((aclnnStatus (*)(TP, int64_t, TP, uint64_t *, EXP))f)(
			v[0].t, v[1].i, v[2].t, ws, ex);
	case SIG_TATTDTTT:
		return ((aclnnStatus (*)(TP, AP, TP, TP, double, TP, TP, TP, uint64_t *, EXP))f)(
			v[0].t, v[1].a, v[2].t, v[3].t, v[4].d, v[5].t, v[6].t, v[7].t, ws, ex);
	case SIG_TAAAABT:
		return ((aclnnStatus (*)(TP, AP, AP, AP, AP, bool, TP, uint64_t *, EXP))f)(
			v[0].t, v[1].a, v[2].a, v[3].a, v[4].a, v[5].b, v[6].t, ws, ex);
	case SIG_TAAABBICT:
		return ((aclnnStatus (*)(TP, AP, AP, AP, bool, bool, int64_t, int8_t, TP,
					 uint64_t *, EXP))f)(
			v[0].t, v[1].a, v[2].a, v[3].a, v[4].b, v[5].b, v[6].i, v[7].c, v[8].t,
			ws, ex);
	case SIG_TABYT:
		return ((aclnnStatus (*)(TP, AP, bool, aclDataType, TP, uint64_t *, EXP))f)(
			v[0].t, v[1].a, v[2].b, v[3].y, v[4].t, ws, ex);
	case SIG_TTTAAABAITC:
		return ((aclnnStatus (*)(TP, TP, TP, AP, AP, AP, bool, AP, int64_t, TP, int8_t,
					 uint64_t *, EXP))f)(
			v[0].t, v[1].t, v[2].t, v[3].a, v[4].a, v[5].a, v[6].b, v[7].a, v[8].i,
			v[9].t, v[10].c, ws, ex);
	}
	return ACLNN_ERR_PARAM_INVALID;
}

/* What a call made for its arguments, freed after it. */
struct nn_owned {
	aclScalar *s[NN_PY_MAX_ARGS];
	aclIntArray *a[NN_PY_MAX_ARGS];
	int ns, na;
};

/*
 * The executor cache: per operator, the repeatable executor of its last
 * call and that call's arguments as a key (tensor serials, scalar and int
 * values). A call with the same key skips phase 1, which is what a loop
 * of identical calls spends most of its host time on. Descriptors are
 * immutable and serials never reused, so an equal key means an equal
 * executor. An executor being launched by one thread (GIL released) is
 * neither reused nor replaced by another.
 */
#define NN_KEY_WORDS	64

struct nn_key {
	int64_t w[NN_KEY_WORDS];
	int n;
	bool ok;		/* false: too long to cache */
};

static void key_add(struct nn_key *k, int64_t v)
{
	if (k->n < NN_KEY_WORDS)
		k->w[k->n++] = v;
	else
		k->ok = false;
}

static int64_t double_bits(double d)
{
	int64_t v;

	memcpy(&v, &d, sizeof(v));
	return v;
}

static void owned_free(struct nn_owned *w)
{
	for (int i = 0; i < w->ns; i++)
		aclDestroyScalar(w->s[i]);
	for (int i = 0; i < w->na; i++)
		aclDestroyIntArray(w->a[i]);
}

static int long_arg(PyObject *o, int pos, long long lo, long long hi, long long *out)
{
	if (!PyLong_Check(o)) {
		PyErr_Format(PyExc_TypeError, "argument %d: expected an int, got %s", pos,
			     Py_TYPE(o)->tp_name);
		return -1;
	}
	*out = PyLong_AsLongLong(o);
	if ((*out == -1 && PyErr_Occurred()) || *out < lo || *out > hi) {
		PyErr_Clear();
		PyErr_Format(PyExc_ValueError, "argument %d: out of range [%lld, %lld]", pos,
			     lo, hi);
		return -1;
	}
	return 0;
}

static int convert_arg(char kind, PyObject *o, int pos, union nn_arg *v, struct nn_owned *w,
		       struct nn_key *k)
{
	long long l;

	switch (kind) {
	case 't':
		if (o == Py_None) {
			v->t = NULL;
			key_add(k, 0);
			return 0;
		}
		/* fall through */
	case 'T':
		if (!PyObject_TypeCheck(o, &NnTensorType)) {
			PyErr_Format(PyExc_TypeError, "argument %d: expected an acl._nn.Tensor, got %s",
				     pos, Py_TYPE(o)->tp_name);
			return -1;
		}
		v->t = ((NnTensor *)o)->t;
		if (!v->t) {
			PyErr_Format(PyExc_ValueError, "argument %d: the tensor was destroyed", pos);
			return -1;
		}
		key_add(k, (int64_t)((NnTensor *)o)->serial);
		return 0;
	case 'S': {
		/* Floats as float32 (the operators compute in it), ints as int64. */
		float f;
		int64_t i;

		if (PyFloat_Check(o)) {
			f = (float)PyFloat_AS_DOUBLE(o);
			v->s = aclCreateScalar(&f, ACL_FLOAT);
			key_add(k, 1);
			key_add(k, double_bits(f));
		} else if (PyLong_Check(o) && !PyBool_Check(o)) {
			if (long_arg(o, pos, INT64_MIN, INT64_MAX, &l) < 0)
				return -1;
			i = l;
			v->s = aclCreateScalar(&i, ACL_INT64);
			key_add(k, 2);
			key_add(k, i);
		} else {
			PyErr_Format(PyExc_TypeError, "argument %d: expected a number, got %s", pos,
				     Py_TYPE(o)->tp_name);
			return -1;
		}
		if (!v->s) {
			PyErr_NoMemory();
			return -1;
		}
		w->s[w->ns++] = v->s;
		return 0;
	}
	case 'A': {
		int64_t vals[NN_PY_MAX_INTS];
		int n = 0;

		if (!PyTuple_Check(o) && !PyList_Check(o)) {
			PyErr_Format(PyExc_TypeError, "argument %d: expected a tuple or list of ints",
				     pos);
			return -1;
		}
		if (int64_list(o, "int array", vals, NN_PY_MAX_INTS, &n) < 0)
			return -1;
		v->a = aclCreateIntArray(vals, (uint64_t)n);
		key_add(k, n);
		for (int j = 0; j < n; j++)
			key_add(k, vals[j]);
		if (!v->a) {
			PyErr_NoMemory();
			return -1;
		}
		w->a[w->na++] = v->a;
		return 0;
	}
	case 'I':
		if (long_arg(o, pos, INT64_MIN, INT64_MAX, &l) < 0)
			return -1;
		v->i = l;
		key_add(k, l);
		return 0;
	case 'B':
		if (!PyBool_Check(o) && !PyLong_Check(o)) {
			PyErr_Format(PyExc_TypeError, "argument %d: expected a bool", pos);
			return -1;
		}
		v->b = PyObject_IsTrue(o) == 1;
		key_add(k, v->b);
		return 0;
	case 'C':
		if (long_arg(o, pos, INT8_MIN, INT8_MAX, &l) < 0)
			return -1;
		v->c = (int8_t)l;
		key_add(k, l);
		return 0;
	case 'D':
		if (!PyFloat_Check(o) && !PyLong_Check(o)) {
			PyErr_Format(PyExc_TypeError, "argument %d: expected a number", pos);
			return -1;
		}
		v->d = PyFloat_AsDouble(o);
		key_add(k, double_bits(v->d));
		return v->d == -1.0 && PyErr_Occurred() ? -1 : 0;
	case 'Y':
		if (long_arg(o, pos, INT32_MIN, INT32_MAX, &l) < 0)
			return -1;
		v->y = (aclDataType)l;
		key_add(k, l);
		return 0;
	}
	PyErr_SetString(PyExc_SystemError, "bad signature");
	return -1;
}

struct nn_cache {
	struct nn_key key;
	aclOpExecutor *ex;	/* repeatable; NULL: empty */
	uint64_t ws;
	bool inflight;
};

static struct nn_cache nn_cache[NN_NOPS];
static uint64_t nn_cache_hits, nn_cache_misses;

static bool cache_match(const struct nn_cache *c, const struct nn_key *k)
{
	return c->ex && !c->inflight && k->ok && c->key.n == k->n &&
	       !memcmp(c->key.w, k->w, (size_t)k->n * sizeof(k->w[0]));
}

/* Keep ex as the operator's cached executor if it can be; true if kept. */
static bool cache_keep(struct nn_cache *c, const struct nn_key *k, aclOpExecutor *ex,
		       uint64_t ws)
{
	if (!k->ok || c->inflight || aclSetAclOpExecutorRepeatable(ex) != ACLNN_SUCCESS)
		return false;
	if (c->ex)
		aclDestroyAclOpExecutor(c->ex);
	c->key = *k;
	c->ex = ex;
	c->ws = ws;
	return true;
}

/* run(op_id, stream, workspace, *args) -> aclnnStatus */
static PyObject *nn_run(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
	union nn_arg v[NN_PY_MAX_ARGS];
	struct nn_owned owned = { .ns = 0 };
	struct nn_key key = { .n = 0, .ok = true };
	struct nn_cache *c;
	const struct nn_op *op;
	const char *kinds;
	aclOpExecutor *ex = NULL;
	NnWorkspace *w;
	aclrtStream stream;
	uint64_t need = 0;
	bool cached = false;
	aclnnStatus st;
	long long id;
	Py_ssize_t n;

	if (nargs < 3) {
		PyErr_SetString(PyExc_TypeError, "run(op_id, stream, workspace, *args)");
		return NULL;
	}
	if (long_arg(args[0], 0, 0, NN_NOPS - 1, &id) < 0 || !conv_ptr(args[1], &stream))
		return NULL;
	if (!PyObject_TypeCheck(args[2], &NnWorkspaceType)) {
		PyErr_SetString(PyExc_TypeError, "argument 2: expected an acl._nn.Workspace");
		return NULL;
	}
	w = (NnWorkspace *)args[2];
	op = &nn_ops[id];
	c = &nn_cache[id];
	kinds = sig_kinds[op->sig];
	n = (Py_ssize_t)strlen(kinds);
	if (nargs - 3 != n) {
		PyErr_Format(PyExc_TypeError, "%s takes %zd operator arguments (%s), %zd given",
			     op->name, n, kinds, nargs - 3);
		return NULL;
	}
	for (Py_ssize_t i = 0; i < n; i++)
		if (convert_arg(kinds[i], args[3 + i], (int)(3 + i), &v[i], &owned, &key) < 0) {
			owned_free(&owned);
			return NULL;
		}
	if (cache_match(c, &key)) {
		ex = c->ex;
		need = c->ws;
		cached = true;
		st = ACLNN_SUCCESS;
		nn_cache_hits++;
	} else {
		st = nn_prepare(op, v, &need, &ex);
		if (st == ACLNN_SUCCESS) {
			cached = cache_keep(c, &key, ex, need);
			nn_cache_misses++;
		}
	}
	if (st == ACLNN_SUCCESS && need) {
		st = ws_reserve(w, need, stream);
		if (st != ACL_SUCCESS && !cached)
			aclDestroyAclOpExecutor(ex);
	}
	if (st == ACLNN_SUCCESS) {
		/* A cached executor stays ours while it runs without the GIL. */
		if (cached)
			c->inflight = true;
		NOGIL(st = op->exec(need ? w->ptr : NULL, need, ex, stream));
		if (cached)
			c->inflight = false;
	}
	owned_free(&owned);
	return PyLong_FromLong((long)st);
}

/* cache_info() -> (hits, misses); cache_clear() drops every cached executor. */
static PyObject *nn_cache_info(PyObject *self, PyObject *noargs)
{
	return Py_BuildValue("(KK)", (unsigned long long)nn_cache_hits,
			     (unsigned long long)nn_cache_misses);
}

static PyObject *nn_cache_clear(PyObject *self, PyObject *noargs)
{
	for (int i = 0; i < NN_NOPS; i++)
		if (nn_cache[i].ex && !nn_cache[i].inflight) {
			aclDestroyAclOpExecutor(nn_cache[i].ex);
			nn_cache[i].ex = NULL;
		}
	Py_RETURN_NONE;
}

static PyObject *nn_op_id(PyObject *self, PyObject *name)
{
	const char *s;

	if (!PyUnicode_Check(name)) {
		PyErr_SetString(PyExc_TypeError, "op_id(name): name must be a str");
		return NULL;
	}
	s = PyUnicode_AsUTF8(name);
	if (!s)
		return NULL;
	for (int i = 0; i < NN_NOPS; i++)
		if (!strcmp(nn_ops[i].name, s))
			return PyLong_FromLong(i);
	PyErr_Format(PyExc_ValueError, "no aclnn operator %R here", name);
	return NULL;
}

static PyObject *nn_op_names(PyObject *self, PyObject *noargs)
{
	PyObject *t = PyTuple_New(NN_NOPS);

	if (!t)
		return NULL;
	for (int i = 0; i < NN_NOPS; i++) {
		PyObject *s = PyUnicode_FromString(nn_ops[i].name);

		if (!s) {
			Py_DECREF(t);
			return NULL;
		}
		PyTuple_SET_ITEM(t, i, s);
	}
	return t;
}

/* The operator's argument kinds, for the package's checks and docs. */
static PyObject *nn_op_signature(PyObject *self, PyObject *arg)
{
	long long id;

	if (long_arg(arg, 0, 0, NN_NOPS - 1, &id) < 0)
		return NULL;
	return PyUnicode_FromString(sig_kinds[nn_ops[id].sig]);
}

static PyMethodDef nn_methods[] = {
	{ "run", (PyCFunction)(void (*)(void))nn_run, METH_FASTCALL,
	  "run(op_id, stream, workspace, *args) -> aclnnStatus: both phases of one operator" },
	{ "op_id", nn_op_id, METH_O, "op_id(name) -> the operator's id for run()" },
	{ "op_names", nn_op_names, METH_NOARGS, "the operators run() knows" },
	{ "cache_info", nn_cache_info, METH_NOARGS,
	  "cache_info() -> (hits, misses) of the executor cache" },
	{ "cache_clear", nn_cache_clear, METH_NOARGS, "drop the cached executors" },
	{ "op_signature", nn_op_signature, METH_O,
	  "op_signature(op_id) -> argument kinds (T tensor, t optional tensor, S scalar, "
	  "A int list, I int, B bool, C int8, D float, Y dtype)" },
	{ NULL, NULL, 0, NULL }
};

static struct PyModuleDef nn_def = {
	PyModuleDef_HEAD_INIT, "acl._nn",
	"aclnn operators for vnpu_runtime (private).", -1, nn_methods,
	NULL, NULL, NULL, NULL
};

PyObject *acl_nn_module(void)
{
	PyObject *m;

	if (PyType_Ready(&NnTensorType) < 0 || PyType_Ready(&NnWorkspaceType) < 0)
		return NULL;
	m = PyModule_Create(&nn_def);
	if (!m)
		return NULL;
	Py_INCREF(&NnTensorType);
	Py_INCREF(&NnWorkspaceType);
	if (PyModule_AddObject(m, "Tensor", (PyObject *)&NnTensorType) < 0 ||
	    PyModule_AddObject(m, "Workspace", (PyObject *)&NnWorkspaceType) < 0 ||
	    PyModule_AddIntConstant(m, "ACLNN_ERR_PARAM_NULLPTR", ACLNN_ERR_PARAM_NULLPTR) < 0 ||
	    PyModule_AddIntConstant(m, "ACLNN_ERR_PARAM_INVALID", ACLNN_ERR_PARAM_INVALID) < 0 ||
	    PyModule_AddIntConstant(m, "ACLNN_ERR_RUNTIME_ERROR", ACLNN_ERR_RUNTIME_ERROR) < 0) {
		Py_DECREF(m);
		return NULL;
	}
	return m;
}
