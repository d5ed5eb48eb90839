// SPDX-License-Identifier: MIT
/*
 * Loader fuzz test: valid .om images from the test builder, mutated
 * thousands of times (bit flips, truncations, fields overwritten with
 * boundary values), their checksums recomputed for half of them so that
 * the rules past the CRC are reached. Built with ASan and UBSan against
 * lib/mdl's reader alone: om_read() must never crash, leak, read out of
 * bounds or hit undefined behaviour, must answer 0, OM_ERR_FILE or
 * OM_ERR_PARSE, and whatever it accepts must be safe to walk.
 *
 * VNPU_OM_FUZZ_ITERS overrides the number of mutated images; the seed is
 * printed so a failure can be replayed with VNPU_OM_FUZZ_SEED.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "kselftest_harness.h"
#include "../acl/om_builder.h"
#include "../../lib/om/om_read.h"

static uint64_t rng;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static const uint64_t boundary[] = {
	0, 1, 2, 7, 8, 16, 63, 64, 255, 256, 4096, 0x7fffffffu, 0x80000000u,
	0xffffffffu, 0x100000000ull, 0x7fffffffffffffffull,
	0x8000000000000000ull, 0xffffffffffffffffull, 0xfffffffffffffff8ull,
};

static void mutate(uint8_t *p, size_t *size)
{
	size_t n = *size;

	switch (rnd() % 5) {
	case 0:		/* flip a bit */
		p[rnd() % n] ^= (uint8_t)(1u << (rnd() % 8));
		break;
	case 1: {	/* a 4-byte field gets a boundary value */
		size_t off = (rnd() % (n / 4)) * 4;
		uint32_t v = (uint32_t)boundary[rnd() % (sizeof(boundary) / 8)];

		memcpy(p + off, &v, 4);
		break;
	}
	case 2: {	/* an 8-byte field gets one, maybe nudged */
		size_t off = (rnd() % (n / 8)) * 8;
		uint64_t v = boundary[rnd() % (sizeof(boundary) / 8)];

		v += (uint64_t)(rnd() % 3) - 1;
		memcpy(p + off, &v, 8);
		break;
	}
	case 3:		/* truncate */
		*size = rnd() % n;
		break;
	default: {	/* a header or table word: where it hurts most */
		size_t lim = n < 512 ? n : 512;
		size_t off = (rnd() % (lim / 4)) * 4;
		uint32_t v = (uint32_t)rnd() % 16 ? (uint32_t)rnd() % 300 :
			     (uint32_t)rnd();

		memcpy(p + off, &v, 4);
		break;
	}
	}
}

/*
 * Whether a tensor has elements: the loader bounds an empty tensor's
 * offset by nothing (nothing is read or written through it).
 */
static bool nonempty(const struct om_tensor *t)
{
	for (uint32_t d = 0; d < t->rank; d++)
		if (!t->shape[d])
			return false;
	return t->rank > 0;
}

/* Touch everything an accepted image points at, as the loader will. */
static uint64_t walk(const struct om_image *img)
{
	uint64_t sum = 0;

	for (uint32_t i = 0; i < img->nin + img->nout; i++)
		sum += strlen(img->strings + img->io[i].name) + img->io[i].size;
	for (uint32_t i = 0; i < img->ntensors; i++)
		sum += strlen(img->strings + img->tensors[i].name);
	for (uint32_t v = 0; v < img->nvariants; v++) {
		const struct om_variant *va = &img->variants[v];

		for (uint32_t i = 0; i < img->nin + img->nout; i++)
			sum += (uint64_t)om_vdims(img, v, i)->dims[0];
		for (uint32_t k = va->first_node; k < va->first_node + va->node_count; k++) {
			const struct om_node *n = &img->nodes[k];

			sum += strlen(img->strings + n->name);
			for (uint32_t t = 0; t < n->num_inputs + n->num_outputs; t++) {
				const struct om_tensor *tt = &img->tensors[n->tensors[t]];

				if (tt->loc == OM_LOC_WEIGHT && nonempty(tt))
					sum += img->weights[tt->offset];
			}
		}
	}
	return sum;
}

TEST(mutated_images_are_refused_or_safe)
{
	void *(*build[])(size_t *) = { om_build_add_relu, om_build_matmul,
				       om_build_dynbatch };
	const char *iters_env = getenv("VNPU_OM_FUZZ_ITERS");
	const char *seed_env = getenv("VNPU_OM_FUZZ_SEED");
	long iters = iters_env ? atol(iters_env) : 200000;
	uint64_t counts[3] = { 0 }, deep = 0, sum = 0;
	uint64_t seed = seed_env ? strtoull(seed_env, NULL, 0) :
			(uint64_t)time(NULL) * 2654435761u + 1;
	size_t sizes[3];
	void *valid[3];

	rng = seed | 1;
	TH_LOG("seed 0x%llx, %ld images", (unsigned long long)seed, iters);
	for (int m = 0; m < 3; m++)
		valid[m] = build[m](&sizes[m]);
	for (long it = 0; it < iters; it++) {
		int m = (int)(rnd() % 3), nmut = 1 + (int)(rnd() % 4);
		size_t size = sizes[m];
		uint8_t *work = malloc(size);
		struct om_image img;
		bool recrc = rnd() & 1;
		char why[256];
		uint8_t *copy;
		int ret;

		memcpy(work, valid[m], size);
		for (int k = 0; k < nmut && size >= 8; k++)
			mutate(work, &size);
		if (recrc)
			omb_recrc(work, size);
		/* Exactly size bytes, so that any overread is caught. */
		copy = malloc(size ? size : 1);
		memcpy(copy, work, size);
		ret = om_read(copy, size, &img, why, sizeof(why));
		ASSERT_TRUE(ret == 0 || ret == OM_ERR_FILE || ret == OM_ERR_PARSE)
			TH_LOG("iteration %ld: %d", it, ret);
		counts[ret == 0 ? 0 : ret == OM_ERR_FILE ? 1 : 2]++;
		if (ret)
			ASSERT_NE(0, why[0]);
		if (ret == OM_ERR_PARSE && recrc && !strstr(why, "checksum"))
			deep++;
		if (!ret)
			sum += walk(&img);
		free(copy);
		free(work);
	}
	TH_LOG("accepted %llu, not a model %llu, bad model %llu (%llu past the checksums); walk %llu",
	       (unsigned long long)counts[0], (unsigned long long)counts[1],
	       (unsigned long long)counts[2], (unsigned long long)deep,
	       (unsigned long long)sum);
	/* The mutations reach the rules behind the CRC, and all three answers. */
	EXPECT_GT(deep, (uint64_t)iters / 10);
	EXPECT_GT(counts[0], 0);
	EXPECT_GT(counts[1], 0);
	for (int m = 0; m < 3; m++)
		free(valid[m]);
}

TEST_HARNESS_MAIN
