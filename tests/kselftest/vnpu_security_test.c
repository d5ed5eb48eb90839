// SPDX-License-Identifier: GPL-2.0-only
/*
 * vnpu security regressions, run as an unprivileged user: the reproducers
 * of issue 11 (tensor extents that wrap, addresses past the address space,
 * DRM core ioctls that assume a primary node, a queue published before it
 * was complete) and the rules added with their fixes. Each call differs
 * from a valid one in one field and must fail with its exact errno while
 * the kernel stays clean (the VM runner scans dmesg).
 *
 * When started as root, the program opens the accel nodes to everybody
 * (what a udev rule for a render-like node would do) and drops to
 * nobody/nogroup before any test runs.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <drm/vnpu_accel.h>

#include "kselftest_harness.h"
#include "vnpu_test_util.h"

#define NOBODY 65534

/* Not in Debian 12's libdrm headers (Linux 6.6). */
#ifndef DRM_IOCTL_SYNCOBJ_EVENTFD
struct test_syncobj_eventfd {
	uint32_t handle, flags;
	uint64_t point;
	int32_t fd;
	uint32_t pad;
};
#define DRM_IOCTL_SYNCOBJ_EVENTFD DRM_IOWR(0xCF, struct test_syncobj_eventfd)
#endif

static bool dropped;

/* Runs before the harness: every test is an unprivileged process. */
__attribute__((constructor)) static void drop_privileges(void)
{
	char paths[VNPU_TEST_MAX_NODES][64];
	int i, n;

	if (geteuid() != 0)
		return;
	n = vnpu_list_nodes(paths, VNPU_TEST_MAX_NODES);
	for (i = 0; i < n; i++)
		chmod(paths[i], 0666);
	if (setgroups(0, NULL) || setresgid(NOBODY, NOBODY, NOBODY) ||
	    setresuid(NOBODY, NOBODY, NOBODY))
		return;
	prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	dropped = true;
}

struct dev {
	int fd;
	struct drm_vnpu_queue_create q;
};

static void dev_open(struct __test_metadata *_metadata, struct dev *d)
{
	memset(d, 0, sizeof(*d));
	d->fd = open("/dev/accel/accel0", O_RDWR | O_CLOEXEC);
	ASSERT_GE(d->fd, 0) TH_LOG("no /dev/accel/accel0: %s", strerror(errno));
	d->q.priority = DRM_VNPU_PRIORITY_NORMAL;
	ASSERT_EQ(0, ioctl(d->fd, DRM_IOCTL_VNPU_QUEUE_CREATE, &d->q));
}

static int bo_new(int fd, uint64_t size, uint32_t placement, uint64_t *va,
		  uint32_t *handle)
{
	struct drm_vnpu_bo_create c = { .size = size, .placement = placement };

	if (ioctl(fd, DRM_IOCTL_VNPU_BO_CREATE, &c))
		return -errno;
	*va = c.va;
	if (handle)
		*handle = c.handle;
	return 0;
}

static int wait_point(int fd, uint32_t syncobj, uint64_t point)
{
	struct drm_syncobj_timeline_wait w = { 0 };
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	w.handles = (uintptr_t)&syncobj;
	w.points = (uintptr_t)&point;
	w.count_handles = 1;
	w.timeout_nsec = (ts.tv_sec + 60) * 1000000000LL + ts.tv_nsec;
	w.flags = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT;
	return xioctl(fd, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &w);
}

static int submit(struct dev *d, const struct drm_vnpu_task *t, uint32_t n,
		  const void *args, uint32_t args_size, uint64_t *seq)
{
	struct drm_vnpu_submit s = {
		.queue_id = d->q.queue_id,
		.tasks = (uintptr_t)t,
		.task_count = n,
		.task_stride = sizeof(*t),
		.args = (uintptr_t)args,
		.args_size = args_size,
	};
	int ret = xioctl(d->fd, DRM_IOCTL_VNPU_SUBMIT, &s);

	if (!ret && seq)
		*seq = s.seq;
	return ret;
}

static uint32_t job_state(struct dev *d, uint64_t seq)
{
	struct drm_vnpu_job_status st = { .queue_id = d->q.queue_id, .seq = seq };

	if (wait_point(d->fd, d->q.syncobj, seq) ||
	    xioctl(d->fd, DRM_IOCTL_VNPU_JOB_STATUS, &st))
		return ~0u;
	return st.state;
}

/* A KERNEL task's argument block: one optional input, one output. */
struct kargs {
	struct drm_vnpu_kernel_args ka;
	struct drm_vnpu_tensor t[2];
};

static int submit_kernel(struct dev *d, uint32_t op, const struct kargs *a,
			 uint64_t *seq)
{
	uint32_t n = a->ka.num_inputs + a->ka.num_outputs;
	struct drm_vnpu_task t = { .type = DRM_VNPU_TASK_KERNEL };

	t.kernel.op = op;
	t.kernel.args_size = sizeof(a->ka) + n * sizeof(a->t[0]);
	return submit(d, &t, 1, a, sizeof(*a), seq);
}

static void tensor1(struct drm_vnpu_tensor *t, uint64_t va, int64_t n)
{
	memset(t, 0, sizeof(*t));
	t->va = va;
	t->dtype = DRM_VNPU_DTYPE_FLOAT;
	t->rank = 1;
	t->shape[0] = n;
	t->strides[0] = 1;
}

