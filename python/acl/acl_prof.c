/* SPDX-License-Identifier: MIT */
/*
 * acl.prof: pyACL's profiling calls over acl_prof.h. Sessions (init,
 * start, stop, finalize, create_config, set_config), operator
 * subscription (a pipe's write end as an int fd; the runtime closes it at
 * model_un_subscribe, as in C) and its getters over the data read from
 * the pipe (an int address or a bytes-like object), step timestamps and
 * msproftx stamps. pyACL's conventions: creators return the handle (0 on
 * failure), getters of a value return (value, ret), the rest ret. Config
 * and step-info handles are tracked, so a destroyed one is an error code.
 */
#include "acl_py.h"

#include <string.h>

#include <acl/acl_prof.h>

/* --- sessions ------------------------------------------------------------ */

static PyObject *prof_init(PyObject *self, PyObject *args)
{
	PyObject *path_b;
	aclError r;

	if (!PyArg_ParseTuple(args, "O&:init", PyUnicode_FSConverter, &path_b))
		return NULL;
	r = aclprofInit(PyBytes_AS_STRING(path_b), (size_t)PyBytes_GET_SIZE(path_b));
	Py_DECREF(path_b);
	return ret_only(r);
}

static PyObject *prof_finalize(PyObject *self, PyObject *noargs)
{
	aclError r;

	NOGIL(r = aclprofFinalize());
	return ret_only(r);
}

static PyObject *prof_create_config(PyObject *self, PyObject *args)
{
	PyObject *list, *fast;
	unsigned long long mask;
	unsigned int metrics;
	uint32_t devs[65];
	void *events;
	Py_ssize_t n;

	if (!PyArg_ParseTuple(args, "OIO&K:create_config", &list, &metrics,
			      conv_ptr, &events, &mask))
		return NULL;
	fast = PySequence_Fast(list, "device_list must be a list of ints");
	if (!fast)
		return NULL;
	n = PySequence_Fast_GET_SIZE(fast);
	if (n > 64) {
		Py_DECREF(fast);
		return PyLong_FromLong(0);
	}
	for (Py_ssize_t i = 0; i < n; i++) {
		unsigned long v = PyLong_AsUnsignedLong(PySequence_Fast_GET_ITEM(fast, i));

		if (PyErr_Occurred()) {
			Py_DECREF(fast);
			return NULL;
		}
		devs[i] = (uint32_t)v;
	}
	Py_DECREF(fast);
	return pyh_created(PYH_PROF_CONFIG,
			   aclprofCreateConfig(n ? devs : NULL, (uint32_t)n,
					       (aclprofAicoreMetrics)metrics, events, mask));
}

static PyObject *prof_destroy_config(PyObject *self, PyObject *args)
{
	return pyh_destroy_arg(PYH_PROF_CONFIG, args, "O&:destroy_config");
}

/* start and stop: a config the module does not hold is refused here. */
static PyObject *session_call(PyObject *args, const char *fmt,
			      aclError (*fn)(const aclprofConfig *))
{
	void *c;
	aclError r;

	if (!PyArg_ParseTuple(args, fmt, conv_ptr, &c))
		return NULL;
	if (!pyh_live(PYH_PROF_CONFIG, c))
		return ret_only(ACL_ERROR_INVALID_PARAM);
	NOGIL(r = fn(c));
	return ret_only(r);
}

static PyObject *prof_start(PyObject *self, PyObject *args)
{
	return session_call(args, "O&:start", aclprofStart);
}

static PyObject *prof_stop(PyObject *self, PyObject *args)
{
	return session_call(args, "O&:stop", aclprofStop);
}

static PyObject *prof_set_config(PyObject *self, PyObject *args)
{
	const char *v;
	Py_ssize_t n;
	int type;

	if (!PyArg_ParseTuple(args, "is#:set_config", &type, &v, &n))
		return NULL;
	return ret_only(aclprofSetConfig((aclprofConfigType)type, v, (size_t)n));
}

/* --- subscription -------------------------------------------------------- */

