/* SPDX-License-Identifier: MIT */
/*
 * The .om being built: growing tables of every section, filled by
 * lower.c (one run per variant) and serialised by om_write.c.
 */
#ifndef VNPU_ATC_OM_BUILD_H
#define VNPU_ATC_OM_BUILD_H

#include <stddef.h>
#include <stdint.h>

#include "../om/om_format.h"
/* om_crc32(): the loader's CRC-32, so writer and reader share one. */
#include "../om/om_read.h"

struct om_weight_ref {
	uint64_t offset, size;
	uint32_t crc;
};

struct om_build {
	char *strings;			/* starts with "" at offset 0 */
	size_t nstrings, cap_strings;
	struct om_tensor *tensors;
	uint32_t ntensors, cap_tensors;
	struct om_node *nodes;
	uint32_t nnodes, cap_nodes;
	struct om_io io[2 * OM_MAX_IO];	/* inputs, then outputs */
	uint32_t nin, nout;
	uint8_t *weights;
	size_t nweights, cap_weights;
	struct om_weight_ref *wrefs;	/* what is in weights, for sharing */
	size_t nwrefs, cap_wrefs;
	struct om_variant variants[OM_MAX_VARIANTS];
	uint32_t nvariants;
	struct om_dims dims[OM_MAX_VARIANTS * 2 * OM_MAX_IO];
	const char *op_key;		/* single-op models: OM_SEC_OP_KEY */
	struct om_aipp aipp[OM_MAX_IO];	/* OM_SEC_AIPP, when naipp > 0 */
	uint32_t naipp;
};

/* Returns 0 or -1 (out of memory) for each of these. */
int om_build_init(struct om_build *b);
void om_build_free(struct om_build *b);
/* A name's STRINGS offset (equal names share one); UINT32_MAX on error. */
uint32_t om_add_string(struct om_build *b, const char *s);
/* Index of the appended record, or -1. */
int64_t om_add_tensor(struct om_build *b, const struct om_tensor *t);
int64_t om_add_node(struct om_build *b, const struct om_node *n);
/*
 * Offset of the bytes in WEIGHTS (OM_WEIGHT_ALIGN-aligned), or -1. Equal
 * bytes are stored once: the variants of a dynamic-batch model come from
 * separately built graphs and share every weight.
 */
int64_t om_add_weight(struct om_build *b, const void *data, size_t n);

#endif /* VNPU_ATC_OM_BUILD_H */
