// SPDX-License-Identifier: MIT
/*
 * The single-op models of the process, keyed by their description. An
 * entry keeps its image; the model itself is loaded on a device the
 * first time a call runs it there (and again after a reset), through the
 * model runtime, so an op call is a model execution of one op.
 *
 * registry_lock guards the list and the per-device model ids; loading
 * happens under it (it allocates on the device, which takes the
 * device's lock: registry_lock comes first).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../core/data_buffer.h"
#include "../core/entry_check.h"
#include "../core/lifecycle.h"
#include "../mdl/model.h"
#include "op.h"

#define OP_MAX_DEVICES	64

struct op_entry {
	char *key;
	void *img;			/* 8-byte aligned copy */
	size_t len;
	uint32_t model[OP_MAX_DEVICES];	/* 0: not loaded on that device */
	struct op_entry *next;
};

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct op_entry *entries;
/* Replaced entries: calls and handles may still hold them until finalize. */
static struct op_entry *retired;

static void entry_free(struct op_entry *e)
{
	free(e->key);
	free(e->img);
	free(e);
}

aclError op_registry_add(const char *func, const void *img, size_t len,
			 const char *what)
{
	struct op_entry *e, **p;
	struct om_image om;
	char why[160];
	int ret;

	e = calloc(1, sizeof(*e));
	if (e)
		e->img = aligned_alloc(8, (len + 7) & ~(size_t)7);
	if (!e || !e->img) {
		free(e);
		return acl_fail_at(func, ACL_ERROR_BAD_ALLOC, "out of memory");
	}
	memcpy(e->img, img, len);
	e->len = len;
	ret = om_read(e->img, len, &om, why, sizeof(why));
	if (!ret && !om.op_key) {
		ret = OM_ERR_PARSE;
		strcpy(why, "it is a model, not a single-op model (no op key)");
	}
	if (ret) {
		entry_free(e);
		return acl_fail_at(func, ret == OM_ERR_FILE ? ACL_ERROR_INVALID_FILE :
				   ACL_ERROR_PARSE_MODEL, "%s: %s", what, why);
	}
	e->key = strdup(om.op_key);
	if (!e->key) {
		entry_free(e);
		return acl_fail_at(func, ACL_ERROR_BAD_ALLOC, "out of memory");
	}
	/* a second model of the same description replaces the first */
	pthread_mutex_lock(&registry_lock);
	for (p = &entries; *p; p = &(*p)->next)
		if (!strcmp((*p)->key, e->key))
			break;
	if (*p) {
		struct op_entry *old = *p;

		e->next = old->next;
		*p = e;
		old->next = retired;
		retired = old;
	} else {
		e->next = entries;
		entries = e;
	}
	pthread_mutex_unlock(&registry_lock);
	return ACL_SUCCESS;
}

/* How far key a matches b: 0 type, 1 inputs, 2 outputs, 3 attrs, 4 all. */
static int match_depth(const char *a, const char *b)
{
	int depth = 0;

	while (*a && *a == *b) {
		if (*a == '|')
			depth++;
		a++;
		b++;
	}
	return *a == *b ? 4 : depth;
}

struct op_entry *op_registry_find(const struct sop_desc *d, aclError *why)
{
	static const aclError codes[] = {
		ACL_ERROR_OP_NOT_FOUND, ACL_ERROR_OP_INPUT_NOT_MATCH,
		ACL_ERROR_OP_OUTPUT_NOT_MATCH, ACL_ERROR_OP_ATTR_NOT_MATCH,
	};
	char *key = malloc(SOP_KEY_MAX);
	struct op_entry *e, *found = NULL;
	int best = 0;

	*why = ACL_ERROR_OP_NOT_FOUND;
	if (!key || sop_key(d, key, SOP_KEY_MAX) < 0) {
		free(key);
		return NULL;
	}
	pthread_mutex_lock(&registry_lock);
	for (e = entries; e && !found; e = e->next) {
		int m = match_depth(key, e->key);

		if (m == 4)
			found = e;
		else if (m > best)
			best = m;
	}
	pthread_mutex_unlock(&registry_lock);
	free(key);
	if (!found)
		*why = codes[best];
	return found;
}

