/* SPDX-License-Identifier: MIT */
/*
 * Reading a .om image: om_read() checks every rule of the format
 * (Documentation/om-format.md, Documentation/models.md) and gives a view
 * of the sections in place. It needs no device and no runtime, so the
 * fuzz test builds it alone with the sanitizers.
 */
#ifndef VNPU_MDL_OM_READ_H
#define VNPU_MDL_OM_READ_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#include "om_format.h"

/* Not a model (too short, wrong magic or major version): INVALID_FILE. */
#define OM_ERR_FILE	(-ENOEXEC)
/* A model whose content breaks a rule: PARSE_MODEL. */
#define OM_ERR_PARSE	(-EBADMSG)

/* Bindings of a replay: the inputs, the outputs and the arena. */
#define OM_MAX_SLOTS	64	/* DRM_VNPU_MAX_BINDINGS */

/* The validated sections, pointing into the caller's image. */
struct om_image {
	const char *strings;
	uint64_t strings_size;
	const struct om_tensor *tensors;
	uint32_t ntensors;
	const struct om_node *nodes;
	uint32_t nnodes;
	const struct om_io *io;		/* nin inputs, then nout outputs */
	uint32_t nin, nout;
	const uint8_t *weights;
	uint64_t weights_size;
	const struct om_variant *variants;
	uint32_t nvariants;
	const struct om_dims *vdims;	/* nvariants * (nin + nout) */
	const char *op_key;		/* a single-op model's key, else NULL */
	const struct om_aipp *aipp;	/* OM_SEC_AIPP's records, or NULL */
	uint32_t naipp;
};

/*
 * Validate size bytes at data (any alignment); 0 and *img filled, or
 * OM_ERR_FILE / OM_ERR_PARSE with a sentence in why.
 */
int om_read(const void *data, size_t size, struct om_image *img,
	    char *why, size_t len);

/*
 * The AIPP records of an image whose io records are already checked
 * (om_aipp_check.c); 0, or OM_ERR_PARSE with a sentence in why.
 */
int om_check_aipp(const struct om_image *img, char *why, size_t len);

/* CRC-32 (IEEE 802.3, zlib's crc32()): continue crc over n bytes. */
uint32_t om_crc32(uint32_t crc, const void *p, size_t n);

/* Bytes of one element of a device dtype; 0 for a dtype the device lacks. */
uint32_t om_dtype_size(uint32_t dtype);

/* Whether op is an enum drm_vnpu_op value (or OM_OP_COPY). */
int om_op_known(uint32_t op);

/* The dims of io record i in variant v. */
static inline const struct om_dims *om_vdims(const struct om_image *img,
					     uint32_t v, uint32_t i)
{
	return &img->vdims[(size_t)v * (img->nin + img->nout) + i];
}

/*
 * Bytes of a dense tensor of these dims and dtype; -1 (as UINT64_MAX)
 * when the product overflows.
 */
uint64_t om_dense_bytes(uint32_t dtype, uint32_t rank, const int64_t *dims);

#endif /* VNPU_MDL_OM_READ_H */
