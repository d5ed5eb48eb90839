// SPDX-License-Identifier: GPL-2.0-only
/*
 * vnpu_fuzz: profiling (UAPI 1.8). PROF_CTL with random and edge fields;
 * a checked run whose ring must hold exactly the records its jobs make;
 * and a race: one thread turning profiling on and off and scribbling over
 * the mapped ring (header and records) while another submits to many
 * queues, the file closed with jobs in flight.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"

#define U(x)		((unsigned long long)(x))

static const uint32_t edge_records[] = {
	0, 1, 32, 63, 64, 65, 96, 128, 4096, 65535, 65536, 65537, 131072,
	0x80000000u, 0xffffffffu,
};

static void prof_fields(struct rng *r, struct drm_vnpu_prof_ctl *pc)
{
	memset(pc, 0, sizeof(*pc));
	pc->op = one_in(r, 10) ? (uint32_t)rnd_interesting(r) : rnd(r, 3);
	if (pc->op == DRM_VNPU_PROF_ENABLE || one_in(r, 8))
		pc->flags = one_in(r, 8) ? (uint32_t)rnd_interesting(r) :
			    rnd(r, 4);
	if (pc->op == DRM_VNPU_PROF_ENABLE || one_in(r, 8))
		pc->records = one_in(r, 4) ?
			      edge_records[rnd(r, ARRAY_SIZE(edge_records))] :
			      64u << rnd(r, 6);
	if (one_in(r, 15))
		pc->pad = rnd_interesting(r) | 1;
}

/* What ENABLE made must be what it said: checked through a mapping. */
static void prof_check_new(int fd, const struct drm_vnpu_prof_ctl *pc)
{
	struct drm_vnpu_bo_info bi = { .handle = pc->handle };
	struct drm_vnpu_prof_ring *h;
	uint64_t want = (sizeof(*h) + (uint64_t)pc->records * 64 + 4095) & ~4095ull;
	void *p;

	if (pc->size != want)
		finding("PROF_CTL ENABLE records %u: size 0x%llx, expected 0x%llx",
			pc->records, U(pc->size), U(want));
	if (fz_ioctl(fd, DRM_IOCTL_VNPU_BO_INFO, &bi))
		finding("PROF_CTL ENABLE: BO_INFO of its handle %u failed", pc->handle);
	if (bi.size != pc->size || bi.placement != DRM_VNPU_PLACEMENT_HOST)
		finding("PROF_CTL ENABLE: BO_INFO size 0x%llx placement %u",
			U(bi.size), bi.placement);
	p = mmap(NULL, pc->size, PROT_READ, MAP_SHARED, fd, bi.mmap_offset);
	if (p == MAP_FAILED)
		finding("PROF_CTL ENABLE: mmap of the ring failed (%d)", errno);
	h = p;
	if (h->magic != DRM_VNPU_PROF_MAGIC || h->record_size != 64 ||
	    h->capacity != pc->records || h->flags != pc->flags)
		finding("PROF_CTL ENABLE: header magic 0x%x record_size %u capacity %u flags %u",
			h->magic, h->record_size, h->capacity, h->flags);
	munmap(p, pc->size);
}

static bool pow2_in_range(uint32_t n)
{
	return n >= DRM_VNPU_PROF_MIN_RECORDS && n <= DRM_VNPU_PROF_MAX_RECORDS &&
	       !(n & (n - 1));
}

/* The errno the header's rules give (before -EBUSY and -ENOENT). */
static int prof_expect(const struct drm_vnpu_prof_ctl *pc)
{
	if (pc->pad || (pc->flags & ~DRM_VNPU_PROF_ALL))
		return -EINVAL;
	switch (pc->op) {
	case DRM_VNPU_PROF_ENABLE:
		return pc->flags && pow2_in_range(pc->records) ? 0 : -EINVAL;
	case DRM_VNPU_PROF_DISABLE:
	case DRM_VNPU_PROF_QUERY:
		return pc->flags || pc->records ? -EINVAL : 0;
	default:
		return -EINVAL;
	}
}