TEST(runs_unprivileged)
{
	if (!dropped)
		SKIP(return, "not started as root: runs as uid %d", getuid());
	EXPECT_EQ(NOBODY, (int)geteuid());
}

/* ------------------------------------------- issue 11.1: tensor extents -- */

/*
 * The reported reproducer: [2^22 + 1, 2] with strides [2^40, 1] spans
 * (2^62 + 2) * 4 bytes, which wraps 2^64 to 8 and used to pass the MMU.
 */
TEST(kernel_extent_that_wraps_is_rejected)
{
	struct kargs a = { .ka = { .num_inputs = 1, .num_outputs = 1 } };
	uint64_t va;
	struct dev d;

	dev_open(_metadata, &d);
	ASSERT_EQ(0, bo_new(d.fd, 4096, DRM_VNPU_PLACEMENT_DEVICE, &va, NULL));
	tensor1(&a.t[0], va, 2);
	a.t[1].va = va + 2048;
	a.t[1].dtype = DRM_VNPU_DTYPE_FLOAT;
	a.t[1].rank = 2;
	a.t[1].shape[0] = (1LL << 22) + 1;
	a.t[1].shape[1] = 2;
	a.t[1].strides[0] = 1LL << 40;
	a.t[1].strides[1] = 1;
	a.t[0] = a.t[1];
	a.t[0].va = va;
	EXPECT_EQ(-EINVAL, submit_kernel(&d, DRM_VNPU_OP_NEG, &a, NULL));

	/* The same through FILL, an operator without inputs. */
	a.ka.num_inputs = 0;
	a.t[0] = a.t[1];
	EXPECT_EQ(-EINVAL, submit_kernel(&d, DRM_VNPU_OP_FILL, &a, NULL));
}

TEST(kernel_extent_bounds)
{
	struct kargs a = { .ka = { .num_inputs = 0, .num_outputs = 1 } };
	uint64_t va, seq;
	struct dev d;

	dev_open(_metadata, &d);
	ASSERT_EQ(0, bo_new(d.fd, 1 << 20, DRM_VNPU_PLACEMENT_DEVICE, &va, NULL));

	/* A term that passes 2^64: (2^24) * 2^40. */
	memset(&a.t[0], 0, sizeof(a.t[0]));
	a.t[0].va = va;
	a.t[0].dtype = DRM_VNPU_DTYPE_INT64;
	a.t[0].rank = 2;
	a.t[0].shape[0] = (1LL << 24) + 1;
	a.t[0].strides[0] = 1LL << 40;
	a.t[0].shape[1] = 1;
	a.t[0].strides[1] = 1;
	EXPECT_EQ(-EINVAL, submit_kernel(&d, DRM_VNPU_OP_FILL, &a, NULL));

	/* Two terms of 2^63 each: the sum passes 2^64. */
	a.t[0].shape[0] = a.t[0].shape[1] = (1LL << 23) + 1;
	a.t[0].strides[0] = a.t[0].strides[1] = 1LL << 40;
	EXPECT_EQ(-EINVAL, submit_kernel(&d, DRM_VNPU_OP_FILL, &a, NULL));

	/* Every dim at its bound with zero strides: 2^320 elements. */
	a.t[0].rank = DRM_VNPU_MAX_RANK;
	for (int i = 0; i < DRM_VNPU_MAX_RANK; i++) {
		a.t[0].shape[i] = 1LL << 40;
		a.t[0].strides[i] = 0;
	}
	EXPECT_EQ(-EINVAL, submit_kernel(&d, DRM_VNPU_OP_FILL, &a, NULL));

	/* One dim past the per-dim bound, even in an empty view. */
	tensor1(&a.t[0], va, (1LL << 40) + 1);
	a.t[0].strides[0] = 0;
	EXPECT_EQ(-EINVAL, submit_kernel(&d, DRM_VNPU_OP_FILL, &a, NULL));
	a.t[0].rank = 2;
	a.t[0].shape[1] = 0;
	EXPECT_EQ(-EINVAL, submit_kernel(&d, DRM_VNPU_OP_FILL, &a, NULL));

	/* 2^62 elements of stride 0 span 4 bytes: too much work, refused. */
	tensor1(&a.t[0], va, 1LL << 40);
	a.t[0].rank = 2;
	a.t[0].shape[1] = 1LL << 22;
	a.t[0].strides[0] = 0;
	a.t[0].strides[1] = 0;
	EXPECT_EQ(-EINVAL, submit_kernel(&d, DRM_VNPU_OP_FILL, &a, NULL));

	/* More bytes than any object can have. */
	tensor1(&a.t[0], va, (1LL << 34) + 1);
	EXPECT_EQ(-EINVAL, submit_kernel(&d, DRM_VNPU_OP_FILL, &a, NULL));

	/* Negative shapes and strides. */
	tensor1(&a.t[0], va, -1);
	EXPECT_EQ(-EINVAL, submit_kernel(&d, DRM_VNPU_OP_FILL, &a, NULL));
	tensor1(&a.t[0], va, 4);
	a.t[0].strides[0] = -1;
	EXPECT_EQ(-EINVAL, submit_kernel(&d, DRM_VNPU_OP_FILL, &a, NULL));

	/* The largest view that fits the object runs. */
	tensor1(&a.t[0], va, (1 << 20) / 4);
	ASSERT_EQ(0, submit_kernel(&d, DRM_VNPU_OP_FILL, &a, &seq));
	EXPECT_EQ(DRM_VNPU_JOB_OK, job_state(&d, seq));

	/* One element more faults on the MMU instead of writing past it. */
	tensor1(&a.t[0], va, (1 << 20) / 4 + 1);
	ASSERT_EQ(0, submit_kernel(&d, DRM_VNPU_OP_FILL, &a, &seq));
	EXPECT_EQ(DRM_VNPU_JOB_FAULT, job_state(&d, seq));
}

