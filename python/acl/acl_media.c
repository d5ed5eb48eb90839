/* SPDX-License-Identifier: MIT */
/*
 * acl.media: pyACL's spelling of acl_dvpp.h. acldvppFooBar is
 * acl.media.dvpp_foo_bar, aclvdecFooBar vdec_foo_bar, aclvencFooBar
 * venc_foo_bar; descriptions are ints; creators return the handle,
 * setters and async calls ret, getters the value, and the calls with
 * several outputs (values..., ret).
 *
 * The module keeps every DVPP object it created, with its kind, and hands
 * libascendcl NULL for an int that is not a live object of the kind the
 * argument wants: the library then answers ACL_ERROR_INVALID_PARAM (or
 * the getter's default), and a destroyed or made-up handle never reaches
 * it as a pointer.
 */
#include "acl_py.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define ENABLE_DVPP_INTERFACE
#include <acl/ops/acl_dvpp.h>

/* The kinds of live DVPP objects, as bits: an argument may take several. */
enum {
	K_CHANNEL = 1 << 0, K_PIC = 1 << 1, K_PIC_ELEM = 1 << 2, K_BATCH = 1 << 3,
	K_ROI = 1 << 4, K_RESIZE = 1 << 5, K_JPEGE = 1 << 6, K_BORDER = 1 << 7,
	K_LUT = 1 << 8, K_HIST = 1 << 9, K_STREAM = 1 << 10, K_VDEC = 1 << 11,
	K_VDEC_FRAME = 1 << 12, K_VENC = 1 << 13, K_VENC_FRAME = 1 << 14,
};
#define K_PICS (K_PIC | K_PIC_ELEM)
/* The value stored for a batch also holds its size above the kind bits. */
#define K_BITS 16

/* address -> kind (| batch size << K_BITS); vdec/venc desc -> callable. */
static PyObject *live, *vdec_cbs, *venc_cbs;

static long live_value(const void *p)
{
	PyObject *key, *v;
	long r = 0;

	if (!p)
		return 0;
	key = PyLong_FromVoidPtr((void *)p);
	if (!key) {
		PyErr_Clear();
		return 0;
	}
	v = PyDict_GetItemWithError(live, key);
	Py_DECREF(key);
	if (v)
		r = PyLong_AsLong(v);
	PyErr_Clear();
	return r;
}

/* p if it is a live object of one of the kinds, else NULL. */
static void *san(void *p, int kinds)
{
	return (live_value(p) & kinds) ? p : NULL;
}

static int live_add(const void *p, long value)
{
	PyObject *key, *v;
	int r;

	key = PyLong_FromVoidPtr((void *)p);
	v = PyLong_FromLong(value);
	r = key && v ? PyDict_SetItem(live, key, v) : -1;
	Py_XDECREF(key);
	Py_XDECREF(v);
	return r;
}

static void live_del(const void *p)
{
	PyObject *key = PyLong_FromVoidPtr((void *)p);

	if (key && PyDict_DelItem(live, key) < 0)
		PyErr_Clear();
	Py_XDECREF(key);
}

/* A creator's result: the handle recorded as kind, or 0 (NULL). */
static PyObject *created(void *p, int kind, aclError (*destroy)(void *))
{
	if (p && live_add(p, kind) < 0) {
		destroy(p);
		return NULL;
	}
	return ptr_obj(p);
}

/* ------------------------------------------------------ argument forms -- */

static int conv_u32(PyObject *o, void *out)
{
	unsigned long long v;

	if (!PyLong_Check(o)) {
		PyErr_Format(PyExc_TypeError, "expected an int, got %s", Py_TYPE(o)->tp_name);
		return 0;
	}
	v = PyLong_AsUnsignedLongLong(o);
	if (PyErr_Occurred() || v > UINT32_MAX) {
		PyErr_Clear();
		PyErr_SetString(PyExc_ValueError, "the value must be an int in [0, 2**32)");
		return 0;
	}
	*(uint32_t *)out = (uint32_t)v;
	return 1;
}

static int conv_u64(PyObject *o, void *out)
{
	if (!PyLong_Check(o)) {
		PyErr_Format(PyExc_TypeError, "expected an int, got %s", Py_TYPE(o)->tp_name);
		return 0;
	}
	*(uint64_t *)out = PyLong_AsUnsignedLongLong(o);
	if (PyErr_Occurred()) {
		PyErr_Clear();
		PyErr_SetString(PyExc_ValueError, "the value must be an int in [0, 2**64)");
		return 0;
	}
	return 1;
}

static int conv_double(PyObject *o, void *out)
{
	*(double *)out = PyFloat_AsDouble(o);
	return !PyErr_Occurred();
}

/* One handle argument. */
static int one_ptr(PyObject *args, const char *fmt, void **p)
{
	return PyArg_ParseTuple(args, fmt, conv_ptr, p);
}

/* ------------------------------------------------- generated wrappers -- */

