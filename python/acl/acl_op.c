/* SPDX-License-Identifier: MIT */
/*
 * acl.op: single operators through aclop (attributes, execute_v2,
 * handles, compile, load/set_model_dir). Lists of tensor descriptions
 * and data buffers are Python lists of handles, each checked live.
 */
#include "acl_py.h"

#include <acl/acl_op_compiler.h>

static PyObject *op_create_attr(PyObject *self, PyObject *noargs)
{
	return pyh_created(PYH_OP_ATTR, aclopCreateAttr());
}

static PyObject *op_destroy_attr(PyObject *self, PyObject *args)
{
	return pyh_destroy_arg(PYH_OP_ATTR, args, "O&:destroy_attr");
}

/* An attr argument: a live attr, or None/0 for "no attributes". */
static int attr_arg(PyObject *o, void **out, bool *ok)
{
	if (!conv_ptr(o, out))
		return 0;
	*ok = !*out || pyh_live(PYH_OP_ATTR, *out);
	return 1;
}

enum attr_kind { AT_BOOL, AT_INT, AT_FLOAT, AT_STRING, AT_DTYPE };

static PyObject *set_scalar(PyObject *args, enum attr_kind k)
{
	PyObject *attr_o, *v;
	const char *name;
	void *attr;
	bool ok;

	if (!PyArg_ParseTuple(args, "OsO", &attr_o, &name, &v))
		return NULL;
	if (!attr_arg(attr_o, &attr, &ok))
		return NULL;
	if (!ok || !attr)
		return ret_only(ACL_ERROR_INVALID_PARAM);
	switch (k) {
	case AT_BOOL: {
		int b = PyObject_IsTrue(v);

		if (b < 0)
			return NULL;
		return ret_only(aclopSetAttrBool(attr, name, (uint8_t)b));
	}
	case AT_INT:
	case AT_DTYPE: {
		long long i;

		if (!PyLong_Check(v)) {
			PyErr_SetString(PyExc_TypeError, "the attribute value must be an int");
			return NULL;
		}
		i = PyLong_AsLongLong(v);
		if (i == -1 && PyErr_Occurred())
			return NULL;
		if (k == AT_DTYPE)
			return ret_only(aclopSetAttrDataType(attr, name, (aclDataType)i));
		return ret_only(aclopSetAttrInt(attr, name, i));
	}
	case AT_FLOAT: {
		double f = PyFloat_AsDouble(v);

		if (f == -1.0 && PyErr_Occurred())
			return NULL;
		return ret_only(aclopSetAttrFloat(attr, name, (float)f));
	}
	default:
		if (!PyUnicode_Check(v)) {
			PyErr_SetString(PyExc_TypeError, "the attribute value must be a str");
			return NULL;
		}
		return ret_only(aclopSetAttrString(attr, name, PyUnicode_AsUTF8(v)));
	}
}

static PyObject *op_set_attr_bool(PyObject *s, PyObject *a)
{
	return set_scalar(a, AT_BOOL);
}

static PyObject *op_set_attr_int(PyObject *s, PyObject *a)
{
	return set_scalar(a, AT_INT);
}

static PyObject *op_set_attr_float(PyObject *s, PyObject *a)
{
	return set_scalar(a, AT_FLOAT);
}

static PyObject *op_set_attr_string(PyObject *s, PyObject *a)
{
	return set_scalar(a, AT_STRING);
}

static PyObject *op_set_attr_data_type(PyObject *s, PyObject *a)
{
	return set_scalar(a, AT_DTYPE);
}