/* ------------------------------- issue 11.2: VAs outside the address space -- */

TEST(memcpy_outside_the_va_space_faults)
{
	const uint64_t end = DRM_VNPU_VA_IMPORT_START + DRM_VNPU_VA_RANGE_SIZE;
	const uint64_t bad[] = {
		end, end + 4096, end + (1ULL << 40), UINT64_MAX - 7, 1ULL << 63,
		0, 4096, DRM_VNPU_VA_DEVICE_START - 8,
	};
	struct drm_vnpu_fault_info fi = { 0 };
	struct drm_vnpu_memcpy edge = { 0 };
	uint64_t va, host[2] = { 0 };
	struct dev d;
	unsigned int i;

	dev_open(_metadata, &d);
	ASSERT_EQ(0, bo_new(d.fd, 4096, DRM_VNPU_PLACEMENT_DEVICE, &va, NULL));
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct drm_vnpu_memcpy m = {
			.dst = (uintptr_t)host, .src = bad[i], .size = 8,
			.flags = DRM_VNPU_MEMCPY_SRC_DEVICE,
		};

		EXPECT_EQ(-ENXIO, xioctl(d.fd, DRM_IOCTL_VNPU_MEMCPY, &m))
			TH_LOG("src 0x%llx", (unsigned long long)bad[i]);
		m.dst = bad[i];
		m.src = (uintptr_t)host;
		m.flags = DRM_VNPU_MEMCPY_DST_DEVICE;
		EXPECT_EQ(-ENXIO, xioctl(d.fd, DRM_IOCTL_VNPU_MEMCPY, &m))
			TH_LOG("dst 0x%llx", (unsigned long long)bad[i]);
	}
	ASSERT_EQ(0, xioctl(d.fd, DRM_IOCTL_VNPU_FAULT_INFO, &fi));
	EXPECT_EQ(2 * sizeof(bad) / sizeof(bad[0]), fi.count);
	EXPECT_EQ(DRM_VNPU_FAULT_UNMAPPED, fi.reason);

	/* A range that starts inside and ends past the address space. */
	edge.dst = (uintptr_t)host;
	edge.src = end - 8;
	edge.size = 16;
	edge.flags = DRM_VNPU_MEMCPY_SRC_DEVICE;
	EXPECT_EQ(-ENXIO, xioctl(d.fd, DRM_IOCTL_VNPU_MEMCPY, &edge));
}

TEST(copy_task_outside_the_va_space_faults)
{
	const uint64_t end = DRM_VNPU_VA_IMPORT_START + DRM_VNPU_VA_RANGE_SIZE;
	struct drm_vnpu_task t = { .type = DRM_VNPU_TASK_COPY };
	struct drm_vnpu_job_status st = { 0 };
	struct drm_vnpu_queue_destroy r = { 0 };
	uint64_t va, seq;
	struct dev d;

	dev_open(_metadata, &d);
	ASSERT_EQ(0, bo_new(d.fd, 4096, DRM_VNPU_PLACEMENT_DEVICE, &va, NULL));
	t.copy.src = end;
	t.copy.dst = va;
	t.copy.size = 64;
	ASSERT_EQ(0, submit(&d, &t, 1, NULL, 0, &seq));
	EXPECT_EQ(DRM_VNPU_JOB_FAULT, job_state(&d, seq));
	st.queue_id = d.q.queue_id;
	st.seq = seq;
	ASSERT_EQ(0, xioctl(d.fd, DRM_IOCTL_VNPU_JOB_STATUS, &st));
	EXPECT_EQ(end, st.fault_va);
	EXPECT_EQ(DRM_VNPU_FAULT_UNMAPPED, st.fault_reason);

	/* The queue recovers and the same copy inside the object works. */
	r.queue_id = d.q.queue_id;
	ASSERT_EQ(0, xioctl(d.fd, DRM_IOCTL_VNPU_QUEUE_RESET, &r));
	t.copy.src = va + 2048;
	ASSERT_EQ(0, submit(&d, &t, 1, NULL, 0, &seq));
	EXPECT_EQ(DRM_VNPU_JOB_OK, job_state(&d, seq));
}

/* -------------------------------------- issue 11.3: DRM core ioctls -- */

struct core_case {
	const char *name;
	unsigned long req;
};

