/* SPDX-License-Identifier: MIT */
/*
 * acl.rt: devices, contexts, streams, events, memory and copies. Every
 * call that can wait (synchronize, copies, memset, event waits, device
 * work) runs with the GIL released, so Python threads drive streams and
 * devices in parallel.
 */
#include "acl_py.h"

#include <errno.h>
#include <string.h>

/* ------------------------------------------------------------ devices -- */

static PyObject *rt_set_device(PyObject *self, PyObject *args)
{
	int id;
	aclError r;

	if (!PyArg_ParseTuple(args, "i:set_device", &id))
		return NULL;
	NOGIL(r = aclrtSetDevice(id));
	return ret_only(r);
}

static PyObject *rt_reset_device(PyObject *self, PyObject *args)
{
	int id;
	aclError r;

	if (!PyArg_ParseTuple(args, "i:reset_device", &id))
		return NULL;
	NOGIL(r = aclrtResetDevice(id));
	return ret_only(r);
}

static PyObject *rt_reset_device_force(PyObject *self, PyObject *args)
{
	int id;
	aclError r;

	if (!PyArg_ParseTuple(args, "i:reset_device_force", &id))
		return NULL;
	NOGIL(r = aclrtResetDeviceForce(id));
	return ret_only(r);
}

static PyObject *rt_get_device(PyObject *self, PyObject *noargs)
{
	int32_t id = 0;
	aclError r = aclrtGetDevice(&id);

	return val_ret(PyLong_FromLong(id), r);
}

/* The seed's samples pass a (meaningless) count argument: it is ignored. */
static PyObject *rt_get_device_count(PyObject *self, PyObject *args)
{
	PyObject *ignored = NULL;
	uint32_t n = 0;
	aclError r;

	if (!PyArg_ParseTuple(args, "|O:get_device_count", &ignored))
		return NULL;
	r = aclrtGetDeviceCount(&n);
	return val_ret(PyLong_FromUnsignedLong(n), r);
}

static PyObject *rt_get_run_mode(PyObject *self, PyObject *noargs)
{
	aclrtRunMode mode = ACL_HOST;
	aclError r = aclrtGetRunMode(&mode);

	return val_ret(PyLong_FromLong(mode), r);
}

static PyObject *rt_synchronize_device(PyObject *self, PyObject *noargs)
{
	aclError r;

	NOGIL(r = aclrtSynchronizeDevice());
	return ret_only(r);
}

/* acl.get_version and acl.rt.get_version: (major, minor, patch, ret). */
PyObject *acl_get_version(PyObject *self, PyObject *noargs)
{
	int32_t major = 0, minor = 0, patch = 0;
	aclError r;

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
	r = aclrtGetVersion(&major, &minor, &patch);
#pragma GCC diagnostic pop
	return Py_BuildValue("(iiii)", major, minor, patch, (int)r);
}

/* acl.get_soc_name and acl.rt.get_soc_name: the name, or None. */
PyObject *acl_get_soc_name(PyObject *self, PyObject *noargs)
{
	const char *name = aclrtGetSocName();

	if (!name)
		Py_RETURN_NONE;
	return PyUnicode_FromString(name);
}

/* ----------------------------------------------------------- contexts -- */

static PyObject *rt_create_context(PyObject *self, PyObject *args)
{
	int id;
	aclrtContext ctx = NULL;
	aclError r;

	if (!PyArg_ParseTuple(args, "i:create_context", &id))
		return NULL;
	NOGIL(r = aclrtCreateContext(&ctx, id));
	return val_ret(ptr_obj(ctx), r);
}

static PyObject *rt_destroy_context(PyObject *self, PyObject *args)
{
	void *ctx;
	aclError r;

	if (!PyArg_ParseTuple(args, "O&:destroy_context", conv_ptr, &ctx))
		return NULL;
	NOGIL(r = aclrtDestroyContext(ctx));
	return ret_only(r);
}