static PyObject *set_list(PyObject *args, enum attr_kind k)
{
	PyObject *attr_o, *list, *fast, *res = NULL;
	const char *name;
	void *attr, *vals;
	bool ok;
	Py_ssize_t n;

	if (!PyArg_ParseTuple(args, "OsO", &attr_o, &name, &list))
		return NULL;
	if (!attr_arg(attr_o, &attr, &ok))
		return NULL;
	fast = PySequence_Fast(list, "the attribute value must be a list");
	if (!fast)
		return NULL;
	n = PySequence_Fast_GET_SIZE(fast);
	if (n > 65536) {
		Py_DECREF(fast);
		PyErr_SetString(PyExc_ValueError, "the attribute list is too long");
		return NULL;
	}
	vals = PyMem_Calloc(n ? (size_t)n : 1, k == AT_STRING ? sizeof(char *) : 8);
	if (!vals) {
		Py_DECREF(fast);
		return PyErr_NoMemory();
	}
	for (Py_ssize_t i = 0; i < n; i++) {
		PyObject *it = PySequence_Fast_GET_ITEM(fast, i);

		if (k == AT_BOOL) {
			int b = PyObject_IsTrue(it);

			if (b < 0)
				goto out;
			((uint8_t *)vals)[i] = (uint8_t)b;
		} else if (k == AT_INT) {
			((int64_t *)vals)[i] = PyLong_AsLongLong(it);
		} else if (k == AT_FLOAT) {
			((float *)vals)[i] = (float)PyFloat_AsDouble(it);
		} else {
			((const char **)vals)[i] = PyUnicode_AsUTF8(it);
		}
		if (PyErr_Occurred())
			goto out;
	}
	if (!ok || !attr) {
		res = ret_only(ACL_ERROR_INVALID_PARAM);
		goto out;
	}
	if (k == AT_BOOL)
		res = ret_only(aclopSetAttrListBool(attr, name, (int)n, vals));
	else if (k == AT_INT)
		res = ret_only(aclopSetAttrListInt(attr, name, (int)n, vals));
	else if (k == AT_FLOAT)
		res = ret_only(aclopSetAttrListFloat(attr, name, (int)n, vals));
	else
		res = ret_only(aclopSetAttrListString(attr, name, (int)n, vals));
out:
	PyMem_Free(vals);
	Py_DECREF(fast);
	return res;
}

static PyObject *op_set_attr_list_bool(PyObject *s, PyObject *a)
{
	return set_list(a, AT_BOOL);
}

static PyObject *op_set_attr_list_int(PyObject *s, PyObject *a)
{
	return set_list(a, AT_INT);
}

static PyObject *op_set_attr_list_float(PyObject *s, PyObject *a)
{
	return set_list(a, AT_FLOAT);
}

static PyObject *op_set_attr_list_string(PyObject *s, PyObject *a)
{
	return set_list(a, AT_STRING);
}

static PyObject *op_set_model_dir(PyObject *self, PyObject *args)
{
	PyObject *dir_b;
	const char *dir;
	aclError r;

	if (!PyArg_ParseTuple(args, "O&:set_model_dir", PyUnicode_FSConverter, &dir_b))
		return NULL;
	dir = PyBytes_AS_STRING(dir_b);
	NOGIL(r = aclopSetModelDir(dir));
	Py_DECREF(dir_b);
	return ret_only(r);
}

static PyObject *op_load(PyObject *self, PyObject *args)
{
	PyObject *model_o;
	size_t size;
	struct host_arg model;
	aclError r;

	if (!PyArg_ParseTuple(args, "OO&:load", &model_o, conv_size, &size))
		return NULL;
	if (host_arg_get(model_o, false, &model) < 0)
		return NULL;
	r = host_arg_readable(&model, size);
	if (r) {
		host_arg_release(&model);
		return r < 0 ? NULL : ret_only(ACL_ERROR_INVALID_PARAM);
	}
	NOGIL(r = aclopLoad(model.p, size));
	host_arg_release(&model);
	return ret_only(r);
}

/* The four lists of an operator call, each checked against live handles. */
struct op_lists {
	void **in_desc, **in_buf, **out_desc, **out_buf;
	int n_in_desc, n_in_buf, n_out_desc, n_out_buf;
};

static void op_lists_free(struct op_lists *l)
{
	PyMem_Free(l->in_desc);
	PyMem_Free(l->in_buf);
	PyMem_Free(l->out_desc);
	PyMem_Free(l->out_buf);
}

