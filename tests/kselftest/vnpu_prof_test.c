// SPDX-License-Identifier: GPL-2.0-only
/*
 * Profiling (UAPI 1.8): every rule of DRM_IOCTL_VNPU_PROF_CTL with its
 * exact errno, the ring's header, the records engines write for tasks and
 * jobs (values read back), a full ring's drop count, a reader's garbage
 * tail, isolation between files, turning it off and closing the file while
 * jobs run, and the per-engine counters of GET_PARAM. Runs in the VM with
 * vnpu.ko loaded.
 */
#include "vnpu_job_test_util.h"

#define REC_SIZE	sizeof(struct drm_vnpu_prof_record)
#define HDR_SIZE	sizeof(struct drm_vnpu_prof_ring)

/* An address in the device range that no object of a fresh context has. */
#define UNMAPPED_VA	(DRM_VNPU_VA_DEVICE_START + DRM_VNPU_VA_RANGE_SIZE / 2 + 0x1230)

struct ring {
	int fd;
	uint32_t handle;
	uint64_t size;
	uint8_t *map;
	struct drm_vnpu_prof_ring *hdr;
	struct drm_vnpu_prof_record *rec;
};

static int prof_ctl(int fd, struct drm_vnpu_prof_ctl *c)
{
	return xioctl(fd, DRM_IOCTL_VNPU_PROF_CTL, c);
}

static int prof_query(int fd, struct drm_vnpu_prof_ctl *c)
{
	memset(c, 0, sizeof(*c));
	c->op = DRM_VNPU_PROF_QUERY;
	return prof_ctl(fd, c);
}

static int prof_disable(int fd)
{
	struct drm_vnpu_prof_ctl c = { .op = DRM_VNPU_PROF_DISABLE };

	return prof_ctl(fd, &c);
}

/* ENABLE and map the ring. */
static int prof_enable(int fd, uint32_t flags, uint32_t records,
		       struct ring *r)
{
	struct drm_vnpu_prof_ctl c = {
		.op = DRM_VNPU_PROF_ENABLE, .flags = flags, .records = records,
	};
	struct drm_vnpu_bo_info info = { 0 };
	int ret;

	memset(r, 0, sizeof(*r));
	ret = prof_ctl(fd, &c);
	if (ret)
		return ret;
	r->fd = fd;
	r->handle = c.handle;
	r->size = c.size;
	info.handle = c.handle;
	ret = xioctl(fd, DRM_IOCTL_VNPU_BO_INFO, &info);
	if (ret)
		return ret;
	r->map = mmap(NULL, r->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		      info.mmap_offset);
	if (r->map == MAP_FAILED) {
		r->map = NULL;
		return -errno;
	}
	r->hdr = (void *)r->map;
	r->rec = (void *)(r->map + HDR_SIZE);
	return 0;
}

static void ring_unmap(struct ring *r)
{
	if (r->map)
		munmap(r->map, r->size);
	if (r->handle)
		gem_close(r->fd, r->handle);
	r->map = NULL;
	r->handle = 0;
}

static uint64_t ring_head(const struct ring *r)
{
	return __atomic_load_n(&r->hdr->head, __ATOMIC_ACQUIRE);
}

/* Copy the unread records (at most max) and consume them. */
static uint32_t ring_take(struct ring *r, struct drm_vnpu_prof_record *out,
			  uint32_t max)
{
	uint64_t head = ring_head(r), tail = r->hdr->tail;
	uint32_t n = 0;

	while (tail < head && n < max) {
		out[n++] = r->rec[tail & (r->hdr->capacity - 1)];
		tail++;
	}
	__atomic_store_n(&r->hdr->tail, tail, __ATOMIC_RELEASE);
	return n;
}

static uint64_t sum_engines(int fd, uint32_t p)
{
	struct drm_vnpu_get_param gp;
	uint64_t engines = 0, sum = 0;
	uint32_t i;

	vnpu_get_param(fd, DRM_VNPU_PARAM_ENGINE_COUNT, &engines);
	for (i = 0; i < engines; i++) {
		memset(&gp, 0, sizeof(gp));
		gp.param = p;
		gp.index = i;
		if (xioctl(fd, DRM_IOCTL_VNPU_GET_PARAM, &gp))
			return ~0ull;
		sum += gp.value;
	}
	return sum;
}

/* One PROF_CTL call differing from a valid one in one field. */
static void expect_ctl_einval(struct __test_metadata *_metadata, int fd,
			      const struct drm_vnpu_prof_ctl *in,
			      const char *what)
{
	struct drm_vnpu_prof_ctl c = *in;

	c.handle = 0x5a5a;
	c.size = 0x77;
	c.written = 0x1234;
	c.dropped = 0x4321;
	EXPECT_EQ(-EINVAL, prof_ctl(fd, &c)) TH_LOG("%s", what);
	EXPECT_EQ(in->op, c.op) TH_LOG("%s", what);
	EXPECT_EQ(in->flags, c.flags) TH_LOG("%s", what);
	EXPECT_EQ(in->records, c.records) TH_LOG("%s", what);
	EXPECT_EQ(0x5a5a, c.handle) TH_LOG("%s: output changed", what);
	EXPECT_EQ(0x77, c.size) TH_LOG("%s: output changed", what);
	EXPECT_EQ(0x1234, c.written) TH_LOG("%s: output changed", what);
	EXPECT_EQ(0x4321, c.dropped) TH_LOG("%s: output changed", what);
}