static PyObject *rt_set_context(PyObject *self, PyObject *args)
{
	void *ctx;

	if (!PyArg_ParseTuple(args, "O&:set_context", conv_ptr, &ctx))
		return NULL;
	return ret_only(aclrtSetCurrentContext(ctx));
}

static PyObject *rt_get_context(PyObject *self, PyObject *noargs)
{
	aclrtContext ctx = NULL;
	aclError r = aclrtGetCurrentContext(&ctx);

	return val_ret(ptr_obj(ctx), r);
}

/* ------------------------------------------------------------ streams -- */

static PyObject *rt_create_stream(PyObject *self, PyObject *noargs)
{
	aclrtStream s = NULL;
	aclError r;

	NOGIL(r = aclrtCreateStream(&s));
	return val_ret(ptr_obj(s), r);
}

static PyObject *rt_destroy_stream(PyObject *self, PyObject *args)
{
	void *s;
	aclError r;

	if (!PyArg_ParseTuple(args, "O&:destroy_stream", conv_ptr, &s))
		return NULL;
	NOGIL(r = aclrtDestroyStream(s));
	return ret_only(r);
}

static PyObject *rt_synchronize_stream(PyObject *self, PyObject *args)
{
	void *s;
	aclError r;

	if (!PyArg_ParseTuple(args, "O&:synchronize_stream", conv_ptr, &s))
		return NULL;
	NOGIL(r = aclrtSynchronizeStream(s));
	return ret_only(r);
}

static PyObject *rt_synchronize_stream_with_timeout(PyObject *self, PyObject *args)
{
	void *s;
	int timeout;
	aclError r;

	if (!PyArg_ParseTuple(args, "O&i:synchronize_stream_with_timeout",
			      conv_ptr, &s, &timeout))
		return NULL;
	NOGIL(r = aclrtSynchronizeStreamWithTimeout(s, timeout));
	return ret_only(r);
}

static PyObject *rt_stream_wait_event(PyObject *self, PyObject *args)
{
	void *s, *e;
	aclError r;

	if (!PyArg_ParseTuple(args, "O&O&:stream_wait_event", conv_ptr, &s, conv_ptr, &e))
		return NULL;
	NOGIL(r = aclrtStreamWaitEvent(s, e));
	return ret_only(r);
}

/* ------------------------------------------------------------- events -- */

static PyObject *rt_create_event(PyObject *self, PyObject *noargs)
{
	aclrtEvent e = NULL;
	aclError r = aclrtCreateEvent(&e);

	return val_ret(ptr_obj(e), r);
}

static PyObject *rt_create_event_with_flag(PyObject *self, PyObject *args)
{
	unsigned int flag;
	aclrtEvent e = NULL;
	aclError r;

	if (!PyArg_ParseTuple(args, "I:create_event_with_flag", &flag))
		return NULL;
	r = aclrtCreateEventWithFlag(&e, flag);
	return val_ret(ptr_obj(e), r);
}

/* create_event_ex_with_flag(flag) -> (event, ret): pyACL's name for
 * aclrtCreateEventExWithFlag (its event tests use it); was missing. */
static PyObject *rt_create_event_ex_with_flag(PyObject *self, PyObject *args)
{
	unsigned int flag;
	aclrtEvent e = NULL;
	aclError r;

	if (!PyArg_ParseTuple(args, "I:create_event_ex_with_flag", &flag))
		return NULL;
	r = aclrtCreateEventExWithFlag(&e, flag);
	return val_ret(ptr_obj(e), r);
}

static PyObject *rt_destroy_event(PyObject *self, PyObject *args)
{
	void *e;
	aclError r;

	if (!PyArg_ParseTuple(args, "O&:destroy_event", conv_ptr, &e))
		return NULL;
	NOGIL(r = aclrtDestroyEvent(e));
	return ret_only(r);
}

