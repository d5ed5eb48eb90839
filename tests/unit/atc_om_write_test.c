// SPDX-License-Identifier: MIT
/*
 * Host tests of the .om writer (lib/compile/om_write.c, om_build.c, with
 * lib/mdl's om_crc32()) without a reader: a model built by hand is serialised and
 * the bytes are checked against the format — header fields, every
 * section's type, count, size, alignment and CRC (recomputed here with a
 * bitwise CRC-32, not the writer's table), payloads in place, zero gaps,
 * weights 64-byte aligned in the section and in the file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "om_write.h"
#include "kselftest_harness.h"

/* An independent CRC-32 (bit by bit, polynomial 0xEDB88320). */
static uint32_t crc_bits(const uint8_t *p, size_t n)
{
	uint32_t c = 0xffffffffu;
	int k;

	while (n--) {
		c ^= *p++;
		for (k = 0; k < 8; k++)
			c = (c >> 1) ^ (0xedb88320u & -(c & 1));
	}
	return ~c;
}

static void build(struct om_build *b)
{
	struct om_tensor t = { .loc = OM_LOC_WEIGHT, .dtype = 0, .rank = 1,
			       .shape = { 3 }, .strides = { 1 } };
	struct om_node n = { .op = 1, .num_inputs = 2, .num_outputs = 1,
			     .tensors = { 0, 1, 2 } };
	float w1[3] = { 1, 2, 3 }, w2[5] = { 4, 5, 6, 7, 8 };
	int i;

	om_build_init(b);
	t.name = om_add_string(b, "w1");
	t.offset = (uint64_t)om_add_weight(b, w1, sizeof(w1));
	om_add_tensor(b, &t);
	t.name = om_add_string(b, "w2");
	t.offset = (uint64_t)om_add_weight(b, w2, sizeof(w2));
	t.shape[0] = 5;
	om_add_tensor(b, &t);
	t.loc = OM_LOC_OUTPUT;
	t.offset = 0;
	t.name = om_add_string(b, "y");
	om_add_tensor(b, &t);
	n.name = om_add_string(b, "add0");
	om_add_node(b, &n);
	b->nin = 0;
	b->nout = 1;
	b->io[0].name = om_add_string(b, "y");
	b->io[0].rank = 1;
	b->io[0].dims[0] = 5;
	b->io[0].size = 20;
	for (i = 0; i < 2; i++) {
		b->variants[i].batch = (uint32_t)(i + 1);
		b->variants[i].first_node = 0;
		b->variants[i].node_count = 1;
		b->variants[i].arena_size = 128;
		b->dims[i].rank = 1;
		b->dims[i].dims[0] = 5;
	}
	b->nvariants = 2;
}

TEST(crc32_known_values)
{
	EXPECT_EQ(0xCBF43926u, om_crc32(0, "123456789", 9));
	EXPECT_EQ(0u, om_crc32(0, "", 0));
	/* continued over pieces as zlib's crc32() */
	EXPECT_EQ(om_crc32(0, "123456789", 9),
		  om_crc32(om_crc32(0, "1234", 4), "56789", 5));
	EXPECT_EQ(crc_bits((const uint8_t *)"vnpu", 4), om_crc32(0, "vnpu", 4));
}

TEST(strings_shared_and_weights_aligned)
{
	struct om_build b;
	uint8_t one = 1, two = 2;
	float w[4] = { 1, 2, 3, 4 };

	ASSERT_EQ(0, om_build_init(&b));
	EXPECT_EQ(0u, om_add_string(&b, ""));
	EXPECT_EQ(0u, om_add_string(&b, NULL));
	EXPECT_EQ(1u, om_add_string(&b, "conv1"));
	EXPECT_EQ(7u, om_add_string(&b, "conv"));
	EXPECT_EQ(1u, om_add_string(&b, "conv1"));
	EXPECT_EQ(12u, b.nstrings);
	EXPECT_EQ(0, om_add_weight(&b, &one, 1));
	EXPECT_EQ(64, om_add_weight(&b, &two, 1));
	EXPECT_EQ(128, om_add_weight(&b, &one, 0));
	EXPECT_EQ(128u, b.nweights);
	EXPECT_EQ(0, b.weights[1]);	/* padding is zero */
	/* equal bytes are stored once, equal sizes with other bytes are not */
	EXPECT_EQ(0, om_add_weight(&b, &one, 1));
	EXPECT_EQ(64, om_add_weight(&b, &two, 1));
	EXPECT_EQ(128, om_add_weight(&b, w, sizeof(w)));
	EXPECT_EQ(128, om_add_weight(&b, w, sizeof(w)));
	w[3] = 5;
	EXPECT_EQ(192, om_add_weight(&b, w, sizeof(w)));
	EXPECT_EQ(256, om_add_weight(&b, w, 12));	/* a prefix is new */
	EXPECT_EQ(256u + 12u, b.nweights);
	om_build_free(&b);
}

