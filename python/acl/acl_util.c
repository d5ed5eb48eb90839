/* SPDX-License-Identifier: MIT */
/*
 * acl.util: host memory as ints and back (numpy_to_ptr, bytes_to_ptr,
 * ptr_to_bytes, ptr_to_numpy), and threads for process_report loops
 * (start_thread, stop_thread). Reads through an int address go through
 * the kernel's checks, so a bad address raises ValueError.
 */
#include "acl_py.h"

#include <pthread.h>
#include <string.h>
#include <unistd.h>

#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

/* numpy is imported the first time ptr_to_numpy needs it, not at import acl. */
static int numpy_ready(void)
{
	static bool ready;

	if (ready)
		return 0;
	if (_import_array() < 0)
		return -1;
	ready = true;
	return 0;
}

static PyObject *buffer_address(PyObject *o)
{
	Py_buffer view;
	void *p;

	if (PyObject_GetBuffer(o, &view, PyBUF_CONTIG_RO) < 0) {
		if (PyErr_ExceptionMatches(PyExc_TypeError))
			return NULL;
		PyErr_Clear();
		PyErr_SetString(PyExc_ValueError, "the array is not contiguous");
		return NULL;
	}
	p = view.buf;
	PyBuffer_Release(&view);
	return ptr_obj(p);
}

/* The address of the data: valid while the object lives (not a copy). */
static PyObject *util_numpy_to_ptr(PyObject *self, PyObject *arg)
{
	return buffer_address(arg);
}

/*
 * numpy_contiguous_to_ptr(array) -> (address, contiguous_array): pyACL's
 * form for arrays that may not be C-contiguous (older samples use it when
 * bytes_to_ptr is missing). The address is the returned array's, which
 * is the argument itself when it is already contiguous and a copy
 * otherwise; it is valid while that array lives.
 */
static PyObject *util_numpy_contiguous_to_ptr(PyObject *self, PyObject *arg)
{
	PyArrayObject *c;
	PyObject *res;

	if (numpy_ready() < 0)
		return NULL;
	if (!PyArray_Check(arg)) {
		PyErr_SetString(PyExc_TypeError,
				"numpy_contiguous_to_ptr: needs an ndarray");
		return NULL;
	}
	c = PyArray_GETCONTIGUOUS((PyArrayObject *)arg);
	if (!c)
		return NULL;
	res = Py_BuildValue("(NO)", ptr_obj(PyArray_BYTES(c)), (PyObject *)c);
	Py_DECREF(c);
	return res;
}

static PyObject *util_bytes_to_ptr(PyObject *self, PyObject *arg)
{
	return buffer_address(arg);
}

static PyObject *util_ptr_to_bytes(PyObject *self, PyObject *args)
{
	void *p;
	size_t n;
	PyObject *b;

	if (!PyArg_ParseTuple(args, "O&O&:ptr_to_bytes", conv_ptr, &p, conv_size, &n))
		return NULL;
	if (n > PY_SSIZE_T_MAX) {
		PyErr_SetString(PyExc_ValueError, "size too large");
		return NULL;
	}
	b = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)n);
	if (!b)
		return NULL;
	if (n && (!p || checked_copy(PyBytes_AS_STRING(b), p, n))) {
		Py_DECREF(b);
		PyErr_Format(PyExc_ValueError, "cannot read %zu bytes at %p", n, p);
		return NULL;
	}
	return b;
}

/* Every page of [p, p + n) readable: probed a byte a page through the kernel. */
static bool readable(const void *p, size_t n)
{
	long page = sysconf(_SC_PAGESIZE);
	uintptr_t a = (uintptr_t)p, end;
	char c;

	if (!p || __builtin_add_overflow(a, n, &end))
		return false;
	while (a < end) {
		if (checked_copy(&c, (const void *)a, 1))
			return false;
		a = (a | (uintptr_t)(page - 1)) + 1;
	}
	return true;
}

/* ptr_to_numpy(ptr, shape, npy_type): a view of the memory, not a copy. */
static PyObject *util_ptr_to_numpy(PyObject *self, PyObject *args)
{
	void *p;
	PyObject *shape_o, *fast;
	int type;
	npy_intp dims[NPY_MAXDIMS];
	Py_ssize_t nd;
	PyArray_Descr *descr;
	size_t bytes;

	if (!PyArg_ParseTuple(args, "O&Oi:ptr_to_numpy", conv_ptr, &p, &shape_o, &type))
		return NULL;
	if (numpy_ready() < 0)
		return NULL;
	fast = PySequence_Fast(shape_o, "ptr_to_numpy: shape must be a tuple of ints");
	if (!fast)
		return NULL;
	nd = PySequence_Fast_GET_SIZE(fast);
	if (nd > NPY_MAXDIMS) {
		Py_DECREF(fast);
		PyErr_SetString(PyExc_ValueError, "too many dimensions");
		return NULL;
	}
	descr = PyArray_DescrFromType(type);
	if (!descr) {
		Py_DECREF(fast);
		return NULL;
	}
	bytes = (size_t)descr->elsize;
	Py_DECREF(descr);
	for (Py_ssize_t i = 0; i < nd; i++) {
		long long d = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(fast, i));

		if (d == -1 && PyErr_Occurred()) {
			Py_DECREF(fast);
			return NULL;
		}
		if (d < 0 || __builtin_mul_overflow(bytes, (size_t)d, &bytes)) {
			Py_DECREF(fast);
			PyErr_SetString(PyExc_ValueError, "bad shape");
			return NULL;
		}
		dims[i] = (npy_intp)d;
	}
	Py_DECREF(fast);
	if (bytes && !readable(p, bytes)) {
		PyErr_Format(PyExc_ValueError, "cannot read %zu bytes at %p", bytes, p);
		return NULL;
	}
	return PyArray_SimpleNewFromData((int)nd, dims, type, p);
}

