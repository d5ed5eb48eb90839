/* SPDX-License-Identifier: MIT */
/* Argument conversion: ints to pointers, buffers to host memory, results. */
#include "acl_py.h"

#include <errno.h>
#include <string.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <drm/vnpu_accel.h>

int conv_ptr(PyObject *o, void *out)
{
	unsigned long long v;

	if (o == Py_None) {
		*(void **)out = NULL;
		return 1;
	}
	/*
	 * The seed's samples keep a creator's whole (handle, ret) result as
	 * the handle (context = acl.rt.create_context(0)); such a pair can only
	 * mean its handle.
	 */
	if (PyTuple_Check(o) && PyTuple_GET_SIZE(o) == 2 &&
	    PyLong_Check(PyTuple_GET_ITEM(o, 0)) && PyLong_Check(PyTuple_GET_ITEM(o, 1)))
		o = PyTuple_GET_ITEM(o, 0);
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
	if (a->owned)
		PyMem_RawFree(a->p);
	a->has_view = false;
	a->owned = false;
}

int host_arg_readable(struct host_arg *a, size_t size)
{
	void *copy;

	if (a->has_view) {
		if (size > (size_t)a->len) {
			PyErr_Format(PyExc_ValueError, "the buffer is %zd bytes, %zu given",
				     a->len, size);
			return -1;
		}
		return 0;
	}
	if (!a->p || !size)
		return 0;	/* libascendcl answers NULL / 0 itself */
	copy = PyMem_RawMalloc(size);
	if (!copy) {
		PyErr_NoMemory();
		return -1;
	}
	if (checked_copy(copy, a->p, size)) {
		PyMem_RawFree(copy);
		return 1;
	}
	a->p = copy;
	a->owned = true;
	return 0;
}

/* Device, host-BO, registered, imported and reserved VAs: libacl's to check. */
bool is_device_addr(uintptr_t addr)
{
	return addr >= DRM_VNPU_VA_DEVICE_START &&
	       addr < DRM_VNPU_VA_RESERVE_START + DRM_VNPU_VA_RANGE_SIZE;
}

/*
 * Copies through a pipe: write() reads the source and read() writes the
 * destination with the kernel's user-copy routines, so an unmapped or
 * unwritable page on either side is EFAULT, not a SIGSEGV. (Unlike
 * process_vm_readv this also works on the driver's pinned host mappings.)
 */
#define PIPE_CHUNK 65536

static int pipe_move(int fd[2], void *dst, const void *src, size_t n)
{
	ssize_t w = write(fd[1], src, n), r;

	if (w < 0)
		return -errno;
	r = read(fd[0], dst, (size_t)w);
	if (r < 0)
		return -errno;
	return r == w && (size_t)w == n ? 0 : -EFAULT;
}

static int pipe_copy(void *dst, const void *src, size_t n, bool fill)
{
	int fd[2], err = 0;

	if (pipe2(fd, O_CLOEXEC) < 0)
		return -errno;
	while (n && !err) {
		size_t chunk = n > PIPE_CHUNK ? PIPE_CHUNK : n;

		err = pipe_move(fd, dst, src, chunk);
		dst = (char *)dst + chunk;
		if (!fill)
			src = (const char *)src + chunk;
		n -= chunk;
	}
	close(fd[0]);
	close(fd[1]);
	return err;
}

int checked_copy(void *dst, const void *src, size_t n)
{
	return pipe_copy(dst, src, n, false);
}

int checked_fill(void *dst, int value, size_t n)
{
	static char pattern[PIPE_CHUNK];
	char *buf = pattern;
	int err;

	/* One pattern per value: a private buffer unless it is zero. */
	if (value) {
		buf = malloc(n < PIPE_CHUNK ? n : PIPE_CHUNK);
		if (!buf)
			return -ENOMEM;
		memset(buf, value, n < PIPE_CHUNK ? n : PIPE_CHUNK);
	}
	err = pipe_copy(dst, buf, n, true);
	if (buf != pattern)
		free(buf);
	return err;
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
