// SPDX-License-Identifier: MIT
/*
 * The .om validator (lib/om/om_read.c) on the host: the builder's models
 * are accepted as they are, and a model broken in exactly one way (each
 * rule of Documentation/models.md in turn, checksums recomputed so that
 * the rule itself is what fails) gives exactly the expected error.
 */
#include <stdio.h>
#include <string.h>

#include "kselftest_harness.h"
#include "../acl/om_builder.h"
#include "../../lib/om/om_read.h"
#include "om_device_ops.h"

static struct om_section *sec_of(void *img, uint32_t type)
{
	struct om_header *h = img;
	struct om_section *s = (struct om_section *)(h + 1);

	for (uint32_t i = 0; i < h->section_count; i++)
		if (s[i].type == type)
			return &s[i];
	return NULL;
}

static void *payload(void *img, uint32_t type)
{
	return (uint8_t *)img + sec_of(img, type)->offset;
}

#define HDR(img)	((struct om_header *)(img))
#define TENS(img)	((struct om_tensor *)payload(img, OM_SEC_TENSORS))
#define NODES(img)	((struct om_node *)payload(img, OM_SEC_NODES))
#define IO(img)		((struct om_io *)payload(img, OM_SEC_IO))
#define VARS(img)	((struct om_variant *)payload(img, OM_SEC_VARIANTS))
#define VDIMS(img)	((struct om_dims *)payload(img, OM_SEC_VARIANT_DIMS))
#define STRS(img)	((char *)payload(img, OM_SEC_STRINGS))

TEST(accepts_the_builders_models)
{
	void *(*build[])(size_t *) = { om_build_add_relu, om_build_matmul,
				       om_build_dynbatch };
	char why[256];

	for (int i = 0; i < 3; i++) {
		struct om_image img;
		size_t size;
		void *p = build[i](&size);

		ASSERT_EQ(0, om_read(p, size, &img, why, sizeof(why))) TH_LOG("%s", why);
		ASSERT_EQ(1, img.nout);
		free(p);
	}
}

TEST(image_view_matches_the_model)
{
	struct om_image img;
	char why[256];
	size_t size;
	void *p = om_build_dynbatch(&size);

	ASSERT_EQ(0, om_read(p, size, &img, why, sizeof(why)));
	EXPECT_EQ(1, img.nin);
	EXPECT_EQ(1, img.nout);
	EXPECT_EQ(3, img.nvariants);
	EXPECT_EQ(6, img.nnodes);
	EXPECT_EQ(16, img.weights_size);
	EXPECT_EQ(2, img.variants[1].batch);
	EXPECT_EQ(2, om_vdims(&img, 1, 1)->dims[0]);
	EXPECT_EQ(0, strcmp(img.strings + img.io[1].name, "y"));
	free(p);
}

TEST(crc_is_zlibs)
{
	/* The standard check value of CRC-32/ISO-HDLC. */
	EXPECT_EQ(0xCBF43926u, om_crc32(0, "123456789", 9));
	EXPECT_EQ(0xCBF43926u, omb_crc(0, "123456789", 9));
	EXPECT_EQ(om_crc32(om_crc32(0, "1234", 4), "56789", 5),
		  om_crc32(0, "123456789", 9));
}

/* One broken model: what to break, whether to fix the CRCs, the code. */
struct breakage {
	const char *what;
	void *(*build)(size_t *);
	void (*brk)(void *img, size_t *size);
	int recrc;
	int code;
};

