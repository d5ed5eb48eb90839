/* SPDX-License-Identifier: MIT */
/*
 * The live-handle sets and the create/destroy wrappers every kind of
 * tracked handle shares: a creator registers what libacl made, a
 * destroyer refuses an int the set does not hold and frees the rest.
 */
#include "acl_py.h"

#include <acl/acl_prof.h>

#include <acl/acl_op.h>

static PyObject *live_sets[PYH_KINDS];

/* libacl's destroy functions, one signature: void ones answer success. */
static aclError destroy_data_buffer(void *p)
{
	return aclDestroyDataBuffer(p);
}

static aclError destroy_dataset(void *p)
{
	return aclmdlDestroyDataset(p);
}

static aclError destroy_mdl_desc(void *p)
{
	return aclmdlDestroyDesc(p);
}

static aclError destroy_tensor_desc(void *p)
{
	aclDestroyTensorDesc(p);
	return ACL_SUCCESS;
}

static aclError destroy_op_attr(void *p)
{
	aclopDestroyAttr(p);
	return ACL_SUCCESS;
}

static aclError destroy_op_handle(void *p)
{
	aclopDestroyHandle(p);
	return ACL_SUCCESS;
}

static aclError destroy_prof_config(void *p)
{
	return aclprofDestroyConfig(p);
}

static aclError destroy_sub_config(void *p)
{
	return aclprofDestroySubscribeConfig(p);
}

static aclError destroy_step_info(void *p)
{
	aclprofDestroyStepInfo(p);
	return ACL_SUCCESS;
}

/* Threads are joined, not destroyed (acl.util.stop_thread): no entry. */
static aclError (*const destroyers[PYH_KINDS])(void *) = {
	[PYH_DATA_BUFFER] = destroy_data_buffer,
	[PYH_DATASET] = destroy_dataset,
	[PYH_MDL_DESC] = destroy_mdl_desc,
	[PYH_TENSOR_DESC] = destroy_tensor_desc,
	[PYH_OP_ATTR] = destroy_op_attr,
	[PYH_OP_HANDLE] = destroy_op_handle,
	[PYH_PROF_CONFIG] = destroy_prof_config,
	[PYH_SUB_CONFIG] = destroy_sub_config,
	[PYH_STEP_INFO] = destroy_step_info,
};

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

void pyh_destroy_all(enum py_handle_kind kind)
{
	PyObject *key;

	while (PySet_GET_SIZE(live_sets[kind]) > 0) {
		key = PySet_Pop(live_sets[kind]);
		if (!key) {
			PyErr_Clear();
			return;
		}
		destroyers[kind](PyLong_AsVoidPtr(key));
		Py_DECREF(key);
	}
}

/*
 * A handle the module could not record would be refused by every later
 * call, so it is freed at once and the Python error stands.
 */
int pyh_track(enum py_handle_kind kind, void *p)
{
	if (p && pyh_add(kind, p) < 0) {
		destroyers[kind](p);
		return -1;
	}
	return 0;
}

PyObject *pyh_created(enum py_handle_kind kind, void *p)
{
	if (pyh_track(kind, p) < 0)
		return NULL;
	return ptr_obj(p);
}

PyObject *pyh_destroy_arg(enum py_handle_kind kind, PyObject *args, const char *format)
{
	void *p;

	if (!PyArg_ParseTuple(args, format, conv_ptr, &p))
		return NULL;
	if (!pyh_remove(kind, p))
		return ret_only(ACL_ERROR_INVALID_PARAM);
	return ret_only(destroyers[kind](p));
}
