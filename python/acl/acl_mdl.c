/* SPDX-License-Identifier: MIT */
/*
 * acl.mdl: offline models (.om) and their datasets. Model descriptions
 * and datasets are checked against the module's set of live handles
 * before libacl sees them; model ids are libacl's to check.
 */
#include "acl_py.h"

#include <string.h>

static PyObject *mdl_load_from_file(PyObject *self, PyObject *args)
{
	PyObject *path_b;
	const char *path;
	uint32_t id = 0;
	aclError r;

	if (!PyArg_ParseTuple(args, "O&:load_from_file", PyUnicode_FSConverter, &path_b))
		return NULL;
	path = PyBytes_AS_STRING(path_b);	/* path_b stays referenced */
	NOGIL(r = aclmdlLoadFromFile(path, &id));
	Py_DECREF(path_b);
	return val_ret(PyLong_FromUnsignedLong(id), r);
}

/* load_from_mem(model, size): model is an int address (pyACL) or a buffer. */
static PyObject *mdl_load_from_mem(PyObject *self, PyObject *args)
{
	PyObject *model_o;
	size_t size;
	struct host_arg model;
	uint32_t id = 0;
	aclError r;

	if (!PyArg_ParseTuple(args, "OO&:load_from_mem", &model_o, conv_size, &size))
		return NULL;
	if (host_arg_get(model_o, false, &model) < 0)
		return NULL;
	r = host_arg_readable(&model, size);
	if (r) {
		host_arg_release(&model);
		if (r < 0)
			return NULL;
		return val_ret(PyLong_FromLong(0), ACL_ERROR_INVALID_PARAM);
	}
	NOGIL(r = aclmdlLoadFromMem(model.p, size, &id));
	host_arg_release(&model);
	return val_ret(PyLong_FromUnsignedLong(id), r);
}

static PyObject *mdl_unload(PyObject *self, PyObject *args)
{
	unsigned int id;
	aclError r;

	if (!PyArg_ParseTuple(args, "I:unload", &id))
		return NULL;
	NOGIL(r = aclmdlUnload(id));
	return ret_only(r);
}

static PyObject *mdl_query_size(PyObject *self, PyObject *args)
{
	PyObject *path_b;
	size_t work = 0, weight = 0;
	aclError r;

	if (!PyArg_ParseTuple(args, "O&:query_size", PyUnicode_FSConverter, &path_b))
		return NULL;
	r = aclmdlQuerySize(PyBytes_AS_STRING(path_b), &work, &weight);
	Py_DECREF(path_b);
	return Py_BuildValue("(KKi)", (unsigned long long)work,
			     (unsigned long long)weight, (int)r);
}

/* --------------------------------------------------------- model desc -- */

static PyObject *mdl_create_desc(PyObject *self, PyObject *noargs)
{
	return pyh_created(PYH_MDL_DESC, aclmdlCreateDesc());
}

static int desc_arg(PyObject *o, void *out)
{
	if (!conv_ptr(o, out))
		return 0;
	if (!pyh_live(PYH_MDL_DESC, *(void **)out))
		*(void **)out = NULL;	/* libacl answers NULL with its error */
	return 1;
}

static PyObject *mdl_destroy_desc(PyObject *self, PyObject *args)
{
	return pyh_destroy_arg(PYH_MDL_DESC, args, "O&:destroy_desc");
}

static PyObject *mdl_get_desc(PyObject *self, PyObject *args)
{
	void *d;
	unsigned int id;
	aclError r;

	if (!PyArg_ParseTuple(args, "O&I:get_desc", desc_arg, &d, &id))
		return NULL;
	if (!d)
		return ret_only(ACL_ERROR_INVALID_PARAM);
	NOGIL(r = aclmdlGetDesc(d, id));
	return ret_only(r);
}