static int prof_call(int fd, struct drm_vnpu_prof_ctl *pc)
{
	struct drm_vnpu_prof_ctl in = *pc;
	struct call cl;
	int ret, want = prof_expect(pc);

	call_begin(&cl, "PROF_CTL", "fd=%d op=%u flags=0x%x records=%u pad=0x%llx",
		   fd, pc->op, pc->flags, pc->records, U(pc->pad));
	ret = fz_ioctl(fd, DRM_IOCTL_VNPU_PROF_CTL, pc);
	call_end(&cl, ret, "handle=%u size=0x%llx written=%llu dropped=%llu",
		 pc->handle, U(pc->size), U(pc->written), U(pc->dropped));
	if (ret == -EINTR || ret == -ENOMEM || ret == -ENOSPC || ret == -EBADF)
		return ret;
	if (want && ret != want)
		finding("PROF_CTL op %u flags 0x%x records %u pad 0x%llx: %d, expected %d",
			in.op, in.flags, in.records, U(in.pad), ret, want);
	if (!want && ret && ret != -EBUSY && ret != -ENOENT)
		finding("PROF_CTL op %u: %d", in.op, ret);
	if (ret && memcmp(&in, pc, sizeof(in)))
		finding("PROF_CTL op %u failed (%d) but changed its argument", in.op, ret);
	if (!ret && pc->op == DRM_VNPU_PROF_QUERY && pc->flags &&
	    (!pow2_in_range(pc->records) || (pc->flags & ~DRM_VNPU_PROF_ALL)))
		finding("PROF_CTL QUERY: flags 0x%x records %u", pc->flags, pc->records);
	return ret;
}

static void gem_close_h(int fd, uint32_t handle)
{
	struct drm_gem_close gc = { .handle = handle };

	ioctl(fd, DRM_IOCTL_GEM_CLOSE, &gc);
}

void do_prof_ctl(struct worker *w, struct fctx *c)
{
	struct drm_vnpu_prof_ctl pc;

	prof_fields(&w->r, &pc);
	if (prof_call(c->fd, &pc) || pc.op != DRM_VNPU_PROF_ENABLE)
		return;
	prof_check_new(c->fd, &pc);
	/* The kernel keeps its own reference: the handle may go at once. */
	if (!one_in(&w->r, 4))
		gem_close_h(c->fd, pc.handle);
}

/*
 * A fresh file, profiling on, a known set of jobs: the ring must hold
 * exactly their records (or count the rest as dropped), each sane.
 */