static PyObject *prof_create_subscribe_config(PyObject *self, PyObject *args)
{
	unsigned int metrics;
	int on, fd;

	if (!PyArg_ParseTuple(args, "iIi:create_subscribe_config", &on, &metrics, &fd))
		return NULL;
	if (on < -128 || on > 127)
		return PyLong_FromLong(0);
	return pyh_created(PYH_SUB_CONFIG,
			   aclprofCreateSubscribeConfig((int8_t)on,
							(aclprofAicoreMetrics)metrics, &fd));
}

static PyObject *prof_destroy_subscribe_config(PyObject *self, PyObject *args)
{
	return pyh_destroy_arg(PYH_SUB_CONFIG, args, "O&:destroy_subscribe_config");
}

static PyObject *prof_model_subscribe(PyObject *self, PyObject *args)
{
	unsigned int id;
	void *c;
	aclError r;

	if (!PyArg_ParseTuple(args, "IO&:model_subscribe", &id, conv_ptr, &c))
		return NULL;
	if (!pyh_live(PYH_SUB_CONFIG, c))
		return ret_only(ACL_ERROR_INVALID_PARAM);
	NOGIL(r = aclprofModelSubscribe(id, c));
	return ret_only(r);
}

/* The reader thread may hold the GIL while the drain writes its pipe. */
static PyObject *prof_model_un_subscribe(PyObject *self, PyObject *args)
{
	unsigned int id;
	aclError r;

	if (!PyArg_ParseTuple(args, "I:model_un_subscribe", &id))
		return NULL;
	NOGIL(r = aclprofModelUnSubscribe(id));
	return ret_only(r);
}

static PyObject *prof_get_op_desc_size(PyObject *self, PyObject *noargs)
{
	size_t n = 0;
	aclError r = aclprofGetOpDescSize(&n);

	return val_ret(PyLong_FromSize_t(n), r);
}

/*
 * The data argument of a getter: an int address (copied through the
 * kernel's checks, so a bad one is ACL_ERROR_INVALID_PARAM) or a
 * bytes-like object. 1: unreadable; -1: a Python error.
 */
static int op_data(PyObject *o, size_t len, struct host_arg *a)
{
	int r;

	if (host_arg_get(o, false, a) < 0)
		return -1;
	if (a->len >= 0 && (size_t)a->len < len) {
		host_arg_release(a);
		return 1;
	}
	r = host_arg_readable(a, len);
	if (r)
		host_arg_release(a);
	return r;
}

#define OP_ARGS(name) "OO&I:" name

static PyObject *prof_get_op_num(PyObject *self, PyObject *args)
{
	struct host_arg a;
	uint32_t n = 0;
	PyObject *o;
	size_t len;
	aclError r;
	int ok;

	if (!PyArg_ParseTuple(args, "OO&:get_op_num", &o, conv_size, &len))
		return NULL;
	ok = op_data(o, len, &a);
	if (ok)
		return ok < 0 ? NULL : val_ret(PyLong_FromLong(0), ACL_ERROR_INVALID_PARAM);
	r = aclprofGetOpNum(a.p, len, &n);
	host_arg_release(&a);
	return val_ret(PyLong_FromUnsignedLong(n), r);
}

typedef aclError (*len_fn)(const void *, size_t, uint32_t, size_t *);
typedef aclError (*str_fn)(const void *, size_t, uint32_t, char *, size_t);

static PyObject *op_len(PyObject *args, const char *fmt, len_fn fn)
{
	struct host_arg a;
	unsigned int index;
	PyObject *o;
	size_t len, n = 0;
	aclError r;
	int ok;

	if (!PyArg_ParseTuple(args, fmt, &o, conv_size, &len, &index))
		return NULL;
	ok = op_data(o, len, &a);
	if (ok)
		return ok < 0 ? NULL : val_ret(PyLong_FromLong(0), ACL_ERROR_INVALID_PARAM);
	r = fn(a.p, len, index, &n);
	host_arg_release(&a);
	return val_ret(PyLong_FromSize_t(n), r);
}