/* -1: exception; 1: a dead handle or mismatched counts; 0: fine. */
static int op_lists_get(struct op_lists *l, PyObject *in_desc, PyObject *in_buf,
			PyObject *out_desc, PyObject *out_buf)
{
	int bad = 0, r;

	memset(l, 0, sizeof(*l));
	r = handle_list(in_desc, PYH_TENSOR_DESC, "input descs", &l->in_desc, &l->n_in_desc);
	if (r >= 0) {
		bad |= r;
		r = handle_list(out_desc, PYH_TENSOR_DESC, "output descs", &l->out_desc,
				&l->n_out_desc);
	}
	if (r >= 0 && in_buf) {
		bad |= r;
		r = handle_list(in_buf, PYH_DATA_BUFFER, "inputs", &l->in_buf, &l->n_in_buf);
	}
	if (r >= 0 && out_buf) {
		bad |= r;
		r = handle_list(out_buf, PYH_DATA_BUFFER, "outputs", &l->out_buf, &l->n_out_buf);
	}
	if (r < 0) {
		op_lists_free(l);
		return -1;
	}
	bad |= r;
	if (in_buf && (l->n_in_buf != l->n_in_desc || l->n_out_buf != l->n_out_desc))
		bad = 1;
	return bad;
}

/*
 * What execute_v2, create_handle and compile take: the attr (a live one,
 * or None/0) and the lists. -1: a Python error; 1: a handle not live or
 * counts that differ (the call answers ACL_ERROR_INVALID_PARAM; nothing
 * to free); 0: l to free after the call.
 */
static int op_call_args(struct op_lists *l, PyObject *attr_o, void **attr,
			PyObject *in_desc, PyObject *in_buf, PyObject *out_desc,
			PyObject *out_buf)
{
	bool ok;
	int bad;

	if (!attr_arg(attr_o, attr, &ok))
		return -1;
	bad = op_lists_get(l, in_desc, in_buf, out_desc, out_buf);
	if (bad < 0)
		return -1;
	if (bad || !ok) {
		op_lists_free(l);
		return 1;
	}
	return 0;
}

static PyObject *op_execute_v2(PyObject *self, PyObject *args)
{
	const char *type;
	PyObject *in_desc, *in_buf, *out_desc, *out_buf, *attr_o;
	void *attr, *stream;
	struct op_lists l;
	aclError r;
	int bad;

	if (!PyArg_ParseTuple(args, "sOOOOOO&:execute_v2", &type, &in_desc, &in_buf,
			      &out_desc, &out_buf, &attr_o, conv_ptr, &stream))
		return NULL;
	bad = op_call_args(&l, attr_o, &attr, in_desc, in_buf, out_desc, out_buf);
	if (bad)
		return bad < 0 ? NULL : ret_only(ACL_ERROR_INVALID_PARAM);
	NOGIL(r = aclopExecuteV2(type, l.n_in_desc, (aclTensorDesc **)l.in_desc,
				 (aclDataBuffer **)l.in_buf, l.n_out_desc,
				 (aclTensorDesc **)l.out_desc, (aclDataBuffer **)l.out_buf,
				 attr, stream));
	op_lists_free(&l);
	return ret_only(r);
}

static PyObject *op_create_handle(PyObject *self, PyObject *args)
{
	const char *type;
	PyObject *in_desc, *out_desc, *attr_o;
	void *attr;
	aclopHandle *h = NULL;
	struct op_lists l;
	aclError r;
	int bad;

	if (!PyArg_ParseTuple(args, "sOOO:create_handle", &type, &in_desc, &out_desc, &attr_o))
		return NULL;
	bad = op_call_args(&l, attr_o, &attr, in_desc, NULL, out_desc, NULL);
	if (bad)
		return bad < 0 ? NULL : val_ret(ptr_obj(NULL), ACL_ERROR_INVALID_PARAM);
	NOGIL(r = aclopCreateHandle(type, l.n_in_desc,
				    (const aclTensorDesc *const *)l.in_desc, l.n_out_desc,
				    (const aclTensorDesc *const *)l.out_desc, attr, &h));
	op_lists_free(&l);
	if (r == ACL_SUCCESS && pyh_track(PYH_OP_HANDLE, h) < 0)
		return NULL;
	return val_ret(ptr_obj(r == ACL_SUCCESS ? h : NULL), r);
}

