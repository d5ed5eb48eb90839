/* SPDX-License-Identifier: MIT */
/*
 * The `acl` module: init/finalize and versions, pyACL's layout (acl.*,
 * acl.rt, acl.mdl, acl.op, acl.util) and the constants pyACL programs
 * use. Programs written for
 * pyACL usually define ACL_* constants themselves; they are provided on
 * `acl` too, and the memcpy kinds also on acl.rt without the prefix
 * (acl.rt.MEMCPY_HOST_TO_DEVICE, as the seed's samples spell them).
 */
#include "acl_py.h"

#include <acl/acl_op.h>
#include <acl/acl_op_compiler.h>
#include <string.h>

/* init(config_path=""): an empty or omitted path means no config file. */
static PyObject *base_init(PyObject *self, PyObject *args, PyObject *kw)
{
	static char *names[] = { "config_path", NULL };
	const char *path = NULL;
	aclError r;

	if (!PyArg_ParseTupleAndKeywords(args, kw, "|z:init", names, &path))
		return NULL;
	if (path && !path[0])
		path = NULL;
	NOGIL(r = aclInit(path));
	return ret_only(r);
}

/*
 * aclFinalize forgets every loaded operator, and an op handle points at
 * one: the module frees its live handles with it, so an old handle is an
 * error code after a later init rather than a dangling pointer.
 */
static PyObject *base_finalize(PyObject *self, PyObject *noargs)
{
	aclError r;

	NOGIL(r = aclFinalize());
	if (r == ACL_SUCCESS)
		pyh_destroy_all(PYH_OP_HANDLE);
	return ret_only(r);
}

static PyObject *base_get_recent_err_msg(PyObject *self, PyObject *noargs)
{
	const char *msg = aclGetRecentErrMsg();

	if (!msg)
		Py_RETURN_NONE;
	return PyUnicode_DecodeUTF8(msg, (Py_ssize_t)strlen(msg), "replace");
}

struct int_const {
	const char *name;
	long long value;
};

#define C(x) { #x, (long long)(x) }

/* Every ACL_ERROR_* of the headers, extracted at build time. */
static const struct int_const error_consts[] = {
#include "acl_errors.h"
	{ NULL, 0 }
};

static const struct int_const enum_consts[] = {
	C(ACL_SUCCESS),
	/* aclDataType */
	C(ACL_DT_UNDEFINED), C(ACL_FLOAT), C(ACL_FLOAT16), C(ACL_INT8), C(ACL_INT32),
	C(ACL_UINT8), C(ACL_INT16), C(ACL_UINT16), C(ACL_UINT32), C(ACL_INT64),
	C(ACL_UINT64), C(ACL_DOUBLE), C(ACL_BOOL), C(ACL_STRING), C(ACL_COMPLEX64),
	C(ACL_COMPLEX128), C(ACL_BF16),
	/* aclFormat */
	C(ACL_FORMAT_UNDEFINED), C(ACL_FORMAT_NCHW), C(ACL_FORMAT_NHWC), C(ACL_FORMAT_ND),
	C(ACL_FORMAT_NC1HWC0), C(ACL_FORMAT_FRACTAL_Z), C(ACL_FORMAT_HWCN),
	C(ACL_FORMAT_NDHWC), C(ACL_FORMAT_FRACTAL_NZ), C(ACL_FORMAT_NCDHW),
	/* aclrtMemMallocPolicy */
	C(ACL_MEM_MALLOC_HUGE_FIRST), C(ACL_MEM_MALLOC_HUGE_ONLY),
	C(ACL_MEM_MALLOC_NORMAL_ONLY), C(ACL_MEM_MALLOC_HUGE_FIRST_P2P),
	C(ACL_MEM_MALLOC_HUGE_ONLY_P2P), C(ACL_MEM_MALLOC_NORMAL_ONLY_P2P),
	/* aclrtMemcpyKind */
	C(ACL_MEMCPY_HOST_TO_HOST), C(ACL_MEMCPY_HOST_TO_DEVICE),
	C(ACL_MEMCPY_DEVICE_TO_HOST), C(ACL_MEMCPY_DEVICE_TO_DEVICE), C(ACL_MEMCPY_DEFAULT),
	/* aclrtMemAttr */
	C(ACL_DDR_MEM), C(ACL_HBM_MEM), C(ACL_DDR_MEM_HUGE), C(ACL_DDR_MEM_NORMAL),
	C(ACL_HBM_MEM_HUGE), C(ACL_HBM_MEM_NORMAL),
	/* callbacks, run mode, events */
	C(ACL_CALLBACK_NO_BLOCK), C(ACL_CALLBACK_BLOCK), C(ACL_DEVICE), C(ACL_HOST),
	C(ACL_EVENT_STATUS_COMPLETE), C(ACL_EVENT_STATUS_NOT_READY),
	C(ACL_EVENT_RECORDED_STATUS_NOT_READY), C(ACL_EVENT_RECORDED_STATUS_COMPLETE),
	C(ACL_EVENT_SYNC), C(ACL_EVENT_TIME_LINE),
	/* aclop */
	C(ACL_ENGINE_SYS), C(ACL_ENGINE_AICORE), C(ACL_ENGINE_VECTOR),
	C(ACL_COMPILE_SYS), C(ACL_COMPILE_UNREGISTERED),
	C(ACL_MAX_DIM_CNT), C(ACL_MAX_TENSOR_NAME_LEN),
	{ NULL, 0 }
};

