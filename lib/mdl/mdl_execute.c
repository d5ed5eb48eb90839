// SPDX-License-Identifier: MIT
/*
 * aclmdlExecuteAsync, aclmdlExecute and aclmdlSetDynamicBatchSize. The
 * checks are all on the host: the model is loaded and its device still
 * open and current, the datasets have one buffer per input and output,
 * in device memory of the model's device and at least as large as the
 * chosen variant needs; then mdl_run.c submits.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../aicpu/aicpu.h"
#include "../core/data_buffer.h"
#include "../core/device_io.h"
#include "../core/entry_check.h"
#include "../core/tensor_desc.h"
#include "mdl_api.h"
#include "model_dump.h"
#include "../core/prof_rt.h"

/* Device addresses of a dataset's buffers for n bound records of io. */
static aclError bind_buffers(const char *func, struct mdl_model *m,
			     const aclmdlDataset *ds, uint32_t first, uint32_t n,
			     const struct mdl_variant *v, uint64_t *va,
			     const char *what)
{
	for (uint32_t i = 0; i < n; i++) {
		const aclDataBuffer *b = ds->buf[i];
		uint64_t need = v->io_size[first + i];

		if (!b || !b->data)
			return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
					   "%s buffer %u is missing", what, i);
		if (b->size < need)
			return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
					   "%s buffer %u has %zu bytes, \"%s\" needs %llu",
					   what, i, b->size, m->io[first + i].name,
					   (unsigned long long)need);
		va[i] = mdl_dev_va(m->dev, b->data, need);
		if (!va[i])
			return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
					   "%s buffer %u (%p) is not memory of device %d",
					   what, i, b->data, m->dev->id);
	}
	return ACL_SUCCESS;
}

/*
 * A dynamic output reports its real dims through the output dataset's
 * tensor desc (as CANN does): one is made, owned by the dataset, where
 * the caller set none.
 */
static aclError dynamic_descs(const char *func, const struct mdl_model *m,
			      aclmdlDataset *out)
{
	for (uint32_t i = 0; i < m->nout && i < 64; i++) {
		const struct mdl_io *io = &m->io[m->nin + i];

		if (!(io->flags & OM_IO_DYNAMIC) || out->desc[i])
			continue;
		/* Failures are recorded under the public name, as before. */
		out->desc[i] = tensor_desc_create("aclCreateTensorDesc",
						  (aclDataType)io->dtype,
						  (int)io->rank, io->dims,
						  (aclFormat)io->format);
		if (!out->desc[i])
			return acl_fail_at(func, ACL_ERROR_BAD_ALLOC, "out of host memory");
		out->own |= 1ull << i;
	}
	return ACL_SUCCESS;
}

/*
 * String inputs of a synchronous execution: every head must point inside
 * its buffer (the layout of om_format.h), else the call fails before any
 * work. The stream is drained first, so a copy queued to the input has
 * landed. An asynchronous execution cannot read the input yet: there the
 * host node checks the heads and a bad one fails the job.
 */
static aclError check_string_inputs(const char *func, struct mdl_model *m,
				    struct rt_stream *s,
				    const struct mdl_variant *v,
				    const uint64_t *va)
{
	bool any = false;

	for (uint32_t i = 0; i < m->nin; i++)
		any |= m->io[i].dtype == OM_DTYPE_STRING;
	if (!any)
		return ACL_SUCCESS;
	if (stream_sync(s, -1))
		return acl_fail_at(func, ACL_ERROR_RT_WAIT_TIMEOUT,
				   "the stream failed before the model ran");
	for (uint32_t i = 0; i < m->nin; i++) {
		uint64_t cap = v->io_size[i];
		int64_t n = (int64_t)(cap / OM_STRING_ELEM_BYTES), bad;
		void *heads;

		if (m->io[i].dtype != OM_DTYPE_STRING || !n)
			continue;
		heads = malloc((size_t)n * AICPU_STR_HEAD);
		if (!heads)
			return acl_fail_at(func, ACL_ERROR_BAD_ALLOC, "out of host memory");
		if (device_copy(m->dev, (uintptr_t)heads, va[i],
			       (uint64_t)n * AICPU_STR_HEAD, DRM_VNPU_MEMCPY_SRC_DEVICE)) {
			free(heads);
			return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
					   "input %u cannot be read", i);
		}
		/* the heads alone: cap bounds where they may point */
		bad = aicpu_str_bad_head(heads, cap, n);
		free(heads);
		if (bad >= 0)
			return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
					   "input %u (\"%s\"): string %lld points outside the %llu-byte buffer",
					   i, m->io[i].name, (long long)bad,
					   (unsigned long long)cap);
	}
	return ACL_SUCCESS;
}