/* T *create(void): the handle, recorded. */
#define CREATE(name, cfn, dfn, kind)						\
	static aclError destroy_##cfn(void *p) { return dfn(p); }		\
	static PyObject *py_##cfn(PyObject *self, PyObject *noargs)		\
	{									\
		return created(cfn(), kind, destroy_##cfn);			\
	}

/* aclError destroy(T *): refused unless live; forgotten once destroyed. */
#define DESTROY(name, cfn, kind)						\
	static PyObject *py_##cfn(PyObject *self, PyObject *args)		\
	{									\
		void *p;							\
		aclError ret;							\
		if (!one_ptr(args, "O&:" name, &p))				\
			return NULL;						\
		ret = cfn(san(p, kind));					\
		if (ret == ACL_SUCCESS)						\
			live_del(p);						\
		return ret_only(ret);						\
	}

/* A getter of one handle; mk turns the C value into a Python object. */
#define GET(name, cfn, kind, mk)						\
	static PyObject *py_##cfn(PyObject *self, PyObject *args)		\
	{									\
		void *p;							\
		if (!one_ptr(args, "O&:" name, &p))				\
			return NULL;						\
		return mk(cfn(san(p, kind)));					\
	}
#define MK_U32(v) PyLong_FromUnsignedLong((unsigned long)(v))
#define MK_U64(v) PyLong_FromUnsignedLongLong((unsigned long long)(v))
#define MK_PTR(v) ptr_obj(v)
#define MK_DBL(v) PyFloat_FromDouble(v)

/* aclError set(T *, value): conv parses the value into a ctype. */
#define SET(name, cfn, kind, ctype, conv, cast)				\
	static PyObject *py_##cfn(PyObject *self, PyObject *args)		\
	{									\
		void *p;							\
		ctype v;							\
		if (!PyArg_ParseTuple(args, "O&O&:" name, conv_ptr, &p, conv, &v)) \
			return NULL;						\
		return ret_only(cfn(san(p, kind), (cast)v));			\
	}
#define SET_U32(name, cfn, kind) SET(name, cfn, kind, uint32_t, conv_u32, uint32_t)
#define SET_ENUM(name, cfn, kind, etype) SET(name, cfn, kind, uint32_t, conv_u32, etype)
#define SET_U64(name, cfn, kind) SET(name, cfn, kind, uint64_t, conv_u64, uint64_t)
#define SET_U8(name, cfn, kind) SET(name, cfn, kind, uint32_t, conv_u32, uint8_t)
#define SET_PTR(name, cfn, kind) SET(name, cfn, kind, void *, conv_ptr, void *)

/* ------------------------------------------------------------- memory -- */

static PyObject *py_dvpp_malloc(PyObject *self, PyObject *args)
{
	size_t size;
	void *p = NULL;
	aclError ret;

	if (!PyArg_ParseTuple(args, "O&:dvpp_malloc", conv_size, &size))
		return NULL;
	NOGIL(ret = acldvppMalloc(&p, size));
	return val_ret(ptr_obj(p), ret);
}

static PyObject *py_dvpp_free(PyObject *self, PyObject *args)
{
	void *p;
	aclError ret;

	if (!one_ptr(args, "O&:dvpp_free", &p))
		return NULL;
	NOGIL(ret = acldvppFree(p));
	return ret_only(ret);
}

/* ------------------------------------------------------------ channel -- */

CREATE("dvpp_create_channel_desc", acldvppCreateChannelDesc, acldvppDestroyChannelDesc, K_CHANNEL)
DESTROY("dvpp_destroy_channel_desc", acldvppDestroyChannelDesc, K_CHANNEL)
GET("dvpp_get_channel_desc_channel_id", acldvppGetChannelDescChannelId, K_CHANNEL, MK_U64)
SET_U32("dvpp_set_channel_desc_mode", acldvppSetChannelDescMode, K_CHANNEL)

static PyObject *py_acldvppCreateChannel(PyObject *self, PyObject *args)
{
	void *p;
	aclError ret;

	if (!one_ptr(args, "O&:dvpp_create_channel", &p))
		return NULL;
	p = san(p, K_CHANNEL);
	NOGIL(ret = acldvppCreateChannel(p));
	return ret_only(ret);
}

static PyObject *py_acldvppDestroyChannel(PyObject *self, PyObject *args)
{
	void *p;
	aclError ret;

	if (!one_ptr(args, "O&:dvpp_destroy_channel", &p))
		return NULL;
	p = san(p, K_CHANNEL);
	NOGIL(ret = acldvppDestroyChannel(p));
	return ret_only(ret);
}

/* The uint32 parameters (all but the channel id, which is a uint64). */
static PyObject *py_acldvppSetChannelDescParam(PyObject *self, PyObject *args)
{
	void *p;
	uint32_t type, v;

	if (!PyArg_ParseTuple(args, "O&O&O&:dvpp_set_channel_desc_param", conv_ptr, &p,
			      conv_u32, &type, conv_u32, &v))
		return NULL;
	return ret_only(acldvppSetChannelDescParam(san(p, K_CHANNEL),
						   (acldvppChannelDescParamType)type,
						   sizeof(v), &v));
}

static PyObject *py_acldvppGetChannelDescParam(PyObject *self, PyObject *args)
{
	void *p;
	uint32_t type;
	uint64_t v = 0;
	size_t n = 0;
	aclError ret;

	if (!PyArg_ParseTuple(args, "O&O&:dvpp_get_channel_desc_param", conv_ptr, &p,
			      conv_u32, &type))
		return NULL;
	ret = acldvppGetChannelDescParam(san(p, K_CHANNEL), (acldvppChannelDescParamType)type,
					 sizeof(v), &n, &v);
	/* A uint32 value sits in the first bytes of v. */
	if (ret == ACL_SUCCESS && n == sizeof(uint32_t)) {
		uint32_t u;

		memcpy(&u, &v, sizeof(u));
		v = u;
	}
	return val_ret(MK_U64(v), ret);
}

/* ------------------------------------------------------------ picture -- */

CREATE("dvpp_create_pic_desc", acldvppCreatePicDesc, acldvppDestroyPicDesc, K_PIC)
DESTROY("dvpp_destroy_pic_desc", acldvppDestroyPicDesc, K_PIC)
SET_PTR("dvpp_set_pic_desc_data", acldvppSetPicDescData, K_PICS)
SET_U32("dvpp_set_pic_desc_size", acldvppSetPicDescSize, K_PICS)
SET_ENUM("dvpp_set_pic_desc_format", acldvppSetPicDescFormat, K_PICS, acldvppPixelFormat)
SET_U32("dvpp_set_pic_desc_width", acldvppSetPicDescWidth, K_PICS)
SET_U32("dvpp_set_pic_desc_height", acldvppSetPicDescHeight, K_PICS)
SET_U32("dvpp_set_pic_desc_width_stride", acldvppSetPicDescWidthStride, K_PICS)
SET_U32("dvpp_set_pic_desc_height_stride", acldvppSetPicDescHeightStride, K_PICS)
SET_U32("dvpp_set_pic_desc_ret_code", acldvppSetPicDescRetCode, K_PICS)
GET("dvpp_get_pic_desc_data", acldvppGetPicDescData, K_PICS, MK_PTR)
GET("dvpp_get_pic_desc_size", acldvppGetPicDescSize, K_PICS, MK_U32)
GET("dvpp_get_pic_desc_format", acldvppGetPicDescFormat, K_PICS, MK_U32)
GET("dvpp_get_pic_desc_width", acldvppGetPicDescWidth, K_PICS, MK_U32)
GET("dvpp_get_pic_desc_height", acldvppGetPicDescHeight, K_PICS, MK_U32)
GET("dvpp_get_pic_desc_width_stride", acldvppGetPicDescWidthStride, K_PICS, MK_U32)
GET("dvpp_get_pic_desc_height_stride", acldvppGetPicDescHeightStride, K_PICS, MK_U32)
GET("dvpp_get_pic_desc_ret_code", acldvppGetPicDescRetCode, K_PICS, MK_U32)

/* ------------------------------------------------------------- batch -- */

/* The elements are recorded with the batch and forgotten with it. */
static PyObject *py_acldvppCreateBatchPicDesc(PyObject *self, PyObject *args)
{
	uint32_t n, i;
	acldvppBatchPicDesc *b;

	if (!PyArg_ParseTuple(args, "O&:dvpp_create_batch_pic_desc", conv_u32, &n))
		return NULL;
	b = acldvppCreateBatchPicDesc(n);
	if (!b)
		return ptr_obj(NULL);
	if (live_add(b, K_BATCH | ((long)n << K_BITS)) < 0)
		goto fail;
	for (i = 0; i < n; i++)
		if (live_add(acldvppGetPicDesc(b, i), K_PIC_ELEM) < 0)
			goto fail;
	return ptr_obj(b);
fail:
	for (i = 0; i < n; i++)
		live_del(acldvppGetPicDesc(b, i));
	live_del(b);
	acldvppDestroyBatchPicDesc(b);
	return NULL;
}

static PyObject *py_acldvppGetPicDesc(PyObject *self, PyObject *args)
{
	void *b;
	uint32_t i;

	if (!PyArg_ParseTuple(args, "O&O&:dvpp_get_pic_desc", conv_ptr, &b, conv_u32, &i))
		return NULL;
	return ptr_obj(acldvppGetPicDesc(san(b, K_BATCH), i));
}

static PyObject *py_acldvppDestroyBatchPicDesc(PyObject *self, PyObject *args)
{
	void *b;
	long n;
	uint32_t i;
	aclError ret;

	if (!one_ptr(args, "O&:dvpp_destroy_batch_pic_desc", &b))
		return NULL;
	n = live_value(san(b, K_BATCH)) >> K_BITS;
	for (i = 0; i < n; i++)
		live_del(acldvppGetPicDesc(b, i));
	ret = acldvppDestroyBatchPicDesc(san(b, K_BATCH));
	if (ret == ACL_SUCCESS)
		live_del(b);
	return ret_only(ret);
}

/* ------------------------------------------------------------ configs -- */

static aclError destroy_roi(void *p)
{
	return acldvppDestroyRoiConfig(p);
}

static PyObject *py_acldvppCreateRoiConfig(PyObject *self, PyObject *args)
{
	uint32_t l, r, t, b;

	if (!PyArg_ParseTuple(args, "O&O&O&O&:dvpp_create_roi_config", conv_u32, &l,
			      conv_u32, &r, conv_u32, &t, conv_u32, &b))
		return NULL;
	return created(acldvppCreateRoiConfig(l, r, t, b), K_ROI, destroy_roi);
}

DESTROY("dvpp_destroy_roi_config", acldvppDestroyRoiConfig, K_ROI)
SET_U32("dvpp_set_roi_config_left", acldvppSetRoiConfigLeft, K_ROI)
SET_U32("dvpp_set_roi_config_right", acldvppSetRoiConfigRight, K_ROI)
SET_U32("dvpp_set_roi_config_top", acldvppSetRoiConfigTop, K_ROI)
SET_U32("dvpp_set_roi_config_bottom", acldvppSetRoiConfigBottom, K_ROI)

static PyObject *py_acldvppSetRoiConfig(PyObject *self, PyObject *args)
{
	void *p;
	uint32_t l, r, t, b;

	if (!PyArg_ParseTuple(args, "O&O&O&O&O&:dvpp_set_roi_config", conv_ptr, &p,
			      conv_u32, &l, conv_u32, &r, conv_u32, &t, conv_u32, &b))
		return NULL;
	return ret_only(acldvppSetRoiConfig(san(p, K_ROI), l, r, t, b));
}

CREATE("dvpp_create_resize_config", acldvppCreateResizeConfig, acldvppDestroyResizeConfig, K_RESIZE)
DESTROY("dvpp_destroy_resize_config", acldvppDestroyResizeConfig, K_RESIZE)
SET_U32("dvpp_set_resize_config_interpolation", acldvppSetResizeConfigInterpolation, K_RESIZE)
GET("dvpp_get_resize_config_interpolation", acldvppGetResizeConfigInterpolation, K_RESIZE, MK_U32)

CREATE("dvpp_create_jpege_config", acldvppCreateJpegeConfig, acldvppDestroyJpegeConfig, K_JPEGE)
DESTROY("dvpp_destroy_jpege_config", acldvppDestroyJpegeConfig, K_JPEGE)
SET_U32("dvpp_set_jpege_config_level", acldvppSetJpegeConfigLevel, K_JPEGE)
GET("dvpp_get_jpege_config_level", acldvppGetJpegeConfigLevel, K_JPEGE, MK_U32)

CREATE("dvpp_create_border_config", acldvppCreateBorderConfig, acldvppDestroyBorderConfig, K_BORDER)
DESTROY("dvpp_destroy_border_config", acldvppDestroyBorderConfig, K_BORDER)
SET_ENUM("dvpp_set_border_config_border_type", acldvppSetBorderConfigBorderType, K_BORDER,
	 acldvppBorderType)
SET_U32("dvpp_set_border_config_top", acldvppSetBorderConfigTop, K_BORDER)
SET_U32("dvpp_set_border_config_bottom", acldvppSetBorderConfigBottom, K_BORDER)
SET_U32("dvpp_set_border_config_left", acldvppSetBorderConfigLeft, K_BORDER)
SET_U32("dvpp_set_border_config_right", acldvppSetBorderConfigRight, K_BORDER)
GET("dvpp_get_border_config_border_type", acldvppGetBorderConfigBorderType, K_BORDER, MK_U32)
GET("dvpp_get_border_config_top", acldvppGetBorderConfigTop, K_BORDER, MK_U32)
GET("dvpp_get_border_config_bottom", acldvppGetBorderConfigBottom, K_BORDER, MK_U32)
GET("dvpp_get_border_config_left", acldvppGetBorderConfigLeft, K_BORDER, MK_U32)
GET("dvpp_get_border_config_right", acldvppGetBorderConfigRight, K_BORDER, MK_U32)

static PyObject *py_acldvppSetBorderConfigValue(PyObject *self, PyObject *args)
{
	void *p;
	uint32_t i;
	double v;

	if (!PyArg_ParseTuple(args, "O&O&O&:dvpp_set_border_config_value", conv_ptr, &p,
			      conv_u32, &i, conv_double, &v))
		return NULL;
	return ret_only(acldvppSetBorderConfigValue(san(p, K_BORDER), i, v));
}

static PyObject *py_acldvppGetBorderConfigValue(PyObject *self, PyObject *args)
{
	void *p;
	uint32_t i;

	if (!PyArg_ParseTuple(args, "O&O&:dvpp_get_border_config_value", conv_ptr, &p,
			      conv_u32, &i))
		return NULL;
	return MK_DBL(acldvppGetBorderConfigValue(san(p, K_BORDER), i));
}

/* ---------------------------------------------------------- LUT, hist -- */

CREATE("dvpp_create_lut_map", acldvppCreateLutMap, acldvppDestroyLutMap, K_LUT)
DESTROY("dvpp_destroy_lut_map", acldvppDestroyLutMap, K_LUT)
GET("dvpp_get_lut_map_dims", acldvppGetLutMapDims, K_LUT, MK_U32)
CREATE("dvpp_create_hist", acldvppCreateHist, acldvppDestroyHist, K_HIST)
DESTROY("dvpp_destroy_hist", acldvppDestroyHist, K_HIST)
GET("dvpp_get_hist_dims", acldvppGetHistDims, K_HIST, MK_U32)
GET("dvpp_get_hist_ret_code", acldvppGetHistRetCode, K_HIST, MK_U32)

static PyObject *py_acldvppClearHist(PyObject *self, PyObject *args)
{
	void *p;

	if (!one_ptr(args, "O&:dvpp_clear_hist", &p))
		return NULL;
	return ret_only(acldvppClearHist(san(p, K_HIST)));
}

/* (address of the table, its length, ret): the table is host memory. */
static PyObject *py_acldvppGetLutMapData(PyObject *self, PyObject *args)
{
	void *p;
	uint32_t dim, len = 0;
	uint8_t *data = NULL;
	aclError ret;

	if (!PyArg_ParseTuple(args, "O&O&:dvpp_get_lut_map_data", conv_ptr, &p, conv_u32, &dim))
		return NULL;
	ret = acldvppGetLutMapData(san(p, K_LUT), dim, &data, &len);
	return Py_BuildValue("(NIi)", ptr_obj(data), (unsigned int)len, (int)ret);
}

static PyObject *py_acldvppGetHistData(PyObject *self, PyObject *args)
{
	void *p;
	uint32_t dim, *data = NULL;
	uint16_t len = 0;
	aclError ret;

	if (!PyArg_ParseTuple(args, "O&O&:dvpp_get_hist_data", conv_ptr, &p, conv_u32, &dim))
		return NULL;
	ret = acldvppGetHistData(san(p, K_HIST), dim, &data, &len);
	return Py_BuildValue("(NIi)", ptr_obj(data), (unsigned int)len, (int)ret);
}

/* ------------------------------------------------------------- stream -- */

CREATE("dvpp_create_stream_desc", acldvppCreateStreamDesc, acldvppDestroyStreamDesc, K_STREAM)
DESTROY("dvpp_destroy_stream_desc", acldvppDestroyStreamDesc, K_STREAM)
SET_PTR("dvpp_set_stream_desc_data", acldvppSetStreamDescData, K_STREAM)
SET_U32("dvpp_set_stream_desc_size", acldvppSetStreamDescSize, K_STREAM)
SET_ENUM("dvpp_set_stream_desc_format", acldvppSetStreamDescFormat, K_STREAM, acldvppStreamFormat)
SET_U64("dvpp_set_stream_desc_timestamp", acldvppSetStreamDescTimestamp, K_STREAM)
SET_U32("dvpp_set_stream_desc_ret_code", acldvppSetStreamDescRetCode, K_STREAM)
SET_U8("dvpp_set_stream_desc_eos", acldvppSetStreamDescEos, K_STREAM)
GET("dvpp_get_stream_desc_data", acldvppGetStreamDescData, K_STREAM, MK_PTR)
GET("dvpp_get_stream_desc_size", acldvppGetStreamDescSize, K_STREAM, MK_U32)
GET("dvpp_get_stream_desc_format", acldvppGetStreamDescFormat, K_STREAM, MK_U32)
GET("dvpp_get_stream_desc_timestamp", acldvppGetStreamDescTimestamp, K_STREAM, MK_U64)
GET("dvpp_get_stream_desc_ret_code", acldvppGetStreamDescRetCode, K_STREAM, MK_U32)
GET("dvpp_get_stream_desc_eos", acldvppGetStreamDescEos, K_STREAM, MK_U32)

/* ---------------------------------------------------------------- VPC -- */

/* Parse "chan, in, out, <handles...>, stream" for the single-picture calls. */
#define VPC_CALL(name, call)							\
	do {									\
		aclError ret_;							\
		NOGIL(ret_ = (call));						\
		return ret_only(ret_);						\
	} while (0)

static PyObject *py_acldvppVpcResizeAsync(PyObject *self, PyObject *args)
{
	void *c, *i, *o, *cfg, *s;

	if (!PyArg_ParseTuple(args, "O&O&O&O&O&:dvpp_vpc_resize_async", conv_ptr, &c, conv_ptr, &i,
			      conv_ptr, &o, conv_ptr, &cfg, conv_ptr, &s))
		return NULL;
	c = san(c, K_CHANNEL), i = san(i, K_PICS), o = san(o, K_PICS), cfg = san(cfg, K_RESIZE);
	VPC_CALL(name, acldvppVpcResizeAsync(c, i, o, cfg, s));
}

static PyObject *py_acldvppVpcCropAsync(PyObject *self, PyObject *args)
{
	void *c, *i, *o, *roi, *s;

	if (!PyArg_ParseTuple(args, "O&O&O&O&O&:dvpp_vpc_crop_async", conv_ptr, &c, conv_ptr, &i,
			      conv_ptr, &o, conv_ptr, &roi, conv_ptr, &s))
		return NULL;
	c = san(c, K_CHANNEL), i = san(i, K_PICS), o = san(o, K_PICS), roi = san(roi, K_ROI);
	VPC_CALL(name, acldvppVpcCropAsync(c, i, o, roi, s));
}

static PyObject *py_acldvppVpcCropResizeAsync(PyObject *self, PyObject *args)
{
	void *c, *i, *o, *roi, *cfg, *s;

	if (!PyArg_ParseTuple(args, "O&O&O&O&O&O&:dvpp_vpc_crop_resize_async", conv_ptr, &c,
			      conv_ptr, &i, conv_ptr, &o, conv_ptr, &roi, conv_ptr, &cfg,
			      conv_ptr, &s))
		return NULL;
	c = san(c, K_CHANNEL), i = san(i, K_PICS), o = san(o, K_PICS), roi = san(roi, K_ROI);
	cfg = san(cfg, K_RESIZE);
	VPC_CALL(name, acldvppVpcCropResizeAsync(c, i, o, roi, cfg, s));
}

static PyObject *py_acldvppVpcCropAndPasteAsync(PyObject *self, PyObject *args)
{
	void *c, *i, *o, *crop, *paste, *s;

	if (!PyArg_ParseTuple(args, "O&O&O&O&O&O&:dvpp_vpc_crop_and_paste_async", conv_ptr, &c,
			      conv_ptr, &i, conv_ptr, &o, conv_ptr, &crop, conv_ptr, &paste,
			      conv_ptr, &s))
		return NULL;
	c = san(c, K_CHANNEL), i = san(i, K_PICS), o = san(o, K_PICS);
	crop = san(crop, K_ROI), paste = san(paste, K_ROI);
	VPC_CALL(name, acldvppVpcCropAndPasteAsync(c, i, o, crop, paste, s));
}

static PyObject *py_acldvppVpcCropResizePasteAsync(PyObject *self, PyObject *args)
{
	void *c, *i, *o, *crop, *paste, *cfg, *s;

	if (!PyArg_ParseTuple(args, "O&O&O&O&O&O&O&:dvpp_vpc_crop_resize_paste_async",
			      conv_ptr, &c, conv_ptr, &i, conv_ptr, &o, conv_ptr, &crop,
			      conv_ptr, &paste, conv_ptr, &cfg, conv_ptr, &s))
		return NULL;
	c = san(c, K_CHANNEL), i = san(i, K_PICS), o = san(o, K_PICS);
	crop = san(crop, K_ROI), paste = san(paste, K_ROI), cfg = san(cfg, K_RESIZE);
	VPC_CALL(name, acldvppVpcCropResizePasteAsync(c, i, o, crop, paste, cfg, s));
}

static PyObject *py_acldvppVpcConvertColorAsync(PyObject *self, PyObject *args)
{
	void *c, *i, *o, *s;

	if (!PyArg_ParseTuple(args, "O&O&O&O&:dvpp_vpc_convert_color_async", conv_ptr, &c,
			      conv_ptr, &i, conv_ptr, &o, conv_ptr, &s))
		return NULL;
	c = san(c, K_CHANNEL), i = san(i, K_PICS), o = san(o, K_PICS);
	VPC_CALL(name, acldvppVpcConvertColorAsync(c, i, o, s));
}

/* reserve is passed on as given (it must be 0 / None). */
static PyObject *py_acldvppVpcPyrDownAsync(PyObject *self, PyObject *args)
{
	void *c, *i, *o, *r, *s;

	if (!PyArg_ParseTuple(args, "O&O&O&O&O&:dvpp_vpc_pyr_down_async", conv_ptr, &c, conv_ptr, &i,
			      conv_ptr, &o, conv_ptr, &r, conv_ptr, &s))
		return NULL;
	c = san(c, K_CHANNEL), i = san(i, K_PICS), o = san(o, K_PICS);
	/* A non-NULL reserve is refused by the library; never a pointer it reads. */
	r = r ? (void *)1 : NULL;
	VPC_CALL(name, acldvppVpcPyrDownAsync(c, i, o, r, s));
}

static PyObject *py_acldvppVpcEqualizeHistAsync(PyObject *self, PyObject *args)
{
	void *c, *i, *o, *lut, *s;

	if (!PyArg_ParseTuple(args, "O&O&O&O&O&:dvpp_vpc_equalize_hist_async", conv_ptr, &c,
			      conv_ptr, &i, conv_ptr, &o, conv_ptr, &lut, conv_ptr, &s))
		return NULL;
	c = san(c, K_CHANNEL), i = san(i, K_PICS), o = san(o, K_PICS), lut = san(lut, K_LUT);
	VPC_CALL(name, acldvppVpcEqualizeHistAsync(c, i, o, lut, s));
}

static PyObject *py_acldvppVpcMakeBorderAsync(PyObject *self, PyObject *args)
{
	void *c, *i, *o, *b, *s;

	if (!PyArg_ParseTuple(args, "O&O&O&O&O&:dvpp_vpc_make_border_async", conv_ptr, &c,
			      conv_ptr, &i, conv_ptr, &o, conv_ptr, &b, conv_ptr, &s))
		return NULL;
	c = san(c, K_CHANNEL), i = san(i, K_PICS), o = san(o, K_PICS), b = san(b, K_BORDER);
	VPC_CALL(name, acldvppVpcMakeBorderAsync(c, i, o, b, s));
}

static PyObject *py_acldvppVpcCalcHistAsync(PyObject *self, PyObject *args)
{
	void *c, *i, *h, *r, *s;

	if (!PyArg_ParseTuple(args, "O&O&O&O&O&:dvpp_vpc_calc_hist_async", conv_ptr, &c,
			      conv_ptr, &i, conv_ptr, &h, conv_ptr, &r, conv_ptr, &s))
		return NULL;
	c = san(c, K_CHANNEL), i = san(i, K_PICS), h = san(h, K_HIST);
	r = r ? (void *)1 : NULL;
	VPC_CALL(name, acldvppVpcCalcHistAsync(c, i, h, r, s));
}

/* ------------------------------------------------------- batch VPC -- */

/* A list of ints (uint32) to a new C array of its length. */
static int u32_list(PyObject *seq, const char *what, uint32_t **out, Py_ssize_t *n)
{
	PyObject *fast = PySequence_Fast(seq, what);
	Py_ssize_t i;

	if (!fast)
		return -1;
	*n = PySequence_Fast_GET_SIZE(fast);
	*out = PyMem_Calloc(*n ? *n : 1, sizeof(**out));
	if (!*out) {
		Py_DECREF(fast);
		PyErr_NoMemory();
		return -1;
	}
	for (i = 0; i < *n; i++)
		if (!conv_u32(PySequence_Fast_GET_ITEM(fast, i), &(*out)[i]))
			break;
	Py_DECREF(fast);
	if (i < *n) {
		PyMem_Free(*out);
		*out = NULL;	/* the caller frees what it holds on failure */
		return -1;
	}
	return 0;
}

/* A list of handles of kind to a C array; dead ones become NULL. */
static int obj_list(PyObject *seq, int kind, const char *what, void ***out, Py_ssize_t *n)
{
	PyObject *fast;
	Py_ssize_t i;

	if (seq == Py_None) {
		*out = NULL;
		*n = 0;
		return 0;
	}
	fast = PySequence_Fast(seq, what);
	if (!fast)
		return -1;
	*n = PySequence_Fast_GET_SIZE(fast);
	*out = PyMem_Calloc(*n ? *n : 1, sizeof(**out));
	if (!*out) {
		Py_DECREF(fast);
		PyErr_NoMemory();
		return -1;
	}
	for (i = 0; i < *n; i++) {
		void *p;

		if (!conv_ptr(PySequence_Fast_GET_ITEM(fast, i), &p))
			break;
		(*out)[i] = san(p, kind);
	}
	Py_DECREF(fast);
	if (i < *n) {
		PyMem_Free(*out);
		*out = NULL;	/* the caller frees what it holds on failure */
		return -1;
	}
	return 0;
}

/*
 * pyACL's batch calls have no size argument: the roi_nums list gives it
 * (size = len(roi_nums)). batch_crop and batch_crop_and_paste return
 * (dst_batch, ret), the three calls with a resize config ret alone, as
 * pyACL's do.
 */
struct batch_args {
	void *chan, *src, *dst, *cfg, *stream;
	void *dst_arg;			/* dst as given, for the (dst, ret) forms */
	uint32_t size;
	uint32_t *roi_nums;		/* from here on: filled by batch_args_get */
	void **crops, **second;		/* paste areas or border configs */
	Py_ssize_t n_nums, n_crops, n_second;
};

static void batch_args_free(struct batch_args *a)
{
	PyMem_Free(a->roi_nums);
	PyMem_Free(a->crops);
	PyMem_Free(a->second);
}

/*
 * The lists must cover what the library reads: as many areas (and paste
 * areas / borders) as the roi_nums add up to.
 */
static int batch_args_get(struct batch_args *a, PyObject *nums, PyObject *crops,
			  PyObject *second, int second_kind)
{
	uint64_t total = 0;
	uint32_t i;

	memset(&a->roi_nums, 0, sizeof(*a) - offsetof(struct batch_args, roi_nums));
	if (!PyList_Check(nums) && !PyTuple_Check(nums)) {
		PyErr_Format(PyExc_TypeError, "roi_nums must be a list of ints, not %s",
			     Py_TYPE(nums)->tp_name);
		return -1;
	}
	if (u32_list(nums, "roi_nums must be a list of ints", &a->roi_nums, &a->n_nums) < 0 ||
	    obj_list(crops, K_ROI, "crop areas must be a list of handles", &a->crops,
		     &a->n_crops) < 0 ||
	    (second && obj_list(second, second_kind, "the areas must be a list of handles",
				&a->second, &a->n_second) < 0))
		goto fail;
	if ((unsigned long long)a->n_nums > UINT32_MAX) {
		PyErr_SetString(PyExc_ValueError, "too many roi_nums");
		goto fail;
	}
	a->size = (uint32_t)a->n_nums;
	for (i = 0; i < a->size; i++)
		total += a->roi_nums[i];
	if (total > (uint64_t)a->n_crops || (second && total > (uint64_t)a->n_second)) {
		PyErr_Format(PyExc_ValueError, "roi_nums add up to %llu areas, fewer are given",
			     (unsigned long long)total);
		goto fail;
	}
	a->dst_arg = a->dst;
	a->chan = san(a->chan, K_CHANNEL);
	a->src = san(a->src, K_BATCH);
	a->dst = san(a->dst, K_BATCH);
	a->cfg = san(a->cfg, K_RESIZE);
	return 0;
fail:
	batch_args_free(a);
	return -1;
}

static PyObject *batch_done(struct batch_args *a, aclError ret)
{
	batch_args_free(a);
	return ret_only(ret);
}

/* (dst_batch, ret): dst as it was given. */
static PyObject *batch_done_dst(struct batch_args *a, aclError ret)
{
	batch_args_free(a);
	return val_ret(ptr_obj(a->dst_arg), ret);
}

static PyObject *py_acldvppVpcBatchCropAsync(PyObject *self, PyObject *args)
{
	struct batch_args a;
	PyObject *nums, *crops;
	aclError ret;

	if (!PyArg_ParseTuple(args, "O&O&OO&OO&:dvpp_vpc_batch_crop_async", conv_ptr, &a.chan,
			      conv_ptr, &a.src, &nums, conv_ptr, &a.dst, &crops,
			      conv_ptr, &a.stream))
		return NULL;
	a.cfg = NULL;
	if (batch_args_get(&a, nums, crops, NULL, 0) < 0)
		return NULL;
	NOGIL(ret = acldvppVpcBatchCropAsync(a.chan, a.src, a.roi_nums, a.size, a.dst,
					     (acldvppRoiConfig **)a.crops, a.stream));
	return batch_done_dst(&a, ret);
}

static PyObject *py_acldvppVpcBatchCropResizeAsync(PyObject *self, PyObject *args)
{
	struct batch_args a;
	PyObject *nums, *crops;
	aclError ret;

	if (!PyArg_ParseTuple(args, "O&O&OO&OO&O&:dvpp_vpc_batch_crop_resize_async",
			      conv_ptr, &a.chan, conv_ptr, &a.src, &nums, conv_ptr, &a.dst,
			      &crops, conv_ptr, &a.cfg, conv_ptr, &a.stream))
		return NULL;
	if (batch_args_get(&a, nums, crops, NULL, 0) < 0)
		return NULL;
	NOGIL(ret = acldvppVpcBatchCropResizeAsync(a.chan, a.src, a.roi_nums, a.size, a.dst,
						   (acldvppRoiConfig **)a.crops, a.cfg, a.stream));
	return batch_done(&a, ret);
}

static PyObject *py_acldvppVpcBatchCropAndPasteAsync(PyObject *self, PyObject *args)
{
	struct batch_args a;
	PyObject *nums, *crops, *pastes;
	aclError ret;

	if (!PyArg_ParseTuple(args, "O&O&OO&OOO&:dvpp_vpc_batch_crop_and_paste_async",
			      conv_ptr, &a.chan, conv_ptr, &a.src, &nums, conv_ptr, &a.dst,
			      &crops, &pastes, conv_ptr, &a.stream))
		return NULL;
	a.cfg = NULL;
	if (batch_args_get(&a, nums, crops, pastes, K_ROI) < 0)
		return NULL;
	NOGIL(ret = acldvppVpcBatchCropAndPasteAsync(a.chan, a.src, a.roi_nums, a.size, a.dst,
						     (acldvppRoiConfig **)a.crops,
						     (acldvppRoiConfig **)a.second, a.stream));
	return batch_done_dst(&a, ret);
}

static PyObject *py_acldvppVpcBatchCropResizePasteAsync(PyObject *self, PyObject *args)
{
	struct batch_args a;
	PyObject *nums, *crops, *pastes;
	aclError ret;

	if (!PyArg_ParseTuple(args, "O&O&OO&OOO&O&:dvpp_vpc_batch_crop_resize_paste_async",
			      conv_ptr, &a.chan, conv_ptr, &a.src, &nums, conv_ptr, &a.dst,
			      &crops, &pastes, conv_ptr, &a.cfg, conv_ptr, &a.stream))
		return NULL;
	if (batch_args_get(&a, nums, crops, pastes, K_ROI) < 0)
		return NULL;
	NOGIL(ret = acldvppVpcBatchCropResizePasteAsync(a.chan, a.src, a.roi_nums, a.size, a.dst,
							(acldvppRoiConfig **)a.crops,
							(acldvppRoiConfig **)a.second, a.cfg,
							a.stream));
	return batch_done(&a, ret);
}

static PyObject *py_acldvppVpcBatchCropResizeMakeBorderAsync(PyObject *self, PyObject *args)
{
	struct batch_args a;
	PyObject *nums, *crops, *borders;
	aclError ret;

	if (!PyArg_ParseTuple(args, "O&O&OO&OOO&O&:dvpp_vpc_batch_crop_resize_make_border_async",
			      conv_ptr, &a.chan, conv_ptr, &a.src, &nums, conv_ptr, &a.dst,
			      &crops, &borders, conv_ptr, &a.cfg, conv_ptr, &a.stream))
		return NULL;
	if (batch_args_get(&a, nums, crops, borders, K_BORDER) < 0)
		return NULL;
	NOGIL(ret = acldvppVpcBatchCropResizeMakeBorderAsync(a.chan, a.src, a.roi_nums, a.size,
							     a.dst, (acldvppRoiConfig **)a.crops,
							     (acldvppBorderConfig **)a.second,
							     a.cfg, a.stream));
	return batch_done(&a, ret);
}

/* --------------------------------------------------------- JPEG, PNG -- */

/*
 * A file at a device address: samples written for devices whose DVPP
 * memory the host sees (acllite's jpegd on an Atlas 200 DK) pass the
 * acldvppMalloc copy. Read it back with aclrtMemcpy so that libascendcl
 * gets host memory as its header requires. 1: the copy failed.
 */
static int device_file(struct host_arg *a, uint32_t size)
{
	void *copy = PyMem_RawMalloc(size);
	aclError ret;

	if (!copy) {
		PyErr_NoMemory();
		return -1;
	}
	NOGIL(ret = aclrtMemcpy(copy, size, a->p, size, ACL_MEMCPY_DEVICE_TO_HOST));
	if (ret != ACL_SUCCESS) {
		PyMem_RawFree(copy);
		return 1;
	}
	a->p = copy;
	a->owned = true;
	return 0;
}

/*
 * The file in host memory (an int address or a buffer), size bytes of
 * it; an int address is first copied through the kernel's checks, or
 * from the device when it is a device address.
 */
static int host_file(PyObject *o, uint32_t size, struct host_arg *a, aclError *bad)
{
	int r;

	*bad = ACL_SUCCESS;
	if (host_arg_get(o, false, a) < 0)
		return -1;
	if (!a->has_view && a->p && size && is_device_addr((uintptr_t)a->p))
		r = device_file(a, size);
	else
		r = host_arg_readable(a, size);
	if (r < 0) {
		host_arg_release(a);
		return -1;
	}
	if (r > 0)
		*bad = ACL_ERROR_INVALID_PARAM;
	return 0;
}

/* The size argument may be left out for a buffer: then its length. */
static int file_size(PyObject *o, PyObject *size_o, uint32_t *size)
{
	Py_buffer v;

	if (size_o)
		return conv_u32(size_o, size) ? 0 : -1;
	if (!PyObject_CheckBuffer(o)) {
		PyErr_SetString(PyExc_TypeError, "size is required with an int address");
		return -1;
	}
	if (PyObject_GetBuffer(o, &v, PyBUF_SIMPLE) < 0)
		return -1;
	if ((unsigned long long)v.len > UINT32_MAX) {
		PyBuffer_Release(&v);
		PyErr_SetString(PyExc_ValueError, "the file is larger than 4 GiB");
		return -1;
	}
	*size = (uint32_t)v.len;
	PyBuffer_Release(&v);
	return 0;
}

static PyObject *image_info(PyObject *args, const char *fmt, int v2, int png)
{
	PyObject *o, *size_o = NULL;
	struct host_arg a;
	uint32_t size, w = 0, h = 0;
	int32_t comps = 0;
	acldvppJpegFormat jf = ACL_JPEG_CSS_UNKNOWN;
	aclError ret;

	if (!PyArg_ParseTuple(args, fmt, &o, &size_o) || file_size(o, size_o, &size) < 0 ||
	    host_file(o, size, &a, &ret) < 0)
		return NULL;
	if (ret == ACL_SUCCESS)
		ret = png ? acldvppPngGetImageInfo(a.p, size, &w, &h, &comps) :
		      v2 ? acldvppJpegGetImageInfoV2(a.p, size, &w, &h, &comps, &jf) :
			   acldvppJpegGetImageInfo(a.p, size, &w, &h, &comps);
	host_arg_release(&a);
	if (v2)
		return Py_BuildValue("(IIiii)", w, h, comps, (int)jf, (int)ret);
	return Py_BuildValue("(IIii)", w, h, comps, (int)ret);
}

static PyObject *py_acldvppJpegGetImageInfo(PyObject *self, PyObject *args)
{
	return image_info(args, "O|O:dvpp_jpeg_get_image_info", 0, 0);
}

static PyObject *py_acldvppJpegGetImageInfoV2(PyObject *self, PyObject *args)
{
	return image_info(args, "O|O:dvpp_jpeg_get_image_info_v2", 1, 0);
}

static PyObject *py_acldvppPngGetImageInfo(PyObject *self, PyObject *args)
{
	return image_info(args, "O|O:dvpp_png_get_image_info", 0, 1);
}

static PyObject *predict_dec(PyObject *args, const char *fmt, int png)
{
	PyObject *o, *size_o;
	struct host_arg a;
	uint32_t size, pf, out = 0;
	aclError ret;

	if (!PyArg_ParseTuple(args, fmt, &o, &size_o, conv_u32, &pf) ||
	    file_size(o, size_o, &size) < 0 || host_file(o, size, &a, &ret) < 0)
		return NULL;
	if (ret == ACL_SUCCESS)
		ret = png ? acldvppPngPredictDecSize(a.p, size, (acldvppPixelFormat)pf, &out) :
			    acldvppJpegPredictDecSize(a.p, size, (acldvppPixelFormat)pf, &out);
	host_arg_release(&a);
	return val_ret(MK_U32(out), ret);
}

static PyObject *py_acldvppJpegPredictDecSize(PyObject *self, PyObject *args)
{
	return predict_dec(args, "OOO&:dvpp_jpeg_predict_dec_size", 0);
}

static PyObject *py_acldvppPngPredictDecSize(PyObject *self, PyObject *args)
{
	return predict_dec(args, "OOO&:dvpp_png_predict_dec_size", 1);
}

static PyObject *py_acldvppJpegPredictEncSize(PyObject *self, PyObject *args)
{
	void *pic, *cfg;
	uint32_t size = 0;
	aclError ret;

	if (!PyArg_ParseTuple(args, "O&O&:dvpp_jpeg_predict_enc_size", conv_ptr, &pic,
			      conv_ptr, &cfg))
		return NULL;
	ret = acldvppJpegPredictEncSize(san(pic, K_PICS), san(cfg, K_JPEGE), &size);
	return val_ret(MK_U32(size), ret);
}

/* data: device memory (acldvppMalloc), an int. */
static PyObject *decode_async(PyObject *args, const char *fmt, int png)
{
	void *c, *data, *o, *s;
	uint32_t size;
	aclError ret;

	if (!PyArg_ParseTuple(args, fmt, conv_ptr, &c, conv_ptr, &data, conv_u32, &size,
			      conv_ptr, &o, conv_ptr, &s))
		return NULL;
	c = san(c, K_CHANNEL), o = san(o, K_PICS);
	NOGIL(ret = png ? acldvppPngDecodeAsync(c, data, size, o, s) :
			  acldvppJpegDecodeAsync(c, data, size, o, s));
	return ret_only(ret);
}

static PyObject *py_acldvppJpegDecodeAsync(PyObject *self, PyObject *args)
{
	return decode_async(args, "O&O&O&O&O&:dvpp_jpeg_decode_async", 0);
}

static PyObject *py_acldvppPngDecodeAsync(PyObject *self, PyObject *args)
{
	return decode_async(args, "O&O&O&O&O&:dvpp_png_decode_async", 1);
}

/*
 * size_ptr: the host address of a uint32 (in: the buffer's size, out: the
 * encoded size once the stream is synchronized), as pyACL takes it, or a
 * writable buffer of at least 4 bytes. An address is probed through the
 * kernel first so that a bad one is an error code, not a fault.
 */
static PyObject *py_acldvppJpegEncodeAsync(PyObject *self, PyObject *args)
{
	void *c, *in, *data, *cfg, *s;
	PyObject *size_o;
	struct host_arg a;
	uint32_t probe;
	aclError ret;

	if (!PyArg_ParseTuple(args, "O&O&O&OO&O&:dvpp_jpeg_encode_async", conv_ptr, &c,
			      conv_ptr, &in, conv_ptr, &data, &size_o, conv_ptr, &cfg,
			      conv_ptr, &s))
		return NULL;
	if (host_arg_get(size_o, true, &a) < 0)
		return NULL;
	if (a.has_view && a.len < (Py_ssize_t)sizeof(uint32_t)) {
		host_arg_release(&a);
		PyErr_SetString(PyExc_ValueError, "size_ptr needs 4 bytes");
		return NULL;
	}
	if (!a.has_view && a.p && (checked_copy(&probe, a.p, sizeof(probe)) ||
				   checked_copy(a.p, &probe, sizeof(probe)))) {
		host_arg_release(&a);
		return ret_only(ACL_ERROR_INVALID_PARAM);
	}
	c = san(c, K_CHANNEL), in = san(in, K_PICS), cfg = san(cfg, K_JPEGE);
	NOGIL(ret = acldvppJpegEncodeAsync(c, in, data, a.p, cfg, s));
	host_arg_release(&a);
	return ret_only(ret);
}

/* --------------------------------------------------- VDEC / VENC calls -- */

/* What a frame's userData carries to the trampolines. */
struct frame_cb {
	PyObject *fn, *user;
};

static struct frame_cb *frame_cb_new(PyObject *map, void *desc, PyObject *user)
{
	PyObject *key = PyLong_FromVoidPtr(desc), *fn;
	struct frame_cb *f;

	if (!key)
		return NULL;
	fn = PyDict_GetItemWithError(map, key);
	Py_DECREF(key);
	if (!fn)
		return NULL;	/* no callback (no error set) or a dict error */
	f = PyMem_RawMalloc(sizeof(*f));
	if (!f)
		return (struct frame_cb *)PyErr_NoMemory();
	Py_INCREF(fn);
	Py_INCREF(user);
	f->fn = fn;
	f->user = user;
	return f;
}

static void frame_cb_free(struct frame_cb *f)
{
	Py_DECREF(f->fn);
	Py_DECREF(f->user);
	PyMem_RawFree(f);
}

/* Runs on the report thread: take the GIL, call, drop the frame's refs. */
static void frame_call(void *a, void *b, void *user_data)
{
	struct frame_cb *f = user_data;
	PyGILState_STATE g;
	PyObject *r;

	if (!f || _Py_IsFinalizing())
		return;
	g = PyGILState_Ensure();
	r = PyObject_CallFunction(f->fn, "NNO", ptr_obj(a), ptr_obj(b), f->user);
	if (!r)
		PyErr_WriteUnraisable(f->fn);
	Py_XDECREF(r);
	frame_cb_free(f);
	PyGILState_Release(g);
}

static void vdec_trampoline(acldvppStreamDesc *in, acldvppPicDesc *out, void *user_data)
{
	frame_call(in, out, user_data);
}

static void venc_trampoline(acldvppPicDesc *in, acldvppStreamDesc *out, void *user_data)
{
	frame_call(in, out, user_data);
}

/* Remember fn for desc (or forget it: fn NULL). */
static int cb_store(PyObject *map, void *desc, PyObject *fn)
{
	PyObject *key = PyLong_FromVoidPtr(desc);
	int r;

	if (!key)
		return -1;
	if (fn)
		r = PyDict_SetItem(map, key, fn);
	else if ((r = PyDict_DelItem(map, key)) < 0)
		PyErr_Clear();
	Py_DECREF(key);
	return r;
}

static PyObject *cb_get(PyObject *map, void *desc)
{
	PyObject *key = PyLong_FromVoidPtr(desc), *fn;

	if (!key)
		return NULL;
	fn = PyDict_GetItemWithError(map, key);
	Py_DECREF(key);
	if (!fn && PyErr_Occurred())
		return NULL;
	fn = fn ? fn : Py_None;
	Py_INCREF(fn);
	return fn;
}

static PyObject *set_callback(PyObject *args, const char *fmt, int kind, PyObject *map, int vdec)
{
	void *p;
	PyObject *fn;
	aclError ret;

	if (!PyArg_ParseTuple(args, fmt, conv_ptr, &p, &fn))
		return NULL;
	if (fn != Py_None && !PyCallable_Check(fn)) {
		PyErr_SetString(PyExc_TypeError, "callback must be callable");
		return NULL;
	}
	p = san(p, kind);
	ret = vdec ? aclvdecSetChannelDescCallback(p, fn == Py_None ? NULL : vdec_trampoline) :
		     aclvencSetChannelDescCallback(p, fn == Py_None ? NULL : venc_trampoline);
	if (ret == ACL_SUCCESS && cb_store(map, p, fn) < 0)
		return NULL;
	return ret_only(ret);
}

static PyObject *py_aclvdecSetChannelDescCallback(PyObject *self, PyObject *args)
{
	return set_callback(args, "O&O:vdec_set_channel_desc_callback", K_VDEC, vdec_cbs, 1);
}

static PyObject *py_aclvencSetChannelDescCallback(PyObject *self, PyObject *args)
{
	return set_callback(args, "O&O:venc_set_channel_desc_callback", K_VENC, venc_cbs, 0);
}

static PyObject *py_aclvdecGetChannelDescCallback(PyObject *self, PyObject *args)
{
	void *p;

	if (!one_ptr(args, "O&:vdec_get_channel_desc_callback", &p))
		return NULL;
	return cb_get(vdec_cbs, san(p, K_VDEC));
}

static PyObject *py_aclvencGetChannelDescCallback(PyObject *self, PyObject *args)
{
	void *p;

	if (!one_ptr(args, "O&:venc_get_channel_desc_callback", &p))
		return NULL;
	return cb_get(venc_cbs, san(p, K_VENC));
}

/* Destroying a description forgets its Python callback too. */
static PyObject *destroy_coded(PyObject *args, const char *fmt, int kind, PyObject *map,
			       aclError (*destroy)(void *))
{
	void *p;
	aclError ret;

	if (!one_ptr(args, fmt, &p))
		return NULL;
	ret = destroy(san(p, kind));
	if (ret == ACL_SUCCESS) {
		live_del(p);
		cb_store(map, p, NULL);
	}
	return ret_only(ret);
}

static aclError vdec_destroy_desc(void *p)
{
	return aclvdecDestroyChannelDesc(p);
}

static aclError venc_destroy_desc(void *p)
{
	return aclvencDestroyChannelDesc(p);
}

static PyObject *py_aclvdecDestroyChannelDesc(PyObject *self, PyObject *args)
{
	return destroy_coded(args, "O&:vdec_destroy_channel_desc", K_VDEC, vdec_cbs,
			     vdec_destroy_desc);
}

static PyObject *py_aclvencDestroyChannelDesc(PyObject *self, PyObject *args)
{
	return destroy_coded(args, "O&:venc_destroy_channel_desc", K_VENC, venc_cbs,
			     venc_destroy_desc);
}

CREATE("vdec_create_channel_desc", aclvdecCreateChannelDesc, aclvdecDestroyChannelDesc, K_VDEC)
SET_U32("vdec_set_channel_desc_channel_id", aclvdecSetChannelDescChannelId, K_VDEC)
SET_U64("vdec_set_channel_desc_thread_id", aclvdecSetChannelDescThreadId, K_VDEC)
SET_ENUM("vdec_set_channel_desc_entype", aclvdecSetChannelDescEnType, K_VDEC, acldvppStreamFormat)
SET_ENUM("vdec_set_channel_desc_out_pic_format", aclvdecSetChannelDescOutPicFormat, K_VDEC,
	 acldvppPixelFormat)
SET_U32("vdec_set_channel_desc_out_pic_width", aclvdecSetChannelDescOutPicWidth, K_VDEC)
SET_U32("vdec_set_channel_desc_out_pic_height", aclvdecSetChannelDescOutPicHeight, K_VDEC)
SET_U32("vdec_set_channel_desc_ref_frame_num", aclvdecSetChannelDescRefFrameNum, K_VDEC)
SET_U32("vdec_set_channel_desc_bit_depth", aclvdecSetChannelDescBitDepth, K_VDEC)
SET_U32("vdec_set_channel_desc_out_mode", aclvdecSetChannelDescOutMode, K_VDEC)
GET("vdec_get_channel_desc_channel_id", aclvdecGetChannelDescChannelId, K_VDEC, MK_U32)
GET("vdec_get_channel_desc_thread_id", aclvdecGetChannelDescThreadId, K_VDEC, MK_U64)
GET("vdec_get_channel_desc_entype", aclvdecGetChannelDescEnType, K_VDEC, MK_U32)
GET("vdec_get_channel_desc_out_pic_format", aclvdecGetChannelDescOutPicFormat, K_VDEC, MK_U32)
GET("vdec_get_channel_desc_out_pic_width", aclvdecGetChannelDescOutPicWidth, K_VDEC, MK_U32)
GET("vdec_get_channel_desc_out_pic_height", aclvdecGetChannelDescOutPicHeight, K_VDEC, MK_U32)
GET("vdec_get_channel_desc_ref_frame_num", aclvdecGetChannelDescRefFrameNum, K_VDEC, MK_U32)
GET("vdec_get_channel_desc_bit_depth", aclvdecGetChannelDescBitDepth, K_VDEC, MK_U32)
GET("vdec_get_channel_desc_out_mode", aclvdecGetChannelDescOutMode, K_VDEC, MK_U32)
CREATE("vdec_create_frame_config", aclvdecCreateFrameConfig, aclvdecDestroyFrameConfig, K_VDEC_FRAME)
DESTROY("vdec_destroy_frame_config", aclvdecDestroyFrameConfig, K_VDEC_FRAME)

static PyObject *py_aclvdecCreateChannel(PyObject *self, PyObject *args)
{
	void *p;
	aclError ret;

	if (!one_ptr(args, "O&:vdec_create_channel", &p))
		return NULL;
	p = san(p, K_VDEC);
	NOGIL(ret = aclvdecCreateChannel(p));
	return ret_only(ret);
}

static PyObject *py_aclvdecDestroyChannel(PyObject *self, PyObject *args)
{
	void *p;
	aclError ret;

	if (!one_ptr(args, "O&:vdec_destroy_channel", &p))
		return NULL;
	p = san(p, K_VDEC);
	NOGIL(ret = aclvdecDestroyChannel(p));
	return ret_only(ret);
}

/* user_data is any Python object; the callback gets it back. */
static PyObject *send_vdec(PyObject *args, const char *fmt, int skipped)
{
	void *c, *in, *out = NULL, *cfg;
	PyObject *user = Py_None;
	struct frame_cb *f;
	aclError ret;

	if (skipped ? !PyArg_ParseTuple(args, fmt, conv_ptr, &c, conv_ptr, &in, conv_ptr, &cfg,
					&user) :
		      !PyArg_ParseTuple(args, fmt, conv_ptr, &c, conv_ptr, &in, conv_ptr, &out,
					conv_ptr, &cfg, &user))
		return NULL;
	c = san(c, K_VDEC), in = san(in, K_STREAM), out = san(out, K_PICS);
	cfg = san(cfg, K_VDEC_FRAME);
	if (!c)
		return ret_only(ACL_ERROR_INVALID_PARAM);
	/*
	 * The end of the stream alone (eos, no output) gets no callback from
	 * libascendcl: nothing is kept for it, which would never be freed.
	 */
	if (in && !out && acldvppGetStreamDescEos(in)) {
		NOGIL(ret = skipped ? aclvdecSendSkippedFrame(c, in, cfg, NULL) :
				      aclvdecSendFrame(c, in, NULL, cfg, NULL));
		return ret_only(ret);
	}
	f = frame_cb_new(vdec_cbs, c, user);
	if (!f)
		return PyErr_Occurred() ? NULL : ret_only(ACL_ERROR_INVALID_PARAM);
	NOGIL(ret = skipped ? aclvdecSendSkippedFrame(c, in, cfg, f) :
			      aclvdecSendFrame(c, in, out, cfg, f));
	/* Refused: no callback will come for this frame. */
	if (ret != ACL_SUCCESS)
		frame_cb_free(f);
	return ret_only(ret);
}

static PyObject *py_aclvdecSendFrame(PyObject *self, PyObject *args)
{
	return send_vdec(args, "O&O&O&O&|O:vdec_send_frame", 0);
}

static PyObject *py_aclvdecSendSkippedFrame(PyObject *self, PyObject *args)
{
	return send_vdec(args, "O&O&O&|O:vdec_send_skipped_frame", 1);
}

CREATE("venc_create_channel_desc", aclvencCreateChannelDesc, aclvencDestroyChannelDesc, K_VENC)
SET_U64("venc_set_channel_desc_thread_id", aclvencSetChannelDescThreadId, K_VENC)
SET_ENUM("venc_set_channel_desc_entype", aclvencSetChannelDescEnType, K_VENC, acldvppStreamFormat)
SET_ENUM("venc_set_channel_desc_pic_format", aclvencSetChannelDescPicFormat, K_VENC,
	 acldvppPixelFormat)
SET_U32("venc_set_channel_desc_pic_width", aclvencSetChannelDescPicWidth, K_VENC)
SET_U32("venc_set_channel_desc_pic_height", aclvencSetChannelDescPicHeight, K_VENC)
SET_U32("venc_set_channel_desc_key_frame_interval", aclvencSetChannelDescKeyFrameInterval, K_VENC)
SET_PTR("venc_set_channel_desc_buf_addr", aclvencSetChannelDescBufAddr, K_VENC)
SET_U32("venc_set_channel_desc_buf_size", aclvencSetChannelDescBufSize, K_VENC)
SET_U32("venc_set_channel_desc_rc_mode", aclvencSetChannelDescRcMode, K_VENC)
SET_U32("venc_set_channel_desc_src_rate", aclvencSetChannelDescSrcRate, K_VENC)
SET_U32("venc_set_channel_desc_max_bit_rate", aclvencSetChannelDescMaxBitRate, K_VENC)
GET("venc_get_channel_desc_thread_id", aclvencGetChannelDescThreadId, K_VENC, MK_U64)
GET("venc_get_channel_desc_entype", aclvencGetChannelDescEnType, K_VENC, MK_U32)
GET("venc_get_channel_desc_pic_format", aclvencGetChannelDescPicFormat, K_VENC, MK_U32)
GET("venc_get_channel_desc_pic_width", aclvencGetChannelDescPicWidth, K_VENC, MK_U32)
GET("venc_get_channel_desc_pic_height", aclvencGetChannelDescPicHeight, K_VENC, MK_U32)
GET("venc_get_channel_desc_key_frame_interval", aclvencGetChannelDescKeyFrameInterval, K_VENC,
    MK_U32)
GET("venc_get_channel_desc_buf_addr", aclvencGetChannelDescBufAddr, K_VENC, MK_PTR)
GET("venc_get_channel_desc_buf_size", aclvencGetChannelDescBufSize, K_VENC, MK_U32)
GET("venc_get_channel_desc_rc_mode", aclvencGetChannelDescRcMode, K_VENC, MK_U32)
GET("venc_get_channel_desc_src_rate", aclvencGetChannelDescSrcRate, K_VENC, MK_U32)
GET("venc_get_channel_desc_max_bit_rate", aclvencGetChannelDescMaxBitRate, K_VENC, MK_U32)
GET("venc_get_channel_desc_channel_id", aclvencGetChannelDescChannelId, K_VENC, MK_U32)
CREATE("venc_create_frame_config", aclvencCreateFrameConfig, aclvencDestroyFrameConfig, K_VENC_FRAME)
DESTROY("venc_destroy_frame_config", aclvencDestroyFrameConfig, K_VENC_FRAME)
SET_U8("venc_set_frame_config_force_i_frame", aclvencSetFrameConfigForceIFrame, K_VENC_FRAME)
SET_U8("venc_set_frame_config_eos", aclvencSetFrameConfigEos, K_VENC_FRAME)
GET("venc_get_frame_config_force_i_frame", aclvencGetFrameConfigForceIFrame, K_VENC_FRAME, MK_U32)
GET("venc_get_frame_config_eos", aclvencGetFrameConfigEos, K_VENC_FRAME, MK_U32)

static PyObject *py_aclvencCreateChannel(PyObject *self, PyObject *args)
{
	void *p;
	aclError ret;

	if (!one_ptr(args, "O&:venc_create_channel", &p))
		return NULL;
	p = san(p, K_VENC);
	NOGIL(ret = aclvencCreateChannel(p));
	return ret_only(ret);
}

static PyObject *py_aclvencDestroyChannel(PyObject *self, PyObject *args)
{
	void *p;
	aclError ret;

	if (!one_ptr(args, "O&:venc_destroy_channel", &p))
		return NULL;
	p = san(p, K_VENC);
	NOGIL(ret = aclvencDestroyChannel(p));
	return ret_only(ret);
}

/* reserve must be 0 / None; user_data comes back to the callback. */
static PyObject *py_aclvencSendFrame(PyObject *self, PyObject *args)
{
	void *c, *in, *r, *cfg;
	PyObject *user = Py_None;
	struct frame_cb *f;
	aclError ret;

	if (!PyArg_ParseTuple(args, "O&O&O&O&|O:venc_send_frame", conv_ptr, &c, conv_ptr, &in,
			      conv_ptr, &r, conv_ptr, &cfg, &user))
		return NULL;
	c = san(c, K_VENC), in = san(in, K_PICS), cfg = san(cfg, K_VENC_FRAME);
	r = r ? (void *)1 : NULL;
	if (!c)
		return ret_only(ACL_ERROR_INVALID_PARAM);
	f = frame_cb_new(venc_cbs, c, user);
	if (!f)
		return PyErr_Occurred() ? NULL : ret_only(ACL_ERROR_INVALID_PARAM);
	NOGIL(ret = aclvencSendFrame(c, in, r, cfg, f));
	if (ret != ACL_SUCCESS)
		frame_cb_free(f);
	return ret_only(ret);
}

/* ------------------------------------------------------------ the table -- */

#define M(name, cfn, flags) { name, (PyCFunction)py_##cfn, flags, NULL }
#define V(name, cfn) M(name, cfn, METH_VARARGS)
#define N(name, cfn) M(name, cfn, METH_NOARGS)

static PyMethodDef media_methods[] = {
	{ "dvpp_malloc", py_dvpp_malloc, METH_VARARGS, NULL },
	{ "dvpp_free", py_dvpp_free, METH_VARARGS, NULL },
	N("dvpp_create_channel_desc", acldvppCreateChannelDesc),
	V("dvpp_destroy_channel_desc", acldvppDestroyChannelDesc),
	V("dvpp_get_channel_desc_channel_id", acldvppGetChannelDescChannelId),
	V("dvpp_set_channel_desc_mode", acldvppSetChannelDescMode),
	V("dvpp_set_channel_desc_param", acldvppSetChannelDescParam),
	V("dvpp_get_channel_desc_param", acldvppGetChannelDescParam),
	V("dvpp_create_channel", acldvppCreateChannel),
	V("dvpp_destroy_channel", acldvppDestroyChannel),
	N("dvpp_create_pic_desc", acldvppCreatePicDesc),
	V("dvpp_destroy_pic_desc", acldvppDestroyPicDesc),
	V("dvpp_set_pic_desc_data", acldvppSetPicDescData),
	V("dvpp_set_pic_desc_size", acldvppSetPicDescSize),
	V("dvpp_set_pic_desc_format", acldvppSetPicDescFormat),
	V("dvpp_set_pic_desc_width", acldvppSetPicDescWidth),
	V("dvpp_set_pic_desc_height", acldvppSetPicDescHeight),
	V("dvpp_set_pic_desc_width_stride", acldvppSetPicDescWidthStride),
	V("dvpp_set_pic_desc_height_stride", acldvppSetPicDescHeightStride),
	V("dvpp_set_pic_desc_ret_code", acldvppSetPicDescRetCode),
	V("dvpp_get_pic_desc_data", acldvppGetPicDescData),
	V("dvpp_get_pic_desc_size", acldvppGetPicDescSize),
	V("dvpp_get_pic_desc_format", acldvppGetPicDescFormat),
	V("dvpp_get_pic_desc_width", acldvppGetPicDescWidth),
	V("dvpp_get_pic_desc_height", acldvppGetPicDescHeight),
	V("dvpp_get_pic_desc_width_stride", acldvppGetPicDescWidthStride),
	V("dvpp_get_pic_desc_height_stride", acldvppGetPicDescHeightStride),
	V("dvpp_get_pic_desc_ret_code", acldvppGetPicDescRetCode),
	V("dvpp_create_batch_pic_desc", acldvppCreateBatchPicDesc),
	V("dvpp_get_pic_desc", acldvppGetPicDesc),
	V("dvpp_destroy_batch_pic_desc", acldvppDestroyBatchPicDesc),
	V("dvpp_create_roi_config", acldvppCreateRoiConfig),
	V("dvpp_destroy_roi_config", acldvppDestroyRoiConfig),
	V("dvpp_set_roi_config", acldvppSetRoiConfig),
	V("dvpp_set_roi_config_left", acldvppSetRoiConfigLeft),
	V("dvpp_set_roi_config_right", acldvppSetRoiConfigRight),
	V("dvpp_set_roi_config_top", acldvppSetRoiConfigTop),
	V("dvpp_set_roi_config_bottom", acldvppSetRoiConfigBottom),
	N("dvpp_create_resize_config", acldvppCreateResizeConfig),
	V("dvpp_destroy_resize_config", acldvppDestroyResizeConfig),
	V("dvpp_set_resize_config_interpolation", acldvppSetResizeConfigInterpolation),
	V("dvpp_get_resize_config_interpolation", acldvppGetResizeConfigInterpolation),
	N("dvpp_create_jpege_config", acldvppCreateJpegeConfig),
	V("dvpp_destroy_jpege_config", acldvppDestroyJpegeConfig),
	V("dvpp_set_jpege_config_level", acldvppSetJpegeConfigLevel),
	V("dvpp_get_jpege_config_level", acldvppGetJpegeConfigLevel),
	N("dvpp_create_border_config", acldvppCreateBorderConfig),
	V("dvpp_destroy_border_config", acldvppDestroyBorderConfig),
	V("dvpp_set_border_config_value", acldvppSetBorderConfigValue),
	V("dvpp_set_border_config_border_type", acldvppSetBorderConfigBorderType),
	V("dvpp_set_border_config_top", acldvppSetBorderConfigTop),
	V("dvpp_set_border_config_bottom", acldvppSetBorderConfigBottom),
	V("dvpp_set_border_config_left", acldvppSetBorderConfigLeft),
	V("dvpp_set_border_config_right", acldvppSetBorderConfigRight),
	V("dvpp_get_border_config_value", acldvppGetBorderConfigValue),
	V("dvpp_get_border_config_border_type", acldvppGetBorderConfigBorderType),
	V("dvpp_get_border_config_top", acldvppGetBorderConfigTop),
	V("dvpp_get_border_config_bottom", acldvppGetBorderConfigBottom),
	V("dvpp_get_border_config_left", acldvppGetBorderConfigLeft),
	V("dvpp_get_border_config_right", acldvppGetBorderConfigRight),
	N("dvpp_create_lut_map", acldvppCreateLutMap),
	V("dvpp_destroy_lut_map", acldvppDestroyLutMap),
	V("dvpp_get_lut_map_dims", acldvppGetLutMapDims),
	V("dvpp_get_lut_map_data", acldvppGetLutMapData),
	N("dvpp_create_hist", acldvppCreateHist),
	V("dvpp_destroy_hist", acldvppDestroyHist),
	V("dvpp_get_hist_dims", acldvppGetHistDims),
	V("dvpp_get_hist_data", acldvppGetHistData),
	V("dvpp_get_hist_ret_code", acldvppGetHistRetCode),
	V("dvpp_clear_hist", acldvppClearHist),
	N("dvpp_create_stream_desc", acldvppCreateStreamDesc),
	V("dvpp_destroy_stream_desc", acldvppDestroyStreamDesc),
	V("dvpp_set_stream_desc_data", acldvppSetStreamDescData),
	V("dvpp_set_stream_desc_size", acldvppSetStreamDescSize),
	V("dvpp_set_stream_desc_format", acldvppSetStreamDescFormat),
	V("dvpp_set_stream_desc_timestamp", acldvppSetStreamDescTimestamp),
	V("dvpp_set_stream_desc_ret_code", acldvppSetStreamDescRetCode),
	V("dvpp_set_stream_desc_eos", acldvppSetStreamDescEos),
	V("dvpp_get_stream_desc_data", acldvppGetStreamDescData),
	V("dvpp_get_stream_desc_size", acldvppGetStreamDescSize),
	V("dvpp_get_stream_desc_format", acldvppGetStreamDescFormat),
	V("dvpp_get_stream_desc_timestamp", acldvppGetStreamDescTimestamp),
	V("dvpp_get_stream_desc_ret_code", acldvppGetStreamDescRetCode),
	V("dvpp_get_stream_desc_eos", acldvppGetStreamDescEos),
	V("dvpp_vpc_resize_async", acldvppVpcResizeAsync),
	V("dvpp_vpc_crop_async", acldvppVpcCropAsync),
	V("dvpp_vpc_crop_resize_async", acldvppVpcCropResizeAsync),
	V("dvpp_vpc_crop_and_paste_async", acldvppVpcCropAndPasteAsync),
	V("dvpp_vpc_crop_resize_paste_async", acldvppVpcCropResizePasteAsync),
	V("dvpp_vpc_batch_crop_async", acldvppVpcBatchCropAsync),
	V("dvpp_vpc_batch_crop_resize_async", acldvppVpcBatchCropResizeAsync),
	V("dvpp_vpc_batch_crop_and_paste_async", acldvppVpcBatchCropAndPasteAsync),
	V("dvpp_vpc_batch_crop_resize_paste_async", acldvppVpcBatchCropResizePasteAsync),
	V("dvpp_vpc_batch_crop_resize_make_border_async", acldvppVpcBatchCropResizeMakeBorderAsync),
	V("dvpp_vpc_convert_color_async", acldvppVpcConvertColorAsync),
	V("dvpp_vpc_pyr_down_async", acldvppVpcPyrDownAsync),
	V("dvpp_vpc_equalize_hist_async", acldvppVpcEqualizeHistAsync),
	V("dvpp_vpc_make_border_async", acldvppVpcMakeBorderAsync),
	V("dvpp_vpc_calc_hist_async", acldvppVpcCalcHistAsync),
	V("dvpp_jpeg_get_image_info", acldvppJpegGetImageInfo),
	V("dvpp_jpeg_get_image_info_v2", acldvppJpegGetImageInfoV2),
	V("dvpp_jpeg_predict_dec_size", acldvppJpegPredictDecSize),
	V("dvpp_jpeg_predict_enc_size", acldvppJpegPredictEncSize),
	V("dvpp_jpeg_decode_async", acldvppJpegDecodeAsync),
	V("dvpp_jpeg_encode_async", acldvppJpegEncodeAsync),
	V("dvpp_png_get_image_info", acldvppPngGetImageInfo),
	V("dvpp_png_predict_dec_size", acldvppPngPredictDecSize),
	V("dvpp_png_decode_async", acldvppPngDecodeAsync),
	N("vdec_create_channel_desc", aclvdecCreateChannelDesc),
	V("vdec_destroy_channel_desc", aclvdecDestroyChannelDesc),
	V("vdec_set_channel_desc_channel_id", aclvdecSetChannelDescChannelId),
	V("vdec_set_channel_desc_thread_id", aclvdecSetChannelDescThreadId),
	V("vdec_set_channel_desc_callback", aclvdecSetChannelDescCallback),
	/* pyACL spells EnType "entype"; en_type is kept as an alias */
	V("vdec_set_channel_desc_entype", aclvdecSetChannelDescEnType),
	V("vdec_set_channel_desc_en_type", aclvdecSetChannelDescEnType),
	V("vdec_set_channel_desc_out_pic_format", aclvdecSetChannelDescOutPicFormat),
	V("vdec_set_channel_desc_out_pic_width", aclvdecSetChannelDescOutPicWidth),
	V("vdec_set_channel_desc_out_pic_height", aclvdecSetChannelDescOutPicHeight),
	V("vdec_set_channel_desc_ref_frame_num", aclvdecSetChannelDescRefFrameNum),
	V("vdec_set_channel_desc_bit_depth", aclvdecSetChannelDescBitDepth),
	V("vdec_set_channel_desc_out_mode", aclvdecSetChannelDescOutMode),
	V("vdec_get_channel_desc_channel_id", aclvdecGetChannelDescChannelId),
	V("vdec_get_channel_desc_thread_id", aclvdecGetChannelDescThreadId),
	V("vdec_get_channel_desc_callback", aclvdecGetChannelDescCallback),
	V("vdec_get_channel_desc_entype", aclvdecGetChannelDescEnType),
	V("vdec_get_channel_desc_en_type", aclvdecGetChannelDescEnType),
	V("vdec_get_channel_desc_out_pic_format", aclvdecGetChannelDescOutPicFormat),
	V("vdec_get_channel_desc_out_pic_width", aclvdecGetChannelDescOutPicWidth),
	V("vdec_get_channel_desc_out_pic_height", aclvdecGetChannelDescOutPicHeight),
	V("vdec_get_channel_desc_ref_frame_num", aclvdecGetChannelDescRefFrameNum),
	V("vdec_get_channel_desc_bit_depth", aclvdecGetChannelDescBitDepth),
	V("vdec_get_channel_desc_out_mode", aclvdecGetChannelDescOutMode),
	V("vdec_create_channel", aclvdecCreateChannel),
	V("vdec_destroy_channel", aclvdecDestroyChannel),
	N("vdec_create_frame_config", aclvdecCreateFrameConfig),
	V("vdec_destroy_frame_config", aclvdecDestroyFrameConfig),
	V("vdec_send_frame", aclvdecSendFrame),
	V("vdec_send_skipped_frame", aclvdecSendSkippedFrame),
	N("venc_create_channel_desc", aclvencCreateChannelDesc),
	V("venc_destroy_channel_desc", aclvencDestroyChannelDesc),
	V("venc_set_channel_desc_thread_id", aclvencSetChannelDescThreadId),
	V("venc_set_channel_desc_callback", aclvencSetChannelDescCallback),
	V("venc_set_channel_desc_entype", aclvencSetChannelDescEnType),
	V("venc_set_channel_desc_en_type", aclvencSetChannelDescEnType),
	V("venc_set_channel_desc_pic_format", aclvencSetChannelDescPicFormat),
	V("venc_set_channel_desc_pic_width", aclvencSetChannelDescPicWidth),
	V("venc_set_channel_desc_pic_height", aclvencSetChannelDescPicHeight),
	V("venc_set_channel_desc_key_frame_interval", aclvencSetChannelDescKeyFrameInterval),
	V("venc_set_channel_desc_buf_addr", aclvencSetChannelDescBufAddr),
	V("venc_set_channel_desc_buf_size", aclvencSetChannelDescBufSize),
	V("venc_set_channel_desc_rc_mode", aclvencSetChannelDescRcMode),
	V("venc_set_channel_desc_src_rate", aclvencSetChannelDescSrcRate),
	V("venc_set_channel_desc_max_bit_rate", aclvencSetChannelDescMaxBitRate),
	V("venc_get_channel_desc_thread_id", aclvencGetChannelDescThreadId),
	V("venc_get_channel_desc_callback", aclvencGetChannelDescCallback),
	V("venc_get_channel_desc_entype", aclvencGetChannelDescEnType),
	V("venc_get_channel_desc_en_type", aclvencGetChannelDescEnType),
	V("venc_get_channel_desc_pic_format", aclvencGetChannelDescPicFormat),
	V("venc_get_channel_desc_pic_width", aclvencGetChannelDescPicWidth),
	V("venc_get_channel_desc_pic_height", aclvencGetChannelDescPicHeight),
	V("venc_get_channel_desc_key_frame_interval", aclvencGetChannelDescKeyFrameInterval),
	V("venc_get_channel_desc_buf_addr", aclvencGetChannelDescBufAddr),
	V("venc_get_channel_desc_buf_size", aclvencGetChannelDescBufSize),
	V("venc_get_channel_desc_rc_mode", aclvencGetChannelDescRcMode),
	V("venc_get_channel_desc_src_rate", aclvencGetChannelDescSrcRate),
	V("venc_get_channel_desc_max_bit_rate", aclvencGetChannelDescMaxBitRate),
	V("venc_get_channel_desc_channel_id", aclvencGetChannelDescChannelId),
	V("venc_create_channel", aclvencCreateChannel),
	V("venc_destroy_channel", aclvencDestroyChannel),
	N("venc_create_frame_config", aclvencCreateFrameConfig),
	V("venc_destroy_frame_config", aclvencDestroyFrameConfig),
	V("venc_set_frame_config_force_i_frame", aclvencSetFrameConfigForceIFrame),
	V("venc_set_frame_config_eos", aclvencSetFrameConfigEos),
	V("venc_get_frame_config_force_i_frame", aclvencGetFrameConfigForceIFrame),
	V("venc_get_frame_config_eos", aclvencGetFrameConfigEos),
	V("venc_send_frame", aclvencSendFrame),
	{ NULL, NULL, 0, NULL },
};

/* The enumerations of acl_dvpp.h pyACL programs use by value. */
static const struct { const char *name; long value; } media_constants[] = {
#define C(x) { #x, x }
	C(PIXEL_FORMAT_YUV_400), C(PIXEL_FORMAT_YUV_SEMIPLANAR_420),
	C(PIXEL_FORMAT_YVU_SEMIPLANAR_420), C(PIXEL_FORMAT_YUV_SEMIPLANAR_422),
	C(PIXEL_FORMAT_YVU_SEMIPLANAR_422), C(PIXEL_FORMAT_YUV_SEMIPLANAR_444),
	C(PIXEL_FORMAT_YVU_SEMIPLANAR_444), C(PIXEL_FORMAT_YUYV_PACKED_422),
	C(PIXEL_FORMAT_UYVY_PACKED_422), C(PIXEL_FORMAT_YVYU_PACKED_422),
	C(PIXEL_FORMAT_VYUY_PACKED_422), C(PIXEL_FORMAT_YUV_PACKED_444),
	C(PIXEL_FORMAT_RGB_888), C(PIXEL_FORMAT_BGR_888), C(PIXEL_FORMAT_ARGB_8888),
	C(PIXEL_FORMAT_ABGR_8888), C(PIXEL_FORMAT_RGBA_8888), C(PIXEL_FORMAT_BGRA_8888),
	C(PIXEL_FORMAT_YUV_SEMI_PLANNER_420_10BIT), C(PIXEL_FORMAT_YVU_SEMI_PLANNER_420_10BIT),
	C(PIXEL_FORMAT_YVU_PLANAR_420), C(PIXEL_FORMAT_YVU_PLANAR_422),
	C(PIXEL_FORMAT_YVU_PLANAR_444), C(PIXEL_FORMAT_BGR_888_PLANAR),
	C(PIXEL_FORMAT_YUV_SEMIPLANAR_440), C(PIXEL_FORMAT_YVU_SEMIPLANAR_440),
	C(PIXEL_FORMAT_FLOAT32), C(PIXEL_FORMAT_UNKNOWN),
	C(H265_MAIN_LEVEL), C(H264_BASELINE_LEVEL), C(H264_MAIN_LEVEL), C(H264_HIGH_LEVEL),
	C(DVPP_CHNMODE_VPC), C(DVPP_CHNMODE_JPEGD), C(DVPP_CHNMODE_JPEGE), C(DVPP_CHNMODE_PNGD),
	C(BORDER_CONSTANT), C(BORDER_REPLICATE), C(BORDER_REFLECT), C(BORDER_REFLECT_101),
	C(ACL_JPEG_CSS_444), C(ACL_JPEG_CSS_422), C(ACL_JPEG_CSS_420), C(ACL_JPEG_CSS_GRAY),
	C(ACL_JPEG_CSS_440), C(ACL_JPEG_CSS_411), C(ACL_JPEG_CSS_UNKNOWN),
	C(ACL_DVPP_CSC_MATRIX_UINT32), C(ACL_DVPP_MODE_UINT32), C(ACL_DVPP_CHANNEL_ID_UINT64),
	C(ACL_DVPP_CHANNEL_HEIGHT_UINT32), C(ACL_DVPP_CHANNEL_WIDTH_UINT32),
	C(ACL_DVPP_JPEGD_PRECISION_MODE_ENUM),
	C(ACL_DVPP_CSC_MATRIX_BT601_WIDE), C(ACL_DVPP_CSC_MATRIX_BT601_NARROW),
	C(ACL_DVPP_CSC_MATRIX_BT709_WIDE), C(ACL_DVPP_CSC_MATRIX_BT709_NARROW),
	C(ACL_DVPP_CSC_MATRIX_BT2020_WIDE), C(ACL_DVPP_CSC_MATRIX_BT2020_NARROW),
	C(ACL_YUVOUT_ALIGN_DOWN), C(ACL_YUVOUT_ALIGN_UP), C(ACL_YUVOUT_ALIGN_DOWN_COMPAT),
#undef C
};

static struct PyModuleDef media_def = {
	PyModuleDef_HEAD_INIT, "acl.media",
	"pyACL's acl.media: DVPP (VPC, JPEG/PNG codecs, VDEC, VENC) over libascendcl.",
	-1, media_methods, NULL, NULL, NULL, NULL,
};

PyObject *acl_media_module(void)
{
	PyObject *m;
	size_t i;

	if (!live && !(live = PyDict_New()))
		return NULL;
	if (!vdec_cbs && !(vdec_cbs = PyDict_New()))
		return NULL;
	if (!venc_cbs && !(venc_cbs = PyDict_New()))
		return NULL;
	m = PyModule_Create(&media_def);
	if (!m)
		return NULL;
	for (i = 0; i < sizeof(media_constants) / sizeof(media_constants[0]); i++)
		if (PyModule_AddIntConstant(m, media_constants[i].name,
					    media_constants[i].value) < 0) {
			Py_DECREF(m);
			return NULL;
		}
	return m;
}
