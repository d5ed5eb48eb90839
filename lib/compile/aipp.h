/* SPDX-License-Identifier: MIT */
/*
 * AIPP in the compiler (atc --insert_op_conf): the image input and the
 * AIPP node put in front of a model input, and the .om's records.
 */
#ifndef VNPU_COMPILE_AIPP_H
#define VNPU_COMPILE_AIPP_H

#include <stddef.h>

#include "compile.h"

/* The op_type (domain "vnpu") of the node lower_aipp.c turns into a task. */
#define AIPP_OP_TYPE	"VnpuAipp"

/*
 * After one variant's front passes: for each block, the model input it
 * names becomes an image input (UINT8 [N, bytes]) of the same name, read
 * by an AIPP node placed first in the graph that writes the old input
 * tensor; a dynamic block adds the parameter input (ascend_dynamic_aipp_
 * data, UINT8 [N, OM_AIPP_PARAMS_SIZE]) after the model's inputs. Static
 * sizes left 0 are derived and every value is checked against the input
 * ([N, C, H, W], FLOAT or FLOAT16). rec[i] gets block i's .om record.
 * Returns 0, or -1 with a message in err (the graph is then half done:
 * the caller frees it).
 */
int aipp_apply(struct ir_graph *g, const struct compile_aipp *blocks, int n,
	       const char *input_format, struct om_aipp *rec, char *err,
	       size_t errlen);

/* Bytes of a src_w x src_h image of an AIPP input format (0: unknown). */
int64_t aipp_image_bytes(uint32_t format, int64_t w, int64_t h);

#endif /* VNPU_COMPILE_AIPP_H */
