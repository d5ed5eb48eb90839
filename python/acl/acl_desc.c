/* SPDX-License-Identifier: MIT */
/*
 * Top-level acl.*: data buffers, tensor descriptions and dtype helpers
 * (pyACL keeps these on `acl` itself, not in a submodule).
 */
#include "acl_py.h"

#include <string.h>

/* -------------------------------------------------------- data buffers -- */

/*
 * The buffer keeps the address beyond the call, so it must be an int
 * (device or pinned memory), never a Python object the module would have
 * to keep alive.
 */
static PyObject *base_create_data_buffer(PyObject *self, PyObject *args)
{
	void *data;
	size_t size;

	if (!PyArg_ParseTuple(args, "O&O&:create_data_buffer", conv_ptr, &data, conv_size, &size))
		return NULL;
	return pyh_created(PYH_DATA_BUFFER, aclCreateDataBuffer(data, size));
}

static PyObject *base_destroy_data_buffer(PyObject *self, PyObject *args)
{
	return pyh_destroy_arg(PYH_DATA_BUFFER, args, "O&:destroy_data_buffer");
}

static PyObject *base_update_data_buffer(PyObject *self, PyObject *args)
{
	void *b, *data;
	size_t size;

	if (!PyArg_ParseTuple(args, "O&O&O&:update_data_buffer", conv_ptr, &b,
			      conv_ptr, &data, conv_size, &size))
		return NULL;
	if (!pyh_live(PYH_DATA_BUFFER, b))
		return ret_only(ACL_ERROR_INVALID_PARAM);
	return ret_only(aclUpdateDataBuffer(b, data, size));
}

static PyObject *base_get_data_buffer_addr(PyObject *self, PyObject *args)
{
	void *b;

	if (!PyArg_ParseTuple(args, "O&:get_data_buffer_addr", conv_ptr, &b))
		return NULL;
	return ptr_obj(pyh_live(PYH_DATA_BUFFER, b) ? aclGetDataBufferAddr(b) : NULL);
}

static PyObject *base_get_data_buffer_size_v2(PyObject *self, PyObject *args)
{
	void *b;

	if (!PyArg_ParseTuple(args, "O&:get_data_buffer_size_v2", conv_ptr, &b))
		return NULL;
	return PyLong_FromSize_t(pyh_live(PYH_DATA_BUFFER, b) ? aclGetDataBufferSizeV2(b) : 0);
}

/* --------------------------------------------------- tensor descriptions -- */

static PyObject *base_create_tensor_desc(PyObject *self, PyObject *args)
{
	int dtype, format;
	PyObject *dims_o, *fast;
	int64_t dims[ACL_MAX_DIM_CNT];
	Py_ssize_t n;

	if (!PyArg_ParseTuple(args, "iOi:create_tensor_desc", &dtype, &dims_o, &format))
		return NULL;
	fast = PySequence_Fast(dims_o, "create_tensor_desc: dims must be a list of ints");
	if (!fast)
		return NULL;
	n = PySequence_Fast_GET_SIZE(fast);
	if (n > ACL_MAX_DIM_CNT) {
		Py_DECREF(fast);
		PyErr_Format(PyExc_ValueError, "at most %d dims, %zd given", ACL_MAX_DIM_CNT, n);
		return NULL;
	}
	for (Py_ssize_t i = 0; i < n; i++) {
		dims[i] = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(fast, i));
		if (dims[i] == -1 && PyErr_Occurred()) {
			Py_DECREF(fast);
			return NULL;
		}
	}
	Py_DECREF(fast);
	return pyh_created(PYH_TENSOR_DESC, aclCreateTensorDesc((aclDataType)dtype, (int)n,
								n ? dims : NULL, (aclFormat)format));
}

static PyObject *base_destroy_tensor_desc(PyObject *self, PyObject *args)
{
	return pyh_destroy_arg(PYH_TENSOR_DESC, args, "O&:destroy_tensor_desc");
}

static int tdesc_arg(PyObject *o, void *out)
{
	if (!conv_ptr(o, out))
		return 0;
	if (!pyh_live(PYH_TENSOR_DESC, *(void **)out))
		*(void **)out = NULL;
	return 1;
}

enum tdesc_query { TD_SIZE, TD_TYPE, TD_FORMAT, TD_NUM_DIMS, TD_ELEMENTS };

