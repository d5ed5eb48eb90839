// SPDX-License-Identifier: GPL-2.0-only
/*
 * vnpu_fuzz: contexts (open files) and what the fuzzer knows about them,
 * and the witness context whose memory no other context can reach.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "fuzz.h"

static int list_nodes(struct worker *w)
{
	struct dirent **names;
	int n, i;

	w->ndev = 0;
	n = scandir("/dev/accel", &names, NULL, versionsort);
	for (i = 0; i < n; i++) {
		if (!strncmp(names[i]->d_name, "accel", 5) && w->ndev < 8)
			snprintf(w->nodes[w->ndev++], 64, "/dev/accel/%.50s",
				 names[i]->d_name);
		free(names[i]);
	}
	if (n >= 0)
		free(names);
	return w->ndev;
}

int ctx_open(struct worker *w, int dev)
{
	static uint32_t gen;
	struct fctx *c;
	struct call cl;
	int fd;

	if (w->nctx >= MAX_CTX || !w->ndev)
		return -1;
	dev %= w->ndev;
	call_begin(&cl, "open", "%s", w->nodes[dev]);
	fd = open(w->nodes[dev], O_RDWR | O_CLOEXEC);
	call_end(&cl, fd < 0 ? -errno : fd, NULL);
	if (fd < 0)
		return -1;
	c = &w->ctx[w->nctx++];
	memset(c, 0, sizeof(*c));
	c->fd = fd;
	c->dev = dev;
	c->gen = ++gen;
	return w->nctx - 1;
}

void ctx_forget_bo(struct fctx *c, int i)
{
	if (c->bos[i].cpu)
		munmap(c->bos[i].cpu, c->bos[i].map_len);
	c->bos[i] = c->bos[--c->nbo];
}

void ctx_close(struct worker *w, int i)
{
	struct fctx *c = &w->ctx[i];
	struct call cl;
	int j;

	/* Mappings keep their objects; drop them with the file. */
	for (j = 0; j < c->nbo; j++)
		if (c->bos[j].cpu)
			munmap(c->bos[j].cpu, c->bos[j].map_len);
	call_begin(&cl, "close", "fd=%d queues=%d bos=%d cmdbufs=%d", c->fd,
		   c->nq, c->nbo, c->ncb);
	call_end(&cl, close(c->fd) ? -errno : 0, NULL);
	w->ctx[i] = w->ctx[--w->nctx];
}

struct fctx *ctx_pick(struct worker *w)
{
	if (!w->nctx)
		ctx_open(w, rnd(&w->r, 8));
	if (!w->nctx)
		return NULL;
	return &w->ctx[rnd(&w->r, w->nctx)];
}

static void guard_fill(struct worker *w)
{
	struct rng r = { w->guard_seed };
	size_t i;

	for (i = 0; i < sizeof(w->guard); i += 8) {
		uint64_t v = rnd64(&r);

		memcpy(w->guard + i, &v, 8);
	}
}

static void guard_check(struct worker *w)
{
	struct rng r = { w->guard_seed };
	size_t i;

	for (i = 0; i < sizeof(w->guard); i += 8) {
		uint64_t v = rnd64(&r), got;

		memcpy(&got, w->guard + i, 8);
		if (got != v)
			finding("fuzzer memory at %p changed: 0x%llx, expected 0x%llx",
				(void *)(w->guard + i), (unsigned long long)got,
				(unsigned long long)v);
	}
}