/* Core ioctls an accel client has no use for: each fails, none oopses. */
static const struct core_case rejected[] = {
	{ "GET_MAGIC", DRM_IOCTL_GET_MAGIC },
	{ "GET_UNIQUE", DRM_IOCTL_GET_UNIQUE },
	{ "AUTH_MAGIC", DRM_IOCTL_AUTH_MAGIC },
	{ "SET_VERSION", DRM_IOCTL_SET_VERSION },
	{ "SET_MASTER", DRM_IOCTL_SET_MASTER },
	{ "DROP_MASTER", DRM_IOCTL_DROP_MASTER },
	{ "GET_CLIENT", DRM_IOCTL_GET_CLIENT },
	{ "GET_STATS", DRM_IOCTL_GET_STATS },
	{ "SET_CLIENT_CAP", DRM_IOCTL_SET_CLIENT_CAP },
	{ "GEM_FLINK", DRM_IOCTL_GEM_FLINK },
	{ "GEM_OPEN", DRM_IOCTL_GEM_OPEN },
	{ "SYNCOBJ_EVENTFD", DRM_IOCTL_SYNCOBJ_EVENTFD },
	{ "MODE_GETRESOURCES", DRM_IOCTL_MODE_GETRESOURCES },
	{ "MODE_CREATE_DUMB", DRM_IOCTL_MODE_CREATE_DUMB },
	{ "WAIT_VBLANK", DRM_IOCTL_WAIT_VBLANK },
	{ "CRTC_GET_SEQUENCE", DRM_IOCTL_CRTC_GET_SEQUENCE },
};

TEST(core_ioctls_without_accel_use_are_rejected)
{
	unsigned int i;
	struct dev d;

	dev_open(_metadata, &d);
	for (i = 0; i < sizeof(rejected) / sizeof(rejected[0]); i++) {
		char buf[256] = { 0 };

		EXPECT_EQ(-EOPNOTSUPP, xioctl(d.fd, rejected[i].req, buf))
			TH_LOG("%s", rejected[i].name);
	}
	/* Twice: a first call must not leave a lock or state behind. */
	for (i = 0; i < sizeof(rejected) / sizeof(rejected[0]); i++) {
		char buf[256] = { 0 };

		EXPECT_EQ(-EOPNOTSUPP, xioctl(d.fd, rejected[i].req, buf))
			TH_LOG("%s again", rejected[i].name);
	}
}

TEST(core_ioctls_an_accel_client_needs_still_work)
{
	struct drm_syncobj_create sc = { 0 };
	struct drm_syncobj_destroy sd = { 0 };
	struct drm_get_cap cap = { .capability = DRM_CAP_SYNCOBJ_TIMELINE };
	char name[64];
	struct dev d;

	dev_open(_metadata, &d);
	EXPECT_EQ(0, vnpu_driver_name(d.fd, name, sizeof(name)));
	EXPECT_STREQ("vnpu", name);
	EXPECT_EQ(0, xioctl(d.fd, DRM_IOCTL_GET_CAP, &cap));
	EXPECT_EQ(1, cap.value);
	ASSERT_EQ(0, xioctl(d.fd, DRM_IOCTL_SYNCOBJ_CREATE, &sc));
	sd.handle = sc.handle;
	EXPECT_EQ(0, xioctl(d.fd, DRM_IOCTL_SYNCOBJ_DESTROY, &sd));
}

/* Every syncobj array ioctl: a huge count fails before the core allocates. */
TEST(syncobj_handle_counts_are_bounded)
{
	struct drm_syncobj_wait w = { 0 };
	struct drm_syncobj_timeline_wait tw = { 0 };
	struct drm_syncobj_array arr = { 0 };
	struct drm_syncobj_timeline_array ta = { 0 };
	const uint32_t huge[] = { 0xffffffffu, 1u << 30, 4097 };
	uint32_t handles[4096] = { 0 };
	uint64_t points[4096] = { 0 };
	unsigned int i;
	struct dev d;

	dev_open(_metadata, &d);
	for (i = 0; i < 3; i++) {
		w.handles = tw.handles = arr.handles = ta.handles = (uintptr_t)handles;
		tw.points = ta.points = (uintptr_t)points;
		w.count_handles = tw.count_handles = huge[i];
		arr.count_handles = ta.count_handles = huge[i];
		EXPECT_EQ(-EINVAL, xioctl(d.fd, DRM_IOCTL_SYNCOBJ_WAIT, &w));
		EXPECT_EQ(-EINVAL, xioctl(d.fd, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &tw));
		EXPECT_EQ(-EINVAL, xioctl(d.fd, DRM_IOCTL_SYNCOBJ_RESET, &arr));
		EXPECT_EQ(-EINVAL, xioctl(d.fd, DRM_IOCTL_SYNCOBJ_SIGNAL, &arr));
		EXPECT_EQ(-EINVAL, xioctl(d.fd, DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL, &ta));
		EXPECT_EQ(-EINVAL, xioctl(d.fd, DRM_IOCTL_SYNCOBJ_QUERY, &ta));
	}
	/* At the bound the call reaches the core, which finds no handle 0. */
	arr.count_handles = ta.count_handles = 4096;
	EXPECT_EQ(-ENOENT, xioctl(d.fd, DRM_IOCTL_SYNCOBJ_RESET, &arr));
	EXPECT_EQ(-ENOENT, xioctl(d.fd, DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL, &ta));
	EXPECT_EQ(-ENOENT, xioctl(d.fd, DRM_IOCTL_SYNCOBJ_QUERY, &ta));
}

