// SPDX-License-Identifier: GPL-2.0-only
/*
 * Stress: 10 000 objects come and go without address overlaps or leaks,
 * and PRIME export and import churn. Runs in the VM with vnpu.ko loaded.
 */
#include "vnpu_mem_share_test_util.h"

#define ST_TOTAL	10000

#define ST_LIVE		500

#define ST_MAX_SIZE	(64u << 10)

#define ST_HASH		32768	/* power of two, > 2 * ST_TOTAL */

struct st_obj {
	uint32_t handle;
	uint32_t placement;
	uint64_t va;
	uint64_t size;
};

/* xorshift64*: the same sequence everywhere, independent of libc. */
static uint64_t st_rand(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545f4914f6cdd1dull;
}

/* Insert va into an open-addressing set; returns true if it was there. */
static bool st_seen(uint64_t *set, uint64_t va)
{
	uint64_t i = (va >> 12) * 0x9e3779b97f4a7c15ull >> 49;

	for (;; i = (i + 1) & (ST_HASH - 1)) {
		if (set[i] == va)
			return true;
		if (!set[i]) {
			set[i] = va;
			return false;
		}
	}
}

static double ms_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * 10 000 small DEVICE and HOST objects created and closed in random
 * interleaved order, up to ST_LIVE alive at once. Live objects never share
 * or crowd a VA (each is followed by at least a guard page), the counters
 * follow every step, freed VAs are handed out again, and at the end
 * nothing is left.
 */
#pragma push_macro("TEST_TIMEOUT_DEFAULT")

#undef TEST_TIMEOUT_DEFAULT

#define TEST_TIMEOUT_DEFAULT 60	/* plain TEST() has no timeout argument */