TEST(ctl_validation)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_prof_ctl ok = {
		.op = DRM_VNPU_PROF_ENABLE, .flags = DRM_VNPU_PROF_ALL,
		.records = 64,
	};
	struct drm_vnpu_prof_ctl c;
	uint32_t bad_records[] = { 0, 1, 32, 63, 65, 96, 100, 65535, 131072,
				   0x80000000u, 0xffffffffu };
	uint32_t bad_flags[] = { 4, 8, 0x80000000u, DRM_VNPU_PROF_ALL | 4 };
	uint32_t bad_ops[] = { 3, 4, 0x100, 0xffffffffu };
	struct ring r;
	unsigned int i;

	for (i = 0; i < sizeof(bad_ops) / sizeof(bad_ops[0]); i++) {
		c = ok;
		c.op = bad_ops[i];
		expect_ctl_einval(_metadata, self->fd, &c, "unknown op");
	}
	for (i = 0; i < sizeof(bad_flags) / sizeof(bad_flags[0]); i++) {
		c = ok;
		c.flags = bad_flags[i];
		expect_ctl_einval(_metadata, self->fd, &c, "unknown flags");
	}
	c = ok;
	c.flags = 0;
	expect_ctl_einval(_metadata, self->fd, &c, "ENABLE with no flags");
	for (i = 0; i < sizeof(bad_records) / sizeof(bad_records[0]); i++) {
		c = ok;
		c.records = bad_records[i];
		expect_ctl_einval(_metadata, self->fd, &c, "records");
	}
	c = ok;
	c.pad = 1;
	expect_ctl_einval(_metadata, self->fd, &c, "ENABLE pad");
	c = ok;
	c.pad = 1ull << 63;
	expect_ctl_einval(_metadata, self->fd, &c, "ENABLE pad high bit");

	/* DISABLE and QUERY take neither flags nor records. */
	memset(&c, 0, sizeof(c));
	c.op = DRM_VNPU_PROF_DISABLE;
	c.flags = DRM_VNPU_PROF_TASKS;
	expect_ctl_einval(_metadata, self->fd, &c, "DISABLE flags");
	c.flags = 0;
	c.records = 64;
	expect_ctl_einval(_metadata, self->fd, &c, "DISABLE records");
	c.records = 0;
	c.pad = 1;
	expect_ctl_einval(_metadata, self->fd, &c, "DISABLE pad");
	memset(&c, 0, sizeof(c));
	c.op = DRM_VNPU_PROF_QUERY;
	c.flags = DRM_VNPU_PROF_JOBS;
	expect_ctl_einval(_metadata, self->fd, &c, "QUERY flags");
	c.flags = 0;
	c.records = 128;
	expect_ctl_einval(_metadata, self->fd, &c, "QUERY records");
	c.records = 0;
	c.pad = 2;
	expect_ctl_einval(_metadata, self->fd, &c, "QUERY pad");

	/* Off: DISABLE has nothing to stop. */
	EXPECT_EQ(-ENOENT, prof_disable(self->fd));
	ASSERT_EQ(0, prof_query(self->fd, &c));
	EXPECT_EQ(0, c.flags);
	EXPECT_EQ(0, c.records);
	EXPECT_EQ(0, c.size);

	/* The smallest ring; a second ENABLE is -EBUSY, outputs unchanged. */
	ASSERT_EQ(0, prof_enable(self->fd, DRM_VNPU_PROF_TASKS, 64, &r));
	c = ok;
	c.handle = 0x5a5a;
	c.size = 0x77;
	EXPECT_EQ(-EBUSY, prof_ctl(self->fd, &c));
	EXPECT_EQ(0x5a5a, c.handle);
	EXPECT_EQ(0x77, c.size);
	/* Validation still comes first while it is on. */
	c = ok;
	c.records = 63;
	expect_ctl_einval(_metadata, self->fd, &c, "records while on");
	EXPECT_EQ(0, prof_disable(self->fd));
	EXPECT_EQ(-ENOENT, prof_disable(self->fd));
	ring_unmap(&r);

	/* The largest ring. */
	ASSERT_EQ(0, prof_enable(self->fd, DRM_VNPU_PROF_ALL,
				 DRM_VNPU_PROF_MAX_RECORDS, &r));
	EXPECT_EQ((HDR_SIZE + DRM_VNPU_PROF_MAX_RECORDS * REC_SIZE + 4095) &
		  ~4095ull, r.size);
	EXPECT_EQ(DRM_VNPU_PROF_MAX_RECORDS, r.hdr->capacity);
	EXPECT_EQ(0, prof_disable(self->fd));
	ring_unmap(&r);
}