static PyObject *rt_record_event(PyObject *self, PyObject *args)
{
	void *e, *s;
	aclError r;

	if (!PyArg_ParseTuple(args, "O&O&:record_event", conv_ptr, &e, conv_ptr, &s))
		return NULL;
	NOGIL(r = aclrtRecordEvent(e, s));
	return ret_only(r);
}

static PyObject *rt_reset_event(PyObject *self, PyObject *args)
{
	void *e, *s;
	aclError r;

	if (!PyArg_ParseTuple(args, "O&O&:reset_event", conv_ptr, &e, conv_ptr, &s))
		return NULL;
	NOGIL(r = aclrtResetEvent(e, s));
	return ret_only(r);
}

static PyObject *rt_query_event(PyObject *self, PyObject *args)
{
	void *e;
	aclrtEventStatus st = ACL_EVENT_STATUS_RESERVED;
	aclError r;

	if (!PyArg_ParseTuple(args, "O&:query_event", conv_ptr, &e))
		return NULL;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
	r = aclrtQueryEvent(e, &st);
#pragma GCC diagnostic pop
	return val_ret(PyLong_FromLong(st), r);
}

static PyObject *rt_query_event_status(PyObject *self, PyObject *args)
{
	void *e;
	aclrtEventRecordedStatus st = ACL_EVENT_RECORDED_STATUS_NOT_READY;
	aclError r;

	if (!PyArg_ParseTuple(args, "O&:query_event_status", conv_ptr, &e))
		return NULL;
	r = aclrtQueryEventStatus(e, &st);
	return val_ret(PyLong_FromLong(st), r);
}

/*
 * query_event_wait_status(event) -> (status, ret): pyACL has it (its own
 * tests call it after stream_wait_event); missing here made such scripts
 * fail with AttributeError. ACL_EVENT_WAIT_STATUS_COMPLETE is 0.
 */
static PyObject *rt_query_event_wait_status(PyObject *self, PyObject *args)
{
	void *e;
	aclrtEventWaitStatus st = ACL_EVENT_WAIT_STATUS_RESERVED;
	aclError r;

	if (!PyArg_ParseTuple(args, "O&:query_event_wait_status", conv_ptr, &e))
		return NULL;
	r = aclrtQueryEventWaitStatus(e, &st);
	return val_ret(PyLong_FromLong(st), r);
}

static PyObject *rt_synchronize_event(PyObject *self, PyObject *args)
{
	void *e;
	aclError r;

	if (!PyArg_ParseTuple(args, "O&:synchronize_event", conv_ptr, &e))
		return NULL;
	NOGIL(r = aclrtSynchronizeEvent(e));
	return ret_only(r);
}

static PyObject *rt_event_elapsed_time(PyObject *self, PyObject *args)
{
	void *a, *b;
	float ms = 0;
	aclError r;

	if (!PyArg_ParseTuple(args, "O&O&:event_elapsed_time", conv_ptr, &a, conv_ptr, &b))
		return NULL;
	r = aclrtEventElapsedTime(&ms, a, b);
	return val_ret(PyFloat_FromDouble(ms), r);
}

/* ------------------------------------------------------------- memory -- */

static PyObject *rt_malloc(PyObject *self, PyObject *args)
{
	size_t size;
	int policy = ACL_MEM_MALLOC_HUGE_FIRST;
	void *p = NULL;
	aclError r;

	if (!PyArg_ParseTuple(args, "O&|i:malloc", conv_size, &size, &policy))
		return NULL;
	NOGIL(r = aclrtMalloc(&p, size, (aclrtMemMallocPolicy)policy));
	return val_ret(ptr_obj(p), r);
}

static PyObject *rt_malloc_cached(PyObject *self, PyObject *args)
{
	size_t size;
	int policy = ACL_MEM_MALLOC_HUGE_FIRST;
	void *p = NULL;
	aclError r;

	if (!PyArg_ParseTuple(args, "O&|i:malloc_cached", conv_size, &size, &policy))
		return NULL;
	NOGIL(r = aclrtMallocCached(&p, size, (aclrtMemMallocPolicy)policy));
	return val_ret(ptr_obj(p), r);
}