TEST(stress_10000_objects)
{
	uint64_t used0 = 0, count0 = 0, total = 0, avail = 0, v = 0;
	uint64_t charged = 0, peak_charged = 0;
	uint64_t state = 0x5eed0f5eedull;
	long created = 0, closed = 0, repeats = 0, ops = 0, max_live = 0;
	long live = 0, cap, bad_va = 0, crowded = 0, dup = 0;
	struct st_obj *objs;
	struct ms_env e;
	uint64_t *seen;
	double t0, t;
	long i;

	ms_env_init(_metadata, &e);
	objs = calloc(ST_LIVE, sizeof(*objs));
	seen = calloc(ST_HASH, sizeof(*seen));
	ASSERT_NE(NULL, objs);
	ASSERT_NE(NULL, seen);
	ASSERT_EQ(0, vnpu_get_param(e.fd, DRM_VNPU_PARAM_MEM_USED, &used0));
	ASSERT_EQ(0, vnpu_get_param(e.fd, DRM_VNPU_PARAM_BO_COUNT, &count0));
	ASSERT_EQ(0, vnpu_get_param(e.fd, DRM_VNPU_PARAM_MEM_TOTAL, &total));
	ASSERT_EQ(0, vnpu_get_param(e.fd, DRM_VNPU_PARAM_MEM_FREE, &avail));
	ASSERT_EQ(total - used0, avail);
	/* Room for the worst case, every live object DEVICE and 64 KiB. */
	cap = ST_LIVE;
	if (avail / ST_MAX_SIZE < (uint64_t)cap)
		cap = avail / ST_MAX_SIZE;
	ASSERT_GE(cap, 16) TH_LOG("only %llu bytes of device memory free",
				  (unsigned long long)avail);
	if (cap < ST_LIVE)
		TH_LOG("device memory allows %ld live objects", cap);

	t0 = ms_now();
	while (created < ST_TOTAL || live) {
		bool create = created < ST_TOTAL && live < cap &&
			      (!live || st_rand(&state) % 100 < 60);

		ops++;
		if (create) {
			struct st_obj *o = &objs[live];
			uint64_t end;

			o->size = 1 + st_rand(&state) % ST_MAX_SIZE;
			o->placement = st_rand(&state) & 1 ?
				       DRM_VNPU_PLACEMENT_HOST :
				       DRM_VNPU_PLACEMENT_DEVICE;
			ASSERT_EQ(0, ms_bo_create(e.fd, o->size, o->placement,
						  0, NULL, &o->handle, &o->va))
				TH_LOG("object %ld (%llu bytes, %ld live)",
				       created, (unsigned long long)o->size,
				       live);
			created++;
			if (!ms_va_in(o->va, o->placement ==
				      DRM_VNPU_PLACEMENT_DEVICE ?
				      DRM_VNPU_VA_DEVICE_START :
				      DRM_VNPU_VA_HOST_START))
				bad_va++;
			end = o->va + MS_PAGE_ALIGN(o->size) + MS_PAGE;
			for (i = 0; i < live; i++) {
				struct st_obj *p = &objs[i];

				if (p->va == o->va) {
					dup++;
					continue;
				}
				if (p->placement != o->placement)
					continue;
				/* The lower one's pages and guard come first. */
				if (p->va < o->va ?
				    o->va - p->va < MS_PAGE_ALIGN(p->size) + MS_PAGE :
				    p->va < end)
					crowded++;
			}
			if (st_seen(seen, o->va))
				repeats++;
			if (o->placement == DRM_VNPU_PLACEMENT_DEVICE)
				charged += MS_PAGE_ALIGN(o->size);
			if (charged > peak_charged)
				peak_charged = charged;
			live++;
			if (live > max_live)
				max_live = live;
		} else {
			struct st_obj *o;

			i = st_rand(&state) % live;
			o = &objs[i];
			ASSERT_EQ(0, ms_gem_close(e.fd, o->handle));
			if (o->placement == DRM_VNPU_PLACEMENT_DEVICE)
				charged -= MS_PAGE_ALIGN(o->size);
			objs[i] = objs[--live];
			closed++;
		}
		/* Now and then: the counters and a random object's info. */
		if (!(ops % 256)) {
			struct drm_vnpu_bo_info bi;

			ASSERT_EQ(0, vnpu_get_param(e.fd, DRM_VNPU_PARAM_MEM_USED,
						    &v));
			ASSERT_EQ(used0 + charged, v) TH_LOG("after %ld ops", ops);
			ASSERT_EQ(0, vnpu_get_param(e.fd, DRM_VNPU_PARAM_BO_COUNT,
						    &v));
			ASSERT_EQ(count0 + live, v) TH_LOG("after %ld ops", ops);
			if (live) {
				struct st_obj *o = &objs[st_rand(&state) % live];

				ASSERT_EQ(0, ms_bo_info(e.fd, o->handle, &bi));
				ASSERT_EQ(o->va, bi.va);
				ASSERT_EQ(o->size, bi.size);
				ASSERT_EQ(o->placement, bi.placement);
			}
		}
	}
	t = ms_now() - t0;

	EXPECT_EQ(ST_TOTAL, created);
	EXPECT_EQ(ST_TOTAL, closed);
	EXPECT_EQ(0, bad_va);
	EXPECT_EQ(0, dup);
	EXPECT_EQ(0, crowded);
	EXPECT_GT(repeats, 0);
	ASSERT_EQ(0, vnpu_get_param(e.fd, DRM_VNPU_PARAM_MEM_USED, &v));
	EXPECT_EQ(used0, v);
	ASSERT_EQ(0, vnpu_get_param(e.fd, DRM_VNPU_PARAM_BO_COUNT, &v));
	EXPECT_EQ(count0, v);
	ASSERT_EQ(0, vnpu_get_param(e.fd, DRM_VNPU_PARAM_MEM_PEAK, &v));
	EXPECT_GE(v, used0 + peak_charged);
	EXPECT_EQ((long long)used0, ms_used(e.paths[0]));
	TH_LOG("%ld objects in %ld ops, up to %ld alive (%llu KiB of device memory), %ld VAs handed out again; %.2f s, %.0f ops/s",
	       created, ops, max_live,
	       (unsigned long long)(peak_charged >> 10), repeats, t, ops / t);
	free(objs);
	free(seen);
	close(e.fd);
}