static void b_magic(void *p, size_t *n) { HDR(p)->magic ^= 1; }
static void b_major(void *p, size_t *n) { HDR(p)->version_major = 2; }
static void b_short(void *p, size_t *n) { *n = sizeof(struct om_header) - 1; }
static void b_empty(void *p, size_t *n) { *n = 0; }
static void b_hsize(void *p, size_t *n) { HDR(p)->header_size = 8; }
static void b_trunc(void *p, size_t *n) { *n -= 8; }
static void b_fsize(void *p, size_t *n) { HDR(p)->file_size += 8; }
static void b_flags(void *p, size_t *n) { HDR(p)->flags = 1; }
static void b_producer(void *p, size_t *n) { memset(HDR(p)->producer, 'x', 32); }
static void b_nsec0(void *p, size_t *n) { HDR(p)->section_count = 0; }
static void b_nsecbig(void *p, size_t *n) { HDR(p)->section_count = 65; }
static void b_nsecpast(void *p, size_t *n)
{
	/* The file ends inside its own section table. */
	*n = sizeof(struct om_header) + 3 * sizeof(struct om_section);
	HDR(p)->file_size = *n;
}
static void b_hcrc(void *p, size_t *n) { HDR(p)->header_crc ^= 1; }
static void b_sec_res(void *p, size_t *n) { sec_of(p, OM_SEC_NODES)->reserved = 1; }
static void b_sec_align(void *p, size_t *n) { sec_of(p, OM_SEC_NODES)->offset += 4; }
static void b_sec_past(void *p, size_t *n) { sec_of(p, OM_SEC_VARIANT_DIMS)->size += 8; }
static void b_sec_wrap(void *p, size_t *n) { sec_of(p, OM_SEC_NODES)->offset = UINT64_MAX - 7; }
static void b_sec_intable(void *p, size_t *n) { sec_of(p, OM_SEC_STRINGS)->offset = 8; }
static void b_sec_count(void *p, size_t *n) { sec_of(p, OM_SEC_TENSORS)->count++; }
static void b_sec_countwrap(void *p, size_t *n) { sec_of(p, OM_SEC_TENSORS)->count = UINT32_MAX; }
static void b_sec_overlap(void *p, size_t *n)
{
	struct om_section *io = sec_of(p, OM_SEC_IO), *v = sec_of(p, OM_SEC_VARIANTS);

	v->offset = io->offset;	/* same bytes, right sizes */
	v->size = sizeof(struct om_variant);
	v->count = 1;
}
static void b_sec_crc(void *p, size_t *n) { sec_of(p, OM_SEC_TENSORS)->crc ^= 1; }
static void b_sec_payload(void *p, size_t *n) { STRS(p)[1] ^= 0x20; }
static void b_sec_dup(void *p, size_t *n) { sec_of(p, OM_SEC_WEIGHTS)->type = OM_SEC_TENSORS; }
static void b_sec_missing(void *p, size_t *n)
{
	struct om_section *s = sec_of(p, OM_SEC_NODES);

	s->type = 99;	/* unknown: skipped, counted in bytes */
	s->count = (uint32_t)s->size;
}
static void b_str_first(void *p, size_t *n) { STRS(p)[0] = 'x'; }
static void b_str_last(void *p, size_t *n)
{
	struct om_section *s = sec_of(p, OM_SEC_STRINGS);

	STRS(p)[s->size - 1] = 'x';
}
static void b_io_name(void *p, size_t *n) { IO(p)[0].name = 100000; }
static void b_io_name0(void *p, size_t *n) { IO(p)[0].name = 0; }
static void b_io_dtype(void *p, size_t *n) { IO(p)[0].dtype = 5; }
static void b_io_rank(void *p, size_t *n) { IO(p)[0].rank = 9; }
static void b_io_dimneg(void *p, size_t *n) { IO(p)[0].dims[1] = -3; }
static void b_io_pastrank(void *p, size_t *n) { IO(p)[0].dims[5] = 1; }
static void b_io_size(void *p, size_t *n) { IO(p)[0].size += 4; }
static void b_io_flags(void *p, size_t *n) { IO(p)[0].flags |= 1u << 7; }
static void b_io_res(void *p, size_t *n) { IO(p)[0].reserved = 1; }
static void b_io_order(void *p, size_t *n) { IO(p)[0].flags |= OM_IO_OUTPUT; IO(p)[1].flags &= ~OM_IO_OUTPUT; }
static void b_io_noout(void *p, size_t *n) { IO(p)[2].flags &= ~OM_IO_OUTPUT; }
static void b_v_res(void *p, size_t *n) { VARS(p)[0].reserved = 1; }
static void b_v_nodes0(void *p, size_t *n) { VARS(p)[0].node_count = 0; }
static void b_v_nodespast(void *p, size_t *n) { VARS(p)[0].node_count = 3; }
static void b_v_nodeswrap(void *p, size_t *n) { VARS(p)[0].first_node = UINT32_MAX; }
static void b_v_arena(void *p, size_t *n) { VARS(p)[0].arena_size = 8; }
static void b_v_arenahuge(void *p, size_t *n) { VARS(p)[0].arena_size = UINT64_MAX; }
static void b_v_mixed(void *p, size_t *n) { VARS(p)[1].batch = 0; }
static void b_v_dupbatch(void *p, size_t *n) { VARS(p)[1].batch = 1; }
static void b_vd_count(void *p, size_t *n) { sec_of(p, OM_SEC_VARIANT_DIMS)->count--; sec_of(p, OM_SEC_VARIANT_DIMS)->size -= sizeof(struct om_dims); }
static void b_vd_rank(void *p, size_t *n) { VDIMS(p)[0].rank = 1; }
static void b_vd_res(void *p, size_t *n) { VDIMS(p)[0].reserved = 1; }
static void b_vd_batch(void *p, size_t *n) { VDIMS(p)[2].dims[0] = 3; }	/* variant 1, x */
static void b_vd_inner(void *p, size_t *n) { VDIMS(p)[2].dims[1] = 2; }
static void b_t_loc(void *p, size_t *n) { TENS(p)[0].loc = 4; }
static void b_t_index_in(void *p, size_t *n) { TENS(p)[0].index = 2; }
static void b_t_index_arena(void *p, size_t *n) { TENS(p)[2].index = 1; }
static void b_t_dtype(void *p, size_t *n) { TENS(p)[0].dtype = 13; }
static void b_t_rank(void *p, size_t *n) { TENS(p)[0].rank = 9; }
static void b_t_shape(void *p, size_t *n) { TENS(p)[0].shape[0] = -1; }
static void b_t_stride(void *p, size_t *n) { TENS(p)[0].strides[0] = -1; }
static void b_t_pastrank(void *p, size_t *n) { TENS(p)[0].strides[7] = 1; }
static void b_t_name(void *p, size_t *n) { TENS(p)[0].name = 1u << 30; }
static void b_t_res(void *p, size_t *n) { TENS(p)[0].reserved = 1; }
static void b_t_in_extent(void *p, size_t *n) { TENS(p)[0].offset = 4; }
static void b_t_out_extent(void *p, size_t *n) { TENS(p)[3].strides[0] = 4; }
static void b_t_arena_extent(void *p, size_t *n) { TENS(p)[2].offset = 48; }
static void b_t_weight_extent(void *p, size_t *n) { TENS(p)[1].offset = 8; }
static void b_t_overflow(void *p, size_t *n) { TENS(p)[0].strides[0] = INT64_MAX; TENS(p)[0].shape[0] = 3; }
static void b_t_offwrap(void *p, size_t *n) { TENS(p)[1].offset = UINT64_MAX - 4; }
static void b_n_op(void *p, size_t *n) { NODES(p)[0].op = 1000; }
static void b_n_op_gap(void *p, size_t *n) { NODES(p)[0].op = 31; }	/* unassigned */
/* the loader's set is the registry's (generated): just past its last op, a
 * gap between issue 14's ranges, and a number too large for the table */