static PyObject *rt_free(PyObject *self, PyObject *args)
{
	void *p;
	aclError r;

	if (!PyArg_ParseTuple(args, "O&:free", conv_ptr, &p))
		return NULL;
	NOGIL(r = aclrtFree(p));
	return ret_only(r);
}

static PyObject *rt_malloc_host(PyObject *self, PyObject *args)
{
	size_t size;
	void *p = NULL;
	aclError r;

	if (!PyArg_ParseTuple(args, "O&:malloc_host", conv_size, &size))
		return NULL;
	NOGIL(r = aclrtMallocHost(&p, size));
	return val_ret(ptr_obj(p), r);
}

static PyObject *rt_free_host(PyObject *self, PyObject *args)
{
	void *p;
	aclError r;

	if (!PyArg_ParseTuple(args, "O&:free_host", conv_ptr, &p))
		return NULL;
	NOGIL(r = aclrtFreeHost(p));
	return ret_only(r);
}

/* A buffer object bounds what may be touched through it. */
static int check_len(const struct host_arg *a, size_t n, const char *what)
{
	if (a->len >= 0 && n > (size_t)a->len) {
		PyErr_Format(PyExc_ValueError, "%s is %zd bytes, %zu requested",
			     what, a->len, n);
		return -1;
	}
	return 0;
}

static aclError host_fill(void *p, size_t max, int value, size_t count)
{
	if (!p || count > max)
		return ACL_ERROR_INVALID_PARAM;
	return checked_fill(p, value, count) ? ACL_ERROR_INVALID_PARAM : ACL_SUCCESS;
}

/*
 * Memory from acl.rt.malloc_host (or registered with libacl): libacl knows
 * its bounds, so it gets exactly the C call, as CANN's pyACL samples
 * expect of a host buffer they memset.
 */
static bool acl_host_memory(const void *p)
{
	aclrtPtrAttributes attr;

	memset(&attr, 0, sizeof(attr));
	return p && aclrtPointerGetAttributes(p, &attr) == ACL_SUCCESS &&
	       attr.location.type == ACL_MEM_LOCATION_TYPE_HOST;
}

static PyObject *do_memset(PyObject *args, bool async)
{
	PyObject *dst_o;
	size_t max, count;
	int value;
	void *stream = NULL;
	struct host_arg dst;
	aclError r;

	if (async) {
		if (!PyArg_ParseTuple(args, "OO&iO&O&:memset_async", &dst_o, conv_size, &max,
				      &value, conv_size, &count, conv_ptr, &stream))
			return NULL;
	} else if (!PyArg_ParseTuple(args, "OO&iO&:memset", &dst_o, conv_size, &max,
				     &value, conv_size, &count)) {
		return NULL;
	}
	if (host_arg_get(dst_o, true, &dst) < 0)
		return NULL;
	if (check_len(&dst, count, "the destination") < 0) {
		host_arg_release(&dst);
		return NULL;
	}
	if (!dst.has_view && (is_device_addr((uintptr_t)dst.p) ||
			      acl_host_memory(dst.p))) {
		if (async)
			NOGIL(r = aclrtMemsetAsync(dst.p, max, value, count, stream));
		else
			NOGIL(r = aclrtMemset(dst.p, max, value, count));
	} else {
		/* Host memory: filled here, through the kernel's checks. */
		r = ACL_SUCCESS;
		if (async)
			NOGIL(r = aclrtSynchronizeStream(stream));
		if (r == ACL_SUCCESS)
			NOGIL(r = host_fill(dst.p, max, value, count));
	}
	host_arg_release(&dst);
	return ret_only(r);
}

