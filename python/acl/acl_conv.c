/* SPDX-License-Identifier: MIT */
/* Argument conversion: ints to pointers, buffers to host memory, results. */
#include "acl_py.h"

#include <errno.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include <drm/vnpu_accel.h>

static PyObject *live_sets[PYH_KINDS];

int pyh_init(void)
{
	for (int k = 0; k < PYH_KINDS; k++) {
		live_sets[k] = PySet_New(NULL);
		if (!live_sets[k])
			return -1;
	}
	return 0;
}

/* The sets are only touched with the GIL held, which serialises them. */
int pyh_add(enum py_handle_kind kind, const void *p)
{
	PyObject *key = PyLong_FromVoidPtr((void *)p);
	int r;

	if (!key)
		return -1;
	r = PySet_Add(live_sets[kind], key);
	Py_DECREF(key);
	return r;
}

bool pyh_live(enum py_handle_kind kind, const void *p)
{
	PyObject *key;
	int r;

	if (!p)
		return false;
	key = PyLong_FromVoidPtr((void *)p);
	if (!key) {
		PyErr_Clear();
		return false;
	}
	r = PySet_Contains(live_sets[kind], key);
	Py_DECREF(key);
	return r == 1;
}

bool pyh_remove(enum py_handle_kind kind, const void *p)
{
	PyObject *key = PyLong_FromVoidPtr((void *)p);
	int r;

	if (!key) {
		PyErr_Clear();
		return false;
	}
	r = PySet_Discard(live_sets[kind], key);
	Py_DECREF(key);
	return r == 1;
}

int conv_ptr(PyObject *o, void *out)
{
	unsigned long long v;

	if (o == Py_None) {
		*(void **)out = NULL;
		return 1;
	}
	if (!PyLong_Check(o)) {
		PyErr_Format(PyExc_TypeError, "expected an int (a pointer or handle), got %s",
			     Py_TYPE(o)->tp_name);
		return 0;
	}
	v = PyLong_AsUnsignedLongLong(o);
	if (PyErr_Occurred()) {
		PyErr_Clear();
		PyErr_SetString(PyExc_ValueError,
				"a pointer must be an int in [0, 2**64)");
		return 0;
	}
	*(void **)out = (void *)(uintptr_t)v;
	return 1;
}

int conv_size(PyObject *o, void *out)
{
	unsigned long long v;

	if (!PyLong_Check(o)) {
		PyErr_Format(PyExc_TypeError, "expected an int (a size), got %s",
			     Py_TYPE(o)->tp_name);
		return 0;
	}
	v = PyLong_AsUnsignedLongLong(o);
	if (PyErr_Occurred()) {
		PyErr_Clear();
		PyErr_SetString(PyExc_ValueError, "a size must be an int in [0, 2**64)");
		return 0;
	}
	*(size_t *)out = (size_t)v;
	return 1;
}

int host_arg_get(PyObject *o, bool writable, struct host_arg *a)
{
	memset(a, 0, sizeof(*a));
	if (o == Py_None || PyLong_Check(o)) {
		a->len = -1;
		return conv_ptr(o, &a->p) ? 0 : -1;
	}
	if (!PyObject_CheckBuffer(o)) {
		PyErr_Format(PyExc_TypeError,
			     "expected an int address or a buffer (numpy array, bytes, bytearray), got %s",
			     Py_TYPE(o)->tp_name);
		return -1;
	}
	if (PyObject_GetBuffer(o, &a->view,
			       writable ? PyBUF_CONTIG : PyBUF_CONTIG_RO) < 0) {
		/* A read-only or non-contiguous buffer: say so plainly. */
		PyErr_Clear();
		PyErr_Format(PyExc_ValueError,
			     writable ? "a %s cannot be written to here (read-only or not contiguous)"
				      : "a %s cannot be read here (not contiguous)",
			     Py_TYPE(o)->tp_name);
		return -1;
	}
	a->has_view = true;
	a->p = a->view.buf;
	a->len = a->view.len;
	return 0;
}

void host_arg_release(struct host_arg *a)
{
	if (a->has_view)
		PyBuffer_Release(&a->view);
	a->has_view = false;
}

/* Device, host-BO, registered, imported and reserved VAs: libacl's to check. */
bool is_device_addr(uintptr_t addr)
{
	return addr >= DRM_VNPU_VA_DEVICE_START &&
	       addr < DRM_VNPU_VA_RESERVE_START + DRM_VNPU_VA_RANGE_SIZE;
}

/*
 * process_vm_readv on our own pid is a memcpy the kernel checks: an
 * unmapped or unreadable page on either side is EFAULT, not a SIGSEGV.
 */
int checked_copy(void *dst, const void *src, size_t n)
{
	while (n) {
		size_t chunk = n > (1u << 30) ? (1u << 30) : n;
		struct iovec local = { dst, chunk };
		struct iovec remote = { (void *)src, chunk };
		ssize_t got = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);

		if (got <= 0)
			return got < 0 ? -errno : -EFAULT;
		dst = (char *)dst + got;
		src = (const char *)src + got;
		n -= (size_t)got;
	}
	return 0;
}

int checked_fill(void *dst, int value, size_t n)
{
	char pattern[4096];

	memset(pattern, value, sizeof(pattern));
	while (n) {
		size_t chunk = n > sizeof(pattern) ? sizeof(pattern) : n;
		struct iovec local = { pattern, chunk };
		struct iovec remote = { dst, chunk };
		ssize_t put = process_vm_writev(getpid(), &local, 1, &remote, 1, 0);

		if (put <= 0)
			return put < 0 ? -errno : -EFAULT;
		dst = (char *)dst + put;
		n -= (size_t)put;
	}
	return 0;
}

PyObject *ret_only(aclError ret)
{
	return PyLong_FromLong((long)ret);
}

PyObject *val_ret(PyObject *val, aclError ret)
{
	if (!val)
		return NULL;
	return Py_BuildValue("(Ni)", val, (int)ret);
}

PyObject *ptr_obj(const void *p)
{
	return PyLong_FromUnsignedLongLong((unsigned long long)(uintptr_t)p);
}

int handle_list(PyObject *seq, enum py_handle_kind kind, const char *what,
		void ***out, int *n)
{
	PyObject *fast;
	Py_ssize_t len;
	void **arr;
	int bad = 0;

	*out = NULL;
	*n = 0;
	if (seq == Py_None)
		return 0;
	fast = PySequence_Fast(seq, "expected a list of handles");
	if (!fast)
		return -1;
	len = PySequence_Fast_GET_SIZE(fast);
	if (len > 4096) {
		Py_DECREF(fast);
		PyErr_Format(PyExc_ValueError, "too many %s (%zd)", what, len);
		return -1;
	}
	arr = PyMem_Calloc(len ? (size_t)len : 1, sizeof(void *));
	if (!arr) {
		Py_DECREF(fast);
		PyErr_NoMemory();
		return -1;
	}
	for (Py_ssize_t i = 0; i < len; i++) {
		if (!conv_ptr(PySequence_Fast_GET_ITEM(fast, i), &arr[i])) {
			Py_DECREF(fast);
			PyMem_Free(arr);
			return -1;
		}
		if (!pyh_live(kind, arr[i]))
			bad = 1;
	}
	Py_DECREF(fast);
	*out = arr;
	*n = (int)len;
	return bad;
}
