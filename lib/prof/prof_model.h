/* SPDX-License-Identifier: MIT */
/*
 * What operator subscription needs to know of models, which live in
 * lib/mdl, a layer above: lib/mdl registers a lookup at aclInit
 * (model_lifecycle_register), so lib/prof never includes lib/mdl.
 */
#ifndef VNPU_PROF_PROF_MODEL_H
#define VNPU_PROF_PROF_MODEL_H

#include <stdint.h>

/* 0 and the device of a loaded model, or -ENOENT. */
typedef int (*prof_model_lookup_fn)(uint32_t model_id, int32_t *device);

void prof_model_register(prof_model_lookup_fn fn);

#endif /* VNPU_PROF_PROF_MODEL_H */