#pragma pop_macro("TEST_TIMEOUT_DEFAULT")

/*
 * Sharing churn: objects exported from one device and imported on the
 * same and on another device, with handles and dma-buf fds dropped in
 * random order, leave no object, charge or mapping behind.
 */
#define SC_ROUNDS	2000

TEST(stress_prime_churn)
{
	long long obj0[2], used0[2];
	uint64_t state = 0xc0ffee;
	int fds[3], r, k, nd;
	struct ms_env e;
	double t0;

	ms_env_init(_metadata, &e);
	nd = e.n >= 2 ? 2 : 1;
	for (k = 0; k < nd; k++) {
		obj0[k] = ms_objects(e.paths[k]);
		used0[k] = ms_used(e.paths[k]);
	}
	fds[0] = e.fd;
	fds[1] = open(e.paths[0], O_RDWR | O_CLOEXEC);
	fds[2] = open(e.paths[nd - 1], O_RDWR | O_CLOEXEC);
	ASSERT_GE(fds[1], 0);
	ASSERT_GE(fds[2], 0);
	t0 = ms_now();
	for (r = 0; r < SC_ROUNDS; r++) {
		/* Four things hold the object; drop them in a random order. */
		int order[5];
		bool h1_closed;
		uint64_t size = MS_PAGE * (1 + st_rand(&state) % 8);
		uint32_t place = st_rand(&state) & 1 ? DRM_VNPU_PLACEMENT_HOST :
						       DRM_VNPU_PLACEMENT_DEVICE;
		uint32_t h, h1, h2;
		uint64_t va;
		struct drm_vnpu_bo_info bi;
		uint8_t b[8], c[8];
		int d, i;

		ASSERT_EQ(0, ms_bo_create(fds[0], size, place, 0, NULL, &h, &va));
		ms_fill(b, sizeof(b), r);
		ASSERT_EQ(0, ms_h2d(fds[0], va, b, sizeof(b)));
		ASSERT_EQ(0, ms_export(fds[0], h, &d));
		ASSERT_EQ(0, ms_import(fds[1], d, &h1));
		ASSERT_EQ(0, ms_import(fds[2], d, &h2));
		ASSERT_EQ(0, ms_bo_info(fds[2], h2, &bi));
		ASSERT_EQ(0, ms_d2h(fds[2], c, bi.va, sizeof(c)));
		ASSERT_EQ(-1, ms_check(c, sizeof(c), r));
		/* Shuffle the five actions, then run them in that order. */
		for (i = 0; i < 5; i++)
			order[i] = i;
		for (i = 4; i > 0; i--) {
			int j = st_rand(&state) % (i + 1), t = order[i];

			order[i] = order[j];
			order[j] = t;
		}
		h1_closed = false;
		for (i = 0; i < 5; i++) {
			switch (order[i]) {
			case 0:
				ASSERT_EQ(0, ms_gem_close(fds[0], h));
				break;
			case 1:
				ASSERT_EQ(0, ms_gem_close(fds[1], h1));
				h1_closed = true;
				break;
			case 2:
				ASSERT_EQ(0, ms_gem_close(fds[2], h2));
				break;
			case 3:
				close(d);
				break;
			case 4:
				/* Gone exactly when its own handle is closed. */
				ASSERT_EQ(h1_closed ? -ENOENT : 0,
					  ms_bo_info(fds[1], h1, &bi));
				break;
			}
		}
	}
	for (k = 0; k < nd; k++) {
		EXPECT_EQ(obj0[k], ms_objects(e.paths[k])) TH_LOG("device %d", k);
		EXPECT_EQ(used0[k], ms_used(e.paths[k])) TH_LOG("device %d", k);
	}
	TH_LOG("%d export/import rounds on %d device(s) in %.2f s", SC_ROUNDS,
	       nd, ms_now() - t0);
	close(fds[1]);
	close(fds[2]);
	close(e.fd);
}

TEST_HARNESS_MAIN
