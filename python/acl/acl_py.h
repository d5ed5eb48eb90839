/* SPDX-License-Identifier: MIT */
/*
 * The `acl` extension module (pyACL's Python API over libascendcl): what
 * its files share. Conventions: pointers and handles are Python ints;
 * a function that produces a value returns (value, ret), the others ret.
 */
#ifndef VNPU_ACL_PY_H
#define VNPU_ACL_PY_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdbool.h>
#include <stdint.h>

#include <acl/acl.h>

/* Run stmt with the GIL released: libacl calls that can wait or block. */
#define NOGIL(stmt) do { Py_BEGIN_ALLOW_THREADS stmt; Py_END_ALLOW_THREADS } while (0)

/*
 * Handles libacl cannot recognise once freed (plain heap objects): the
 * module keeps the set of live ones and refuses any other int, so a
 * destroyed or made-up handle is an error code, not a wild pointer.
 * Streams, events, contexts, model ids and device memory are checked by
 * libacl itself.
 */
enum py_handle_kind {
	PYH_DATA_BUFFER, PYH_DATASET, PYH_MDL_DESC, PYH_TENSOR_DESC,
	PYH_OP_ATTR, PYH_OP_HANDLE, PYH_THREAD, PYH_PROF_CONFIG,
	PYH_SUB_CONFIG, PYH_STEP_INFO, PYH_KINDS
};

int pyh_init(void);
int pyh_add(enum py_handle_kind kind, const void *p);
bool pyh_live(enum py_handle_kind kind, const void *p);
bool pyh_remove(enum py_handle_kind kind, const void *p);
/* Destroy every live handle of a kind (what aclFinalize invalidates). */
void pyh_destroy_all(enum py_handle_kind kind);
/*
 * Record a handle libacl just made (NULL: nothing to record); when that
 * fails the handle is destroyed and -1 returned with a Python error set.
 */
int pyh_track(enum py_handle_kind kind, void *p);
/* A creator's result: the new handle as an int (0 for NULL), or NULL. */
PyObject *pyh_created(enum py_handle_kind kind, void *p);
/*
 * A destroyer: parse the one handle argument with format ("O&:name"),
 * refuse one that is not live (ACL_ERROR_INVALID_PARAM), else destroy it
 * and return libacl's code (success for the void destroy functions).
 */
PyObject *pyh_destroy_arg(enum py_handle_kind kind, PyObject *args, const char *format);

/* O& converters: a Python int (or None for NULL) to a pointer / handle. */
int conv_ptr(PyObject *o, void *out);
int conv_size(PyObject *o, void *out);

/*
 * A host-side argument: an int address, or any object with the buffer
 * protocol (numpy array, bytes, bytearray, memoryview), held for the call.
 */
struct host_arg {
	void *p;
	Py_ssize_t len;		/* -1: an int address, length unknown */
	bool has_view;
	bool owned;		/* p is the module's copy, freed on release */
	Py_buffer view;
};

int host_arg_get(PyObject *o, bool writable, struct host_arg *a);
void host_arg_release(struct host_arg *a);
/*
 * For calls that read host memory with the CPU inside libascendcl (model
 * images): an int address is first copied, through the kernel's checks,
 * into memory of the module's own. -1: a Python error; 1: unreadable.
 */
int host_arg_readable(struct host_arg *a, size_t size);

/* True when addr lies in the device address range (aclrtMalloc memory). */
bool is_device_addr(uintptr_t addr);
/* Copy within this process, checked by the kernel: no fault on bad memory. */
int checked_copy(void *dst, const void *src, size_t n);
int checked_fill(void *dst, int value, size_t n);

/* Building results. */
PyObject *ret_only(aclError ret);
PyObject *val_ret(PyObject *val, aclError ret);
PyObject *ptr_obj(const void *p);

/* A list/tuple of handles of one kind to a C array (NULLs allowed: no). */
int handle_list(PyObject *seq, enum py_handle_kind kind, const char *what,
		void ***out, int *n);

/* Module assembly. */
int acl_add_constants(PyObject *m);
int acl_add_rt_constants(PyObject *m);
PyObject *acl_rt_module(void);
PyObject *acl_mdl_module(void);
PyObject *acl_op_module(void);
PyObject *acl_util_module(void);
PyObject *acl_nn_module(void);
PyObject *acl_media_module(void);
PyObject *acl_prof_module(void);
extern PyMethodDef acl_desc_methods[];
/* In both acl and acl.rt (pyACL has them in both). */
PyObject *acl_get_version(PyObject *self, PyObject *noargs);
PyObject *acl_get_soc_name(PyObject *self, PyObject *noargs);

#endif