TEST(layout_of_a_written_model)
{
	static const uint32_t types[OM_SECTIONS] = {
		OM_SEC_STRINGS, OM_SEC_TENSORS, OM_SEC_NODES, OM_SEC_IO,
		OM_SEC_WEIGHTS, OM_SEC_VARIANTS, OM_SEC_VARIANT_DIMS,
	};
	struct om_section sec[OM_SECTIONS];
	struct om_header h;
	struct om_build b;
	uint8_t *buf, *copy;
	uint64_t end = sizeof(h) + sizeof(sec);
	size_t len, k;
	int i;

	build(&b);
	ASSERT_EQ(0, om_serialize(&b, &buf, &len));
	memcpy(&h, buf, sizeof(h));
	memcpy(sec, buf + sizeof(h), sizeof(sec));
	EXPECT_EQ(64u, sizeof(h));
	EXPECT_EQ(OM_MAGIC, h.magic);
	EXPECT_EQ(0, memcmp(buf, "VNOM", 4));
	EXPECT_EQ(OM_VERSION_MAJOR, h.version_major);
	EXPECT_EQ(OM_VERSION_MINOR, h.version_minor);
	EXPECT_EQ(sizeof(h), h.header_size);
	EXPECT_EQ(OM_SECTIONS, h.section_count);
	EXPECT_EQ(len, h.file_size);
	EXPECT_EQ(0u, h.flags);
	EXPECT_STREQ(OM_PRODUCER, h.producer);
	/* header CRC: header and table with the field as zero */
	copy = malloc(end);
	ASSERT_NE(NULL, copy);
	memcpy(copy, buf, end);
	memset(copy + offsetof(struct om_header, header_crc), 0, 4);
	EXPECT_EQ(crc_bits(copy, end), h.header_crc);
	free(copy);
	for (i = 0; i < OM_SECTIONS; i++) {
		EXPECT_EQ(types[i], sec[i].type);
		EXPECT_EQ(0u, sec[i].reserved);
		EXPECT_EQ(0u, sec[i].offset % (sec[i].type == OM_SEC_WEIGHTS ?
					       OM_WEIGHT_ALIGN : 8));
		EXPECT_GE(sec[i].offset, end);	/* in order, no overlap */
		for (k = end; k < sec[i].offset; k++)
			EXPECT_EQ(0, buf[k]);	/* gaps are zero */
		ASSERT_LE(sec[i].offset + sec[i].size, len);
		EXPECT_EQ(crc_bits(buf + sec[i].offset, sec[i].size), sec[i].crc);
		end = sec[i].offset + sec[i].size;
	}
	EXPECT_EQ(len, end);
	EXPECT_EQ(b.nstrings, sec[0].count);
	EXPECT_EQ(b.nstrings, sec[0].size);
	EXPECT_EQ(0, buf[sec[0].offset]);	/* offset 0 is "" */
	EXPECT_STREQ("add0", (char *)buf + sec[0].offset +
		     ((struct om_node *)(buf + sec[2].offset))->name);
	EXPECT_EQ(3u, sec[1].count);
	EXPECT_EQ(3 * sizeof(struct om_tensor), sec[1].size);
	EXPECT_EQ(1u, sec[2].count);
	EXPECT_EQ(sizeof(struct om_node), sec[2].size);
	EXPECT_EQ(1u, sec[3].count);
	EXPECT_EQ(84u, sec[4].size);	/* 12 bytes, zeros to 64, 20 bytes */
	EXPECT_EQ(0, memcmp(buf + sec[4].offset + 64, b.weights + 64, 20));
	EXPECT_EQ(2u, sec[5].count);
	EXPECT_EQ(2u, sec[6].count);	/* variants x (inputs + outputs) */
	EXPECT_EQ(2 * sizeof(struct om_dims), sec[6].size);
	EXPECT_EQ(2u, ((struct om_variant *)(buf + sec[5].offset))[1].batch);
	/* every byte of a payload is covered: one flip changes its CRC */
	buf[sec[1].offset + 5] ^= 0x10;
	EXPECT_NE(sec[1].crc, crc_bits(buf + sec[1].offset, sec[1].size));
	free(buf);
	om_build_free(&b);
}

TEST(record_sizes_are_fixed)
{
	EXPECT_EQ(32u, sizeof(struct om_section));
	EXPECT_EQ(160u, sizeof(struct om_tensor));
	EXPECT_EQ(88u + 192u + 32u, sizeof(struct om_node));
	EXPECT_EQ(96u, sizeof(struct om_io));
	EXPECT_EQ(40u, sizeof(struct om_variant));
	EXPECT_EQ(72u, sizeof(struct om_dims));
}

TEST(file_written_and_errors_named)
{
	char path[] = "/tmp/atc_om_write_XXXXXX", err[256] = "";
	struct om_build b;
	uint8_t *buf, *disk;
	size_t len;
	FILE *f;
	int fd;

	build(&b);
	fd = mkstemp(path);
	ASSERT_GE(fd, 0);
	close(fd);
	ASSERT_EQ(0, om_write_file(&b, path, err, sizeof(err)));
	ASSERT_EQ(0, om_serialize(&b, &buf, &len));
	disk = malloc(len + 1);
	f = fopen(path, "rb");
	ASSERT_NE(NULL, f);
	EXPECT_EQ(len, fread(disk, 1, len + 1, f));
	fclose(f);
	EXPECT_EQ(0, memcmp(buf, disk, len));
	unlink(path);
	EXPECT_EQ(-1, om_write_file(&b, "/nonexistent-dir/x.om", err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "/nonexistent-dir/x.om"));
	free(buf);
	free(disk);
	om_build_free(&b);
}

TEST_HARNESS_MAIN
