// SPDX-License-Identifier: MIT
/*
 * --input_values (a vnpu extension): graph inputs given a value at compile
 * time. atc compiles static shapes, and ONNX graphs often feed shape-like
 * operands (Reshape's shape, Slice's starts, TopK's K, Clip's bounds) as
 * graph inputs; freezing such an input turns it into an initializer, so
 * the model compiled no longer has that input. The value comes from a
 * serialized TensorProto, the form ONNX's test data uses.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input_values.h"

/* A serialized TensorProto: one value is at most this large. */
#define VALUE_MAX_BYTES (256u << 20)

static Onnx__TensorProto *load_tensor(const char *path, char *err, size_t errlen)
{
	Onnx__TensorProto *t = NULL;
	uint8_t *buf = NULL;
	FILE *f = fopen(path, "rb");
	long size;

	if (!f) {
		snprintf(err, errlen, "--input_values: cannot open %s: %s", path,
			 strerror(errno));
		return NULL;
	}
	if (fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET) || (unsigned long)size > VALUE_MAX_BYTES) {
		snprintf(err, errlen, "--input_values: cannot read %s (or larger than %u bytes)",
			 path, VALUE_MAX_BYTES);
		goto out;
	}
	buf = malloc(size ? (size_t)size : 1);
	if (!buf || fread(buf, 1, (size_t)size, f) != (size_t)size) {
		snprintf(err, errlen, "--input_values: cannot read %s", path);
		goto out;
	}
	t = onnx__tensor_proto__unpack(NULL, (size_t)size, buf);
	if (!t)
		snprintf(err, errlen, "--input_values: %s is not a TensorProto", path);
out:
	free(buf);
	fclose(f);
	return t;
}

/* The graph input named name, or -1. */
static int find_input(const Onnx__GraphProto *gp, const char *name)
{
	size_t i;

	for (i = 0; i < gp->n_input; i++)
		if (gp->input[i] && gp->input[i]->name &&
		    !strcmp(gp->input[i]->name, name))
			return (int)i;
	return -1;
}

/* t's dims against the input's declared shape (symbolic dims match any). */
static bool dims_fit(const Onnx__ValueInfoProto *v, const Onnx__TensorProto *t)
{
	const Onnx__TensorShapeProto *sh;
	size_t i;

	if (!v->type || !v->type->tensor_type || !v->type->tensor_type->shape)
		return true;
	sh = v->type->tensor_type->shape;
	if (sh->n_dim != t->n_dims)
		return false;
	for (i = 0; i < sh->n_dim; i++)
		if (sh->dim[i]->value_case ==
		    ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE &&
		    sh->dim[i]->dim_value != t->dims[i])
			return false;
	return true;
}

/* Input i of gp becomes initializer t (named after it); 0 or -1. */
static int freeze(Onnx__GraphProto *gp, size_t i, Onnx__TensorProto *t,
		  char *err, size_t errlen)
{
	const Onnx__ValueInfoProto *v = gp->input[i];
	Onnx__TensorProto **inits;
	char *name;

	if (v->type && v->type->tensor_type &&
	    v->type->tensor_type->elem_type != t->data_type) {
		snprintf(err, errlen,
			 "--input_values: %s holds ONNX data type %d, the model's input has %d",
			 v->name, (int)t->data_type,
			 (int)v->type->tensor_type->elem_type);
		return -1;
	}
	if (!dims_fit(v, t)) {
		char dims[128];
		size_t k, used = 0;

		dims[0] = '\0';
		for (k = 0; k < t->n_dims && used < sizeof(dims); k++)
			used += (size_t)snprintf(dims + used, sizeof(dims) - used, "%s%lld",
						 k ? "," : "", (long long)t->dims[k]);
		snprintf(err, errlen,
			 "--input_values: %s: the value's dims [%s] are not the input's",
			 v->name, dims);
		return -1;
	}
	name = strdup(v->name);
	inits = realloc(gp->initializer,
			(gp->n_initializer + 1) * sizeof(*inits));
	if (!name || !inits) {
		free(name);
		if (inits)
			gp->initializer = inits;
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	free(t->name);
	t->name = name;
	gp->initializer = inits;
	inits[gp->n_initializer++] = t;
	onnx__value_info_proto__free_unpacked(gp->input[i], NULL);
	memmove(&gp->input[i], &gp->input[i + 1],
		(gp->n_input - i - 1) * sizeof(gp->input[0]));
	gp->n_input--;
	return 0;
}

int atc_apply_input_values(Onnx__ModelProto *m, const char *spec,
			   char *err, size_t errlen)
{
	char *copy, *item, *save = NULL;
	int ret = -1;

	if (!spec)
		return 0;
	copy = strdup(spec);
	if (!copy) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (item = strtok_r(copy, ";", &save); item;
	     item = strtok_r(NULL, ";", &save)) {
		char *colon = strrchr(item, ':');
		Onnx__TensorProto *t;
		int i;

		if (!colon || colon == item || !colon[1]) {
			snprintf(err, errlen, "--input_values: '%s' is not name:file.pb",
				 item);
			goto out;
		}
		*colon = '\0';
		i = find_input(m->graph, item);
		if (i < 0) {
			snprintf(err, errlen,
				 "--input_values: the model has no input named %s",
				 item);
			goto out;
		}
		t = load_tensor(colon + 1, err, errlen);
		if (!t)
			goto out;
		if (freeze(m->graph, (size_t)i, t, err, errlen)) {
			onnx__tensor_proto__free_unpacked(t, NULL);
			goto out;
		}
	}
	ret = 0;
out:
	free(copy);
	return ret;
}