TEST(ring_header_and_accounting)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_bo_info info = { 0 };
	struct drm_vnpu_prof_ctl q;
	uint64_t host0 = 0, host1 = 0, host2 = 0, caps = 0;
	struct ring r;

	ASSERT_EQ(0, vnpu_get_param(self->fd, DRM_VNPU_PARAM_CAPABILITIES, &caps));
	EXPECT_NE(0, caps & DRM_VNPU_CAP_PROFILE);
	ASSERT_EQ(0, vnpu_get_param(self->fd, DRM_VNPU_PARAM_FILE_HOST_USED, &host0));
	ASSERT_EQ(0, prof_enable(self->fd, DRM_VNPU_PROF_ALL, 128, &r));
	EXPECT_EQ(12288, r.size);	/* 64 + 128 * 64, page aligned */
	EXPECT_EQ(DRM_VNPU_PROF_MAGIC, r.hdr->magic);
	EXPECT_EQ(REC_SIZE, r.hdr->record_size);
	EXPECT_EQ(64, REC_SIZE);
	EXPECT_EQ(128, r.hdr->capacity);
	EXPECT_EQ(DRM_VNPU_PROF_ALL, r.hdr->flags);
	EXPECT_EQ(0, r.hdr->head);
	EXPECT_EQ(0, r.hdr->tail);
	EXPECT_EQ(0, r.hdr->dropped);
	EXPECT_EQ(0, r.hdr->reserved[0] | r.hdr->reserved[1] | r.hdr->reserved[2]);

	info.handle = r.handle;
	ASSERT_EQ(0, xioctl(self->fd, DRM_IOCTL_VNPU_BO_INFO, &info));
	EXPECT_EQ(r.size, info.size);
	EXPECT_EQ(DRM_VNPU_PLACEMENT_HOST, info.placement);
	ASSERT_EQ(0, vnpu_get_param(self->fd, DRM_VNPU_PARAM_FILE_HOST_USED, &host1));
	EXPECT_EQ(host0 + r.size, host1);

	ASSERT_EQ(0, prof_query(self->fd, &q));
	EXPECT_EQ(DRM_VNPU_PROF_ALL, q.flags);
	EXPECT_EQ(128, q.records);
	EXPECT_EQ(r.handle, q.handle);
	EXPECT_EQ(r.size, q.size);
	EXPECT_EQ(0, q.written);
	EXPECT_EQ(0, q.dropped);

	/* DISABLE: the handle and mapping keep the object alive. */
	ASSERT_EQ(0, prof_disable(self->fd));
	EXPECT_EQ(DRM_VNPU_PROF_MAGIC, r.hdr->magic);
	ASSERT_EQ(0, vnpu_get_param(self->fd, DRM_VNPU_PARAM_FILE_HOST_USED, &host2));
	EXPECT_EQ(host1, host2);
	ring_unmap(&r);
	ASSERT_EQ(0, vnpu_get_param(self->fd, DRM_VNPU_PARAM_FILE_HOST_USED, &host2));
	EXPECT_EQ(host0, host2);
}

/* The record of task idx of a job in recs, or NULL. */
static const struct drm_vnpu_prof_record *
find_rec(const struct drm_vnpu_prof_record *recs, uint32_t n, uint16_t kind,
	 uint32_t queue, uint64_t seq, uint32_t task)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		if (recs[i].kind == kind && recs[i].queue == queue &&
		    recs[i].seq == seq &&
		    (kind == DRM_VNPU_PROF_KIND_JOB || recs[i].task == task))
			return &recs[i];
	return NULL;
}

