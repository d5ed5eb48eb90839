// SPDX-License-Identifier: MIT
/*
 * The .om writer: header, section table, then the payloads in section
 * type order, each starting 8-byte aligned (WEIGHTS 64-byte aligned, so a
 * file mapped at a page keeps every weight aligned). Gaps are zero.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "om_write.h"

struct payload {
	uint32_t type, count;
	const void *data;
	uint64_t size;
	uint64_t align;
};

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) & ~(a - 1);
}

int om_serialize(const struct om_build *b, uint8_t **out, size_t *len)
{
	uint32_t ndims = b->nvariants * (b->nin + b->nout);
	struct payload p[OM_SECTIONS + 2] = {
		{ OM_SEC_STRINGS, (uint32_t)b->nstrings, b->strings,
		  b->nstrings, 8 },
		{ OM_SEC_TENSORS, b->ntensors, b->tensors,
		  (uint64_t)b->ntensors * sizeof(struct om_tensor), 8 },
		{ OM_SEC_NODES, b->nnodes, b->nodes,
		  (uint64_t)b->nnodes * sizeof(struct om_node), 8 },
		{ OM_SEC_IO, b->nin + b->nout, b->io,
		  (uint64_t)(b->nin + b->nout) * sizeof(struct om_io), 8 },
		{ OM_SEC_WEIGHTS, (uint32_t)b->nweights, b->weights,
		  b->nweights, OM_WEIGHT_ALIGN },
		{ OM_SEC_VARIANTS, b->nvariants, b->variants,
		  (uint64_t)b->nvariants * sizeof(struct om_variant), 8 },
		{ OM_SEC_VARIANT_DIMS, ndims, b->dims,
		  (uint64_t)ndims * sizeof(struct om_dims), 8 },
		{ OM_SEC_OP_KEY, 0, b->op_key, 0, 8 },
		{ OM_SEC_AIPP, b->naipp, b->aipp,
		  (uint64_t)b->naipp * sizeof(struct om_aipp), 8 },
	};
	struct om_section sec[OM_SECTIONS + 2];
	uint32_t nsec = OM_SECTIONS, i;
	struct om_header h;
	uint64_t pos;
	uint8_t *buf;

	if (b->nstrings > UINT32_MAX || b->nweights > UINT32_MAX)
		return -1;	/* count is 32 bits: the format's limit */
	/* The optional sections that are there, after the seven. */
	if (b->op_key) {
		p[nsec] = p[OM_SECTIONS];
		p[nsec].size = strlen(b->op_key) + 1;
		p[nsec].count = (uint32_t)p[nsec].size;
		nsec++;
	}
	if (b->naipp)
		p[nsec++] = p[OM_SECTIONS + 1];
	pos = sizeof(h) + nsec * sizeof(sec[0]);
	memset(sec, 0, sizeof(sec));
	for (i = 0; i < nsec; i++) {
		pos = align_up(pos, p[i].align);
		sec[i].type = p[i].type;
		sec[i].count = p[i].count;
		sec[i].offset = pos;
		sec[i].size = p[i].size;
		sec[i].crc = om_crc32(0, p[i].data, p[i].size);
		pos += p[i].size;
	}
	buf = calloc(1, pos);
	if (!buf)
		return -1;
	memset(&h, 0, sizeof(h));
	h.magic = OM_MAGIC;
	h.version_major = OM_VERSION_MAJOR;
	h.version_minor = OM_VERSION_MINOR;
	h.header_size = sizeof(h);
	h.section_count = nsec;
	h.file_size = pos;
	snprintf(h.producer, sizeof(h.producer), "%s", OM_PRODUCER);
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + sizeof(h), sec, nsec * sizeof(sec[0]));
	/* The header's CRC covers header and table with the field zero. */
	h.header_crc = om_crc32(0, buf, sizeof(h) + nsec * sizeof(sec[0]));
	memcpy(buf, &h, sizeof(h));
	for (i = 0; i < nsec; i++)
		if (p[i].size)
			memcpy(buf + sec[i].offset, p[i].data, p[i].size);
	*out = buf;
	*len = pos;
	return 0;
}

int om_write_file(const struct om_build *b, const char *path, char *err,
		  size_t errlen)
{
	uint8_t *buf;
	size_t len;
	FILE *f;
	int ok;

	if (om_serialize(b, &buf, &len)) {
		snprintf(err, errlen, "%s: out of memory serialising the model",
			 path);
		return -1;
	}
	f = fopen(path, "wb");
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		free(buf);
		return -1;
	}
	ok = fwrite(buf, 1, len, f) == len;
	if (fclose(f))
		ok = 0;
	free(buf);
	if (!ok) {
		snprintf(err, errlen, "%s: write failed: %s", path,
			 strerror(errno));
		remove(path);
		return -1;
	}
	return 0;
}
