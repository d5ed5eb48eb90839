// SPDX-License-Identifier: MIT
/*
 * aclmdlDesc: a copy of a loaded model's inputs and outputs (names, dims,
 * dtypes, formats, sizes) and batch sizes, readable after the model is
 * unloaded. For a dynamic-batch model, aclmdlGetInputDims reports the
 * batch dimension as -1 (it varies), aclmdlGetInputDimsV2 and
 * aclmdlGetOutputDims the largest batch, aclmdlGetCurOutputDims the batch
 * last set with aclmdlSetDynamicBatchSize.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/entry_check.h"
#include "mdl_api.h"
#include "../core/prof_rt.h"

aclError mdl_id_error(const char *func, uint32_t id)
{
	return acl_fail_at(func, ACL_ERROR_INVALID_MODEL_ID, "model %u is not loaded", id);
}

aclmdlDesc *aclmdlCreateDesc(void)
{
	PROF_API();
	aclmdlDesc *d = calloc(1, sizeof(*d));

	if (!d)
		acl_fail(ACL_ERROR_BAD_ALLOC, "out of host memory");
	return d;
}

aclError aclmdlDestroyDesc(aclmdlDesc *modelDesc)
{
	PROF_API();
	RT_REQUIRE_ARG(modelDesc);
	free(modelDesc->io);
	free(modelDesc);
	return ACL_SUCCESS;
}

aclError aclmdlGetDesc(aclmdlDesc *modelDesc, uint32_t modelId)
{
	PROF_API();
	struct mdl_model *m;
	struct mdl_io *io;
	uint32_t nin;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(modelDesc);
	if (model_get(modelId, &m))
		return mdl_id_error(__func__, modelId);
	nin = m->nin + m->dynamic;
	io = calloc(nin + m->nout, sizeof(*io));
	if (!io) {
		model_put(m);
		return acl_fail(ACL_ERROR_BAD_ALLOC, "out of host memory");
	}
	memcpy(io, m->io, m->nin * sizeof(*io));
	memcpy(io + nin, m->io + m->nin, m->nout * sizeof(*io));
	if (m->dynamic) {
		struct mdl_io *dyn = &io[m->nin];

		snprintf(dyn->name, sizeof(dyn->name), "%s", ACL_DYNAMIC_TENSOR_NAME);
		dyn->dtype = MDL_DYN_DTYPE;
		dyn->format = ACL_FORMAT_ND;
		dyn->rank = 1;
		dyn->dims[0] = 1;
		dyn->size = MDL_DYN_SIZE;
	}
	free(modelDesc->io);
	modelDesc->io = io;
	modelDesc->model_id = modelId;
	modelDesc->nin = nin;
	modelDesc->nout = m->nout;
	modelDesc->dynamic = m->dynamic;
	modelDesc->nbatch = m->dynamic ? m->nvar : 0;
	for (uint32_t v = 0; v < modelDesc->nbatch; v++)
		modelDesc->batch[v] = m->var[v].batch;
	model_put(m);
	return ACL_SUCCESS;
}

size_t aclmdlGetNumInputs(aclmdlDesc *modelDesc)
{
	PROF_API();
	return modelDesc ? modelDesc->nin : 0;
}

size_t aclmdlGetNumOutputs(aclmdlDesc *modelDesc)
{
	PROF_API();
	return modelDesc ? modelDesc->nout : 0;
}

/* Record index of input (out false) or output (out true), or NULL. */
static const struct mdl_io *io_at(const aclmdlDesc *d, size_t index, bool out)
{
	if (!d || index >= (out ? d->nout : d->nin))
		return NULL;
	return &d->io[out ? d->nin + index : index];
}

size_t aclmdlGetInputSizeByIndex(aclmdlDesc *modelDesc, size_t index)
{
	PROF_API();
	const struct mdl_io *io = io_at(modelDesc, index, false);

	return io ? io->size : 0;
}

size_t aclmdlGetOutputSizeByIndex(aclmdlDesc *modelDesc, size_t index)
{
	PROF_API();
	const struct mdl_io *io = io_at(modelDesc, index, true);

	return io ? io->size : 0;
}

static aclError dims_of(const char *func, const aclmdlDesc *d, size_t index,
			bool out, aclmdlIODims *dims, bool vary)
{
	const struct mdl_io *io = io_at(d, index, out);

	if (!d || !dims)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "modelDesc and dims must not be NULL");
	if (!io)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "index %zu is out of range (%u)", index,
				   out ? d->nout : d->nin);
	memset(dims, 0, sizeof(*dims));
	/* Names longer than aclmdlIODims holds are cut, as on CANN. */
	memcpy(dims->name, io->name, strnlen(io->name, sizeof(dims->name) - 1));
	dims->dimCount = io->rank;
	for (uint32_t k = 0; k < io->rank; k++)
		dims->dims[k] = io->dims[k];
	if (vary && (io->flags & OM_IO_BATCHED) && d->dynamic)
		dims->dims[0] = -1;
	return ACL_SUCCESS;
}