TEST(task_and_job_records)
{
	struct fix *self = fix_setup(_metadata);
	static const int64_t n16[] = { 16 };
	struct drm_vnpu_prof_record recs[64];
	const struct drm_vnpu_prof_record *p, *job;
	struct drm_vnpu_task t[6];
	struct drm_vnpu_job_status st;
	uint64_t seq = 0, engines = 0, t0, t1;
	uint8_t args[1024];
	struct buf a, b;
	struct ring r;
	uint32_t n, i, sz;

	ASSERT_EQ(0, vnpu_get_param(self->fd, DRM_VNPU_PARAM_ENGINE_COUNT, &engines));
	ASSERT_EQ(0, buf_create(self->fd, &a, 65536, DRM_VNPU_PLACEMENT_HOST, 0));
	ASSERT_EQ(0, buf_create(self->fd, &b, 65536, DRM_VNPU_PLACEMENT_HOST, 0));
	ASSERT_EQ(0, prof_enable(self->fd, DRM_VNPU_PROF_ALL, 64, &r));

	memset(args, 0, sizeof(args));
	sz = add_args(args, 0, DRM_VNPU_DTYPE_INT32, 1, n16, a.va, a.va + 64,
		      b.va + 8192);
	t[0] = T_COPY(a.va, b.va, 4096);
	t[0].tag = 1;
	t[1] = T_FILL(b.va + 4096, 1000, 0xab, 1);
	t[1].tag = 0x80000000u;
	t[2] = T_KERNEL(DRM_VNPU_OP_ADD, 0, sz);
	t[2].tag = 0xffffffffu;
	t[3] = T_COPY_2D(a.va, b.va + 16384, 32, 64, 16, 4);
	t[3].tag = 42;
	t[4] = T_NOP();
	t[5] = T_TIMESTAMP(b.va + 32768);
	t[5].tag = 7;
	t0 = now_ns();
	ASSERT_EQ(0, run_job(&self->q, t, 6, args, sizeof(args), &st, &seq));
	t1 = now_ns();
	EXPECT_JOB_OK(st);

	n = ring_take(&r, recs, 64);
	ASSERT_EQ(7, n);
	EXPECT_EQ(7, r.hdr->head);
	EXPECT_EQ(0, r.hdr->dropped);
	/* Tasks in order, then the job. */
	for (i = 0; i < 6; i++) {
		p = &recs[i];
		EXPECT_EQ(DRM_VNPU_PROF_KIND_TASK, p->kind) TH_LOG("task %u", i);
		EXPECT_EQ(i, p->task);
		EXPECT_EQ(t[i].tag, p->tag) TH_LOG("task %u", i);
		EXPECT_EQ(t[i].type, p->type) TH_LOG("task %u", i);
		EXPECT_EQ(0, p->status) TH_LOG("task %u", i);
		EXPECT_EQ(self->q.id, p->queue);
		EXPECT_EQ(seq, p->seq);
		EXPECT_LT(p->engine, engines);
		EXPECT_LE(t0, p->start_ns) TH_LOG("task %u", i);
		EXPECT_LE(p->start_ns, p->end_ns) TH_LOG("task %u", i);
		EXPECT_LE(p->end_ns, t1) TH_LOG("task %u", i);
		EXPECT_EQ(0, p->parks) TH_LOG("task %u", i);
		if (i)
			EXPECT_LE(recs[i - 1].end_ns, p->start_ns) TH_LOG("task %u", i);
		if (t[i].type == DRM_VNPU_TASK_KERNEL) {
			EXPECT_EQ(DRM_VNPU_OP_ADD, p->op);
			EXPECT_GE(p->pieces, 1);
		} else {
			EXPECT_EQ(0, p->op) TH_LOG("task %u", i);
			EXPECT_EQ(0, p->pieces) TH_LOG("task %u", i);
		}
	}
	EXPECT_EQ(4096, recs[0].bytes);
	EXPECT_EQ(1000, recs[1].bytes);
	EXPECT_EQ(3 * 64, recs[2].bytes);	/* three int32[16] tensors */
	EXPECT_EQ(16 * 4, recs[3].bytes);
	EXPECT_EQ(0, recs[4].bytes);
	EXPECT_EQ(0, recs[5].bytes);

	job = &recs[6];
	EXPECT_EQ(DRM_VNPU_PROF_KIND_JOB, job->kind);
	EXPECT_EQ(self->q.id, job->queue);
	EXPECT_EQ(seq, job->seq);
	EXPECT_EQ(6, job->task);
	EXPECT_EQ(0, job->tag);
	EXPECT_EQ(0, job->type);
	EXPECT_EQ(0, job->op);
	EXPECT_EQ(0, job->status);
	EXPECT_LE(t0, job->submit_ns);
	EXPECT_LE(job->submit_ns, job->start_ns);
	EXPECT_LE(job->start_ns, recs[0].start_ns);
	EXPECT_LE(recs[5].end_ns, job->end_ns);
	EXPECT_LE(job->end_ns, t1);
	EXPECT_GE(job->pieces, 1);	/* slices */
	EXPECT_EQ(recs[0].engine, job->engine);
	ring_unmap(&r);
	buf_destroy(&a);
	buf_destroy(&b);
}

TEST(faulting_task_is_enxio)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_prof_record recs[8];
	struct drm_vnpu_task t[3];
	struct drm_vnpu_job_status st;
	uint64_t seq = 0;
	struct buf a;
	struct ring r;
	uint32_t n;

	ASSERT_EQ(0, buf_create(self->fd, &a, 8192, DRM_VNPU_PLACEMENT_HOST, 0));
	ASSERT_EQ(0, prof_enable(self->fd, DRM_VNPU_PROF_ALL, 64, &r));
	t[0] = T_FILL(a.va, 64, 1, 1);
	t[1] = T_COPY(UNMAPPED_VA, a.va, 64);
	t[1].tag = 0xfa;
	t[2] = T_NOP();
	ASSERT_EQ(0, run_job(&self->q, t, 3, NULL, 0, &st, &seq));
	EXPECT_EQ(DRM_VNPU_JOB_FAULT, st.state);

	/* The fault ends the job: no record of the task after it. */
	n = ring_take(&r, recs, 8);
	ASSERT_EQ(3, n);
	EXPECT_EQ(DRM_VNPU_PROF_KIND_TASK, recs[0].kind);
	EXPECT_EQ(0, recs[0].status);
	EXPECT_EQ(64, recs[0].bytes);
	EXPECT_EQ(DRM_VNPU_PROF_KIND_TASK, recs[1].kind);
	EXPECT_EQ(1, recs[1].task);
	EXPECT_EQ(0xfa, recs[1].tag);
	EXPECT_EQ(ENXIO, recs[1].status);
	EXPECT_EQ(0, recs[1].bytes);
	EXPECT_LE(recs[1].start_ns, recs[1].end_ns);
	EXPECT_EQ(DRM_VNPU_PROF_KIND_JOB, recs[2].kind);
	EXPECT_EQ(ENXIO, recs[2].status);
	EXPECT_EQ(3, recs[2].task);
	ring_unmap(&r);
	buf_destroy(&a);
}