static aclError execute(const char *func, uint32_t id, const aclmdlDataset *in,
			aclmdlDataset *out, aclrtStream stream, bool sync)
{
	uint64_t in_va[OM_MAX_IO], out_va[OM_MAX_IO], t0;
	struct mdl_variant *v;
	struct mdl_model *m;
	struct rt_stream *s;
	aclError e;
	int ret;

	RT_REQUIRE_INIT();
	if (model_get(id, &m))
		return mdl_id_error(func, id);
	e = rt_stream_arg(func, stream, &s);
	if (e)
		goto out;
	if (model_stale(m) || s->ctx->dev != m->dev) {
		e = acl_fail_at(func, ACL_ERROR_RT_MODEL_CONTEXT,
				model_stale(m) ?
				"model %u was loaded on device %d, which has been reset since" :
				"model %u belongs to device %d, not to the current one",
				id, m->dev->id);
		goto out;
	}
	if (!in || !out) {
		e = acl_fail_at(func, ACL_ERROR_INVALID_PARAM, "input and output must not be NULL");
		goto out;
	}
	if (in->n != m->nin + m->dynamic || out->n != m->nout) {
		e = acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				"the datasets have %zu inputs and %zu outputs, the model %u and %u",
				in->n, out->n, m->nin + m->dynamic, m->nout);
		goto out;
	}
	v = model_variant(m, m->dynamic ? in->batch : 0);
	if (!v) {
		e = acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				"no batch size was set for dynamic-batch model %u (aclmdlSetDynamicBatchSize)",
				id);
		goto out;
	}
	e = bind_buffers(func, m, in, 0, m->nin, v, in_va, "input");
	if (!e)
		e = bind_buffers(func, m, out, m->nin, m->nout, v, out_va, "output");
	if (e)
		goto out;
	if (sync)
		e = check_string_inputs(func, m, s, v, in_va);
	if (e)
		goto out;
	e = dynamic_descs(func, m, out);
	if (e)
		goto out;
	t0 = prof_rt_now();
	ret = model_run(m, v, s, in_va, out_va, out);
	if (!ret && v->dump)
		ret = model_dump_after(m, v, s);	/* waits for the job */
	if (!ret && sync)
		ret = stream_sync(s, -1);
	if (!ret && prof_rt_on(~0ull)) {
		char name[32];

		snprintf(name, sizeof(name), "model_%u", id);
		prof_rt_model(id, name, m->dev->id, s->queue_id, t0);
	}
	if (ret)
		e = rt_error_at(func, ret, ACL_ERROR_RT_WAIT_TIMEOUT, "executing the model");
out:
	model_put(m);
	return e;
}

aclError aclmdlExecuteAsync(uint32_t modelId, const aclmdlDataset *input,
			    aclmdlDataset *output, aclrtStream stream)
{
	PROF_API();
	return execute(__func__, modelId, input, output, stream, false);
}

aclError aclmdlExecute(uint32_t modelId, const aclmdlDataset *input,
		       aclmdlDataset *output)
{
	PROF_API();
	return execute(__func__, modelId, input, output, NULL, true);
}

aclError aclmdlSetDynamicBatchSize(uint32_t modelId, aclmdlDataset *dataset,
				   size_t index, uint64_t batchSize)
{
	PROF_API();
	struct mdl_model *m;
	aclError e = ACL_SUCCESS;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(dataset);
	if (model_get(modelId, &m))
		return mdl_id_error(__func__, modelId);
	if (!m->dynamic)
		e = acl_fail(ACL_ERROR_MODEL_NOT_DYNAMIC,
			     "model %u was not built with dynamic batch sizes", modelId);
	else if (index != m->nin)
		e = acl_fail(ACL_ERROR_INVALID_PARAM,
			     "index %zu is not the input %s (%u)", index,
			     ACL_DYNAMIC_TENSOR_NAME, m->nin);
	else if (batchSize > UINT32_MAX || !batchSize ||
		 !model_variant(m, (uint32_t)batchSize))
		e = acl_fail(ACL_ERROR_INVALID_PARAM,
			     "model %u has no variant of batch size %llu", modelId,
			     (unsigned long long)batchSize);
	if (!e) {
		dataset->batch = (uint32_t)batchSize;
		m->cur_batch = (uint32_t)batchSize;
	}
	model_put(m);
	return e;
}
