// SPDX-License-Identifier: MIT
/*
 * atc --singleop: CANN's op description list (a JSON array of objects
 * with "op", "input_desc", "output_desc" and "attr") to one single-op
 * .om per description in the output directory. Files are named as CANN
 * names them (index, op type, then dtype, format and dims of every
 * tensor); libacl finds a model by the key inside, not by its name.
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <drm/vnpu_accel.h>

#include "compile/compile.h"

struct name_val {
	const char *name;
	int val;
};

static const struct name_val dtypes[] = {
	{ "float", 0 }, { "float32", 0 }, { "float16", 1 }, { "int8", 2 },
	{ "int32", 3 }, { "uint8", 4 }, { "int16", 6 }, { "uint16", 7 },
	{ "uint32", 8 }, { "int64", 9 }, { "uint64", 10 }, { "double", 11 },
	{ "bool", 12 }, { "bfloat16", 27 },
	/* and GE's DT_ name of every dtype */
#define GE_NAME(NAME, ...) { "DT_" #NAME, DRM_VNPU_DTYPE_##NAME },
#define VNPU_DTYPE GE_NAME
#include "../../kernel/ops/vnpu_dtypes.def"
	{ NULL, 0 },
};

static const struct name_val formats[] = {
	{ "NCHW", 0 }, { "NHWC", 1 }, { "ND", 2 }, { "HWCN", 16 }, { NULL, 0 },
};

static const struct name_val kinds[] = {
	{ "bool", SOP_BOOL }, { "int", SOP_INT }, { "float", SOP_FLOAT },
	{ "string", SOP_STRING }, { "data_type", SOP_DTYPE },
	{ "list_bool", SOP_LIST_BOOL }, { "list_int", SOP_LIST_INT },
	{ "list_float", SOP_LIST_FLOAT }, { "list_string", SOP_LIST_STRING },
	{ "list_data_type", SOP_LIST_DTYPE },
	{ "list_list_int", SOP_LIST_LIST_INT }, { NULL, 0 },
};

static int lookup(const struct name_val *t, const char *s)
{
	for (; t->name; t++)
		if (!strcmp(t->name, s))
			return t->val;
	return -1;
}

struct ctx {
	const char *path;
	int index;
	char *err;
	size_t errlen;
};

#define FAIL(c, ...) (snprintf((c)->err, (c)->errlen, __VA_ARGS__), -1)