TEST(two_queues)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_prof_record recs[16];
	struct drm_vnpu_task t = T_NOP();
	const struct drm_vnpu_prof_record *p;
	uint64_t s1 = 0, s2 = 0, s3 = 0;
	struct queue q2;
	struct ring r;
	uint32_t n;

	ASSERT_EQ(0, queue_new(self->fd, DRM_VNPU_PRIORITY_HIGH, &q2));
	ASSERT_EQ(0, prof_enable(self->fd, DRM_VNPU_PROF_ALL, 64, &r));
	t.tag = 11;
	ASSERT_EQ(0, submit(&self->q, &t, 1, NULL, 0, &s1));
	t.tag = 22;
	ASSERT_EQ(0, submit(&q2, &t, 1, NULL, 0, &s2));
	ASSERT_EQ(0, submit(&q2, &t, 1, NULL, 0, &s3));
	ASSERT_EQ(0, job_wait(&self->q, s1));
	ASSERT_EQ(0, job_wait(&q2, s3));
	n = ring_take(&r, recs, 16);
	ASSERT_EQ(6, n);
	p = find_rec(recs, n, DRM_VNPU_PROF_KIND_TASK, self->q.id, s1, 0);
	ASSERT_NE(NULL, p);
	EXPECT_EQ(11, p->tag);
	p = find_rec(recs, n, DRM_VNPU_PROF_KIND_TASK, q2.id, s2, 0);
	ASSERT_NE(NULL, p);
	EXPECT_EQ(22, p->tag);
	EXPECT_NE(NULL, find_rec(recs, n, DRM_VNPU_PROF_KIND_TASK, q2.id, s3, 0));
	EXPECT_NE(NULL, find_rec(recs, n, DRM_VNPU_PROF_KIND_JOB, self->q.id, s1, 0));
	EXPECT_NE(NULL, find_rec(recs, n, DRM_VNPU_PROF_KIND_JOB, q2.id, s2, 0));
	EXPECT_NE(NULL, find_rec(recs, n, DRM_VNPU_PROF_KIND_JOB, q2.id, s3, 0));
	EXPECT_EQ(1, s1);
	EXPECT_EQ(2, s3);
	ring_unmap(&r);
}

TEST(files_are_isolated)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_prof_record recs[8];
	struct drm_vnpu_task t = T_NOP();
	struct drm_vnpu_job_status st;
	struct drm_vnpu_prof_ctl q;
	struct ring ra, rb;
	struct queue qb;
	int fdb;

	fdb = open_node();
	ASSERT_GE(fdb, 0);
	ASSERT_EQ(0, queue_new(fdb, DRM_VNPU_PRIORITY_NORMAL, &qb));
	ASSERT_EQ(0, prof_enable(self->fd, DRM_VNPU_PROF_ALL, 64, &ra));

	/* B without profiling: nothing anywhere. */
	t.tag = 0xb;
	ASSERT_EQ(0, run_job(&qb, &t, 1, NULL, 0, &st, NULL));
	EXPECT_EQ(0, ring_head(&ra));
	ASSERT_EQ(0, prof_query(fdb, &q));
	EXPECT_EQ(0, q.written);
	EXPECT_EQ(0, q.flags);

	/* B with its own ring: its records go there only. */
	ASSERT_EQ(0, prof_enable(fdb, DRM_VNPU_PROF_ALL, 64, &rb));
	ASSERT_EQ(0, run_job(&qb, &t, 1, NULL, 0, &st, NULL));
	EXPECT_EQ(0, ring_head(&ra));
	ASSERT_EQ(2, ring_take(&rb, recs, 8));
	EXPECT_EQ(0xb, recs[0].tag);
	t.tag = 0xa;
	ASSERT_EQ(0, run_job(&self->q, &t, 1, NULL, 0, &st, NULL));
	EXPECT_EQ(2, ring_head(&rb));
	ASSERT_EQ(2, ring_take(&ra, recs, 8));
	EXPECT_EQ(0xa, recs[0].tag);
	ASSERT_EQ(0, prof_query(self->fd, &q));
	EXPECT_EQ(2, q.written);
	ring_unmap(&rb);
	close(fdb);
	ring_unmap(&ra);
}

/* Only what ENABLE asked for is recorded. */
TEST(flags_select_records)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_prof_record recs[8];
	struct drm_vnpu_task t[2] = { T_NOP(), T_NOP() };
	struct drm_vnpu_job_status st;
	struct ring r;

	ASSERT_EQ(0, prof_enable(self->fd, DRM_VNPU_PROF_JOBS, 64, &r));
	ASSERT_EQ(0, run_job(&self->q, t, 2, NULL, 0, &st, NULL));
	ASSERT_EQ(1, ring_take(&r, recs, 8));
	EXPECT_EQ(DRM_VNPU_PROF_KIND_JOB, recs[0].kind);
	EXPECT_EQ(2, recs[0].task);
	ASSERT_EQ(0, prof_disable(self->fd));
	ring_unmap(&r);

	ASSERT_EQ(0, prof_enable(self->fd, DRM_VNPU_PROF_TASKS, 64, &r));
	ASSERT_EQ(0, run_job(&self->q, t, 2, NULL, 0, &st, NULL));
	ASSERT_EQ(2, ring_take(&r, recs, 8));
	EXPECT_EQ(DRM_VNPU_PROF_KIND_TASK, recs[0].kind);
	EXPECT_EQ(DRM_VNPU_PROF_KIND_TASK, recs[1].kind);
	ring_unmap(&r);
}

/*
 * A ring of 64 and 200 tasks in 4 jobs, nothing consumed: 204 records,
 * the first 64 kept, 140 dropped; once consumed, new records flow.
 */