/* size 0: ask for the length first (the _v2 forms). */
static PyObject *op_str(PyObject *args, const char *fmt, bool sized, len_fn lfn,
			str_fn fn)
{
	struct host_arg a;
	unsigned int index;
	size_t len, size = 0;
	PyObject *o, *s;
	aclError r;
	char *buf;
	int ok;

	if (sized ? !PyArg_ParseTuple(args, fmt, &o, conv_size, &len, &index,
				      conv_size, &size) :
		    !PyArg_ParseTuple(args, fmt, &o, conv_size, &len, &index))
		return NULL;
	ok = op_data(o, len, &a);
	if (ok)
		return ok < 0 ? NULL : val_ret(PyUnicode_FromString(""), ACL_ERROR_INVALID_PARAM);
	r = sized ? ACL_SUCCESS : lfn(a.p, len, index, &size);
	if (r || !size) {
		host_arg_release(&a);
		return val_ret(PyUnicode_FromString(""), r ? r : ACL_ERROR_INVALID_PARAM);
	}
	buf = PyMem_Calloc(1, size);
	if (!buf) {
		host_arg_release(&a);
		return PyErr_NoMemory();
	}
	r = fn(a.p, len, index, buf, size);
	host_arg_release(&a);
	s = PyUnicode_DecodeUTF8(buf, (Py_ssize_t)strnlen(buf, size), "replace");
	PyMem_Free(buf);
	return val_ret(s, r);
}

static PyObject *prof_get_op_type_len(PyObject *self, PyObject *args)
{
	return op_len(args, OP_ARGS("get_op_type_len"), aclprofGetOpTypeLen);
}

static PyObject *prof_get_op_name_len(PyObject *self, PyObject *args)
{
	return op_len(args, OP_ARGS("get_op_name_len"), aclprofGetOpNameLen);
}

static PyObject *prof_get_op_type(PyObject *self, PyObject *args)
{
	return op_str(args, "OO&IO&:get_op_type", true, NULL, aclprofGetOpType);
}

static PyObject *prof_get_op_name(PyObject *self, PyObject *args)
{
	return op_str(args, "OO&IO&:get_op_name", true, NULL, aclprofGetOpName);
}

static PyObject *prof_get_op_type_v2(PyObject *self, PyObject *args)
{
	return op_str(args, OP_ARGS("get_op_type_v2"), false, aclprofGetOpTypeLen,
		      aclprofGetOpType);
}

static PyObject *prof_get_op_name_v2(PyObject *self, PyObject *args)
{
	return op_str(args, OP_ARGS("get_op_name_v2"), false, aclprofGetOpNameLen,
		      aclprofGetOpName);
}

enum op_value { OPV_START, OPV_END, OPV_DURATION, OPV_MODEL, OPV_FLAG };

/* The plain-value getters: the value only, 0 (flag: NONE) on failure. */
static PyObject *op_value(PyObject *args, const char *fmt, enum op_value what)
{
	unsigned long long v = 0;
	struct host_arg a;
	unsigned int index;
	PyObject *o;
	size_t len;
	int ok;

	if (!PyArg_ParseTuple(args, fmt, &o, conv_size, &len, &index))
		return NULL;
	ok = op_data(o, len, &a);
	if (ok < 0)
		return NULL;
	if (ok)
		return PyLong_FromUnsignedLongLong(what == OPV_FLAG ? ACL_SUBSCRIBE_NONE : 0);
	switch (what) {
	case OPV_START:
		v = aclprofGetOpStart(a.p, len, index);
		break;
	case OPV_END:
		v = aclprofGetOpEnd(a.p, len, index);
		break;
	case OPV_DURATION:
		v = aclprofGetOpDuration(a.p, len, index);
		break;
	case OPV_MODEL:
		v = aclprofGetModelId(a.p, len, index);
		break;
	case OPV_FLAG:
		v = (unsigned long long)aclprofGetOpFlag(a.p, len, index);
		break;
	}
	host_arg_release(&a);
	return PyLong_FromUnsignedLongLong(v);
}

static PyObject *prof_get_op_start(PyObject *self, PyObject *args)
{
	return op_value(args, OP_ARGS("get_op_start"), OPV_START);
}

static PyObject *prof_get_op_end(PyObject *self, PyObject *args)
{
	return op_value(args, OP_ARGS("get_op_end"), OPV_END);
}

static PyObject *prof_get_op_duration(PyObject *self, PyObject *args)
{
	return op_value(args, OP_ARGS("get_op_duration"), OPV_DURATION);
}