static void b_n_op_past(void *p, size_t *n) { NODES(p)[0].op = OM_DEVICE_OP_MAX + 1; }
static void b_n_op_gap14(void *p, size_t *n) { NODES(p)[0].op = 230; }	/* unassigned */
static void b_n_op_huge(void *p, size_t *n) { NODES(p)[0].op = OM_OP_HOST - 1; }
static void b_n_noout(void *p, size_t *n) { NODES(p)[0].num_outputs = 0; }
static void b_n_many(void *p, size_t *n) { NODES(p)[0].num_inputs = 16; }
static void b_n_wrap(void *p, size_t *n) { NODES(p)[0].num_inputs = UINT32_MAX; }
static void b_n_attrs(void *p, size_t *n) { NODES(p)[0].has_attrs = 2; }
static void b_n_res(void *p, size_t *n) { NODES(p)[0].reserved = 1; }
static void b_n_name(void *p, size_t *n) { NODES(p)[0].name = 1u << 20; }
static void b_n_tensor(void *p, size_t *n) { NODES(p)[0].tensors[1] = 4; }
static void b_n_unused(void *p, size_t *n) { NODES(p)[0].tensors[5] = 1; }
static void b_n_writes_in(void *p, size_t *n) { NODES(p)[0].tensors[2] = 0; }
static void b_n_copy(void *p, size_t *n) { NODES(p)[1].op = OM_OP_COPY; NODES(p)[0].op = OM_OP_COPY; }
/* Host nodes (om_build_host_mix: node 1 NonZero, node 2 Det). */
static void b_h_op0(void *p, size_t *n) { NODES(p)[1].op = OM_OP_HOST; }
static void b_h_op(void *p, size_t *n) { NODES(p)[1].op = OM_OP_HOST | AICPU_OP_COUNT; }
static void b_h_noattrs(void *p, size_t *n) { NODES(p)[1].has_attrs = 0; }
static void b_h_inmask(void *p, size_t *n) { NODES(p)[1].ints[AICPU_ATTR_IN] = 3; }
static void b_h_outmask(void *p, size_t *n) { NODES(p)[1].ints[AICPU_ATTR_OUT] = 0; }
static void b_h_maskbig(void *p, size_t *n) { NODES(p)[1].ints[AICPU_ATTR_IN] = 1ll << 40 | 1; }
static void b_h_strided(void *p, size_t *n) { TENS(p)[2].strides[0] = 8; }
static void b_h_devdyn(void *p, size_t *n) { NODES(p)[3].tensors[1] = 3; }
static void b_h_dyn_in(void *p, size_t *n) { IO(p)[0].flags |= OM_IO_DYNAMIC; }
/* om_build_strnorm: a device operator handed its string tensors */
static void b_s_device(void *p, size_t *n)
{
	NODES(p)[0].op = DRM_VNPU_OP_RELU;
	NODES(p)[0].num_inputs = 1;
	NODES(p)[0].tensors[1] = NODES(p)[0].tensors[2];
	NODES(p)[0].tensors[2] = 0;
	IO(p)[1].flags &= ~OM_IO_DYNAMIC;
}