TEST(overflow_drops_and_counts)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_prof_record recs[64];
	struct drm_vnpu_task t[50];
	struct drm_vnpu_job_status st;
	struct drm_vnpu_prof_ctl q;
	uint64_t seq = 0;
	struct ring r;
	int i;

	for (i = 0; i < 50; i++) {
		t[i] = T_NOP();
		t[i].tag = i;
	}
	ASSERT_EQ(0, prof_enable(self->fd, DRM_VNPU_PROF_ALL, 64, &r));
	for (i = 0; i < 4; i++)
		ASSERT_EQ(0, submit(&self->q, t, 50, NULL, 0, &seq));
	ASSERT_EQ(0, job_wait(&self->q, seq));
	EXPECT_EQ(64, ring_head(&r));
	EXPECT_EQ(200 + 4 - 64, r.hdr->dropped);
	ASSERT_EQ(0, prof_query(self->fd, &q));
	EXPECT_EQ(64, q.written);
	EXPECT_EQ(140, q.dropped);
	/* The kept ones are the first 64: job 1's 50 tasks, its job, 13 more. */
	EXPECT_EQ(DRM_VNPU_PROF_KIND_TASK, r.rec[49].kind);
	EXPECT_EQ(49, r.rec[49].tag);
	EXPECT_EQ(DRM_VNPU_PROF_KIND_JOB, r.rec[50].kind);
	EXPECT_EQ(1, r.rec[50].seq);
	EXPECT_EQ(2, r.rec[63].seq);
	EXPECT_EQ(12, r.rec[63].task);

	ASSERT_EQ(64, ring_take(&r, recs, 64));
	ASSERT_EQ(0, run_job(&self->q, t, 1, NULL, 0, &st, &seq));
	EXPECT_EQ(66, ring_head(&r));
	EXPECT_EQ(140, r.hdr->dropped);
	ASSERT_EQ(2, ring_take(&r, recs, 64));
	EXPECT_EQ(DRM_VNPU_PROF_KIND_TASK, recs[0].kind);
	EXPECT_EQ(seq, recs[0].seq);
	EXPECT_EQ(DRM_VNPU_PROF_KIND_JOB, recs[1].kind);
	/* Slots wrapped: record 64 is slot 0. */
	EXPECT_EQ(seq, r.rec[0].seq);
	ring_unmap(&r);
}

/*
 * User space may write anything into the mapping: a tail beyond head or
 * more than a capacity behind counts as head, a scribbled header changes
 * nothing the kernel keeps.
 */
TEST(garbage_tail_and_header)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_task t[3] = { T_NOP(), T_NOP(), T_NOP() };
	struct drm_vnpu_job_status st;
	struct drm_vnpu_prof_ctl q;
	struct ring r;
	uint64_t h;

	ASSERT_EQ(0, prof_enable(self->fd, DRM_VNPU_PROF_ALL, 64, &r));
	r.hdr->tail = 0xdeadbeefdeadbeefull;
	ASSERT_EQ(0, run_job(&self->q, t, 3, NULL, 0, &st, NULL));
	EXPECT_EQ(4, ring_head(&r));
	EXPECT_EQ(0, r.hdr->dropped);

	/* Within [head - capacity, head]: honoured, so a full ring drops. */
	r.hdr->tail = 0;
	for (h = 0; h < 20; h++)
		ASSERT_EQ(0, run_job(&self->q, t, 3, NULL, 0, &st, NULL));
	EXPECT_EQ(64, ring_head(&r));
	EXPECT_EQ(84 - 64, r.hdr->dropped);

	/* More than a capacity behind (wrapped): counts as head. */
	r.hdr->tail = (uint64_t)-1;
	ASSERT_EQ(0, run_job(&self->q, t, 3, NULL, 0, &st, NULL));
	EXPECT_EQ(68, ring_head(&r));
	EXPECT_EQ(20, r.hdr->dropped);

	/* Scribble the whole header; the kernel's own values stand. */
	memset(r.map, 0xff, HDR_SIZE);
	ASSERT_EQ(0, run_job(&self->q, t, 3, NULL, 0, &st, NULL));
	EXPECT_EQ(72, ring_head(&r));
	EXPECT_EQ(20, r.hdr->dropped);
	ASSERT_EQ(0, prof_query(self->fd, &q));
	EXPECT_EQ(72, q.written);
	EXPECT_EQ(20, q.dropped);
	EXPECT_EQ(64, q.records);
	/* Record 71 (a JOB) in slot 71 & 63 = 7, not anywhere the header said. */
	EXPECT_EQ(DRM_VNPU_PROF_KIND_JOB, r.rec[7].kind);
	memset(r.map, 0, r.size);
	ASSERT_EQ(0, run_job(&self->q, t, 3, NULL, 0, &st, NULL));
	EXPECT_EQ(76, ring_head(&r));
	EXPECT_EQ(DRM_VNPU_PROF_KIND_JOB, r.rec[11].kind);
	ring_unmap(&r);
}

