// SPDX-License-Identifier: MIT
/*
 * Which of a model's nodes are dumped: its dump_list entries, taken when
 * the model loads. An entry names a model_name and optionally its layers
 * (node names); an entry without model_name ({}) selects every model. An
 * empty or absent list selects no model (single operators only).
 */
#include <stdlib.h>
#include <string.h>

#include "dump_int.h"

struct dump_sel {
	char path[PATH_MAX];
	char stamp[16];
	uint32_t mode;
	bool all;			/* every layer */
	char **layers;
	uint32_t nlayers;
	uint64_t (*steps)[2];
	uint32_t nsteps;
};

void dump_sel_free(struct dump_sel *s)
{
	if (!s)
		return;
	for (uint32_t i = 0; i < s->nlayers; i++)
		free(s->layers[i]);
	free(s->layers);
	free(s->steps);
	free(s);
}

static int add_layers(struct dump_sel *s, const struct dump_entry *e)
{
	char **l = realloc(s->layers, (s->nlayers + e->nlayers) * sizeof(*l));

	if (!l)
		return -1;
	s->layers = l;
	for (uint32_t k = 0; k < e->nlayers; k++) {
		l[s->nlayers] = strdup(e->layers[k]);
		if (!l[s->nlayers])
			return -1;
		s->nlayers++;
	}
	return 0;
}

/* With dump_lock held: the selection of model name under c, or NULL. */
static struct dump_sel *select_locked(const struct dump_cfg *c, const char *name)
{
	struct dump_sel *s = calloc(1, sizeof(*s));
	bool hit = false;

	if (!s)
		return NULL;
	for (uint32_t i = 0; i < c->nlist; i++) {
		const struct dump_entry *e = &c->list[i];

		if (!e->model) {
			s->all = hit = true;	/* {}: every model */
			continue;
		}
		if (!name || strcmp(e->model, name))
			continue;
		hit = true;
		if (!e->nlayers)
			s->all = true;
		else if (add_layers(s, e))
			goto fail;
	}
	if (!hit)
		goto fail;
	if (c->nsteps) {
		s->steps = malloc(c->nsteps * sizeof(*s->steps));
		if (!s->steps)
			goto fail;
		memcpy(s->steps, c->steps, c->nsteps * sizeof(*s->steps));
		s->nsteps = c->nsteps;
	}
	memcpy(s->path, c->path, sizeof(s->path));
	memcpy(s->stamp, c->stamp, sizeof(s->stamp));
	s->mode = c->mode;
	return s;
fail:
	dump_sel_free(s);
	return NULL;
}

struct dump_sel *dump_model_select(const char *model_name)
{
	struct dump_sel *s = NULL;

	pthread_mutex_lock(&dump_lock);
	if (dump_active())
		s = select_locked(&dump_st.cfg, model_name);
	pthread_mutex_unlock(&dump_lock);
	return s;
}

bool dump_sel_layer(const struct dump_sel *s, const char *layer)
{
	if (s->all)
		return true;
	for (uint32_t i = 0; i < s->nlayers; i++)
		if (!strcmp(s->layers[i], layer))
			return true;
	return false;
}

uint32_t dump_sel_mode(const struct dump_sel *s)
{
	return s->mode;
}

bool dump_sel_step(const struct dump_sel *s, uint64_t iter)
{
	if (!s->nsteps)
		return true;
	for (uint32_t i = 0; i < s->nsteps; i++)
		if (iter >= s->steps[i][0] && iter <= s->steps[i][1])
			return true;
	return false;
}

const char *dump_sel_path(const struct dump_sel *s, const char **stamp)
{
	*stamp = s->stamp;
	return s->path;
}