#define BRK(b, f, r, c) { #f, b, f, r, c }
static const struct breakage breakages[] = {
	BRK(om_build_add_relu, b_magic, 1, OM_ERR_FILE),
	BRK(om_build_add_relu, b_major, 1, OM_ERR_FILE),
	BRK(om_build_add_relu, b_short, 0, OM_ERR_FILE),
	BRK(om_build_add_relu, b_empty, 0, OM_ERR_FILE),
	BRK(om_build_add_relu, b_hsize, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_trunc, 0, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_fsize, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_flags, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_producer, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_nsec0, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_nsecbig, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_nsecpast, 0, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_hcrc, 0, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_sec_res, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_sec_align, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_sec_past, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_sec_wrap, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_sec_intable, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_sec_count, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_sec_countwrap, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_sec_overlap, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_sec_crc, 0, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_sec_payload, 0, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_sec_dup, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_sec_missing, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_str_first, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_str_last, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_io_name, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_io_name0, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_io_dtype, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_io_rank, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_io_dimneg, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_io_pastrank, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_io_size, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_io_flags, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_io_res, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_io_order, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_io_noout, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_v_res, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_v_nodes0, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_v_nodespast, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_v_nodeswrap, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_v_arena, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_v_arenahuge, 1, OM_ERR_PARSE),
	BRK(om_build_dynbatch, b_v_mixed, 1, OM_ERR_PARSE),
	BRK(om_build_dynbatch, b_v_dupbatch, 1, OM_ERR_PARSE),
	BRK(om_build_dynbatch, b_vd_count, 1, OM_ERR_PARSE),
	BRK(om_build_dynbatch, b_vd_rank, 1, OM_ERR_PARSE),
	BRK(om_build_dynbatch, b_vd_res, 1, OM_ERR_PARSE),
	BRK(om_build_dynbatch, b_vd_batch, 1, OM_ERR_PARSE),
	BRK(om_build_dynbatch, b_vd_inner, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_t_loc, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_t_index_in, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_t_index_arena, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_t_dtype, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_t_rank, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_t_shape, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_t_stride, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_t_pastrank, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_t_name, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_t_res, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_t_in_extent, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_t_out_extent, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_t_arena_extent, 1, OM_ERR_PARSE),
	BRK(om_build_matmul, b_t_weight_extent, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_t_overflow, 1, OM_ERR_PARSE),
	BRK(om_build_matmul, b_t_offwrap, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_n_op, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_n_op_gap, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_n_op_past, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_n_op_gap14, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_n_op_huge, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_n_noout, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_n_many, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_n_wrap, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_n_attrs, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_n_res, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_n_name, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_n_tensor, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_n_unused, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_n_writes_in, 1, OM_ERR_PARSE),
	BRK(om_build_add_relu, b_n_copy, 1, OM_ERR_PARSE),
	BRK(om_build_host_mix, b_h_op0, 1, OM_ERR_PARSE),
	BRK(om_build_host_mix, b_h_op, 1, OM_ERR_PARSE),
	BRK(om_build_host_mix, b_h_noattrs, 1, OM_ERR_PARSE),
	BRK(om_build_host_mix, b_h_inmask, 1, OM_ERR_PARSE),
	BRK(om_build_host_mix, b_h_outmask, 1, OM_ERR_PARSE),
	BRK(om_build_host_mix, b_h_maskbig, 1, OM_ERR_PARSE),
	BRK(om_build_host_mix, b_h_strided, 1, OM_ERR_PARSE),
	BRK(om_build_host_mix, b_h_devdyn, 1, OM_ERR_PARSE),
	BRK(om_build_host_mix, b_h_dyn_in, 1, OM_ERR_PARSE),
	BRK(om_build_strnorm, b_s_device, 1, OM_ERR_PARSE),
};