static PyObject *prof_get_model_id(PyObject *self, PyObject *args)
{
	return op_value(args, OP_ARGS("get_model_id"), OPV_MODEL);
}

static PyObject *prof_get_op_flag(PyObject *self, PyObject *args)
{
	return op_value(args, OP_ARGS("get_op_flag"), OPV_FLAG);
}

/* The attribute's string, or None. */
static PyObject *prof_get_op_attri_value(PyObject *self, PyObject *args)
{
	struct host_arg a;
	unsigned int index;
	const char *v;
	PyObject *o;
	size_t len;
	int attri, ok;

	if (!PyArg_ParseTuple(args, "OO&Ii:get_op_attri_value", &o, conv_size, &len,
			      &index, &attri))
		return NULL;
	ok = op_data(o, len, &a);
	if (ok < 0)
		return NULL;
	if (ok)
		Py_RETURN_NONE;
	v = aclprofGetOpAttriValue(a.p, len, index, (aclprofSubscribeOpAttri)attri);
	host_arg_release(&a);
	if (!v)
		Py_RETURN_NONE;
	return PyUnicode_FromString(v);
}

/* --- steps ----------------------------------------------------------------- */

static PyObject *prof_create_step_info(PyObject *self, PyObject *noargs)
{
	return pyh_created(PYH_STEP_INFO, aclprofCreateStepInfo());
}

static PyObject *prof_destroy_step_info(PyObject *self, PyObject *args)
{
	PyObject *r = pyh_destroy_arg(PYH_STEP_INFO, args, "O&:destroy_step_info");

	/* pyACL's destroy_step_info returns nothing. */
	if (!r)
		return NULL;
	Py_DECREF(r);
	Py_RETURN_NONE;
}

static PyObject *prof_get_step_timestamp(PyObject *self, PyObject *args)
{
	void *si, *stream;
	aclError r;
	int tag;

	if (!PyArg_ParseTuple(args, "O&iO&:get_step_timestamp", conv_ptr, &si,
			      &tag, conv_ptr, &stream))
		return NULL;
	if (!pyh_live(PYH_STEP_INFO, si))
		return ret_only(ACL_ERROR_INVALID_PARAM);
	r = aclprofGetStepTimestamp(si, (aclprofStepTag)tag, stream);
	return ret_only(r);
}

/* --- msproftx (libascendcl checks stamps itself) -------------------------- */

static PyObject *prof_create_stamp(PyObject *self, PyObject *noargs)
{
	return ptr_obj(aclprofCreateStamp());
}

static PyObject *prof_destroy_stamp(PyObject *self, PyObject *args)
{
	void *st;

	if (!PyArg_ParseTuple(args, "O&:destroy_stamp", conv_ptr, &st))
		return NULL;
	aclprofDestroyStamp(st);
	Py_RETURN_NONE;
}

static PyObject *prof_set_stamp_trace_message(PyObject *self, PyObject *args)
{
	const char *msg;
	Py_ssize_t n;
	unsigned int len;
	void *st;

	if (!PyArg_ParseTuple(args, "O&s#I:set_stamp_trace_message", conv_ptr, &st,
			      &msg, &n, &len))
		return NULL;
	/* msg_len counts characters of msg; more than it holds is refused. */
	if ((Py_ssize_t)len > n)
		return ret_only(ACL_ERROR_INVALID_PARAM);
	return ret_only(aclprofSetStampTraceMessage(st, msg, len));
}

static PyObject *stamp_call(PyObject *args, const char *fmt, aclError (*fn)(void *))
{
	void *st;

	if (!PyArg_ParseTuple(args, fmt, conv_ptr, &st))
		return NULL;
	return ret_only(fn(st));
}

static PyObject *prof_mark(PyObject *self, PyObject *args)
{
	return stamp_call(args, "O&:mark", aclprofMark);
}

static PyObject *prof_push(PyObject *self, PyObject *args)
{
	return stamp_call(args, "O&:push", aclprofPush);
}

/* pop() takes no argument; programs that pass the stamp are accepted. */
static PyObject *prof_pop(PyObject *self, PyObject *args)
{
	PyObject *ignored = NULL;

	if (!PyArg_ParseTuple(args, "|O:pop", &ignored))
		return NULL;
	return ret_only(aclprofPop());
}