TEST(syncobjs_per_file_are_bounded)
{
	struct drm_syncobj_create sc = { 0 };
	struct drm_syncobj_destroy sd = { 0 };
	struct drm_syncobj_handle h = { 0 };
	uint32_t first = 0, n = 0;
	int ret, fd2;
	struct dev d;

	dev_open(_metadata, &d);
	/* The queue's own syncobj is not counted. */
	while (!(ret = xioctl(d.fd, DRM_IOCTL_SYNCOBJ_CREATE, &sc))) {
		if (!first)
			first = sc.handle;
		n++;
		ASSERT_LT(n, 20000);
	}
	EXPECT_EQ(-ENOSPC, ret);
	EXPECT_EQ(16384, n);

	/* Importing one more fails too; freeing one makes room. */
	h.handle = first;
	ASSERT_EQ(0, xioctl(d.fd, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &h));
	fd2 = h.fd;
	h.handle = 0;
	EXPECT_EQ(-ENOSPC, xioctl(d.fd, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &h));
	sd.handle = first;
	ASSERT_EQ(0, xioctl(d.fd, DRM_IOCTL_SYNCOBJ_DESTROY, &sd));
	h.handle = 0;
	EXPECT_EQ(0, xioctl(d.fd, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &h));
	close(fd2);
}

/* --------------------------------- issue 11.4: queue publication race -- */

struct race {
	int fd;
	volatile bool stop;
	unsigned long created, destroyed, bad_handles;
};

static void *queue_creator(void *p)
{
	struct race *r = p;

	while (!r->stop) {
		struct drm_vnpu_queue_create q = { .priority = DRM_VNPU_PRIORITY_NORMAL };
		struct drm_syncobj_timeline_array ta = { 0 };
		struct drm_syncobj_destroy sd = { 0 };
		uint64_t point = ~0ull;

		if (ioctl(r->fd, DRM_IOCTL_VNPU_QUEUE_CREATE, &q))
			continue;
		r->created++;
		/* The handle must name a live syncobj at point 0. */
		ta.handles = (uintptr_t)&q.syncobj;
		ta.points = (uintptr_t)&point;
		ta.count_handles = 1;
		if (ioctl(r->fd, DRM_IOCTL_SYNCOBJ_QUERY, &ta) || point != 0)
			r->bad_handles++;
		sd.handle = q.syncobj;
		ioctl(r->fd, DRM_IOCTL_SYNCOBJ_DESTROY, &sd);
	}
	return NULL;
}

TEST(queue_create_races_destroy)
{
	struct race r = { 0 };
	pthread_t th;
	time_t end;
	uint32_t id;

	r.fd = open("/dev/accel/accel0", O_RDWR | O_CLOEXEC);
	ASSERT_GE(r.fd, 0);
	ASSERT_EQ(0, pthread_create(&th, NULL, queue_creator, &r));
	end = time(NULL) + 3;
	while (time(NULL) < end) {
		/* Ids are the lowest free ones: hit the one being created. */
		for (id = 1; id <= 2; id++) {
			struct drm_vnpu_queue_destroy qd = { .queue_id = id };

			if (!ioctl(r.fd, DRM_IOCTL_VNPU_QUEUE_DESTROY, &qd))
				r.destroyed++;
		}
	}
	r.stop = true;
	pthread_join(th, NULL);
	TH_LOG("%lu queues created, %lu destroyed", r.created, r.destroyed);
	EXPECT_GT(r.created, 10);
	EXPECT_GT(r.destroyed, 10);
	EXPECT_EQ(0, r.bad_handles);
	close(r.fd);
}

/* ------------------------------------------ issue 11.5: smaller rules -- */

TEST(high_priority_needs_cap_sys_nice)
{
	struct drm_vnpu_queue_create q = { .priority = DRM_VNPU_PRIORITY_HIGH };
	int fd = open("/dev/accel/accel0", O_RDWR | O_CLOEXEC);

	ASSERT_GE(fd, 0);
	if (!dropped)
		SKIP(return, "privileged run");
	EXPECT_EQ(-EACCES, xioctl(fd, DRM_IOCTL_VNPU_QUEUE_CREATE, &q));
	q.priority = DRM_VNPU_PRIORITY_NORMAL;
	EXPECT_EQ(0, xioctl(fd, DRM_IOCTL_VNPU_QUEUE_CREATE, &q));
	q.priority = DRM_VNPU_PRIORITY_LOW;
	EXPECT_EQ(0, xioctl(fd, DRM_IOCTL_VNPU_QUEUE_CREATE, &q));
	close(fd);
}

/*
 * Larger task strides are read a chunk at a time: a bad trailing word
 * far into the batch is found, and a clean batch runs.
 */