TEST(each_broken_rule_gives_its_code)
{
	for (size_t i = 0; i < sizeof(breakages) / sizeof(breakages[0]); i++) {
		const struct breakage *b = &breakages[i];
		struct om_image img;
		char why[256];
		size_t size;
		void *p = b->build(&size);

		b->brk(p, &size);
		if (b->recrc)
			omb_recrc(p, size);
		EXPECT_EQ(b->code, om_read(p, size, &img, why, sizeof(why)))
			TH_LOG("%s: %s", b->what, why);
		EXPECT_NE(0, why[0]) TH_LOG("%s gave no reason", b->what);
		free(p);
	}
}

/* String io sized by OM_STRING_ELEM_BYTES; only host nodes take them. */
TEST(string_model_is_valid_and_device_nodes_refuse_strings)
{
	struct om_image img;
	char why[256];
	size_t size;
	void *p = om_build_strnorm(&size);

	ASSERT_EQ(0, om_read(p, size, &img, why, sizeof(why))) TH_LOG("%s", why);
	EXPECT_EQ(4u * OM_STRING_ELEM_BYTES, img.io[0].size);
	EXPECT_EQ(OM_DTYPE_STRING, img.io[1].dtype);
	b_s_device(p, &size);
	omb_recrc(p, size);
	EXPECT_EQ(OM_ERR_PARSE, om_read(p, size, &img, why, sizeof(why)));
	EXPECT_NE(NULL, strstr(why, "cannot take string tensor")) TH_LOG("%s", why);
	free(p);
}