void do_prof_check(struct worker *w)
{
	struct rng *r = &w->r;
	struct drm_vnpu_prof_ctl pc = { .op = DRM_VNPU_PROF_ENABLE };
	struct drm_vnpu_bo_info bi = { 0 };
	struct drm_vnpu_task t[16];
	struct drm_vnpu_prof_ring *h;
	struct drm_vnpu_prof_record *rec;
	uint32_t nq = 1 + rnd(r, 4), jobs = 1 + rnd(r, 12), tasks = 0, i, j;
	uint64_t want = 0, head, size;
	struct fctx *c;
	uint8_t *map;
	int k;

	k = ctx_open(w, rnd(r, 8));
	if (k < 0)
		return;
	c = &w->ctx[k];
	for (i = 0; i < nq; i++)
		queue_create(w, c);
	pc.flags = 1 + rnd(r, 3);
	pc.records = 64u << rnd(r, 3);
	if (!c->nq || prof_call(c->fd, &pc))
		goto out;
	bi.handle = pc.handle;
	if (fz_ioctl(c->fd, DRM_IOCTL_VNPU_BO_INFO, &bi))
		goto out;
	size = pc.size;
	map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, c->fd,
		   bi.mmap_offset);
	if (map == MAP_FAILED)
		goto out;
	h = (void *)map;
	rec = (void *)(map + sizeof(*h));
	for (j = 0; j < jobs; j++) {
		struct fqueue *q = &c->q[rnd(r, c->nq)];
		struct drm_vnpu_submit s = {
			.queue_id = q->id, .tasks = (uintptr_t)t, .task_stride = 64,
			.task_count = 1 + rnd(r, 16),
		};
		struct call cl;
		int ret;

		memset(t, 0, sizeof(t));
		for (i = 0; i < s.task_count; i++) {
			t[i].type = one_in(r, 4) ? DRM_VNPU_TASK_SPIN : DRM_VNPU_TASK_NOP;
			t[i].spin.ns = t[i].type == DRM_VNPU_TASK_SPIN ? rnd(r, 200000) : 0;
			t[i].tag = 0x7a000000u | j;
		}
		call_begin(&cl, "SUBMIT", "fd=%d queue=%u tasks=%u (prof check)",
			   c->fd, q->id, s.task_count);
		ret = fz_ioctl(c->fd, DRM_IOCTL_VNPU_SUBMIT, &s);
		call_end(&cl, ret, "seq=%llu", U(s.seq));
		if (ret)
			continue;
		q->seq = s.seq;
		tasks += s.task_count;
		want += (pc.flags & DRM_VNPU_PROF_TASKS ? s.task_count : 0) +
			(pc.flags & DRM_VNPU_PROF_JOBS ? 1 : 0);
	}
	for (i = 0; i < (uint32_t)c->nq; i++) {
		struct drm_syncobj_timeline_wait wt = {
			.handles = (uintptr_t)&c->q[i].syncobj,
			.points = (uintptr_t)&c->q[i].seq,
			.timeout_nsec = (int64_t)(now_ns() + 5000000000ull),
			.count_handles = 1,
			.flags = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT,
		};

		if (c->q[i].seq && fz_ioctl(c->fd, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &wt))
			goto unmap;	/* interrupted or slow: nothing to check */
	}
	memset(&pc, 0, sizeof(pc));
	pc.op = DRM_VNPU_PROF_QUERY;
	if (prof_call(c->fd, &pc))
		goto unmap;
	head = __atomic_load_n(&h->head, __ATOMIC_ACQUIRE);
	log_note("# prof check: %u jobs, %u tasks, flags %u, ring %u: written %llu dropped %llu",
		 jobs, tasks, pc.flags, pc.records, U(pc.written), U(pc.dropped));
	if (pc.written + pc.dropped != want || head != pc.written ||
	    h->dropped != pc.dropped ||
	    pc.written != (want < pc.records ? want : pc.records))
		finding("prof check: %llu records expected; QUERY written %llu dropped %llu, header head %llu dropped %llu",
			U(want), U(pc.written), U(pc.dropped), U(head), U(h->dropped));
	for (i = 0; i < head && i < pc.records; i++) {
		const struct drm_vnpu_prof_record *p = &rec[i];

		if ((p->kind != DRM_VNPU_PROF_KIND_TASK &&
		     p->kind != DRM_VNPU_PROF_KIND_JOB) ||
		    p->start_ns > p->end_ns || p->status ||
		    (p->kind == DRM_VNPU_PROF_KIND_TASK &&
		     ((p->tag >> 24) != 0x7a ||
		      (p->type != DRM_VNPU_TASK_NOP && p->type != DRM_VNPU_TASK_SPIN))))
			finding("prof check: record %u kind %u type %u tag 0x%x status %u start %llu end %llu",
				i, p->kind, p->type, p->tag, p->status,
				U(p->start_ns), U(p->end_ns));
	}
unmap:
	munmap(map, size);
out:
	ctx_close(w, k);
}

struct prof_race {
	int fd;
	uint32_t q[16];
	int nq;
	uint64_t va;		/* a HOST object for fills */
	uint64_t seed;
	uint64_t end_ns;
	atomic_int stop;
};

/* Turn profiling on and off; scribble over whatever ring is mapped. */
static void *pr_toggler(void *arg)
{
	struct prof_race *pr = arg;
	struct rng r = { pr->seed };
	uint8_t *map = NULL;
	uint64_t len = 0;
	extern __thread int tl_tid;

	tl_tid = 1;
	while (!atomic_load(&pr->stop) && now_ns() < pr->end_ns) {
		struct drm_vnpu_prof_ctl pc;
		uint64_t i, n;

		prof_fields(&r, &pc);
		if (!rnd(&r, 3)) {
			memset(&pc, 0, sizeof(pc));
			pc.op = DRM_VNPU_PROF_ENABLE;
			pc.flags = 1 + rnd(&r, 3);
			pc.records = 64u << rnd(&r, 4);
		}
		if (!prof_call(pr->fd, &pc) && pc.op == DRM_VNPU_PROF_ENABLE) {
			struct drm_vnpu_bo_info bi = { .handle = pc.handle };

			if (map)
				munmap(map, len);
			map = NULL;
			if (!fz_ioctl(pr->fd, DRM_IOCTL_VNPU_BO_INFO, &bi)) {
				map = mmap(NULL, pc.size, PROT_READ | PROT_WRITE,
					   MAP_SHARED, pr->fd, bi.mmap_offset);
				if (map == MAP_FAILED)
					map = NULL;
				len = pc.size;
			}
			gem_close_h(pr->fd, pc.handle);
		}
		/* Scribble: the header's words, records, whole pages. */
		for (n = rnd(&r, 64); map && n; n--) {
			uint64_t v = one_in(&r, 2) ? rnd_interesting(&r) : rnd64(&r);

			i = one_in(&r, 2) ? rnd(&r, 8) * 8 : rnd(&r, len / 8) * 8;
			memcpy(map + i, &v, 8);
		}
		if (map && one_in(&r, 20))
			memset(map, rnd(&r, 256), len);
		usleep(rnd(&r, 3000));
	}
	if (map)
		munmap(map, len);
	return NULL;
}