TEST(wide_task_stride_is_read_in_chunks)
{
	const uint32_t stride = 256, count = 1000;
	uint8_t *buf = calloc(count, stride);
	struct drm_vnpu_submit s = { 0 };
	struct dev d;

	ASSERT_NE(NULL, buf);
	dev_open(_metadata, &d);
	s.queue_id = d.q.queue_id;
	s.tasks = (uintptr_t)buf;
	s.task_count = count;
	s.task_stride = stride;
	buf[(size_t)700 * stride + 100] = 1;	/* chunk 3, trailing part */
	EXPECT_EQ(-EINVAL, xioctl(d.fd, DRM_IOCTL_VNPU_SUBMIT, &s));
	buf[(size_t)700 * stride + 100] = 0;
	ASSERT_EQ(0, xioctl(d.fd, DRM_IOCTL_VNPU_SUBMIT, &s));
	EXPECT_EQ(DRM_VNPU_JOB_OK, job_state(&d, s.seq));
	s.task_stride = 4096 + 8;
	EXPECT_EQ(-EINVAL, xioctl(d.fd, DRM_IOCTL_VNPU_SUBMIT, &s));
	free(buf);
}

/*
 * MEMCPY is not ordered against jobs (the documented rule): while a job
 * that will fill a buffer waits on a host value, a MEMCPY reads the old
 * contents; once the job has run, the new ones.
 */
TEST(memcpy_is_not_ordered_against_jobs)
{
	struct drm_vnpu_task t[2] = { { 0 } };
	struct drm_vnpu_bo_info bi = { 0 };
	struct drm_vnpu_memcpy m = { 0 };
	uint32_t out[16], host_handle;
	uint64_t dev_va, host_va, seq;
	volatile uint64_t *flag;
	struct dev d;
	int i;

	dev_open(_metadata, &d);
	ASSERT_EQ(0, bo_new(d.fd, 4096, DRM_VNPU_PLACEMENT_DEVICE, &dev_va, NULL));
	ASSERT_EQ(0, bo_new(d.fd, 4096, DRM_VNPU_PLACEMENT_HOST, &host_va,
			    &host_handle));
	bi.handle = host_handle;
	ASSERT_EQ(0, xioctl(d.fd, DRM_IOCTL_VNPU_BO_INFO, &bi));
	flag = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, d.fd,
		    bi.mmap_offset);
	ASSERT_NE(MAP_FAILED, (void *)flag);
	*flag = 0;

	t[0].type = DRM_VNPU_TASK_WAIT_VALUE;
	t[0].value.addr = host_va;
	t[0].value.value = 1;
	t[0].value.cond = DRM_VNPU_WAIT_EQ;
	t[1].type = DRM_VNPU_TASK_FILL;
	t[1].fill.dst = dev_va;
	t[1].fill.size = sizeof(out);
	t[1].fill.pattern = 0x11111111;
	t[1].fill.pattern_size = 4;
	ASSERT_EQ(0, submit(&d, t, 2, NULL, 0, &seq));

	m.dst = (uintptr_t)out;
	m.src = dev_va;
	m.size = sizeof(out);
	m.flags = DRM_VNPU_MEMCPY_SRC_DEVICE;
	memset(out, 0xff, sizeof(out));
	ASSERT_EQ(0, xioctl(d.fd, DRM_IOCTL_VNPU_MEMCPY, &m));
	for (i = 0; i < 16; i++)
		EXPECT_EQ(0, out[i]);
	*flag = 1;
	EXPECT_EQ(DRM_VNPU_JOB_OK, job_state(&d, seq));
	ASSERT_EQ(0, xioctl(d.fd, DRM_IOCTL_VNPU_MEMCPY, &m));
	for (i = 0; i < 16; i++)
		EXPECT_EQ(0x11111111u, out[i]);
	munmap((void *)flag, 4096);
}

/* ------------------------------ round 3: empty tensors, split work -- */

/*
 * A tensor without elements reaches no memory: the engine maps nothing for
 * it and the operator sees data NULL with the caller's strides (up to
 * 2^40). ROI_ALIGN accepted an image with H = 0 (or W = 0), clamped its
 * samples to row -1 and read NULL + 4 * (n * s0 + c * s1 - s2 + x * s3)
 * with n from the caller's batch indices: an arbitrary kernel read that
 * oopsed the engine thread. Every operator is now refused a call with an
 * empty tensor next to a non-empty output unless it was audited for it
 * (VNPU_OP_EMPTY_OK), and ROI_ALIGN's own check wants H, W >= 1.
 */
struct r3_args {
	struct drm_vnpu_kernel_args ka;
	struct drm_vnpu_tensor t[4];
	struct drm_vnpu_op_attrs at;
};

static void r3_tensor(struct drm_vnpu_tensor *t, uint64_t va, uint32_t dtype,
		      uint32_t rank, const int64_t *shape)
{
	int64_t stride = 1;
	int d;

	memset(t, 0, sizeof(*t));
	t->va = va;
	t->dtype = dtype;
	t->rank = rank;
	for (d = (int)rank - 1; d >= 0; d--) {
		t->shape[d] = shape[d];
		t->strides[d] = stride;
		stride *= shape[d] ? shape[d] : 1;
	}
}

/* Submit one KERNEL task of @nin + @nout tensors (and attributes). */
static int r3_submit(struct dev *d, uint32_t op, struct r3_args *a, uint32_t nin,
		     uint32_t nout, bool attrs, uint64_t *seq)
{
	struct drm_vnpu_task t = { .type = DRM_VNPU_TASK_KERNEL };
	uint32_t n = nin + nout;

	a->ka.num_inputs = nin;
	a->ka.num_outputs = nout;
	a->ka.attr_size = attrs ? sizeof(a->at) : 0;
	if (attrs)	/* the attributes follow the last tensor */
		memmove(&a->t[n], &a->at, sizeof(a->at));
	t.kernel.op = op;
	t.kernel.args_size = sizeof(a->ka) + n * sizeof(a->t[0]) + a->ka.attr_size;
	return submit(d, &t, 1, a, sizeof(*a), seq);
}