/* Host nodes between device nodes; a dynamic output only they touch. */
TEST(host_nodes_are_valid)
{
	struct om_image img;
	char why[256];
	size_t size;
	void *p = om_build_host_mix(&size);

	ASSERT_EQ(0, om_read(p, size, &img, why, sizeof(why))) TH_LOG("%s", why);
	EXPECT_EQ(2, img.nout);
	EXPECT_EQ(4, img.nnodes);
	EXPECT_EQ(OM_OP_HOST | AICPU_OP_NONZERO, img.nodes[1].op);
	EXPECT_TRUE(img.io[1].flags & OM_IO_DYNAMIC);
	free(p);
}

/* A copy between tensors of equal size is a valid node. */
TEST(copy_node_of_equal_size_is_valid)
{
	struct om_image img;
	char why[256];
	size_t size;
	void *p = om_build_add_relu(&size);

	NODES(p)[1].op = OM_OP_COPY;	/* arena [2,3] -> output [2,3] */
	omb_recrc(p, size);
	EXPECT_EQ(0, om_read(p, size, &img, why, sizeof(why))) TH_LOG("%s", why);
	free(p);
}

TEST(unknown_section_types_are_skipped)
{
	struct om_image img;
	char why[256];
	size_t size;
	void *p = om_build_matmul(&size);

	/* The weights become an unknown section: a tensor now reads past. */
	sec_of(p, OM_SEC_WEIGHTS)->type = 50;
	omb_recrc(p, size);
	EXPECT_EQ(OM_ERR_PARSE, om_read(p, size, &img, why, sizeof(why)));
	free(p);
	p = om_build_add_relu(&size);
	sec_of(p, OM_SEC_WEIGHTS)->type = 50;	/* unused and empty */
	omb_recrc(p, size);
	EXPECT_EQ(0, om_read(p, size, &img, why, sizeof(why))) TH_LOG("%s", why);
	free(p);
}

#define AIPP(img)	((struct om_aipp *)payload(img, OM_SEC_AIPP))

/* The AIPP section: both kinds accepted, each rule refused alone. */
static void a_mode(void *p) { AIPP(p)->mode = 3; }
static void a_mode0(void *p) { AIPP(p)->mode = 0; }
static void a_reserved(void *p) { AIPP(p)->reserved = 1; }
static void a_input(void *p) { AIPP(p)->input = 5; }
static void a_input_output(void *p) { AIPP(p)->input = 2; }
static void a_img_dtype(void *p) { IO(p)[0].dtype = DRM_VNPU_DTYPE_INT8; }
static void a_out_dtype(void *p) { AIPP(p)->out_dtype = DRM_VNPU_DTYPE_INT32; }
static void a_out_rank(void *p) { AIPP(p)->out_rank = 3; }
static void a_out_dim0(void *p) { AIPP(p)->out_dims[2] = 0; }
static void a_out_past(void *p) { AIPP(p)->out_dims[5] = 1; }
static void a_out_c5(void *p) { AIPP(p)->out_dims[1] = 5; }
static void a_out_batch(void *p) { AIPP(p)->out_dims[0] = 2; }
static void a_static_par(void *p) { AIPP(p)->params_input = 0; }
static void a_static_tail(void *p) { AIPP(p)->params[157] = 1; }
static void a_dyn_par_self(void *p) { AIPP(p)->params_input = 0; }
static void a_dyn_par_none(void *p) { AIPP(p)->params_input = OM_AIPP_NO_INPUT; }
static void a_dyn_name(void *p) { STRS(p)[IO(p)[1].name] = 'A'; }
static void a_dyn_size(void *p)
{
	IO(p)[1].dims[1] = 155;
	IO(p)[1].size = 155;
	VDIMS(p)[1].dims[1] = 155;
}
static void a_dyn_params(void *p) { AIPP(p)->params[0] = 1; }
/* om_build_aipp(, 2) wrote the static record twice */
static void a_dup(void *p) { (void)p; }
/* the dynamic model's WEIGHTS are empty: now a second, empty AIPP section */
static void a_twice(void *p) { sec_of(p, OM_SEC_WEIGHTS)->type = OM_SEC_AIPP; }