static PyObject *prof_mark_ex(PyObject *self, PyObject *args)
{
	const char *msg;
	Py_ssize_t n;
	void *stream;
	aclError r;

	if (!PyArg_ParseTuple(args, "s#O&:mark_ex", &msg, &n, conv_ptr, &stream))
		return NULL;
	NOGIL(r = aclprofMarkEx(msg, (size_t)n, stream));
	return ret_only(r);
}

static PyObject *prof_range_start(PyObject *self, PyObject *args)
{
	uint32_t id = 0;
	void *st;
	aclError r;

	if (!PyArg_ParseTuple(args, "O&:range_start", conv_ptr, &st))
		return NULL;
	r = aclprofRangeStart(st, &id);
	return val_ret(PyLong_FromUnsignedLong(id), r);
}

static PyObject *prof_range_stop(PyObject *self, PyObject *args)
{
	unsigned int id;

	if (!PyArg_ParseTuple(args, "I:range_stop", &id))
		return NULL;
	return ret_only(aclprofRangeStop(id));
}

static PyObject *prof_str2id(PyObject *self, PyObject *args)
{
	const char *s;

	if (!PyArg_ParseTuple(args, "s:str2id", &s))
		return NULL;
	return PyLong_FromUnsignedLongLong(aclprofStr2Id(s));
}

static PyMethodDef prof_methods[] = {
	{ "init", prof_init, METH_VARARGS, "init(path) -> ret" },
	{ "finalize", prof_finalize, METH_NOARGS, "finalize() -> ret" },
	{ "create_config", prof_create_config, METH_VARARGS,
	  "create_config(device_list, aicore_metrics, aicore_events, data_type_config) -> config" },
	{ "destroy_config", prof_destroy_config, METH_VARARGS, "destroy_config(config) -> ret" },
	{ "start", prof_start, METH_VARARGS, "start(config) -> ret" },
	{ "stop", prof_stop, METH_VARARGS, "stop(config) -> ret" },
	{ "set_config", prof_set_config, METH_VARARGS, "set_config(config_type, value) -> ret" },
	{ "create_subscribe_config", prof_create_subscribe_config, METH_VARARGS,
	  "create_subscribe_config(time_info_switch, aicore_metrics, fd) -> config" },
	{ "destroy_subscribe_config", prof_destroy_subscribe_config, METH_VARARGS,
	  "destroy_subscribe_config(config) -> ret" },
	{ "model_subscribe", prof_model_subscribe, METH_VARARGS,
	  "model_subscribe(model_id, config) -> ret" },
	{ "model_un_subscribe", prof_model_un_subscribe, METH_VARARGS,
	  "model_un_subscribe(model_id) -> ret" },
	{ "get_op_desc_size", prof_get_op_desc_size, METH_NOARGS, "get_op_desc_size() -> (size, ret)" },
	{ "get_op_num", prof_get_op_num, METH_VARARGS, "get_op_num(data, len) -> (n, ret)" },
	{ "get_op_type_len", prof_get_op_type_len, METH_VARARGS,
	  "get_op_type_len(data, len, index) -> (n, ret)" },
	{ "get_op_type", prof_get_op_type, METH_VARARGS,
	  "get_op_type(data, len, index, type_len) -> (str, ret)" },
	{ "get_op_type_v2", prof_get_op_type_v2, METH_VARARGS,
	  "get_op_type_v2(data, len, index) -> (str, ret)" },
	{ "get_op_name_len", prof_get_op_name_len, METH_VARARGS,
	  "get_op_name_len(data, len, index) -> (n, ret)" },
	{ "get_op_name", prof_get_op_name, METH_VARARGS,
	  "get_op_name(data, len, index, name_len) -> (str, ret)" },
	{ "get_op_name_v2", prof_get_op_name_v2, METH_VARARGS,
	  "get_op_name_v2(data, len, index) -> (str, ret)" },
	{ "get_op_start", prof_get_op_start, METH_VARARGS, "get_op_start(data, len, index) -> us" },
	{ "get_op_end", prof_get_op_end, METH_VARARGS, "get_op_end(data, len, index) -> us" },
	{ "get_op_duration", prof_get_op_duration, METH_VARARGS,
	  "get_op_duration(data, len, index) -> us" },
	{ "get_model_id", prof_get_model_id, METH_VARARGS, "get_model_id(data, len, index) -> id" },
	{ "get_op_flag", prof_get_op_flag, METH_VARARGS, "get_op_flag(data, len, index) -> flag" },
	{ "get_op_attri_value", prof_get_op_attri_value, METH_VARARGS,
	  "get_op_attri_value(data, len, index, attri) -> str or None" },
	{ "create_step_info", prof_create_step_info, METH_NOARGS, "create_step_info() -> step_info" },
	{ "destroy_step_info", prof_destroy_step_info, METH_VARARGS, "destroy_step_info(step_info)" },
	{ "get_step_timestamp", prof_get_step_timestamp, METH_VARARGS,
	  "get_step_timestamp(step_info, tag, stream) -> ret" },
	{ "create_stamp", prof_create_stamp, METH_NOARGS, "create_stamp() -> stamp" },
	{ "destroy_stamp", prof_destroy_stamp, METH_VARARGS, "destroy_stamp(stamp)" },
	{ "set_stamp_trace_message", prof_set_stamp_trace_message, METH_VARARGS,
	  "set_stamp_trace_message(stamp, msg, msg_len) -> ret" },
	{ "mark", prof_mark, METH_VARARGS, "mark(stamp) -> ret" },
	{ "mark_ex", prof_mark_ex, METH_VARARGS, "mark_ex(msg, stream) -> ret" },
	{ "push", prof_push, METH_VARARGS, "push(stamp) -> ret" },
	{ "pop", prof_pop, METH_VARARGS, "pop() -> ret" },
	{ "range_start", prof_range_start, METH_VARARGS, "range_start(stamp) -> (range_id, ret)" },
	{ "range_stop", prof_range_stop, METH_VARARGS, "range_stop(range_id) -> ret" },
	{ "str2id", prof_str2id, METH_VARARGS, "str2id(message) -> id" },
	{ NULL, NULL, 0, NULL },
};