static int r3_put64(struct dev *d, uint64_t va, uint64_t v)
{
	struct drm_vnpu_memcpy m = {
		.dst = va, .src = (uintptr_t)&v, .size = 8,
		.flags = DRM_VNPU_MEMCPY_DST_DEVICE,
	};

	return xioctl(d->fd, DRM_IOCTL_VNPU_MEMCPY, &m);
}

/* ROI_ALIGN of x [N, 1, H, W] with one region; the output [1, 1, 1, 1]. */
static int r3_roi(struct dev *d, uint64_t va, const int64_t *xs, int64_t xstride,
		  uint64_t *seq)
{
	const int64_t rs[2] = { 1, 4 }, bs[1] = { 1 }, os[4] = { 1, 1, 1, 1 };
	struct r3_args a = { 0 };
	float one = 1.0f;
	int i;

	r3_tensor(&a.t[0], va, DRM_VNPU_DTYPE_FLOAT, 4, xs);
	if (xstride)
		for (i = 0; i < 4; i++)
			a.t[0].strides[i] = xstride;
	r3_tensor(&a.t[1], va + 1024, DRM_VNPU_DTYPE_FLOAT, 2, rs);
	r3_tensor(&a.t[2], va + 2048, DRM_VNPU_DTYPE_INT64, 1, bs);
	r3_tensor(&a.t[3], va + 3072, DRM_VNPU_DTYPE_FLOAT, 4, os);
	memcpy(&a.at.floats[0], &one, 4);	/* spatial scale */
	return r3_submit(d, DRM_VNPU_OP_ROI_ALIGN, &a, 3, 1, true, seq);
}

/* A refused call; one the previous module took is left to run. */
static int r3_refused(struct dev *d, uint64_t va, const int64_t *xs,
		      int64_t xstride)
{
	uint64_t seq;
	int ret = r3_roi(d, va, xs, xstride, &seq);

	if (!ret)	/* the engine read the kernel address here */
		job_state(d, seq);
	return ret;
}

TEST(roi_align_of_an_empty_image_is_refused)
{
	/* 2^20 images of stride 2^40: the span of the empty view fits. */
	const int64_t n = 1LL << 20;
	const int64_t ok[4] = { 1, 1, 2, 2 }, no_h[4] = { n, 1, 0, 4 };
	const int64_t no_w[4] = { n, 1, 4, 0 };
	uint64_t va, seq;
	struct dev d;

	dev_open(_metadata, &d);
	ASSERT_EQ(0, bo_new(d.fd, 4096, DRM_VNPU_PLACEMENT_DEVICE, &va, NULL));
	/*
	 * The region [-1, -1, 0, 0] of image 0 runs: its one sample, at
	 * (-0.5, -0.5), clamps to row and column 0 (an empty image's
	 * clamps gave -1).
	 */
	ASSERT_EQ(0, r3_put64(&d, va + 1024, 0xbf800000bf800000ULL));
	ASSERT_EQ(0, r3_roi(&d, va, ok, 0, &seq));
	EXPECT_EQ(DRM_VNPU_JOB_OK, job_state(&d, seq));

	/* The batch index points far into the empty image: 2^19 of 2^20. */
	ASSERT_EQ(0, r3_put64(&d, va + 2048, 1ULL << 19));
	EXPECT_EQ(-EINVAL, r3_refused(&d, va, no_h, 1LL << 40));
	EXPECT_EQ(-EINVAL, r3_refused(&d, va, no_w, 1LL << 40));
	/* The same with ordinary strides. */
	EXPECT_EQ(-EINVAL, r3_refused(&d, va, no_h, 0));
	EXPECT_EQ(-EINVAL, r3_refused(&d, va, no_w, 0));
	/* The device is fine: the valid call still runs (batch 0 again). */
	ASSERT_EQ(0, r3_put64(&d, va + 2048, 0));
	ASSERT_EQ(0, r3_roi(&d, va, ok, 0, &seq));
	EXPECT_EQ(DRM_VNPU_JOB_OK, job_state(&d, seq));
}

/*
 * The class, not the instance: operators not audited for empty inputs
 * are refused one next to a non-empty output (GRID_SAMPLE, GATHER_ND);
 * an audited one (REDUCE_SUM over an empty axis) runs and writes 0.
 */