static void *pr_submitter(void *arg)
{
	struct prof_race *pr = arg;
	struct rng r = { pr->seed ^ 0x5eed };
	extern __thread int tl_tid;

	tl_tid = 2;
	while (!atomic_load(&pr->stop) && now_ns() < pr->end_ns) {
		struct drm_vnpu_task t[24];
		struct drm_vnpu_submit s = {
			.tasks = (uintptr_t)t, .task_stride = 64,
			.task_count = 1 + rnd(&r, 24),
		};
		struct call cl;
		uint32_t i;
		int ret;

		memset(t, 0, sizeof(t));
		s.queue_id = pr->q[rnd(&r, pr->nq)];
		for (i = 0; i < s.task_count; i++) {
			t[i].tag = (uint32_t)rnd64(&r);
			switch (rnd(&r, 4)) {
			case 0:
				t[i].type = DRM_VNPU_TASK_FILL;
				t[i].fill.dst = pr->va;
				t[i].fill.size = 1 + rnd(&r, 8192);
				t[i].fill.pattern_size = 1;
				break;
			case 1:
				t[i].type = DRM_VNPU_TASK_SPIN;
				t[i].spin.ns = rnd(&r, 500000);
				break;
			case 2:
				/* a fault now and then: its queue stays in error */
				t[i].type = DRM_VNPU_TASK_COPY;
				t[i].copy.src = one_in(&r, 8) ? 0x1000 : pr->va;
				t[i].copy.dst = pr->va + 8192;
				t[i].copy.size = 4096;
				break;
			default:
				t[i].type = DRM_VNPU_TASK_NOP;
				break;
			}
		}
		call_begin(&cl, "SUBMIT", "fd=%d queue=%u tasks=%u (prof race)",
			   pr->fd, s.queue_id, s.task_count);
		ret = fz_ioctl(pr->fd, DRM_IOCTL_VNPU_SUBMIT, &s);
		call_end(&cl, ret, "seq=%llu", U(s.seq));
		if (ret == -EBADFD) {
			struct drm_vnpu_queue_destroy qd = { .queue_id = s.queue_id };

			fz_ioctl(pr->fd, DRM_IOCTL_VNPU_QUEUE_RESET, &qd);
		}
		if (ret == -EAGAIN || ret == -EBUSY)
			usleep(1000);
	}
	return NULL;
}

void do_prof_race(struct worker *w)
{
	struct rng *r = &w->r;
	struct prof_race pr;
	pthread_t th[2];
	struct fctx *c;
	int k, i, bi, made = 0;

	k = ctx_open(w, rnd(r, 8));
	if (k < 0)
		return;
	c = &w->ctx[k];
	memset(&pr, 0, sizeof(pr));
	pr.fd = c->fd;
	for (i = 0; i < 1 + (int)rnd(r, MAX_QUEUES); i++)
		queue_create(w, c);
	for (i = 0; i < c->nq && pr.nq < 16; i++)
		pr.q[pr.nq++] = c->q[i].id;
	bi = bo_create(w, c, 16384, DRM_VNPU_PLACEMENT_HOST, 0, false);
	if (!pr.nq || bi < 0)
		goto close;
	pr.va = c->bos[bi].va;
	pr.seed = rnd64(r);
	pr.end_ns = now_ns() + (100 + rnd(r, 900)) * 1000000ull;
	log_note("# prof race: fd %d, %d queues", pr.fd, pr.nq);
	log_flush();
	if (!pthread_create(&th[0], NULL, pr_toggler, &pr))
		made |= 1;
	if (!pthread_create(&th[1], NULL, pr_submitter, &pr))
		made |= 2;
	for (i = 0; i < 2; i++)
		if (made & (1 << i))
			pthread_join(th[i], NULL);
close:
	/* Jobs in flight, profiling maybe on: close with them running. */
	ctx_close(w, k);
}