static PyObject *mdl_get_num_inputs(PyObject *self, PyObject *args)
{
	void *d;

	if (!PyArg_ParseTuple(args, "O&:get_num_inputs", desc_arg, &d))
		return NULL;
	return PyLong_FromSize_t(d ? aclmdlGetNumInputs(d) : 0);
}

static PyObject *mdl_get_num_outputs(PyObject *self, PyObject *args)
{
	void *d;

	if (!PyArg_ParseTuple(args, "O&:get_num_outputs", desc_arg, &d))
		return NULL;
	return PyLong_FromSize_t(d ? aclmdlGetNumOutputs(d) : 0);
}

static PyObject *io_size(PyObject *args, bool input)
{
	void *d;
	size_t i;

	if (!PyArg_ParseTuple(args, "O&O&", desc_arg, &d, conv_size, &i))
		return NULL;
	if (!d)
		return PyLong_FromLong(0);
	return PyLong_FromSize_t(input ? aclmdlGetInputSizeByIndex(d, i) :
				 aclmdlGetOutputSizeByIndex(d, i));
}

static PyObject *mdl_get_input_size_by_index(PyObject *self, PyObject *args)
{
	return io_size(args, true);
}

static PyObject *mdl_get_output_size_by_index(PyObject *self, PyObject *args)
{
	return io_size(args, false);
}

/* pyACL's dims: {"name": str, "dimCount": n, "dims": [..]}, ret */
static PyObject *dims_result(const aclmdlIODims *dims, aclError r)
{
	size_t n = r == ACL_SUCCESS && dims->dimCount <= ACL_MAX_DIM_CNT ? dims->dimCount : 0;
	PyObject *list = PyList_New((Py_ssize_t)n);

	if (!list)
		return NULL;
	for (size_t i = 0; i < n; i++)
		PyList_SET_ITEM(list, (Py_ssize_t)i, PyLong_FromLongLong(dims->dims[i]));
	return val_ret(Py_BuildValue("{s:s#,s:n,s:N}", "name", dims->name,
				     (Py_ssize_t)strnlen(dims->name, sizeof(dims->name)),
				     "dimCount", (Py_ssize_t)n, "dims", list), r);
}

enum dims_kind { DIMS_IN, DIMS_OUT, DIMS_CUR_OUT };

static PyObject *io_dims(PyObject *args, enum dims_kind kind)
{
	aclmdlIODims dims;
	void *d;
	size_t i;
	aclError r;

	if (!PyArg_ParseTuple(args, "O&O&", desc_arg, &d, conv_size, &i))
		return NULL;
	memset(&dims, 0, sizeof(dims));
	if (!d)
		r = ACL_ERROR_INVALID_PARAM;
	else if (kind == DIMS_IN)
		r = aclmdlGetInputDims(d, i, &dims);
	else if (kind == DIMS_OUT)
		r = aclmdlGetOutputDims(d, i, &dims);
	else
		r = aclmdlGetCurOutputDims(d, i, &dims);
	return dims_result(&dims, r);
}

static PyObject *mdl_get_input_dims(PyObject *self, PyObject *args)
{
	return io_dims(args, DIMS_IN);
}

static PyObject *mdl_get_output_dims(PyObject *self, PyObject *args)
{
	return io_dims(args, DIMS_OUT);
}

static PyObject *mdl_get_cur_output_dims(PyObject *self, PyObject *args)
{
	return io_dims(args, DIMS_CUR_OUT);
}

static PyObject *io_name(PyObject *args, bool input)
{
	const char *name;
	void *d;
	size_t i;

	if (!PyArg_ParseTuple(args, "O&O&", desc_arg, &d, conv_size, &i))
		return NULL;
	name = !d ? NULL : input ? aclmdlGetInputNameByIndex(d, i) :
				   aclmdlGetOutputNameByIndex(d, i);
	return PyUnicode_FromString(name ? name : "");
}

static PyObject *mdl_get_input_name_by_index(PyObject *self, PyObject *args)
{
	return io_name(args, true);
}

