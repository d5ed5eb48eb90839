/* SPDX-License-Identifier: MIT */
/*
 * The model lookup lib/prof's operator subscription uses (prof_model.h):
 * lib/prof sits beside core and may not include lib/mdl, so lib/mdl
 * hands it this function at aclInit (model_lifecycle_register).
 */
#include <errno.h>

#include "model.h"
#include "../prof/prof_model.h"

static int model_prof_lookup(uint32_t id, int32_t *device)
{
	struct mdl_model *m;

	if (model_get(id, &m))
		return -ENOENT;
	*device = m->dev->id;
	model_put(m);
	return 0;
}

void model_prof_register(void)
{
	prof_model_register(model_prof_lookup);
}