TEST(aipp_section)
{
	static const struct { const char *what; int dynamic; void (*brk)(void *); } bad[] = {
		{ "mode 3", 0, a_mode }, { "mode 0", 1, a_mode0 },
		{ "reserved", 0, a_reserved }, { "input past the inputs", 0, a_input },
		{ "input is the output", 0, a_input_output },
		{ "image not UINT8", 1, a_img_dtype }, { "out dtype", 0, a_out_dtype },
		{ "out rank", 0, a_out_rank }, { "out dim 0", 1, a_out_dim0 },
		{ "out dim past the rank", 0, a_out_past },
		{ "five channels", 0, a_out_c5 }, { "batch differs", 0, a_out_batch },
		{ "static with a parameter input", 0, a_static_par },
		{ "static bytes past the block", 0, a_static_tail },
		{ "dynamic parameters are the image", 1, a_dyn_par_self },
		{ "dynamic without parameter input", 1, a_dyn_par_none },
		{ "dynamic input misnamed", 1, a_dyn_name },
		{ "dynamic input of 155 bytes", 1, a_dyn_size },
		{ "dynamic record with parameters", 1, a_dyn_params },
		{ "two records for one input", 2, a_dup },
		{ "two AIPP sections", 1, a_twice },
	};
	struct om_image img;
	char why[256];
	size_t size;

	for (int d = 0; d < 2; d++) {
		void *p = om_build_aipp(&size, d);

		ASSERT_EQ(0, om_read(p, size, &img, why, sizeof(why))) TH_LOG("%s", why);
		ASSERT_EQ(1u, img.naipp);
		EXPECT_EQ(d ? OM_AIPP_DYNAMIC : OM_AIPP_STATIC, img.aipp[0].mode);
		EXPECT_EQ(d ? 1u : OM_AIPP_NO_INPUT, img.aipp[0].params_input);
		free(p);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		void *p = om_build_aipp(&size, bad[i].dynamic);

		bad[i].brk(p);
		omb_recrc(p, size);
		why[0] = 0;
		EXPECT_EQ(OM_ERR_PARSE, om_read(p, size, &img, why, sizeof(why)))
			TH_LOG("%s: accepted", bad[i].what);
		EXPECT_NE(0, why[0]) TH_LOG("%s gave no reason", bad[i].what);
		free(p);
	}
	/* a model without AIPP has no records */
	{
		void *p = om_build_add_relu(&size);

		ASSERT_EQ(0, om_read(p, size, &img, why, sizeof(why)));
		EXPECT_EQ(0u, img.naipp);
		EXPECT_EQ(NULL, img.aipp);
		free(p);
	}
}

TEST(misaligned_image_is_refused_not_read)
{
	struct om_image img;
	char why[256];
	size_t size;
	void *p = om_build_add_relu(&size);
	uint8_t *q = malloc(size + 1);

	memcpy(q + 1, p, size);
	EXPECT_EQ(OM_ERR_PARSE, om_read(q + 1, size, &img, why, sizeof(why)));
	EXPECT_EQ(OM_ERR_FILE, om_read(NULL, size, &img, why, sizeof(why)));
	free(q);
	free(p);
}

TEST_HARNESS_MAIN