static PyObject *mdl_get_output_name_by_index(PyObject *self, PyObject *args)
{
	return io_name(args, false);
}

static PyObject *io_index(PyObject *args, bool input)
{
	const char *name;
	void *d;
	size_t index = 0;
	aclError r;

	if (!PyArg_ParseTuple(args, "O&s", desc_arg, &d, &name))
		return NULL;
	if (!d)
		r = ACL_ERROR_INVALID_PARAM;
	else
		r = input ? aclmdlGetInputIndexByName(d, name, &index) :
			    aclmdlGetOutputIndexByName(d, name, &index);
	return val_ret(PyLong_FromSize_t(index), r);
}

static PyObject *mdl_get_input_index_by_name(PyObject *self, PyObject *args)
{
	return io_index(args, true);
}

static PyObject *mdl_get_output_index_by_name(PyObject *self, PyObject *args)
{
	return io_index(args, false);
}

enum io_attr { IO_IN_FORMAT, IO_OUT_FORMAT, IO_IN_TYPE, IO_OUT_TYPE };

static PyObject *io_attr(PyObject *args, enum io_attr what)
{
	void *d;
	size_t i;
	long v;

	if (!PyArg_ParseTuple(args, "O&O&", desc_arg, &d, conv_size, &i))
		return NULL;
	if (!d)
		v = what <= IO_OUT_FORMAT ? ACL_FORMAT_UNDEFINED : ACL_DT_UNDEFINED;
	else if (what == IO_IN_FORMAT)
		v = aclmdlGetInputFormat(d, i);
	else if (what == IO_OUT_FORMAT)
		v = aclmdlGetOutputFormat(d, i);
	else if (what == IO_IN_TYPE)
		v = aclmdlGetInputDataType(d, i);
	else
		v = aclmdlGetOutputDataType(d, i);
	return PyLong_FromLong(v);
}

static PyObject *mdl_get_input_format(PyObject *self, PyObject *args)
{
	return io_attr(args, IO_IN_FORMAT);
}

static PyObject *mdl_get_output_format(PyObject *self, PyObject *args)
{
	return io_attr(args, IO_OUT_FORMAT);
}

static PyObject *mdl_get_input_data_type(PyObject *self, PyObject *args)
{
	return io_attr(args, IO_IN_TYPE);
}

static PyObject *mdl_get_output_data_type(PyObject *self, PyObject *args)
{
	return io_attr(args, IO_OUT_TYPE);
}

/* ------------------------------------------------------------ dataset -- */

static PyObject *mdl_create_dataset(PyObject *self, PyObject *noargs)
{
	return pyh_created(PYH_DATASET, aclmdlCreateDataset());
}

static PyObject *mdl_destroy_dataset(PyObject *self, PyObject *args)
{
	return pyh_destroy_arg(PYH_DATASET, args, "O&:destroy_dataset");
}

/* pyACL returns (dataset, ret). */
static PyObject *mdl_add_dataset_buffer(PyObject *self, PyObject *args)
{
	void *ds, *buf;
	aclError r;

	if (!PyArg_ParseTuple(args, "O&O&:add_dataset_buffer", conv_ptr, &ds, conv_ptr, &buf))
		return NULL;
	if (!pyh_live(PYH_DATASET, ds) || !pyh_live(PYH_DATA_BUFFER, buf))
		r = ACL_ERROR_INVALID_PARAM;
	else
		r = aclmdlAddDatasetBuffer(ds, buf);
	return val_ret(ptr_obj(ds), r);
}

static PyObject *mdl_get_dataset_num_buffers(PyObject *self, PyObject *args)
{
	void *ds;

	if (!PyArg_ParseTuple(args, "O&:get_dataset_num_buffers", conv_ptr, &ds))
		return NULL;
	return PyLong_FromSize_t(pyh_live(PYH_DATASET, ds) ? aclmdlGetDatasetNumBuffers(ds) : 0);
}