static const char *get_str(json_object *o, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

/*
 * "is_const": true with "const_value": an int input whose values are
 * part of the description (Slice's offsets and size): up to
 * SOP_MAX_RANK ints, exactly as many as the shape holds.
 */
static int parse_const(struct ctx *c, json_object *o, struct sop_tensor *t,
		       const char *what, int k)
{
	json_object *isc, *val;
	int64_t count = 1;
	size_t i, n;

	t->nconst = 0;
	if (!json_object_object_get_ex(o, "is_const", &isc) ||
	    !json_object_get_boolean(isc))
		return 0;
	if (!json_object_object_get_ex(o, "const_value", &val) ||
	    !json_object_is_type(val, json_type_array))
		return FAIL(c, "%s[%d]: %s %d: is_const needs a const_value array",
			    c->path, c->index, what, k);
	n = json_object_array_length(val);
	for (i = 0; i < (size_t)t->rank; i++)
		count *= t->dims[i];
	if (t->dtype != 3 && t->dtype != 9)
		return FAIL(c, "%s[%d]: %s %d: constant inputs must be int32 or int64",
			    c->path, c->index, what, k);
	if (!n || n > SOP_MAX_RANK || (int64_t)n != count)
		return FAIL(c, "%s[%d]: %s %d: const_value must hold the shape's %lld values (1..%d)",
			    c->path, c->index, what, k, (long long)count,
			    SOP_MAX_RANK);
	for (i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(val, i);

		if (!json_object_is_type(e, json_type_int))
			return FAIL(c, "%s[%d]: %s %d: const_value %zu is not an integer",
				    c->path, c->index, what, k, i);
		t->cval[i] = json_object_get_int64(e);
	}
	t->nconst = (int)n;
	return 0;
}

static int parse_tensor(struct ctx *c, json_object *o, struct sop_tensor *t,
			const char *what, int k)
{
	const char *type = get_str(o, "type"), *fmt = get_str(o, "format");
	json_object *shape;
	size_t i, n;

	t->dtype = type ? lookup(dtypes, type) : -1;
	t->format = fmt ? lookup(formats, fmt) : -1;
	if (t->dtype < 0)
		return FAIL(c, "%s[%d]: %s %d: type '%s' is not supported",
			    c->path, c->index, what, k, type ? type : "(missing)");
	if (t->format < 0)
		return FAIL(c, "%s[%d]: %s %d: format '%s' is not supported (ND, NCHW, NHWC, HWCN)",
			    c->path, c->index, what, k, fmt ? fmt : "(missing)");
	if (!json_object_object_get_ex(o, "shape", &shape) ||
	    !json_object_is_type(shape, json_type_array))
		return FAIL(c, "%s[%d]: %s %d: shape must be an array",
			    c->path, c->index, what, k);
	n = json_object_array_length(shape);
	if (n > SOP_MAX_RANK)
		return FAIL(c, "%s[%d]: %s %d: rank %zu is above %d", c->path,
			    c->index, what, k, n, SOP_MAX_RANK);
	t->rank = (int)n;
	for (i = 0; i < n; i++) {
		json_object *d = json_object_array_get_idx(shape, i);

		if (!json_object_is_type(d, json_type_int) ||
		    json_object_get_int64(d) < 0)
			return FAIL(c, "%s[%d]: %s %d: dim %zu must be a non-negative integer (single-op models have static shapes)",
				    c->path, c->index, what, k, i);
		t->dims[i] = json_object_get_int64(d);
	}
	return parse_const(c, o, t, what, k);
}

static int parse_tensors(struct ctx *c, json_object *op, const char *key,
			 struct sop_tensor *t, int *n, int required)
{
	json_object *arr;
	size_t i, len;

	if (!json_object_object_get_ex(op, key, &arr)) {
		*n = 0;
		return required ? FAIL(c, "%s[%d]: %s is missing", c->path,
				       c->index, key) : 0;
	}
	if (!json_object_is_type(arr, json_type_array))
		return FAIL(c, "%s[%d]: %s must be an array", c->path, c->index, key);
	len = json_object_array_length(arr);
	if (len > SOP_MAX_IO)
		return FAIL(c, "%s[%d]: more than %d entries in %s", c->path,
			    c->index, SOP_MAX_IO, key);
	for (i = 0; i < len; i++)
		if (parse_tensor(c, json_object_array_get_idx(arr, i), &t[i], key,
				 (int)i))
			return -1;
	*n = (int)len;
	return 0;
}

/* A scalar of the attribute's kind into a 64-bit int (bool/int/dtype). */
static int scalar_int(json_object *v, int kind, int64_t *out)
{
	if (kind == SOP_BOOL || kind == SOP_LIST_BOOL) {
		if (!json_object_is_type(v, json_type_boolean))
			return -1;
		*out = json_object_get_boolean(v);
		return 0;
	}
	if ((kind == SOP_DTYPE || kind == SOP_LIST_DTYPE) &&
	    json_object_is_type(v, json_type_string)) {
		*out = lookup(dtypes, json_object_get_string(v));
		return *out < 0 ? -1 : 0;
	}
	if (!json_object_is_type(v, json_type_int))
		return -1;
	*out = json_object_get_int64(v);
	return 0;
}

static int parse_list(struct sop_attr *a, json_object *v)
{
	size_t n = json_object_array_length(v), i, total = 0, at = 0;

	a->count = (int)n;
	if (a->kind == SOP_LIST_LIST_INT) {
		a->lens = calloc(n + 1, sizeof(int));
		for (i = 0; a->lens && i < n; i++) {
			json_object *l = json_object_array_get_idx(v, i);

			if (!json_object_is_type(l, json_type_array))
				return -1;
			a->lens[i] = (int)json_object_array_length(l);
			total += (size_t)a->lens[i];
		}
		a->ints = calloc(total + 1, sizeof(int64_t));
		if (!a->lens || !a->ints)
			return -1;
		for (i = 0; i < n; i++) {
			json_object *l = json_object_array_get_idx(v, i);

			for (int k = 0; k < a->lens[i]; k++)
				if (scalar_int(json_object_array_get_idx(l, (size_t)k),
					       SOP_INT, &a->ints[at++]))
					return -1;
		}
		return 0;
	}
	if (a->kind == SOP_LIST_FLOAT) {
		a->floats = calloc(n + 1, sizeof(float));
		for (i = 0; a->floats && i < n; i++) {
			json_object *e = json_object_array_get_idx(v, i);

			if (!json_object_is_type(e, json_type_double) &&
			    !json_object_is_type(e, json_type_int))
				return -1;
			a->floats[i] = (float)json_object_get_double(e);
		}
		return a->floats ? 0 : -1;
	}
	if (a->kind == SOP_LIST_STRING) {
		a->strs = calloc(n + 1, sizeof(char *));
		for (i = 0; a->strs && i < n; i++) {
			json_object *e = json_object_array_get_idx(v, i);

			if (!json_object_is_type(e, json_type_string))
				return -1;
			a->strs[i] = strdup(json_object_get_string(e));
			if (!a->strs[i])
				return -1;
		}
		return a->strs ? 0 : -1;
	}
	a->ints = calloc(n + 1, sizeof(int64_t));
	for (i = 0; a->ints && i < n; i++)
		if (scalar_int(json_object_array_get_idx(v, i), a->kind, &a->ints[i]))
			return -1;
	return a->ints ? 0 : -1;
}

static int parse_attr(struct ctx *c, json_object *o, struct sop_attr *a)
{
	const char *name = get_str(o, "name"), *type = get_str(o, "type");
	json_object *v;
	int bad;

	if (!name || !type)
		return FAIL(c, "%s[%d]: an attr needs a name and a type", c->path,
			    c->index);
	a->name = strdup(name);
	a->kind = lookup(kinds, type);
	if (!a->name || a->kind < 0)
		return FAIL(c, "%s[%d]: attr %s: type '%s' is not known", c->path,
			    c->index, name, type);
	if (!json_object_object_get_ex(o, "value", &v))
		return FAIL(c, "%s[%d]: attr %s has no value", c->path, c->index, name);
	switch (a->kind) {
	case SOP_FLOAT:
		bad = !json_object_is_type(v, json_type_double) &&
		      !json_object_is_type(v, json_type_int);
		a->f = (float)json_object_get_double(v);
		break;
	case SOP_STRING:
		bad = !json_object_is_type(v, json_type_string);
		a->s = strdup(bad ? "" : json_object_get_string(v));
		bad |= !a->s;
		break;
	case SOP_BOOL:
	case SOP_INT:
	case SOP_DTYPE:
		bad = scalar_int(v, a->kind, &a->i);
		break;
	default:
		bad = !json_object_is_type(v, json_type_array) || parse_list(a, v);
	}
	return bad ? FAIL(c, "%s[%d]: attr %s: the value is not a %s", c->path,
			  c->index, name, type) : 0;
}

static int parse_op(struct ctx *c, json_object *op, struct sop_desc *d)
{
	const char *type = get_str(op, "op");
	json_object *attrs;
	size_t i, n;

	memset(d, 0, sizeof(*d));
	if (!json_object_is_type(op, json_type_object) || !type ||
	    strlen(type) >= sizeof(d->type))
		return FAIL(c, "%s[%d]: needs a string \"op\"", c->path, c->index);
	strcpy(d->type, type);
	if (parse_tensors(c, op, "input_desc", d->in, &d->nin, 0) ||
	    parse_tensors(c, op, "output_desc", d->out, &d->nout, 1))
		return -1;
	if (!json_object_object_get_ex(op, "attr", &attrs))
		return 0;
	if (!json_object_is_type(attrs, json_type_array))
		return FAIL(c, "%s[%d]: attr must be an array", c->path, c->index);
	n = json_object_array_length(attrs);
	if (n > SOP_MAX_ATTRS)
		return FAIL(c, "%s[%d]: more than %d attrs", c->path, c->index,
			    SOP_MAX_ATTRS);
	for (i = 0; i < n; i++) {
		d->nattrs++;
		if (parse_attr(c, json_object_array_get_idx(attrs, i),
			       &d->attrs[i]))
			return -1;
	}
	return 0;
}

/* "<index>_<op>_<dtype>_<format>_<dims>..." as CANN names them. */
static void file_name(const struct sop_desc *d, int index, char *buf, size_t len)
{
	size_t off = (size_t)snprintf(buf, len, "%d_%s", index, d->type);
	int k, i;

	for (k = 0; k < d->nin + d->nout && off < len; k++) {
		const struct sop_tensor *t = k < d->nin ? &d->in[k] : &d->out[k - d->nin];

		off += (size_t)snprintf(buf + off, len - off, "_%d_%d", t->dtype,
					t->format);
		for (i = 0; i < t->rank && off < len; i++)
			off += (size_t)snprintf(buf + off, len - off, "_%lld",
						(long long)t->dims[i]);
	}
	if (off < len)
		snprintf(buf + off, len - off, ".om");
}

static int write_file(const char *path, const uint8_t *img, size_t len)
{
	FILE *f = fopen(path, "wb");
	int ok;

	if (!f)
		return -1;
	ok = fwrite(img, 1, len, f) == len;
	if (fclose(f) || !ok) {
		remove(path);
		return -1;
	}
	return 0;
}

/* Exit statuses as atc_compile.h's (0 ok, 1 bad input, 3 IO, 4 unsupported). */
int sop_compile_json(const char *json_path, const char *out_dir, int verbose)
{
	char err[1024], name[1024], path[4096];
	json_object *root = json_object_from_file(json_path);
	struct ctx c = { json_path, 0, err, sizeof(err) };
	int ret = 0;
	size_t i, n;

	if (!root) {
		fprintf(stderr, "atc: %s: %s\n", json_path, json_util_get_last_err());
		return 1;
	}
	if (!json_object_is_type(root, json_type_array) ||
	    !json_object_array_length(root)) {
		fprintf(stderr, "atc: %s: expected a non-empty array of op descriptions\n",
			json_path);
		json_object_put(root);
		return 1;
	}
	if (mkdir(out_dir, 0755) && errno != EEXIST) {
		fprintf(stderr, "atc: %s: %s\n", out_dir, strerror(errno));
		json_object_put(root);
		return 3;
	}
	n = json_object_array_length(root);
	for (i = 0; i < n && !ret; i++) {
		struct sop_desc d;
		uint8_t *img = NULL;
		size_t len = 0;
		int r;

		c.index = (int)i;
		r = parse_op(&c, json_object_array_get_idx(root, i), &d);
		if (r) {
			fprintf(stderr, "atc: %s\n", err);
			ret = 1;
		} else {
			r = sop_compile(&d, &img, &len, err, sizeof(err));
			if (r)
				fprintf(stderr, "atc: %s[%zu]: %s\n", json_path, i, err);
			ret = r == SOP_EUNSUPPORTED ? 4 : r == SOP_ENOMEM ? 3 :
			      r ? 1 : 0;
		}
		if (!ret) {
			file_name(&d, (int)i, name, sizeof(name));
			snprintf(path, sizeof(path), "%s/%s", out_dir, name);
			if (write_file(path, img, len)) {
				fprintf(stderr, "atc: %s: %s\n", path, strerror(errno));
				ret = 3;
			} else if (verbose) {
				printf("atc: %s: %s\n", path, d.type);
			}
		}
		free(img);
		sop_desc_free(&d);
	}
	if (!ret)
		printf("atc: %zu single-op model%s written to %s\n", n,
		       n == 1 ? "" : "s", out_dir);
	json_object_put(root);
	return ret;
}