static PyObject *rt_memset(PyObject *self, PyObject *args)
{
	return do_memset(args, false);
}

static PyObject *rt_memset_async(PyObject *self, PyObject *args)
{
	return do_memset(args, true);
}

/*
 * pyACL: memcpy(dst, dest_max, src, count, kind) and
 * memcpy_async(dst, dest_max, src, count, kind, stream). The seed's
 * samples drop dest_max: memcpy(dst, src, count, kind); with one argument
 * fewer the call is unambiguous, and dest_max is then the destination
 * buffer's size (or count for an int address).
 */
static PyObject *do_memcpy(PyObject *args, bool async)
{
	Py_ssize_t n = PyTuple_GET_SIZE(args), full = async ? 6 : 5;
	PyObject *dst_o, *src_o, *max_o = NULL;
	size_t max, count;
	int kind;
	void *stream = NULL;
	struct host_arg dst, src;
	aclError r;

	if (n == full) {
		if (!PyArg_ParseTuple(args, async ? "OOOO&iO&:memcpy_async" : "OOOO&i:memcpy",
				      &dst_o, &max_o, &src_o, conv_size, &count, &kind,
				      conv_ptr, &stream))
			return NULL;
	} else if (n == full - 1) {
		if (!PyArg_ParseTuple(args, async ? "OOO&iO&:memcpy_async" : "OOO&i:memcpy",
				      &dst_o, &src_o, conv_size, &count, &kind,
				      conv_ptr, &stream))
			return NULL;
	} else {
		PyErr_Format(PyExc_TypeError,
			     "%s takes %zd arguments (dst, dest_max, src, count, kind%s), %zd given",
			     async ? "memcpy_async" : "memcpy", full,
			     async ? ", stream" : "", n);
		return NULL;
	}
	if (max_o && !conv_size(max_o, &max))
		return NULL;
	if (host_arg_get(dst_o, true, &dst) < 0)
		return NULL;
	if (host_arg_get(src_o, false, &src) < 0) {
		host_arg_release(&dst);
		return NULL;
	}
	if (!max_o)
		max = dst.len >= 0 ? (size_t)dst.len : count;
	if (check_len(&dst, count, "the destination") < 0 ||
	    check_len(&src, count, "the source") < 0) {
		host_arg_release(&src);
		host_arg_release(&dst);
		return NULL;
	}
	if ((dst.has_view || !is_device_addr((uintptr_t)dst.p)) &&
	    (src.has_view || !is_device_addr((uintptr_t)src.p))) {
		/*
		 * Host to host: copied here with the kernel checking both
		 * sides, so a bad int address is an error code, not a crash.
		 */
		r = ACL_SUCCESS;
		if (async)
			NOGIL(r = aclrtSynchronizeStream(stream));
		if (r == ACL_SUCCESS && (!dst.p || !src.p || count > max))
			r = ACL_ERROR_INVALID_PARAM;
		if (r == ACL_SUCCESS && count)
			NOGIL(r = checked_copy(dst.p, src.p, count) ?
				  ACL_ERROR_INVALID_PARAM : ACL_SUCCESS);
	} else if (async) {
		NOGIL(r = aclrtMemcpyAsync(dst.p, max, src.p, count,
					   (aclrtMemcpyKind)kind, stream));
	} else {
		NOGIL(r = aclrtMemcpy(dst.p, max, src.p, count, (aclrtMemcpyKind)kind));
	}
	host_arg_release(&src);
	host_arg_release(&dst);
	return ret_only(r);
}

static PyObject *rt_memcpy(PyObject *self, PyObject *args)
{
	return do_memcpy(args, false);
}

static PyObject *rt_memcpy_async(PyObject *self, PyObject *args)
{
	return do_memcpy(args, true);
}

/*
 * get_mem_info(attr) -> (free, total, ret) as pyACL; the result also
 * answers ["free"], ["total"] and ["ret"] (the seed reads it as a mapping).
 */