TEST(disable_then_enable_is_fresh)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_task t = T_NOP();
	struct drm_vnpu_job_status st;
	struct drm_vnpu_prof_ctl q;
	struct ring r1, r2;

	ASSERT_EQ(0, prof_enable(self->fd, DRM_VNPU_PROF_ALL, 64, &r1));
	ASSERT_EQ(0, run_job(&self->q, &t, 1, NULL, 0, &st, NULL));
	EXPECT_EQ(2, ring_head(&r1));
	ASSERT_EQ(0, prof_disable(self->fd));
	ASSERT_EQ(0, prof_query(self->fd, &q));
	EXPECT_EQ(0, q.flags);
	EXPECT_EQ(0, q.records);
	EXPECT_EQ(0, q.handle);
	EXPECT_EQ(0, q.written);

	/* Off: nothing recorded anywhere. */
	ASSERT_EQ(0, run_job(&self->q, &t, 1, NULL, 0, &st, NULL));
	EXPECT_EQ(2, ring_head(&r1));
	ASSERT_EQ(0, prof_query(self->fd, &q));
	EXPECT_EQ(0, q.written);

	ASSERT_EQ(0, prof_enable(self->fd, DRM_VNPU_PROF_TASKS, 128, &r2));
	EXPECT_NE(r1.handle, r2.handle);
	EXPECT_EQ(0, ring_head(&r2));
	EXPECT_EQ(128, r2.hdr->capacity);
	ASSERT_EQ(0, run_job(&self->q, &t, 1, NULL, 0, &st, NULL));
	EXPECT_EQ(1, ring_head(&r2));
	EXPECT_EQ(2, ring_head(&r1));
	ASSERT_EQ(0, prof_query(self->fd, &q));
	EXPECT_EQ(1, q.written);
	EXPECT_EQ(DRM_VNPU_PROF_TASKS, q.flags);
	ring_unmap(&r1);
	ring_unmap(&r2);
}

/* Recording stops before DISABLE returns, even with jobs running. */
TEST(disable_while_jobs_run)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_task t[64];
	uint64_t seq = 0, h;
	struct ring r;
	int i;

	for (i = 0; i < 64; i++)
		t[i] = i % 8 ? T_NOP() : T_SPIN(2 * NSEC_PER_MS);
	ASSERT_EQ(0, prof_enable(self->fd, DRM_VNPU_PROF_ALL, 1024, &r));
	for (i = 0; i < 16; i++)
		ASSERT_EQ(0, submit(&self->q, t, 64, NULL, 0, &seq));
	while (!ring_head(&r))
		usleep(1000);
	ASSERT_EQ(0, prof_disable(self->fd));
	h = ring_head(&r);
	ASSERT_EQ(0, job_wait(&self->q, seq));
	EXPECT_EQ(h, ring_head(&r));
	EXPECT_LT(h, 16 * 65) TH_LOG("the jobs were done before DISABLE");
	ring_unmap(&r);
}

/*
 * Closing the file with profiling on while a long job runs: the engines
 * stop writing, the ring goes once the last mapping does.
 */
TEST(close_while_spinning)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_task t[2] = { T_SPIN(300 * NSEC_PER_MS), T_NOP() };
	struct drm_vnpu_job_status st;
	uint64_t host0 = 0, host1 = 0, bos0 = 0, bos1 = 0, deadline;
	struct drm_vnpu_task nop = T_NOP();
	struct queue q;
	struct ring r;
	int fd, i;

	ASSERT_EQ(0, vnpu_get_param(self->fd, DRM_VNPU_PARAM_HOST_MEM_USED, &host0));
	ASSERT_EQ(0, vnpu_get_param(self->fd, DRM_VNPU_PARAM_BO_COUNT, &bos0));
	for (i = 0; i < 2; i++) {
		fd = open_node();
		ASSERT_GE(fd, 0);
		ASSERT_EQ(0, queue_new(fd, DRM_VNPU_PRIORITY_NORMAL, &q));
		ASSERT_EQ(0, prof_enable(fd, DRM_VNPU_PROF_ALL, 64, &r));
		ASSERT_EQ(0, submit(&q, t, 2, NULL, 0, NULL));
		ASSERT_EQ(0, submit(&q, t, 2, NULL, 0, NULL));
		usleep(50000);
		/* First round: keep the mapping past the close. */
		if (i == 1)
			munmap(r.map, r.size);
		close(fd);
		if (i == 0) {
			usleep(400000);
			EXPECT_EQ(DRM_VNPU_PROF_MAGIC, r.hdr->magic);
			EXPECT_LE(r.hdr->head, 6);
			munmap(r.map, r.size);
		}
	}
	/* The closed files' jobs end (cancelled) and their rings go. */
	deadline = now_ns() + 5000 * NSEC_PER_MS;
	do {
		usleep(10000);
		vnpu_get_param(self->fd, DRM_VNPU_PARAM_HOST_MEM_USED, &host1);
		vnpu_get_param(self->fd, DRM_VNPU_PARAM_BO_COUNT, &bos1);
	} while ((host1 != host0 || bos1 != bos0) && now_ns() < deadline);
	EXPECT_EQ(host0, host1);
	EXPECT_EQ(bos0, bos1);
	ASSERT_EQ(0, run_job(&self->q, &nop, 1, NULL, 0, &st, NULL));
	EXPECT_JOB_OK(st);
}