TEST(empty_inputs_refused_unless_audited)
{
	const int64_t xs[4] = { 1, 1, 0, 4 }, gs[4] = { 1, 2, 2, 2 };
	const int64_t os[4] = { 1, 1, 2, 2 }, ixs[2] = { 2, 1 }, gos[1] = { 2 };
	const int64_t es[2] = { 3, 0 }, rs[1] = { 3 }, xg[1] = { 0 };
	struct drm_vnpu_memcpy m = { 0 };
	struct r3_args a = { 0 };
	uint64_t va, seq;
	float out[3] = { 42, 42, 42 };
	struct dev d;
	int i;

	dev_open(_metadata, &d);
	ASSERT_EQ(0, bo_new(d.fd, 4096, DRM_VNPU_PLACEMENT_DEVICE, &va, NULL));

	r3_tensor(&a.t[0], va, DRM_VNPU_DTYPE_FLOAT, 4, xs);
	for (i = 0; i < 4; i++)
		a.t[0].strides[i] = 1LL << 40;
	r3_tensor(&a.t[1], va + 1024, DRM_VNPU_DTYPE_FLOAT, 4, gs);
	r3_tensor(&a.t[2], va + 2048, DRM_VNPU_DTYPE_FLOAT, 4, os);
	EXPECT_EQ(-EINVAL, r3_submit(&d, DRM_VNPU_OP_GRID_SAMPLE, &a, 2, 1, false,
				     NULL));

	memset(&a, 0, sizeof(a));
	r3_tensor(&a.t[0], va, DRM_VNPU_DTYPE_FLOAT, 1, xg);
	a.t[0].strides[0] = 1LL << 40;
	r3_tensor(&a.t[1], va + 1024, DRM_VNPU_DTYPE_INT64, 2, ixs);
	r3_tensor(&a.t[2], va + 2048, DRM_VNPU_DTYPE_FLOAT, 1, gos);
	EXPECT_EQ(-EINVAL, r3_submit(&d, DRM_VNPU_OP_GATHER_ND, &a, 2, 1, false,
				     NULL));

	/* REDUCE_SUM of x [3, 0] over dim 1: three zeros. */
	memset(&a, 0, sizeof(a));
	r3_tensor(&a.t[0], va, DRM_VNPU_DTYPE_FLOAT, 2, es);
	a.t[0].strides[0] = a.t[0].strides[1] = 1LL << 40;
	r3_tensor(&a.t[1], va + 2048, DRM_VNPU_DTYPE_FLOAT, 1, rs);
	a.at.ints[0] = 2;
	m.dst = va + 2048;
	m.src = (uintptr_t)out;
	m.size = sizeof(out);
	m.flags = DRM_VNPU_MEMCPY_DST_DEVICE;
	ASSERT_EQ(0, xioctl(d.fd, DRM_IOCTL_VNPU_MEMCPY, &m));
	ASSERT_EQ(0, r3_submit(&d, DRM_VNPU_OP_REDUCE_SUM, &a, 1, 1, true, &seq));
	EXPECT_EQ(DRM_VNPU_JOB_OK, job_state(&d, seq));
	m.dst = (uintptr_t)out;
	m.src = va + 2048;
	m.flags = DRM_VNPU_MEMCPY_SRC_DEVICE;
	ASSERT_EQ(0, xioctl(d.fd, DRM_IOCTL_VNPU_MEMCPY, &m));
	for (i = 0; i < 3; i++)
		EXPECT_EQ(0.0f, out[i]);
}

/*
 * Finding 3 (ops side): a split call's total work is bounded. SORT of
 * x [65536, 131072] viewed with stride-0 rows (512 KiB of memory) was
 * 393 216 pieces of radix sorts, about 20 minutes of one engine natively;
 * TOPK of 8192 such rows was 16 Ki pieces. Both fail the SUBMIT now.
 */
TEST(split_call_work_is_bounded)
{
	const int64_t xs[2] = { 65536, 131072 };
	const int64_t ts[2] = { 8192, 131072 }, ks[2] = { 8192, 1 };
	struct r3_args a = { 0 };
	uint64_t va, vv, iv;
	struct dev d;

	dev_open(_metadata, &d);
	ASSERT_EQ(0, bo_new(d.fd, 1 << 20, DRM_VNPU_PLACEMENT_DEVICE, &va, NULL));
	ASSERT_EQ(0, bo_new(d.fd, 1 << 20, DRM_VNPU_PLACEMENT_DEVICE, &vv, NULL));
	ASSERT_EQ(0, bo_new(d.fd, 2 << 20, DRM_VNPU_PLACEMENT_DEVICE, &iv, NULL));
	r3_tensor(&a.t[0], va, DRM_VNPU_DTYPE_FLOAT, 2, xs);
	r3_tensor(&a.t[1], vv, DRM_VNPU_DTYPE_FLOAT, 2, xs);
	r3_tensor(&a.t[2], iv, DRM_VNPU_DTYPE_INT64, 2, xs);
	a.t[0].strides[0] = a.t[1].strides[0] = a.t[2].strides[0] = 0;
	a.at.ints[0] = 1;	/* the long axis */
	EXPECT_EQ(-EINVAL, r3_submit(&d, DRM_VNPU_OP_SORT, &a, 1, 2, true, NULL));

	memset(&a, 0, sizeof(a));
	r3_tensor(&a.t[0], va, DRM_VNPU_DTYPE_FLOAT, 2, ts);
	r3_tensor(&a.t[1], vv, DRM_VNPU_DTYPE_FLOAT, 2, ks);
	r3_tensor(&a.t[2], iv, DRM_VNPU_DTYPE_INT64, 2, ks);
	a.t[0].strides[0] = 0;
	a.at.ints[0] = 1;
	a.at.ints[2] = 1;	/* largest */
	EXPECT_EQ(-EINVAL, r3_submit(&d, DRM_VNPU_OP_TOPK, &a, 1, 2, true, NULL));
}

TEST_HARNESS_MAIN