static PyObject *mem_info_type;

static PyObject *mem_info_subscript(PyObject *self, PyObject *key)
{
	static const char *const names[] = { "free", "total", "ret" };

	if (PyUnicode_Check(key)) {
		for (int i = 0; i < 3; i++)
			if (PyUnicode_CompareWithASCIIString(key, names[i]) == 0) {
				PyObject *v = PyTuple_GET_ITEM(self, i);

				Py_INCREF(v);
				return v;
			}
		PyErr_SetObject(PyExc_KeyError, key);
		return NULL;
	}
	return PyTuple_Type.tp_as_mapping->mp_subscript(self, key);
}

static PyType_Slot mem_info_slots[] = {
	{ Py_mp_subscript, mem_info_subscript },
	{ Py_tp_doc, "(free, total, ret); also indexable by 'free', 'total', 'ret'" },
	{ 0, NULL },
};

static PyType_Spec mem_info_spec = {
	.name = "acl.rt.MemInfo",
	.basicsize = 0,
	.itemsize = 0,
	.flags = Py_TPFLAGS_DEFAULT,
	.slots = mem_info_slots,
};

static PyObject *rt_get_mem_info(PyObject *self, PyObject *args)
{
	int attr = ACL_HBM_MEM;
	size_t free_b = 0, total = 0;
	PyObject *t, *res;
	aclError r;

	if (!PyArg_ParseTuple(args, "|i:get_mem_info", &attr))
		return NULL;
	r = aclrtGetMemInfo((aclrtMemAttr)attr, &free_b, &total);
	t = Py_BuildValue("(KKi)", (unsigned long long)free_b,
			  (unsigned long long)total, (int)r);
	if (!t)
		return NULL;
	res = PyObject_CallOneArg(mem_info_type, t);
	Py_DECREF(t);
	return res;
}

/* ---------------------------------------------------------- callbacks -- */

struct py_callback {
	PyObject *fn;
	PyObject *data;
};

/*
 * Runs on the thread that called process_report (which released the
 * GIL there), in stream order: take the GIL, call fn(user_data).
 */
static void callback_trampoline(void *user)
{
	struct py_callback *cb = user;
	PyGILState_STATE g;
	PyObject *res;

	if (_Py_IsFinalizing())
		return;
	g = PyGILState_Ensure();
	res = PyObject_CallOneArg(cb->fn, cb->data);
	if (!res)
		PyErr_WriteUnraisable(cb->fn);
	Py_XDECREF(res);
	Py_DECREF(cb->fn);
	Py_DECREF(cb->data);
	PyMem_RawFree(cb);
	PyGILState_Release(g);
}

static PyObject *rt_launch_callback(PyObject *self, PyObject *args)
{
	PyObject *fn, *data;
	int block;
	void *stream;
	struct py_callback *cb;
	aclError r;

	if (!PyArg_ParseTuple(args, "OOiO&:launch_callback", &fn, &data, &block,
			      conv_ptr, &stream))
		return NULL;
	if (!PyCallable_Check(fn)) {
		PyErr_SetString(PyExc_TypeError, "launch_callback: fn must be callable");
		return NULL;
	}
	cb = PyMem_RawMalloc(sizeof(*cb));
	if (!cb)
		return PyErr_NoMemory();
	Py_INCREF(fn);
	Py_INCREF(data);
	cb->fn = fn;
	cb->data = data;
	NOGIL(r = aclrtLaunchCallback(callback_trampoline, cb,
				      (aclrtCallbackBlockType)block, stream));
	if (r != ACL_SUCCESS) {
		Py_DECREF(fn);
		Py_DECREF(data);
		PyMem_RawFree(cb);
	}
	return ret_only(r);
}

static int conv_u64(PyObject *o, void *out)
{
	size_t v;

	if (!conv_size(o, &v))
		return 0;
	*(uint64_t *)out = v;
	return 1;
}