TEST(engine_counters)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_task t[10];
	struct drm_vnpu_job_status st;
	struct drm_vnpu_get_param gp;
	uint64_t engines = 0, tasks0, bytes0, busy0, tasks1, bytes1, busy1;
	struct buf a;
	int i;

	ASSERT_EQ(0, vnpu_get_param(self->fd, DRM_VNPU_PARAM_ENGINE_COUNT, &engines));
	ASSERT_EQ(0, buf_create(self->fd, &a, 65536, DRM_VNPU_PLACEMENT_HOST, 0));
	for (i = 0; i < 10; i++)
		t[i] = T_COPY(a.va, a.va + 32768, 4096);
	tasks0 = sum_engines(self->fd, DRM_VNPU_PARAM_ENGINE_TASKS);
	bytes0 = sum_engines(self->fd, DRM_VNPU_PARAM_ENGINE_BYTES);
	busy0 = sum_engines(self->fd, DRM_VNPU_PARAM_ENGINE_BUSY_NS);
	ASSERT_NE(~0ull, tasks0);
	/* Counting is always on: no PROF_CTL here. */
	ASSERT_EQ(0, run_job(&self->q, t, 10, NULL, 0, &st, NULL));
	EXPECT_JOB_OK(st);
	tasks1 = sum_engines(self->fd, DRM_VNPU_PARAM_ENGINE_TASKS);
	bytes1 = sum_engines(self->fd, DRM_VNPU_PARAM_ENGINE_BYTES);
	busy1 = sum_engines(self->fd, DRM_VNPU_PARAM_ENGINE_BUSY_NS);
	EXPECT_EQ(tasks0 + 10, tasks1);
	EXPECT_EQ(bytes0 + 40960, bytes1);
	EXPECT_LT(busy0, busy1);

	/* A failed task counts, moving nothing. */
	t[0] = T_COPY(UNMAPPED_VA, a.va, 4096);
	ASSERT_EQ(0, run_job(&self->q, t, 1, NULL, 0, &st, NULL));
	EXPECT_EQ(DRM_VNPU_JOB_FAULT, st.state);
	EXPECT_EQ(tasks1 + 1, sum_engines(self->fd, DRM_VNPU_PARAM_ENGINE_TASKS));
	EXPECT_EQ(bytes1, sum_engines(self->fd, DRM_VNPU_PARAM_ENGINE_BYTES));

	/* Indexed by engine: the engine count is out of range. */
	memset(&gp, 0, sizeof(gp));
	gp.param = DRM_VNPU_PARAM_ENGINE_TASKS;
	gp.index = engines;
	gp.value = 0x5a;
	EXPECT_EQ(-EINVAL, xioctl(self->fd, DRM_IOCTL_VNPU_GET_PARAM, &gp));
	EXPECT_EQ(0x5a, gp.value);
	gp.param = DRM_VNPU_PARAM_ENGINE_BYTES;
	gp.index = 0x80000000u;
	EXPECT_EQ(-EINVAL, xioctl(self->fd, DRM_IOCTL_VNPU_GET_PARAM, &gp));
	gp.param = DRM_VNPU_PARAM_ENGINE_BUSY_NS;
	gp.index = engines;
	EXPECT_EQ(-EINVAL, xioctl(self->fd, DRM_IOCTL_VNPU_GET_PARAM, &gp));
	buf_destroy(&a);
}

/* fdinfo says which device the client is on. */
TEST(fdinfo_device)
{
	struct fix *self = fix_setup(_metadata);
	char path[64], line[256];
	uint64_t idx = 99;
	long dev = -1;
	FILE *f;

	ASSERT_EQ(0, vnpu_get_param(self->fd, DRM_VNPU_PARAM_DEVICE_INDEX, &idx));
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", self->fd);
	f = fopen(path, "r");
	ASSERT_NE(NULL, f);
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "drm-vnpu-device:\t", 17))
			dev = strtol(line + 17, NULL, 10);
	fclose(f);
	EXPECT_EQ((long)idx, dev);
}

/*
 * A task parked at its slice's end keeps its first start: other files'
 * spinners keep every engine shared, so the SPIN of several slices parks.
 */
TEST(parked_task_keeps_start)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_prof_record recs[8];
	struct drm_vnpu_task t = T_SPIN(60 * NSEC_PER_MS);
	struct drm_vnpu_task busy = T_SPIN(150 * NSEC_PER_MS);
	uint64_t engines = 0, seq = 0, slice = vnpu_module_param("job_slice_ms");
	struct queue qs[64];
	struct ring r;
	int fds[64], i, n;

	ASSERT_EQ(0, vnpu_get_param(self->fd, DRM_VNPU_PARAM_ENGINE_COUNT, &engines));
	if (slice >= 30 || engines > 32)
		SKIP(return, "job_slice_ms %lu or %lu engines: no parking here",
		     (unsigned long)slice, (unsigned long)engines);
	/* Every engine gets other files' spinners (two per engine). */
	n = 2 * engines;
	for (i = 0; i < n; i++) {
		fds[i] = open_node();
		ASSERT_GE(fds[i], 0);
		ASSERT_EQ(0, queue_new(fds[i], DRM_VNPU_PRIORITY_NORMAL, &qs[i]));
		ASSERT_EQ(0, submit(&qs[i], &busy, 1, NULL, 0, NULL));
	}
	ASSERT_EQ(0, prof_enable(self->fd, DRM_VNPU_PROF_ALL, 64, &r));
	ASSERT_EQ(0, submit(&self->q, &t, 1, NULL, 0, &seq));
	ASSERT_EQ(0, job_wait(&self->q, seq));
	ASSERT_EQ(2, ring_take(&r, recs, 8));
	EXPECT_EQ(DRM_VNPU_PROF_KIND_TASK, recs[0].kind);
	EXPECT_GE(recs[0].end_ns - recs[0].start_ns, 60 * NSEC_PER_MS);
	EXPECT_EQ(recs[0].parks, recs[1].parks);
	EXPECT_EQ(recs[1].parks + 1, recs[1].pieces);
	EXPECT_GE(recs[1].parks, 1) TH_LOG("never parked: %u slices", recs[1].pieces);
	for (i = 0; i < n; i++)
		close(fds[i]);
	ring_unmap(&r);
}

TEST_HARNESS_MAIN
