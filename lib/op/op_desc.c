// SPDX-License-Identifier: MIT
/*
 * An aclop call's arguments as a single-op description: what atc wrote
 * into a model's key is computed here the same way (sop_key), so a call
 * finds its model by plain key equality.
 */
#include <string.h>

#include "../core/entry_check.h"
#include "../core/tensor_desc.h"
#include "op.h"

/*
 * The values of a small int32/int64 constant (aclSetTensorConst) join
 * the description, as atc's "const_value" does: Slice's offsets and size
 * select different models.
 */
static aclError const_values(const aclTensorDesc *t, struct sop_tensor *out)
{
	size_t es = out->dtype == ACL_INT64 ? 8 : out->dtype == ACL_INT32 ? 4 : 0;
	size_t n = es ? t->const_len / es : 0, i;

	out->nconst = 0;
	if (!t->const_data || !n || n > SOP_MAX_RANK || n * es != t->const_len)
		return ACL_SUCCESS;
	for (i = 0; i < n; i++) {
		if (es == 8) {
			memcpy(&out->cval[i], (const char *)t->const_data + i * 8, 8);
		} else {
			int32_t v;

			memcpy(&v, (const char *)t->const_data + i * 4, 4);
			out->cval[i] = v;
		}
	}
	out->nconst = (int)n;
	return ACL_SUCCESS;
}

static aclError one_tensor(const char *func, const aclTensorDesc *t,
			   const char *what, int k, struct sop_tensor *out)
{
	size_t n;

	if (!t)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "%s[%d] must not be NULL", what, k);
	n = tensor_desc_num_dims(t);
	if (n > SOP_MAX_RANK)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "%s[%d]: single ops take ranks 0..%d with known dims",
				   what, k, SOP_MAX_RANK);
	out->dtype = tensor_desc_dtype(t);
	out->format = tensor_desc_format(t);
	out->rank = (int)n;
	for (size_t i = 0; i < n; i++) {
		if (tensor_desc_dim("aclGetTensorDescDimV2", t, i,
				    &out->dims[i]) || out->dims[i] < 0)
			return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
					   "%s[%d]: dim %zu is unknown (single ops have static shapes)",
					   what, k, i);
	}
	return const_values(t, out);
}

aclError op_desc_make(const char *func, const char *type, int nin,
		      const aclTensorDesc *const in[], int nout,
		      const aclTensorDesc *const out[], const aclopAttr *attr,
		      struct sop_desc *d)
{
	aclError e = ACL_SUCCESS;

	memset(d, 0, sizeof(*d));
	if (!type || !*type || strlen(type) >= sizeof(d->type))
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "opType must be a non-empty name");
	if (nin < 0 || nin > SOP_MAX_IO || nout < 0 || nout > SOP_MAX_IO)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "numInputs %d and numOutputs %d must be 0..%d",
				   nin, nout, SOP_MAX_IO);
	if ((nin && !in) || (nout && !out))
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "the tensor description arrays must not be NULL");
	strcpy(d->type, type);
	d->nin = nin;
	d->nout = nout;
	for (int k = 0; !e && k < nin; k++)
		e = one_tensor(func, in[k], "inputDesc", k, &d->in[k]);
	for (int k = 0; !e && k < nout; k++)
		e = one_tensor(func, out[k], "outputDesc", k, &d->out[k]);
	if (!e && attr) {
		memcpy(d->attrs, attr->a, sizeof(attr->a[0]) * (size_t)attr->n);
		d->nattrs = attr->n;
	}
	return e;
}

void op_desc_drop(struct sop_desc *d)
{
	d->nattrs = 0;
}