static PyObject *tdesc_get(PyObject *args, enum tdesc_query q)
{
	void *d;

	if (!PyArg_ParseTuple(args, "O&", tdesc_arg, &d))
		return NULL;
	switch (q) {
	case TD_SIZE:
		return PyLong_FromSize_t(d ? aclGetTensorDescSize(d) : 0);
	case TD_TYPE:
		return PyLong_FromLong(d ? aclGetTensorDescType(d) : ACL_DT_UNDEFINED);
	case TD_FORMAT:
		return PyLong_FromLong(d ? aclGetTensorDescFormat(d) : ACL_FORMAT_UNDEFINED);
	case TD_NUM_DIMS:
		return PyLong_FromSize_t(d ? aclGetTensorDescNumDims(d) : 0);
	default:
		return PyLong_FromSize_t(d ? aclGetTensorDescElementCount(d) : 0);
	}
}

static PyObject *base_get_tensor_desc_size(PyObject *s, PyObject *a)
{
	return tdesc_get(a, TD_SIZE);
}

static PyObject *base_get_tensor_desc_type(PyObject *s, PyObject *a)
{
	return tdesc_get(a, TD_TYPE);
}

static PyObject *base_get_tensor_desc_format(PyObject *s, PyObject *a)
{
	return tdesc_get(a, TD_FORMAT);
}

static PyObject *base_get_tensor_desc_num_dims(PyObject *s, PyObject *a)
{
	return tdesc_get(a, TD_NUM_DIMS);
}

static PyObject *base_get_tensor_desc_element_count(PyObject *s, PyObject *a)
{
	return tdesc_get(a, TD_ELEMENTS);
}

static PyObject *base_get_tensor_desc_dim_v2(PyObject *self, PyObject *args)
{
	void *d;
	size_t i;
	int64_t dim = 0;
	aclError r;

	if (!PyArg_ParseTuple(args, "O&O&:get_tensor_desc_dim_v2", tdesc_arg, &d, conv_size, &i))
		return NULL;
	r = d ? aclGetTensorDescDimV2(d, i, &dim) : ACL_ERROR_INVALID_PARAM;
	return val_ret(PyLong_FromLongLong(dim), r);
}

static PyObject *base_set_tensor_desc_name(PyObject *self, PyObject *args)
{
	void *d;
	const char *name;

	if (!PyArg_ParseTuple(args, "O&s:set_tensor_desc_name", tdesc_arg, &d, &name))
		return NULL;
	if (!d)
		return ret_only(ACL_ERROR_INVALID_PARAM);
	aclSetTensorDescName(d, name);
	return ret_only(ACL_SUCCESS);
}

static PyObject *base_get_tensor_desc_name(PyObject *self, PyObject *args)
{
	void *d;
	const char *name;

	if (!PyArg_ParseTuple(args, "O&:get_tensor_desc_name", tdesc_arg, &d))
		return NULL;
	name = d ? aclGetTensorDescName(d) : NULL;
	return PyUnicode_FromString(name ? name : "");
}

static PyObject *base_data_type_size(PyObject *self, PyObject *args)
{
	int dtype;

	if (!PyArg_ParseTuple(args, "i:data_type_size", &dtype))
		return NULL;
	return PyLong_FromSize_t(aclDataTypeSize((aclDataType)dtype));
}

static PyObject *base_float_to_float16(PyObject *self, PyObject *args)
{
	float v;

	if (!PyArg_ParseTuple(args, "f:float_to_float16", &v))
		return NULL;
	return PyLong_FromLong(aclFloatToFloat16(v));
}

static PyObject *base_float16_to_float(PyObject *self, PyObject *args)
{
	unsigned short v;

	if (!PyArg_ParseTuple(args, "H:float16_to_float", &v))
		return NULL;
	return PyFloat_FromDouble(aclFloat16ToFloat(v));
}

#define VARARGS(name) { #name, base_##name, METH_VARARGS, NULL }

PyMethodDef acl_desc_methods[] = {
	VARARGS(create_data_buffer), VARARGS(destroy_data_buffer),
	VARARGS(update_data_buffer), VARARGS(get_data_buffer_addr),
	{ "get_data_buffer_size", base_get_data_buffer_size_v2, METH_VARARGS, NULL },
	VARARGS(get_data_buffer_size_v2),
	VARARGS(create_tensor_desc), VARARGS(destroy_tensor_desc),
	VARARGS(get_tensor_desc_size), VARARGS(get_tensor_desc_type),
	VARARGS(get_tensor_desc_format), VARARGS(get_tensor_desc_num_dims),
	VARARGS(get_tensor_desc_element_count), VARARGS(get_tensor_desc_dim_v2),
	VARARGS(set_tensor_desc_name), VARARGS(get_tensor_desc_name),
	VARARGS(data_type_size), VARARGS(float_to_float16), VARARGS(float16_to_float),
	{ NULL, NULL, 0, NULL }
};