static PyObject *mdl_get_dataset_buffer(PyObject *self, PyObject *args)
{
	void *ds;
	size_t i;

	if (!PyArg_ParseTuple(args, "O&O&:get_dataset_buffer", conv_ptr, &ds, conv_size, &i))
		return NULL;
	if (!pyh_live(PYH_DATASET, ds))
		return PyLong_FromLong(0);
	return ptr_obj(aclmdlGetDatasetBuffer(ds, i));
}

/* ---------------------------------------------------------- execution -- */

/*
 * The buffers a dataset holds must be live too: a data buffer destroyed
 * while still in a dataset would be read by libacl after free.
 */
static bool dataset_usable(void *ds)
{
	size_t n;

	if (!pyh_live(PYH_DATASET, ds))
		return false;
	n = aclmdlGetDatasetNumBuffers(ds);
	for (size_t i = 0; i < n; i++)
		if (!pyh_live(PYH_DATA_BUFFER, aclmdlGetDatasetBuffer(ds, i)))
			return false;
	return true;
}

static PyObject *mdl_execute(PyObject *self, PyObject *args)
{
	unsigned int id;
	void *in, *out;
	aclError r;

	if (!PyArg_ParseTuple(args, "IO&O&:execute", &id, conv_ptr, &in, conv_ptr, &out))
		return NULL;
	if (!dataset_usable(in) || !dataset_usable(out))
		return ret_only(ACL_ERROR_INVALID_PARAM);
	NOGIL(r = aclmdlExecute(id, in, out));
	return ret_only(r);
}

static PyObject *mdl_execute_async(PyObject *self, PyObject *args)
{
	unsigned int id;
	void *in, *out, *stream;
	aclError r;

	if (!PyArg_ParseTuple(args, "IO&O&O&:execute_async", &id, conv_ptr, &in,
			      conv_ptr, &out, conv_ptr, &stream))
		return NULL;
	if (!dataset_usable(in) || !dataset_usable(out))
		return ret_only(ACL_ERROR_INVALID_PARAM);
	NOGIL(r = aclmdlExecuteAsync(id, in, out, stream));
	return ret_only(r);
}

#define VARARGS(name) { #name, mdl_##name, METH_VARARGS, NULL }
#define NOARGS(name) { #name, mdl_##name, METH_NOARGS, NULL }

static PyMethodDef mdl_methods[] = {
	VARARGS(load_from_file), VARARGS(load_from_mem), VARARGS(unload), VARARGS(query_size),
	NOARGS(create_desc), VARARGS(destroy_desc), VARARGS(get_desc),
	VARARGS(get_num_inputs), VARARGS(get_num_outputs),
	VARARGS(get_input_size_by_index), VARARGS(get_output_size_by_index),
	VARARGS(get_input_dims), VARARGS(get_output_dims), VARARGS(get_cur_output_dims),
	VARARGS(get_input_name_by_index), VARARGS(get_output_name_by_index),
	VARARGS(get_input_index_by_name), VARARGS(get_output_index_by_name),
	VARARGS(get_input_format), VARARGS(get_output_format),
	VARARGS(get_input_data_type), VARARGS(get_output_data_type),
	NOARGS(create_dataset), VARARGS(destroy_dataset), VARARGS(add_dataset_buffer),
	VARARGS(get_dataset_num_buffers), VARARGS(get_dataset_buffer),
	VARARGS(execute), VARARGS(execute_async),
	{ NULL, NULL, 0, NULL }
};

static struct PyModuleDef mdl_def = {
	PyModuleDef_HEAD_INIT, "acl.mdl", "ACL offline models (.om).",
	-1, mdl_methods, NULL, NULL, NULL, NULL
};

PyObject *acl_mdl_module(void)
{
	return PyModule_Create(&mdl_def);
}