static PyObject *rt_subscribe_report(PyObject *self, PyObject *args)
{
	uint64_t tid;
	void *stream;

	if (!PyArg_ParseTuple(args, "O&O&:subscribe_report", conv_u64, &tid, conv_ptr, &stream))
		return NULL;
	return ret_only(aclrtSubscribeReport(tid, stream));
}

static PyObject *rt_unsubscribe_report(PyObject *self, PyObject *args)
{
	uint64_t tid;
	void *stream;
	aclError r;

	if (!PyArg_ParseTuple(args, "O&O&:unsubscribe_report", conv_u64, &tid,
			      conv_ptr, &stream))
		return NULL;
	NOGIL(r = aclrtUnSubscribeReport(tid, stream));
	return ret_only(r);
}

static PyObject *rt_process_report(PyObject *self, PyObject *args)
{
	int timeout;
	aclError r;

	if (!PyArg_ParseTuple(args, "i:process_report", &timeout))
		return NULL;
	NOGIL(r = aclrtProcessReport(timeout));
	return ret_only(r);
}

/* ------------------------------------------------------------- module -- */

#define VARARGS(name) { #name, rt_##name, METH_VARARGS, NULL }
#define NOARGS(name) { #name, rt_##name, METH_NOARGS, NULL }

static PyMethodDef rt_methods[] = {
	VARARGS(set_device), VARARGS(reset_device), VARARGS(reset_device_force),
	NOARGS(get_device), VARARGS(get_device_count), NOARGS(get_run_mode),
	NOARGS(synchronize_device),
	{ "get_version", acl_get_version, METH_NOARGS, NULL },
	{ "get_soc_name", acl_get_soc_name, METH_NOARGS, NULL },
	VARARGS(create_context), VARARGS(destroy_context), VARARGS(set_context),
	NOARGS(get_context),
	NOARGS(create_stream), VARARGS(destroy_stream), VARARGS(synchronize_stream),
	VARARGS(synchronize_stream_with_timeout), VARARGS(stream_wait_event),
	{ "wait_event", rt_stream_wait_event, METH_VARARGS, "alias of stream_wait_event" },
	NOARGS(create_event), VARARGS(create_event_with_flag),
	VARARGS(create_event_ex_with_flag), VARARGS(destroy_event),
	VARARGS(record_event), VARARGS(reset_event), VARARGS(query_event),
	VARARGS(query_event_status), VARARGS(query_event_wait_status),
	VARARGS(synchronize_event),
	VARARGS(event_elapsed_time),
	VARARGS(malloc), VARARGS(malloc_cached), VARARGS(free), VARARGS(malloc_host),
	VARARGS(free_host), VARARGS(memset), VARARGS(memset_async), VARARGS(memcpy),
	VARARGS(memcpy_async), VARARGS(get_mem_info),
	VARARGS(launch_callback), VARARGS(subscribe_report), VARARGS(unsubscribe_report),
	VARARGS(process_report),
	{ NULL, NULL, 0, NULL }
};

static struct PyModuleDef rt_def = {
	PyModuleDef_HEAD_INIT, "acl.rt", "ACL runtime: devices, streams, events, memory.",
	-1, rt_methods, NULL, NULL, NULL, NULL
};

PyObject *acl_rt_module(void)
{
	PyObject *m = PyModule_Create(&rt_def);
	PyObject *bases;

	if (!m)
		return NULL;
	bases = PyTuple_Pack(1, (PyObject *)&PyTuple_Type);
	if (!bases)
		goto fail;
	mem_info_type = PyType_FromSpecWithBases(&mem_info_spec, bases);
	Py_DECREF(bases);
	if (!mem_info_type || PyModule_AddObjectRef(m, "MemInfo", mem_info_type) < 0)
		goto fail;
	if (acl_add_rt_constants(m) < 0)
		goto fail;
	return m;
fail:
	Py_DECREF(m);
	return NULL;
}