static PyObject *op_destroy_handle(PyObject *self, PyObject *args)
{
	return pyh_destroy_arg(PYH_OP_HANDLE, args, "O&:destroy_handle");
}

static PyObject *op_execute_with_handle(PyObject *self, PyObject *args)
{
	PyObject *in_buf, *out_buf;
	void *h, *stream, **in = NULL, **out = NULL;
	int n_in = 0, n_out = 0, bad;
	aclError r;

	if (!PyArg_ParseTuple(args, "O&OOO&:execute_with_handle", conv_ptr, &h, &in_buf,
			      &out_buf, conv_ptr, &stream))
		return NULL;
	bad = handle_list(in_buf, PYH_DATA_BUFFER, "inputs", &in, &n_in);
	if (bad >= 0) {
		int b2 = handle_list(out_buf, PYH_DATA_BUFFER, "outputs", &out, &n_out);

		bad = b2 < 0 ? b2 : (bad | b2);
	}
	if (bad < 0) {
		PyMem_Free(in);
		return NULL;
	}
	if (bad || !pyh_live(PYH_OP_HANDLE, h)) {
		r = ACL_ERROR_INVALID_PARAM;
	} else {
		NOGIL(r = aclopExecWithHandle(h, n_in, (const aclDataBuffer *const *)in,
					      n_out, (aclDataBuffer *const *)out, stream));
	}
	PyMem_Free(in);
	PyMem_Free(out);
	return ret_only(r);
}

static PyObject *op_compile(PyObject *self, PyObject *args)
{
	const char *type, *path = NULL;
	PyObject *in_desc, *out_desc, *attr_o;
	int engine = ACL_ENGINE_SYS, flag = ACL_COMPILE_SYS, bad;
	void *attr;
	struct op_lists l;
	aclError r;

	if (!PyArg_ParseTuple(args, "sOOO|iiz:compile", &type, &in_desc, &out_desc, &attr_o,
			      &engine, &flag, &path))
		return NULL;
	bad = op_call_args(&l, attr_o, &attr, in_desc, NULL, out_desc, NULL);
	if (bad)
		return bad < 0 ? NULL : ret_only(ACL_ERROR_INVALID_PARAM);
	NOGIL(r = aclopCompile(type, l.n_in_desc, (const aclTensorDesc *const *)l.in_desc,
			       l.n_out_desc, (const aclTensorDesc *const *)l.out_desc,
			       attr, (aclopEngineType)engine, (aclopCompileType)flag, path));
	op_lists_free(&l);
	return ret_only(r);
}

#define VARARGS(name) { #name, op_##name, METH_VARARGS, NULL }

static PyMethodDef op_methods[] = {
	{ "create_attr", op_create_attr, METH_NOARGS, NULL },
	VARARGS(destroy_attr), VARARGS(set_attr_bool), VARARGS(set_attr_int),
	VARARGS(set_attr_float), VARARGS(set_attr_string), VARARGS(set_attr_data_type),
	VARARGS(set_attr_list_bool), VARARGS(set_attr_list_int), VARARGS(set_attr_list_float),
	VARARGS(set_attr_list_string),
	VARARGS(set_model_dir), VARARGS(load), VARARGS(execute_v2),
	VARARGS(create_handle), VARARGS(destroy_handle), VARARGS(execute_with_handle),
	{ "exec_with_handle", op_execute_with_handle, METH_VARARGS,
	  "alias of execute_with_handle" },
	VARARGS(compile),
	{ NULL, NULL, 0, NULL }
};

static struct PyModuleDef op_def = {
	PyModuleDef_HEAD_INIT, "acl.op", "ACL single operators (aclop).",
	-1, op_methods, NULL, NULL, NULL, NULL
};

PyObject *acl_op_module(void)
{
	return PyModule_Create(&op_def);
}