static struct PyModuleDef prof_def = {
	PyModuleDef_HEAD_INIT, "acl.prof", "pyACL profiling (acl_prof.h)", -1,
	prof_methods, NULL, NULL, NULL, NULL,
};

PyObject *acl_prof_module(void)
{
	PyObject *m = PyModule_Create(&prof_def);
	static const struct { const char *name; long long v; } consts[] = {
		{ "ACL_PROF_ACL_API", 0x0001 }, { "ACL_PROF_TASK_TIME", 0x0002 },
		{ "ACL_PROF_AICORE_METRICS", 0x0004 }, { "ACL_PROF_AICPU", 0x0008 },
		{ "ACL_PROF_L2CACHE", 0x0010 }, { "ACL_PROF_HCCL_TRACE", 0x0020 },
		{ "ACL_PROF_TRAINING_TRACE", 0x0040 }, { "ACL_PROF_MSPROFTX", 0x0080 },
		{ "ACL_PROF_RUNTIME_API", 0x0100 }, { "ACL_PROF_TASK_TIME_L0", 0x0800 },
		{ "ACL_PROF_TASK_MEMORY", 0x1000 }, { "ACL_AICORE_NONE", 0xFF },
		{ "ACL_STEP_START", ACL_STEP_START }, { "ACL_STEP_END", ACL_STEP_END },
		{ "ACL_SUBSCRIBE_OP", ACL_SUBSCRIBE_OP },
		{ "ACL_SUBSCRIBE_OP_THREAD", ACL_SUBSCRIBE_OP_THREAD },
		{ "ACL_SUBSCRIBE_NONE", ACL_SUBSCRIBE_NONE },
		{ "ACL_SUBSCRIBE_ATTRI_THREADID", ACL_SUBSCRIBE_ATTRI_THREADID },
	};

	if (!m)
		return NULL;
	for (size_t i = 0; i < sizeof(consts) / sizeof(consts[0]); i++)
		if (PyModule_AddIntConstant(m, consts[i].name, (long)consts[i].v) < 0) {
			Py_DECREF(m);
			return NULL;
		}
	return m;
}