void worker_init(struct worker *w, uint64_t seed)
{
	memset(w, 0, sizeof(*w));
	w->r.s = seed;
	w->wfd = -1;
	list_nodes(w);
	w->scratch_len = 1 << 20;
	w->scratch = mmap(NULL, w->scratch_len, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	w->userpool_len = 4 << 20;
	w->userpool = mmap(NULL, w->userpool_len, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	w->ro_page = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS,
			  -1, 0);
	if (w->scratch == MAP_FAILED || w->userpool == MAP_FAILED ||
	    w->ro_page == MAP_FAILED) {
		perror("mmap");
		exit(2);
	}
	w->guard_seed = seed ^ 0x5a5a;
	guard_fill(w);
}

void worker_fini(struct worker *w)
{
	watch_check(w, true);
	while (w->nctx)
		ctx_close(w, w->nctx - 1);
	while (w->ndmabuf)
		close(w->dmabufs[--w->ndmabuf]);
	if (w->ring_ok)
		uring_reset(w, false);
	if (w->wfd >= 0) {
		witness_check(w);
		close(w->wfd);
		w->wfd = -1;
	}
	guard_check(w);
}

/* ---------------------------------------------------------- witness -- */

/*
 * The witness is a context of its own with two mapped HOST objects. Only
 * its own known-good jobs touch them; everything else the fuzzer does
 * happens in other contexts, which cannot address them. A check fills
 * object 0 with a fresh pattern through the mapping, copies it to object
 * 1 on the device, waits, and compares both with what they must hold.
 */
#define WSIZE	(64 * 1024)

void witness_init(struct worker *w)
{
	struct drm_vnpu_queue_create qc = { .priority = DRM_VNPU_PRIORITY_NORMAL };
	struct call cl;
	int i, ret;

	if (!w->ndev)
		return;
	w->wfd = open(w->nodes[0], O_RDWR | O_CLOEXEC);
	if (w->wfd < 0)
		return;
	/*
	 * Far above the small numbers the calls pick as "some other fd":
	 * garbage submitted on the witness's own queue would fail it.
	 */
	ret = fcntl(w->wfd, F_DUPFD_CLOEXEC, WITNESS_FD_MIN);
	close(w->wfd);
	w->wfd = ret;
	if (w->wfd < 0)
		return;
	for (i = 0; i < 2; i++) {
		struct drm_vnpu_bo_create bc = {
			.size = WSIZE, .placement = DRM_VNPU_PLACEMENT_HOST,
		};
		struct drm_vnpu_bo_info bi = { 0 };

		call_begin(&cl, "witness_bo_create", "fd=%d size=%u", w->wfd, WSIZE);
		ret = fz_ioctl(w->wfd, DRM_IOCTL_VNPU_BO_CREATE, &bc);
		call_end(&cl, ret, "handle=%u va=0x%llx", bc.handle,
			 (unsigned long long)bc.va);
		if (ret)
			goto fail;
		bi.handle = bc.handle;
		if (ioctl(w->wfd, DRM_IOCTL_VNPU_BO_INFO, &bi))
			goto fail;
		w->wbo[i].handle = bc.handle;
		w->wbo[i].va = bc.va;
		w->wbo[i].size = WSIZE;
		w->wbo[i].cpu = mmap(NULL, WSIZE, PROT_READ | PROT_WRITE,
				     MAP_SHARED, w->wfd, bi.mmap_offset);
		if (w->wbo[i].cpu == MAP_FAILED) {
			w->wbo[i].cpu = NULL;
			goto fail;
		}
		memset(w->wbo[i].cpu, 0, WSIZE);
	}
	if (ioctl(w->wfd, DRM_IOCTL_VNPU_QUEUE_CREATE, &qc))
		goto fail;
	w->wqueue = qc.queue_id;
	w->wsync = qc.syncobj;
	w->wseq = 0;
	w->wpattern = 0;
	return;
fail:
	fprintf(stderr, "# witness setup failed; running without it\n");
	close(w->wfd);
	w->wfd = -1;
}

static void witness_verify(struct worker *w, int i, uint64_t pattern)
{
	const uint64_t *p = (const uint64_t *)w->wbo[i].cpu;
	size_t k;

	for (k = 0; k < WSIZE / 8; k++)
		if (p[k] != (pattern ^ k))
			finding("witness object %d word %zu: 0x%llx, expected 0x%llx "
				"(memory of a context nobody else can reach changed)",
				i, k, (unsigned long long)p[k],
				(unsigned long long)(pattern ^ k));
}

void witness_check(struct worker *w)
{
	struct drm_vnpu_task t = {
		.type = DRM_VNPU_TASK_COPY,
		.copy = { .src = w->wbo[0].va, .dst = w->wbo[1].va, .size = WSIZE },
	};
	struct drm_vnpu_submit s = {
		.queue_id = w->wqueue, .tasks = (uintptr_t)&t, .task_count = 1,
		.task_stride = sizeof(t),
	};
	struct drm_vnpu_job_status st = { 0 };
	struct drm_syncobj_timeline_wait tw = { 0 };
	uint64_t pattern = rnd64(&w->r) | 1, point, *p;
	struct call cl;
	size_t k;
	int ret;

	if (w->wfd < 0)
		return;
	guard_check(w);
	/* Both objects still hold what the last check left there. */
	if (w->wpattern) {
		witness_verify(w, 0, w->wpattern);
		witness_verify(w, 1, w->wpattern);
	}
	p = (uint64_t *)w->wbo[0].cpu;
	for (k = 0; k < WSIZE / 8; k++)
		p[k] = pattern ^ k;
	call_begin(&cl, "witness_submit", "fd=%d queue=%u copy 0x%llx->0x%llx",
		   w->wfd, w->wqueue, (unsigned long long)t.copy.src,
		   (unsigned long long)t.copy.dst);
	ret = fz_ioctl(w->wfd, DRM_IOCTL_VNPU_SUBMIT, &s);
	call_end(&cl, ret, "seq=%llu", (unsigned long long)s.seq);
	if (ret == -EINTR)
		return;
	if (ret)
		finding("witness submit failed: %d", ret);
	if (s.seq != w->wseq + 1)
		finding("witness queue: seq %llu after %llu",
			(unsigned long long)s.seq, (unsigned long long)w->wseq);
	w->wseq = s.seq;
	point = s.seq;
	tw.handles = (uintptr_t)&w->wsync;
	tw.points = (uintptr_t)&point;
	tw.count_handles = 1;
	tw.timeout_nsec = now_ns() + 60ull * 1000000000ull;
	call_begin(&cl, "witness_wait", "fd=%d seq=%llu", w->wfd,
		   (unsigned long long)point);
	do {
		ret = ioctl(w->wfd, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &tw) ? -errno : 0;
	} while (ret == -EINTR);
	call_end(&cl, ret, NULL);
	if (ret)
		finding("witness job %llu did not finish in 60 s (%d)",
			(unsigned long long)point, ret);
	st.queue_id = w->wqueue;
	st.seq = point;
	ret = ioctl(w->wfd, DRM_IOCTL_VNPU_JOB_STATUS, &st) ? -errno : 0;
	if (ret || st.state != DRM_VNPU_JOB_OK)
		finding("witness job %llu: status %d state %u error %d",
			(unsigned long long)point, ret, st.state, st.error);
	witness_verify(w, 0, pattern);
	witness_verify(w, 1, pattern);
	w->wpattern = pattern;
}