aclError aclmdlGetInputDims(const aclmdlDesc *modelDesc, size_t index, aclmdlIODims *dims)
{
	PROF_API();
	return dims_of(__func__, modelDesc, index, false, dims, true);
}

aclError aclmdlGetInputDimsV2(const aclmdlDesc *modelDesc, size_t index, aclmdlIODims *dims)
{
	PROF_API();
	return dims_of(__func__, modelDesc, index, false, dims, false);
}

aclError aclmdlGetOutputDims(const aclmdlDesc *modelDesc, size_t index, aclmdlIODims *dims)
{
	PROF_API();
	return dims_of(__func__, modelDesc, index, true, dims, false);
}

aclError aclmdlGetCurOutputDims(const aclmdlDesc *modelDesc, size_t index,
				aclmdlIODims *dims)
{
	PROF_API();
	struct mdl_variant *v;
	struct mdl_model *m;
	aclError e = dims_of(__func__, modelDesc, index, true, dims, false);
	bool host_dims;

	if (e)
		return e;
	host_dims = modelDesc->io[modelDesc->nin + index].flags & OM_IO_DYNAMIC;
	if (!modelDesc->dynamic && !host_dims)
		return e;
	if (model_get(modelDesc->model_id, &m))
		return mdl_id_error(__func__, modelDesc->model_id);
	v = model_variant(m, m->cur_batch);
	if (host_dims && m->cur_out && m->cur_out[index].rank) {
		/* the dims a host node wrote in the last execution */
		const struct om_dims *od = &m->cur_out[index];

		dims->dimCount = od->rank;
		for (uint32_t k = 0; k < od->rank; k++)
			dims->dims[k] = od->dims[k];
	} else if (v && modelDesc->dynamic) {
		const struct om_dims *od = &v->dims[m->nin + index];

		for (uint32_t k = 0; k < od->rank; k++)
			dims->dims[k] = od->dims[k];
	}
	model_put(m);
	return ACL_SUCCESS;
}

const char *aclmdlGetInputNameByIndex(const aclmdlDesc *modelDesc, size_t index)
{
	PROF_API();
	const struct mdl_io *io = io_at(modelDesc, index, false);

	return io ? io->name : NULL;
}

const char *aclmdlGetOutputNameByIndex(const aclmdlDesc *modelDesc, size_t index)
{
	PROF_API();
	const struct mdl_io *io = io_at(modelDesc, index, true);

	return io ? io->name : NULL;
}

aclFormat aclmdlGetInputFormat(const aclmdlDesc *modelDesc, size_t index)
{
	PROF_API();
	const struct mdl_io *io = io_at(modelDesc, index, false);

	return io ? (aclFormat)io->format : ACL_FORMAT_UNDEFINED;
}

aclFormat aclmdlGetOutputFormat(const aclmdlDesc *modelDesc, size_t index)
{
	PROF_API();
	const struct mdl_io *io = io_at(modelDesc, index, true);

	return io ? (aclFormat)io->format : ACL_FORMAT_UNDEFINED;
}

aclDataType aclmdlGetInputDataType(const aclmdlDesc *modelDesc, size_t index)
{
	PROF_API();
	const struct mdl_io *io = io_at(modelDesc, index, false);

	return io ? (aclDataType)io->dtype : ACL_DT_UNDEFINED;
}

aclDataType aclmdlGetOutputDataType(const aclmdlDesc *modelDesc, size_t index)
{
	PROF_API();
	const struct mdl_io *io = io_at(modelDesc, index, true);

	return io ? (aclDataType)io->dtype : ACL_DT_UNDEFINED;
}

static aclError index_by_name(const char *func, const aclmdlDesc *d,
			      const char *name, size_t *index, bool out)
{
	uint32_t n;

	if (!d || !name || !index)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "modelDesc, name and index must not be NULL");
	n = out ? d->nout : d->nin;
	for (uint32_t i = 0; i < n; i++)
		if (!strcmp(io_at(d, i, out)->name, name)) {
			*index = i;
			return ACL_SUCCESS;
		}
	return acl_fail_at(func, ACL_ERROR_INVALID_PARAM, "the model has no %s named \"%s\"",
			   out ? "output" : "input", name);
}

aclError aclmdlGetInputIndexByName(const aclmdlDesc *modelDesc, const char *name,
				   size_t *index)
{
	PROF_API();
	return index_by_name(__func__, modelDesc, name, index, false);
}

aclError aclmdlGetOutputIndexByName(const aclmdlDesc *modelDesc, const char *name,
				    size_t *index)
{
	PROF_API();
	return index_by_name(__func__, modelDesc, name, index, true);
}

aclError aclmdlGetDynamicBatch(const aclmdlDesc *modelDesc, aclmdlBatch *batch)
{
	PROF_API();
	if (!modelDesc || !batch)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"modelDesc and batch must not be NULL");
	memset(batch, 0, sizeof(*batch));
	batch->batchCount = modelDesc->nbatch;
	for (uint32_t v = 0; v < modelDesc->nbatch; v++)
		batch->batch[v] = modelDesc->batch[v];
	return ACL_SUCCESS;
}