/* ------------------------------------------------------------ threads -- */

struct py_thread {
	PyObject *fn;
	PyObject *args;
};

static void *thread_main(void *arg)
{
	struct py_thread *t = arg;
	PyGILState_STATE g = PyGILState_Ensure();
	PyObject *res = PyObject_CallOneArg(t->fn, t->args);

	if (!res)
		PyErr_WriteUnraisable(t->fn);
	Py_XDECREF(res);
	Py_DECREF(t->fn);
	Py_DECREF(t->args);
	PyMem_RawFree(t);
	PyGILState_Release(g);
	return NULL;
}

/* start_thread(fn, args_list) -> (thread_id, ret); fn(args_list) runs there. */
static PyObject *util_start_thread(PyObject *self, PyObject *args)
{
	PyObject *fn, *fargs;
	struct py_thread *t;
	pthread_t tid;
	int err;

	if (!PyArg_ParseTuple(args, "OO:start_thread", &fn, &fargs))
		return NULL;
	if (!PyCallable_Check(fn)) {
		PyErr_SetString(PyExc_TypeError, "start_thread: fn must be callable");
		return NULL;
	}
	t = PyMem_RawMalloc(sizeof(*t));
	if (!t)
		return PyErr_NoMemory();
	Py_INCREF(fn);
	Py_INCREF(fargs);
	t->fn = fn;
	t->args = fargs;
	err = pthread_create(&tid, NULL, thread_main, t);
	if (err) {
		Py_DECREF(fn);
		Py_DECREF(fargs);
		PyMem_RawFree(t);
		return val_ret(PyLong_FromLong(0), ACL_ERROR_FAILURE);
	}
	if (pyh_add(PYH_THREAD, (void *)tid) < 0)
		return NULL;
	return val_ret(PyLong_FromUnsignedLongLong((unsigned long long)tid), ACL_SUCCESS);
}

/* stop_thread(thread_id): wait for a thread start_thread made to return. */
static PyObject *util_stop_thread(PyObject *self, PyObject *args)
{
	size_t id;
	int err;

	if (!PyArg_ParseTuple(args, "O&:stop_thread", conv_size, &id))
		return NULL;
	if (!pyh_remove(PYH_THREAD, (void *)(uintptr_t)id))
		return ret_only(ACL_ERROR_INVALID_PARAM);
	Py_BEGIN_ALLOW_THREADS
	err = pthread_join((pthread_t)id, NULL);
	Py_END_ALLOW_THREADS
	return ret_only(err ? ACL_ERROR_FAILURE : ACL_SUCCESS);
}

static PyMethodDef util_methods[] = {
	{ "numpy_to_ptr", util_numpy_to_ptr, METH_O, "numpy_to_ptr(array) -> address" },
	{ "numpy_contiguous_to_ptr", util_numpy_contiguous_to_ptr, METH_O,
	  "numpy_contiguous_to_ptr(array) -> (address, contiguous array)" },
	{ "bytes_to_ptr", util_bytes_to_ptr, METH_O, "bytes_to_ptr(bytes) -> address" },
	{ "ptr_to_bytes", util_ptr_to_bytes, METH_VARARGS, "ptr_to_bytes(ptr, size) -> bytes" },
	{ "ptr_to_numpy", util_ptr_to_numpy, METH_VARARGS,
	  "ptr_to_numpy(ptr, shape, npy_type) -> ndarray viewing the memory" },
	{ "start_thread", util_start_thread, METH_VARARGS, NULL },
	{ "stop_thread", util_stop_thread, METH_VARARGS, NULL },
	{ NULL, NULL, 0, NULL }
};

static struct PyModuleDef util_def = {
	PyModuleDef_HEAD_INIT, "acl.util", "pyACL helpers: pointers and threads.",
	-1, util_methods, NULL, NULL, NULL, NULL
};

PyObject *acl_util_module(void)
{
	return PyModule_Create(&util_def);
}