/* e's model on ctx's device, loading it there first when needed. */
static aclError entry_model(const char *func, struct op_entry *e,
			    struct rt_context *ctx, struct mdl_model **m)
{
	int dev = ctx->dev->id, ret = 0;
	struct om_image om;
	char why[160];

	if (dev < 0 || dev >= OP_MAX_DEVICES)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "device %d is beyond the single-op table", dev);
	pthread_mutex_lock(&registry_lock);
	if (e->model[dev] && model_get(e->model[dev], m) == 0) {
		if (!model_stale(*m) && (*m)->dev == ctx->dev) {
			pthread_mutex_unlock(&registry_lock);
			return ACL_SUCCESS;
		}
		model_put(*m);
		model_unload(e->model[dev]);
	}
	e->model[dev] = 0;
	ret = om_read(e->img, e->len, &om, why, sizeof(why));
	if (!ret)
		ret = model_load(ctx, &om, NULL, NULL, &e->model[dev], why, sizeof(why));
	if (!ret && model_get(e->model[dev], m))
		ret = -ENOENT;
	pthread_mutex_unlock(&registry_lock);
	if (ret)
		return rt_error_at(func, ret, ACL_ERROR_RT_WAIT_TIMEOUT,
				   "loading the single-op model");
	return ACL_SUCCESS;
}

static aclError bind(const char *func, struct mdl_model *m,
		     const aclDataBuffer *const b[], uint32_t first, uint32_t n,
		     const struct mdl_variant *v, uint64_t *va, const char *what)
{
	for (uint32_t i = 0; i < n; i++) {
		uint64_t need = v->io_size[first + i];

		if (!b[i] || (!b[i]->data && need))
			return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
					   "%s[%u] is missing", what, i);
		if (b[i]->size < need)
			return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
					   "%s[%u] has %zu bytes, the op needs %llu",
					   what, i, b[i]->size, (unsigned long long)need);
		va[i] = need ? mdl_dev_va(m->dev, b[i]->data, need) : 0;
		if (need && !va[i])
			return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
					   "%s[%u] (%p) is not memory of device %d",
					   what, i, b[i]->data, m->dev->id);
	}
	return ACL_SUCCESS;
}

aclError op_entry_run(const char *func, struct op_entry *e, int nin,
		      const aclDataBuffer *const in[], int nout,
		      aclDataBuffer *const out[], aclrtStream stream)
{
	uint64_t in_va[OM_MAX_IO], out_va[OM_MAX_IO];
	struct op_dump *dump;
	struct mdl_model *m;
	struct rt_stream *s;
	aclError err;
	int ret;

	err = rt_stream_arg(func, stream, &s);
	if (err)
		return err;
	if ((nin && !in) || (nout && !out))
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "the data buffer arrays must not be NULL");
	err = entry_model(func, e, s->ctx, &m);
	if (err)
		return err;
	if ((uint32_t)nin != m->nin || (uint32_t)nout != m->nout) {
		err = acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				  "%d inputs and %d outputs given, the op has %u and %u",
				  nin, nout, m->nin, m->nout);
		goto out;
	}
	err = bind(func, m, in, 0, m->nin, &m->var[0], in_va, "inputs");
	if (!err)
		err = bind(func, m, (const aclDataBuffer *const *)out, m->nin,
			   m->nout, &m->var[0], out_va, "outputs");
	if (err)
		goto out;
	dump = op_dump_begin(e->key, m, s, in_va);
	ret = model_run(m, &m->var[0], s, in_va, out_va, NULL);
	op_dump_end(dump, func, m, s, out_va, !ret);
	if (ret)
		err = rt_error_at(func, ret, ACL_ERROR_RT_WAIT_TIMEOUT, "running the op");
out:
	model_put(m);
	return err;
}

void op_registry_clear(void)
{
	struct op_entry *e;

	pthread_mutex_lock(&registry_lock);
	/* the models went with model_unload_all */
	while ((e = entries)) {
		entries = e->next;
		entry_free(e);
	}
	while ((e = retired)) {
		retired = e->next;
		entry_free(e);
	}
	pthread_mutex_unlock(&registry_lock);
}

/* After the models' teardown (registered first): they hold op models. */
static const struct rt_lifecycle op_lifecycle = {
	.name = "op",
	.teardown = op_registry_clear,
};

void op_lifecycle_register(void)
{
	rt_lifecycle_register(&op_lifecycle);
}