static const struct int_const rt_consts[] = {
	{ "MEMCPY_HOST_TO_HOST", ACL_MEMCPY_HOST_TO_HOST },
	{ "MEMCPY_HOST_TO_DEVICE", ACL_MEMCPY_HOST_TO_DEVICE },
	{ "MEMCPY_DEVICE_TO_HOST", ACL_MEMCPY_DEVICE_TO_HOST },
	{ "MEMCPY_DEVICE_TO_DEVICE", ACL_MEMCPY_DEVICE_TO_DEVICE },
	{ "MEMCPY_DEFAULT", ACL_MEMCPY_DEFAULT },
	C(ACL_MEMCPY_HOST_TO_HOST), C(ACL_MEMCPY_HOST_TO_DEVICE),
	C(ACL_MEMCPY_DEVICE_TO_HOST), C(ACL_MEMCPY_DEVICE_TO_DEVICE), C(ACL_MEMCPY_DEFAULT),
	C(ACL_MEM_MALLOC_HUGE_FIRST), C(ACL_MEM_MALLOC_HUGE_ONLY),
	C(ACL_MEM_MALLOC_NORMAL_ONLY), C(ACL_CALLBACK_NO_BLOCK), C(ACL_CALLBACK_BLOCK),
	C(ACL_DDR_MEM), C(ACL_HBM_MEM),
	{ NULL, 0 }
};

static int add_table(PyObject *m, const struct int_const *t)
{
	for (; t->name; t++)
		if (PyModule_AddObject(m, t->name, PyLong_FromLongLong(t->value)) < 0)
			return -1;
	return 0;
}

int acl_add_constants(PyObject *m)
{
	if (add_table(m, error_consts) < 0 || add_table(m, enum_consts) < 0)
		return -1;
	return 0;
}

int acl_add_rt_constants(PyObject *m)
{
	return add_table(m, rt_consts);
}

static PyMethodDef acl_methods[] = {
	{ "init", (PyCFunction)(void (*)(void))base_init, METH_VARARGS | METH_KEYWORDS,
	  "init(config_path='') -> ret" },
	{ "finalize", base_finalize, METH_NOARGS, NULL },
	{ "get_version", acl_get_version, METH_NOARGS, NULL },
	{ "get_recent_err_msg", base_get_recent_err_msg, METH_NOARGS, NULL },
	{ "get_soc_name", acl_get_soc_name, METH_NOARGS, NULL },
	{ NULL, NULL, 0, NULL }
};

static struct PyModuleDef acl_def = {
	PyModuleDef_HEAD_INIT, "acl",
	"AscendCL for Python (pyACL's API) over vnpu's libascendcl.",
	-1, acl_methods, NULL, NULL, NULL, NULL
};

/* acl.rt etc. are attributes and also entries of sys.modules ("import acl.rt"). */
static int add_submodule(PyObject *m, const char *name, PyObject *sub)
{
	char full[32];
	PyObject *modules = PyImport_GetModuleDict();

	if (!sub)
		return -1;
	snprintf(full, sizeof(full), "acl.%s", name);
	if (PyDict_SetItemString(modules, full, sub) < 0 ||
	    PyModule_AddObject(m, name, sub) < 0) {
		Py_DECREF(sub);
		return -1;
	}
	return 0;
}

PyMODINIT_FUNC PyInit_acl(void);
PyMODINIT_FUNC PyInit_acl(void)
{
	PyObject *m = PyModule_Create(&acl_def);

	if (!m)
		return NULL;
	if (pyh_init() < 0 || acl_add_constants(m) < 0 ||
	    PyModule_AddFunctions(m, acl_desc_methods) < 0 ||
	    add_submodule(m, "rt", acl_rt_module()) < 0 ||
	    add_submodule(m, "mdl", acl_mdl_module()) < 0 ||
	    add_submodule(m, "op", acl_op_module()) < 0 ||
	    add_submodule(m, "util", acl_util_module()) < 0 ||
	    add_submodule(m, "media", acl_media_module()) < 0 ||
	    add_submodule(m, "prof", acl_prof_module()) < 0 ||
	    add_submodule(m, "_nn", acl_nn_module()) < 0) {
		Py_DECREF(m);
		return NULL;
	}
	return m;
}
