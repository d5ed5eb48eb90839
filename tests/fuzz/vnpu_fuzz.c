// SPDX-License-Identifier: GPL-2.0-only
/*
 * vnpu_fuzz: a fuzzer for the vnpu driver's user interface. Runs in the
 * VM against /dev/accel/accel*. See Documentation/fuzzing.md.
 *
 * The parent process supervises: it forks one worker per slice of the
 * run, watches its heartbeat (a call that never returns is a hang) and
 * the kernel log (/dev/kmsg, opened before dropping privileges), and
 * prints the last calls of every process when something goes wrong.
 */
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <getopt.h>
#include <grp.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fuzz.h"

void stats_print(FILE *f);

const struct known_bug known_bugs[] = {
	{ KB_EXTENT, "extent", "KERNEL tensor extent overflow ([2^22+1,2] strides [2^40,1])" },
	{ KB_VA_END, "va-end", "device VAs at or above DRM_VNPU_VA_IMPORT_START + RANGE_SIZE" },
	{ KB_CORE_UNSAFE, "core-unsafe", "GET_MAGIC, GET_UNIQUE, AUTH_MAGIC, SET_VERSION, SET/DROP_MASTER" },
	{ KB_QUEUE_RACE, "queue-race", "QUEUE_CREATE racing QUEUE_DESTROY of the same id" },
	{ KB_SYNCOBJ_COUNT, "syncobj-count", "huge count_handles in syncobj array ioctls" },
	{ 0, NULL, NULL },
};

/*
 * Known bugs whose fixes are on this branch: their inputs are generated.
 * All five were fixed by "Security (issue 11): checked tensor extents ..."
 * on main; the switches stay so that an older module can be fuzzed.
 */
const unsigned int known_default = KB_ALL;

/* ------------------------------------------------------------ phases -- */

enum act {
	A_GET_PARAM, A_BO_CREATE, A_BO_INFO, A_GEM_CLOSE, A_MMAP, A_MEMCPY,
	A_FAULT_INFO, A_QUEUE_CREATE, A_QUEUE_DESTROY, A_QUEUE_RESET, A_SUBMIT,
	A_JOB_STATUS, A_JOB_WAIT, A_CMDBUF_CREATE, A_CMDBUF_DESTROY,
	A_CMDBUF_REPLAY, A_VERSION, A_PRIME_EXPORT, A_PRIME_IMPORT, A_SYNCOBJ,
	A_CORE_UNSAFE, A_BAD_IOCTL, A_URING, A_CTX_OPEN, A_CTX_CLOSE,
	A_WITNESS, A_FORK_KILL, A_CLOSE_INFLIGHT, A_RACE, A_VM,
	A_EDGE_SHAPES, A_SPLIT_ROWS, A_VM_INFLIGHT, A_BIND_EDGE, A_MANY_QUEUES,
	A_TEARDOWN, A_PROF_CTL, A_PROF_CHECK, A_PROF_RACE, A_CMDBUF_UPDATE, A_NACT,
};

struct phase {
	const char *name;
	const char *what;
	unsigned char weight[A_NACT];
};

static const struct phase phases[] = {
	{ "calls", "every ioctl, plausible and mutated, on several files", {
		[A_GET_PARAM] = 4, [A_BO_CREATE] = 8, [A_BO_INFO] = 4, [A_GEM_CLOSE] = 4,
		[A_MMAP] = 3, [A_MEMCPY] = 8, [A_FAULT_INFO] = 2, [A_QUEUE_CREATE] = 3,
		[A_QUEUE_DESTROY] = 2, [A_QUEUE_RESET] = 2, [A_SUBMIT] = 10,
		[A_JOB_STATUS] = 4, [A_JOB_WAIT] = 2, [A_CMDBUF_CREATE] = 3,
		[A_CMDBUF_DESTROY] = 2, [A_CMDBUF_REPLAY] = 3, [A_VERSION] = 2,
		[A_PRIME_EXPORT] = 3, [A_PRIME_IMPORT] = 3, [A_SYNCOBJ] = 10,
		[A_CORE_UNSAFE] = 2, [A_BAD_IOCTL] = 2, [A_URING] = 3, [A_CTX_OPEN] = 1,
		[A_CTX_CLOSE] = 1, [A_WITNESS] = 1, [A_VM] = 8, [A_VM_INFLIGHT] = 2,
		[A_BIND_EDGE] = 2, [A_PROF_CTL] = 3 } },
	{ "batches", "task batches and command buffers: every task type and operator", {
		[A_BO_CREATE] = 3, [A_GEM_CLOSE] = 1, [A_QUEUE_CREATE] = 1,
		[A_QUEUE_RESET] = 4, [A_SUBMIT] = 30, [A_JOB_STATUS] = 4, [A_JOB_WAIT] = 3,
		[A_CMDBUF_CREATE] = 6, [A_CMDBUF_DESTROY] = 2, [A_CMDBUF_REPLAY] = 6,
		[A_FAULT_INFO] = 1, [A_MEMCPY] = 2, [A_WITNESS] = 1, [A_VM] = 4,
		[A_EDGE_SHAPES] = 4, [A_SPLIT_ROWS] = 1 } },
	{ "uring", "io_uring NOP, SUBMIT, WAIT and bad commands; ring teardown", {
		[A_BO_CREATE] = 2, [A_QUEUE_CREATE] = 1, [A_QUEUE_DESTROY] = 1,
		[A_QUEUE_RESET] = 3, [A_SUBMIT] = 3, [A_JOB_STATUS] = 2, [A_URING] = 30,
		[A_CMDBUF_CREATE] = 1, [A_CTX_CLOSE] = 1, [A_CTX_OPEN] = 1, [A_WITNESS] = 1 } },
	{ "lifecycle", "files closed and queues destroyed with jobs in flight, children killed mid-submit", {
		[A_BO_CREATE] = 3, [A_QUEUE_CREATE] = 2, [A_QUEUE_DESTROY] = 3,
		[A_SUBMIT] = 6, [A_URING] = 3, [A_CMDBUF_CREATE] = 2, [A_CMDBUF_REPLAY] = 2,
		[A_PRIME_EXPORT] = 2, [A_PRIME_IMPORT] = 2, [A_SYNCOBJ] = 2,
		[A_CTX_OPEN] = 2, [A_CTX_CLOSE] = 2, [A_FORK_KILL] = 3,
		[A_CLOSE_INFLIGHT] = 3, [A_MMAP] = 1, [A_WITNESS] = 1, [A_VM] = 3,
		[A_TEARDOWN] = 2, [A_MANY_QUEUES] = 1, [A_PROF_RACE] = 1 } },
	{ "race", "threads racing create/destroy/submit on shared files", {
		[A_RACE] = 6, [A_SUBMIT] = 2, [A_BO_CREATE] = 1, [A_WITNESS] = 1,
		[A_FORK_KILL] = 1, [A_TEARDOWN] = 3 } },
	{ "shapes", "every operator with an empty input or output and strides 0, 1, 2^40; split-phase operators on long rows", {
		[A_EDGE_SHAPES] = 24, [A_SPLIT_ROWS] = 3, [A_SUBMIT] = 3,
		[A_BO_CREATE] = 1, [A_QUEUE_RESET] = 1, [A_WITNESS] = 1 } },
	{ "objects", "VM unmapped under jobs, bindings at their limits, objects closed before replays, teardown races", {
		[A_VM_INFLIGHT] = 8, [A_BIND_EDGE] = 8, [A_TEARDOWN] = 3, [A_VM] = 3,
		[A_SUBMIT] = 2, [A_CMDBUF_REPLAY] = 2, [A_BO_CREATE] = 1,
		[A_WITNESS] = 1 } },
	{ "queues", "up to 256 queues on a file, each with a job, next to the probe", {
		[A_MANY_QUEUES] = 6, [A_SUBMIT] = 2, [A_JOB_WAIT] = 1, [A_WITNESS] = 1 } },
	{ "prof", "PROF_CTL fields, checked rings, profiling toggled and its ring scribbled while many queues submit", {
		[A_PROF_CTL] = 6, [A_PROF_CHECK] = 3, [A_PROF_RACE] = 4, [A_SUBMIT] = 2,
		[A_CTX_CLOSE] = 1, [A_CTX_OPEN] = 1, [A_WITNESS] = 1 } },
	{ "update", "CMDBUF_UPDATE with edge ranges, strides, offsets, mutated tasks and arguments, replays in between, the command buffer destroyed by another thread", {
		[A_CMDBUF_UPDATE] = 12, [A_CMDBUF_REPLAY] = 3, [A_CMDBUF_CREATE] = 2,
		[A_CMDBUF_DESTROY] = 1, [A_BO_CREATE] = 2, [A_QUEUE_RESET] = 2,
		[A_JOB_WAIT] = 1, [A_CTX_CLOSE] = 1, [A_CTX_OPEN] = 1, [A_WITNESS] = 1 } },
};

#define NPHASES ((int)ARRAY_SIZE(phases))

static const struct phase *find_phase(const char *name)
{
	int i;

	for (i = 0; i < NPHASES; i++)
		if (!strcmp(phases[i].name, name))
			return &phases[i];
	return NULL;
}

/* ------------------------------------------------ lifecycle episodes -- */

/* Submit short valid jobs and close the file before they finish. */
static void close_inflight(struct worker *w)
{
	struct fctx *c;
	int i, k, n;

	k = ctx_open(w, rnd(&w->r, 8));
	if (k < 0)
		return;
	c = &w->ctx[k];
	n = 1 + rnd(&w->r, 3);
	for (i = 0; i < n; i++)
		queue_create(w, c);
	bo_create(w, c, 65536, rnd(&w->r, 2), 0, one_in(&w->r, 2));
	n = 2 + rnd(&w->r, 8);
	for (i = 0; i < n; i++) {
		if (one_in(&w->r, 3))
			do_uring(w, c);
		else if (one_in(&w->r, 6))
			do_cmdbuf_replay(w, c);
		else
			do_submit(w, c);
		if (one_in(&w->r, 4))
			do_cmdbuf_create(w, c);
	}
	if (one_in(&w->r, 2))
		do_prime_export(w, c);
	if (one_in(&w->r, 2) && c->nq)
		do_queue_destroy(w, c);
	ctx_close(w, k);
}

/*
 * A child that submits as fast as it can, on a file of its own or on the
 * parent's files, killed with SIGKILL at a random moment.
 */
static void fork_kill(struct worker *w)
{
	uint64_t child_seed = rnd64(&w->r);
	int delay_ms = rnd(&w->r, 60), own = rnd(&w->r, 2), status;
	struct call cl;
	pid_t pid;

	pid_t parent = getpid();

	log_flush();
	pid = fork();
	if (pid < 0)
		return;
	if (!pid) {
		struct worker *cw = w;
		uint64_t end = now_ns() + 3000000000ull;
		int k;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(0);
		cw->r.s = child_seed;
		cw->ring_ok = false;	/* the parent's ring is not ours */
		cw->ring_pending = 0;
		cw->nheld = 0;
		tl_timer = false;
		if (own || !cw->nctx) {
			cw->nctx = 0;
			k = ctx_open(cw, rnd(&cw->r, 8));
			if (k < 0)
				_exit(0);
			queue_create(cw, &cw->ctx[k]);
		}
		while (now_ns() < end) {
			struct fctx *c = &cw->ctx[rnd(&cw->r, cw->nctx)];

			switch (rnd(&cw->r, 6)) {
			case 0:
				do_uring(cw, c);
				break;
			case 1:
				do_bo_create(cw, c);
				break;
			case 2:
				do_cmdbuf_replay(cw, c);
				break;
			default:
				do_submit(cw, c);
			}
		}
		log_flush();
		_exit(0);
	}
	usleep(delay_ms * 1000);
	call_begin(&cl, "kill", "child=%d own_file=%d after=%dms", pid, own, delay_ms);
	kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	call_end(&cl, 0, "status=0x%x", status);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 3)
		finding("the killed child found a problem (see above)");
	if (WIFSIGNALED(status) && WTERMSIG(status) != SIGKILL)
		finding("child died of signal %d", WTERMSIG(status));
}

/* ----------------------------------------------------- race threads -- */

struct racer {
	struct worker *w;
	int *fds;
	int nfds;
	int idx;
	uint64_t seed;
	uint64_t end_ns;
	const char *node;
};

static void *race_thread(void *arg)
{
	struct racer *ra = arg;
	struct rng r = { ra->seed };
	uint32_t my_q[16], nq = 0;
	uint64_t my_va[16];
	uint32_t my_bo[16], nbo = 0;
	struct io_uring ring;
	bool ring_ok = !io_uring_queue_init(16, &ring, IORING_SETUP_SQE128 |
					    IORING_SETUP_CQE32);
	extern __thread int tl_tid;
	struct call cl;
	int ret;

	tl_tid = ra->idx + 1;
	while (now_ns() < ra->end_ns) {
		int fd = ra->fds[rnd(&r, ra->nfds)];
		uint32_t rid = 1 + rnd(&r, 8);

		switch (rnd(&r, 16)) {
		case 0: {
			struct drm_vnpu_queue_create qc = { .priority = rnd(&r, 3) };

			call_begin(&cl, "QUEUE_CREATE", "fd=%d", fd);
			ret = fz_ioctl(fd, DRM_IOCTL_VNPU_QUEUE_CREATE, &qc);
			call_end(&cl, ret, "queue_id=%u syncobj=%u", qc.queue_id, qc.syncobj);
			if (!ret && nq < 16)
				my_q[nq++] = qc.queue_id;
			break;
		}
		case 1: {
			struct drm_vnpu_queue_destroy qd = { .queue_id = rid };

			if (!(opt.known & KB_QUEUE_RACE)) {
				if (!nq)
					break;
				qd.queue_id = my_q[--nq];
			}
			call_begin(&cl, "QUEUE_DESTROY", "fd=%d queue_id=%u", fd, qd.queue_id);
			call_end(&cl, fz_ioctl(fd, DRM_IOCTL_VNPU_QUEUE_DESTROY, &qd), NULL);
			break;
		}
		case 2: {
			struct drm_vnpu_queue_destroy qd = { .queue_id = rid };

			call_begin(&cl, "QUEUE_RESET", "fd=%d queue_id=%u", fd, qd.queue_id);
			call_end(&cl, fz_ioctl(fd, DRM_IOCTL_VNPU_QUEUE_RESET, &qd), NULL);
			break;
		}
		case 3:
		case 4:
		case 5: {
			struct drm_vnpu_task t[3] = { 0 };
			struct drm_vnpu_submit s = { .tasks = (uintptr_t)t, .task_stride = 64 };
			uint32_t i;

			s.queue_id = nq && !one_in(&r, 3) ? my_q[rnd(&r, nq)] : rid;
			s.task_count = 1 + rnd(&r, 3);
			for (i = 0; i < s.task_count; i++) {
				uint64_t va = nbo ? my_va[rnd(&r, nbo)] : DRM_VNPU_VA_DEVICE_START;

				switch (rnd(&r, 4)) {
				case 0:
					t[i].type = DRM_VNPU_TASK_FILL;
					t[i].fill.dst = va;
					t[i].fill.size = 4096;
					t[i].fill.pattern_size = 4;
					break;
				case 1:
					t[i].type = DRM_VNPU_TASK_SPIN;
					t[i].spin.ns = rnd(&r, 500000);
					break;
				case 2:
					t[i].type = DRM_VNPU_TASK_WRITE_VALUE;
					t[i].value.addr = va + 8 * rnd(&r, 4);
					break;
				default:
					t[i].type = DRM_VNPU_TASK_COPY;
					t[i].copy.src = va;
					t[i].copy.dst = va + 2048;
					t[i].copy.size = 2048;
				}
			}
			if (ring_ok && one_in(&r, 3)) {
				struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);
				struct io_uring_cqe *cqe;
				struct __kernel_timespec ts = { 0, 20000000 };

				if (!sqe)
					break;
				memset(sqe, 0, 128);
				sqe->opcode = IORING_OP_URING_CMD;
				sqe->fd = fd;
				sqe->cmd_op = DRM_VNPU_URING_CMD_SUBMIT;
				memcpy(sqe->cmd, &s, sizeof(s));
				call_begin(&cl, "uring_SUBMIT", "fd=%d queue=%u count=%u", fd,
					   s.queue_id, s.task_count);
				ret = io_uring_submit_and_wait_timeout(&ring, &cqe, 1, &ts, NULL);
				if (ret >= 0 && cqe) {
					ret = cqe->res;
					io_uring_cqe_seen(&ring, cqe);
				}
				call_end(&cl, ret, NULL);
				break;
			}
			call_begin(&cl, "SUBMIT", "fd=%d queue=%u count=%u types=%u,%u,%u", fd,
				   s.queue_id, s.task_count, t[0].type, t[1].type, t[2].type);
			call_end(&cl, fz_ioctl(fd, DRM_IOCTL_VNPU_SUBMIT, &s), "seq=%llu",
				 (unsigned long long)s.seq);
			break;
		}
		case 6: {
			struct drm_vnpu_bo_create bc = { .size = 8192, .placement = rnd(&r, 2) };

			call_begin(&cl, "BO_CREATE", "fd=%d size=8192 placement=%u", fd, bc.placement);
			ret = fz_ioctl(fd, DRM_IOCTL_VNPU_BO_CREATE, &bc);
			call_end(&cl, ret, "handle=%u va=0x%llx", bc.handle,
				 (unsigned long long)bc.va);
			if (!ret && nbo < 16) {
				my_bo[nbo] = bc.handle;
				my_va[nbo++] = bc.va;
			}
			break;
		}
		case 7: {
			struct drm_gem_close gc = { .handle = one_in(&r, 2) && nbo ?
						    my_bo[rnd(&r, nbo)] : rnd(&r, 24) };

			call_begin(&cl, "GEM_CLOSE", "fd=%d handle=%u", fd, gc.handle);
			call_end(&cl, fz_ioctl(fd, DRM_IOCTL_GEM_CLOSE, &gc), NULL);
			break;
		}
		case 8: {
			struct drm_vnpu_task t = { .type = DRM_VNPU_TASK_NOP };
			struct drm_vnpu_cmdbuf_create cc = {
				.tasks = (uintptr_t)&t, .task_count = 1, .task_stride = 64,
			};

			call_begin(&cl, "CMDBUF_CREATE", "fd=%d", fd);
			call_end(&cl, fz_ioctl(fd, DRM_IOCTL_VNPU_CMDBUF_CREATE, &cc),
				 "handle=%u", cc.handle);
			break;
		}
		case 9: {
			struct drm_vnpu_cmdbuf_destroy cd = { .handle = rid };

			call_begin(&cl, "CMDBUF_DESTROY", "fd=%d handle=%u", fd, cd.handle);
			call_end(&cl, fz_ioctl(fd, DRM_IOCTL_VNPU_CMDBUF_DESTROY, &cd), NULL);
			break;
		}
		case 10: {
			struct drm_vnpu_submit s = { .flags = DRM_VNPU_SUBMIT_CMDBUF,
						     .cmdbuf = rid };

			s.queue_id = nq ? my_q[rnd(&r, nq)] : rid;
			call_begin(&cl, "SUBMIT", "fd=%d queue=%u cmdbuf=%u", fd, s.queue_id,
				   s.cmdbuf);
			call_end(&cl, fz_ioctl(fd, DRM_IOCTL_VNPU_SUBMIT, &s), "seq=%llu",
				 (unsigned long long)s.seq);
			break;
		}
		case 11: {
			struct drm_syncobj_destroy sd = { .handle = 1 + rnd(&r, 16) };
			struct drm_syncobj_create sc = { 0 };

			if (one_in(&r, 2)) {
				call_begin(&cl, "SYNCOBJ_CREATE", "fd=%d", fd);
				call_end(&cl, fz_ioctl(fd, DRM_IOCTL_SYNCOBJ_CREATE, &sc),
					 "handle=%u", sc.handle);
			} else {
				call_begin(&cl, "SYNCOBJ_DESTROY", "fd=%d handle=%u", fd, sd.handle);
				call_end(&cl, fz_ioctl(fd, DRM_IOCTL_SYNCOBJ_DESTROY, &sd), NULL);
			}
			break;
		}
		case 12: {
			struct drm_vnpu_job_status js = { .queue_id = rid, .seq = 1 + rnd(&r, 8) };

			call_begin(&cl, "JOB_STATUS", "fd=%d queue=%u seq=%llu", fd, js.queue_id,
				   (unsigned long long)js.seq);
			call_end(&cl, fz_ioctl(fd, DRM_IOCTL_VNPU_JOB_STATUS, &js), "state=%u",
				 js.state);
			break;
		}
		case 13: {
			struct drm_prime_handle ph = { .handle = rnd(&r, 24), .flags = DRM_CLOEXEC };

			call_begin(&cl, "PRIME_HANDLE_TO_FD", "fd=%d handle=%u", fd, ph.handle);
			ret = fz_ioctl(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &ph);
			call_end(&cl, ret, "dmabuf=%d", ph.fd);
			if (!ret) {
				struct drm_prime_handle ih = { .fd = ph.fd };
				int fd2 = ra->fds[rnd(&r, ra->nfds)];

				call_begin(&cl, "PRIME_FD_TO_HANDLE", "fd=%d dmabuf=%d", fd2, ph.fd);
				call_end(&cl, fz_ioctl(fd2, DRM_IOCTL_PRIME_FD_TO_HANDLE, &ih),
					 "handle=%u", ih.handle);
				close(ph.fd);
			}
			break;
		}
		case 14: {
			struct drm_vnpu_bo_info bi = { .handle = rnd(&r, 24) };
			void *p;

			if (fz_ioctl(fd, DRM_IOCTL_VNPU_BO_INFO, &bi) || !bi.mmap_offset)
				break;
			call_begin(&cl, "mmap", "fd=%d handle=%u size=0x%llx", fd, bi.handle,
				   (unsigned long long)bi.size);
			p = mmap(NULL, bi.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
				 bi.mmap_offset);
			call_end(&cl, p == MAP_FAILED ? -errno : 0, NULL);
			if (p != MAP_FAILED) {
				((volatile uint8_t *)p)[0] = 1;
				munmap(p, bi.size);
			}
			break;
		}
		default:
			/* replace the shared file under everybody's feet */
			if (ra->idx == 0 && one_in(&r, 20)) {
				int nfd = open(ra->node, O_RDWR | O_CLOEXEC);

				call_begin(&cl, "dup2_reopen", "fd=%d", fd);
				ret = nfd < 0 ? -errno : dup2(nfd, fd) < 0 ? -errno : 0;
				call_end(&cl, ret, NULL);
				if (nfd >= 0)
					close(nfd);
				nq = nbo = 0;
			}
			break;
		}
	}
	if (ring_ok)
		io_uring_queue_exit(&ring);
	return NULL;
}

static void race(struct worker *w)
{
	int nthreads = 2 + rnd(&w->r, 3), nfds = 1 + rnd(&w->r, 2), i, k;
	uint64_t end = now_ns() + (200 + rnd(&w->r, 600)) * 1000000ull;
	struct racer ra[4];
	pthread_t th[4];
	int fds[2], ks[2];
	int dev = rnd(&w->r, 8);

	for (i = 0; i < nfds; i++) {
		k = ctx_open(w, dev);
		if (k < 0) {
			nfds = i;
			break;
		}
		ks[i] = k;
		fds[i] = w->ctx[k].fd;
	}
	if (!nfds)
		return;
	log_note("# race: %d threads, %d files", nthreads, nfds);
	log_flush();
	for (i = 0; i < nthreads; i++) {
		ra[i].w = w;
		ra[i].fds = fds;
		ra[i].nfds = nfds;
		ra[i].idx = i;
		ra[i].seed = rnd64(&w->r);
		ra[i].end_ns = end;
		ra[i].node = w->nodes[w->ctx[ks[0]].dev];
		if (pthread_create(&th[i], NULL, race_thread, &ra[i])) {
			nthreads = i;
			break;
		}
	}
	for (i = 0; i < nthreads; i++)
		pthread_join(th[i], NULL);
	/* What the racers did is unknown: close those files. */
	for (i = nfds - 1; i >= 0; i--) {
		for (k = 0; k < w->nctx; k++)
			if (w->ctx[k].fd == fds[i]) {
				ctx_close(w, k);
				break;
			}
	}
}

/* ------------------------------------------------------------ worker -- */

static void sigalrm(int sig)
{
	(void)sig;	/* interrupts a blocking call; it returns EINTR */
}

/* A crash of the fuzzer itself: where, and the calls before it. */
static void sigfatal(int sig, siginfo_t *si, void *uc)
{
	void *bt[32];
	int n = backtrace(bt, 32);

	(void)uc;
	fprintf(stderr, "# worker %d: signal %d at address %p; backtrace:\n", getpid(),
		sig, si->si_addr);
	backtrace_symbols_fd(bt, n, 2);
	log_flush();
	signal(sig, SIG_DFL);
	raise(sig);
}

static int worker_run(const struct phase *ph, uint64_t seed, double seconds)
{
	static struct worker wk;
	struct worker *w = &wk;
	struct sigaction sa = { .sa_handler = sigalrm };
	uint64_t end = now_ns() + (uint64_t)(seconds * 1e9), total = 0;
	unsigned int i, pick;
	int n;

	worker_end_ns = end;
	sigaction(SIGALRM, &sa, NULL);	/* no SA_RESTART */
	sa.sa_handler = NULL;
	sa.sa_sigaction = sigfatal;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGABRT, &sa, NULL);
	tl_timer = true;
	worker_init(w, seed);
	if (!w->ndev) {
		fprintf(stderr, "vnpu_fuzz: no /dev/accel/accel* nodes\n");
		return 2;
	}
	witness_init(w);
	for (n = 0; n < 2; n++)
		ctx_open(w, n);
	for (i = 0; i < A_NACT; i++)
		total += ph->weight[i];
	while (now_ns() < end) {
		struct fctx *c;
		uint64_t x = rnd(&w->r, total);

		for (pick = 0; pick < A_NACT && x >= ph->weight[pick]; pick++)
			x -= ph->weight[pick];
		if (pick == A_CORE_UNSAFE && !(opt.known & KB_CORE_UNSAFE))
			pick = A_VERSION;
		c = ctx_pick(w);
		if (!c)
			break;
		switch (pick) {
		case A_GET_PARAM: do_get_param(w, c); break;
		case A_BO_CREATE: do_bo_create(w, c); break;
		case A_BO_INFO: do_bo_info(w, c); break;
		case A_GEM_CLOSE: do_gem_close(w, c); break;
		case A_MMAP: do_mmap(w, c); break;
		case A_MEMCPY: do_memcpy(w, c); break;
		case A_FAULT_INFO: do_fault_info(w, c); break;
		case A_QUEUE_CREATE: do_queue_create(w, c); break;
		case A_QUEUE_DESTROY: do_queue_destroy(w, c); break;
		case A_QUEUE_RESET: do_queue_reset(w, c); break;
		case A_SUBMIT: do_submit(w, c); break;
		case A_JOB_STATUS: do_job_status(w, c); break;
		case A_JOB_WAIT: do_job_wait(w, c); break;
		case A_CMDBUF_CREATE: do_cmdbuf_create(w, c); break;
		case A_CMDBUF_DESTROY: do_cmdbuf_destroy(w, c); break;
		case A_CMDBUF_REPLAY: do_cmdbuf_replay(w, c); break;
		case A_VERSION: do_version(w, c); break;
		case A_PRIME_EXPORT: do_prime_export(w, c); break;
		case A_PRIME_IMPORT: do_prime_import(w, c); break;
		case A_SYNCOBJ: do_syncobj(w, c); break;
		case A_CORE_UNSAFE: do_core_unsafe(w, c); break;
		case A_BAD_IOCTL: do_bad_ioctl(w, c); break;
		case A_URING: do_uring(w, c); break;
		case A_CTX_OPEN: ctx_open(w, rnd(&w->r, 8)); break;
		case A_CTX_CLOSE:
			if (w->nctx > 1)
				ctx_close(w, rnd(&w->r, w->nctx));
			break;
		case A_WITNESS: witness_check(w); break;
		case A_FORK_KILL: fork_kill(w); break;
		case A_CLOSE_INFLIGHT: close_inflight(w); break;
		case A_RACE: race(w); break;
		case A_VM: do_vm(w, c); break;
		case A_EDGE_SHAPES: do_edge_shapes(w, c); break;
		case A_SPLIT_ROWS: do_split_rows(w, c); break;
		case A_VM_INFLIGHT: do_vm_inflight(w, c); break;
		case A_BIND_EDGE: do_bind_edge(w, c); break;
		case A_MANY_QUEUES: do_many_queues(w); break;
		case A_TEARDOWN: do_teardown_race(w); break;
		case A_PROF_CTL: do_prof_ctl(w, c); break;
		case A_PROF_CHECK: do_prof_check(w); break;
		case A_PROF_RACE: do_prof_race(w); break;
		case A_CMDBUF_UPDATE: do_cmdbuf_update(w, c); break;
		default: break;
		}
	}
	log_note("# worker: slice over, cleaning up");
	worker_fini(w);
	log_flush();
	return 0;
}

/* ---------------------------------------------------------- kernel log -- */

static int kmsg_fd = -1;

static const char *const kmsg_bad[] = {
	"BUG:", "kernel BUG at", "WARNING:", "Oops", "KFENCE", "general protection",
	"refcount_t:", "Poison overwritten", "Redzone", "Object padding",
	"soft lockup", "hard LOCKUP", "rcu: INFO:", "detected stall",
	"blocked for more than", "Kernel panic", "UBSAN", "list_add corruption",
	"list_del corruption", "double free", "use-after-free", "Freepointer",
};

/* New kernel log lines; returns the number of bad ones (printed). */
static int kmsg_scan(bool print_all_after_bad)
{
	static bool seen_bad;
	char buf[2048];
	int bad = 0;
	ssize_t n;
	size_t i;

	if (kmsg_fd < 0)
		return 0;
	for (;;) {
		const char *msg;

		n = read(kmsg_fd, buf, sizeof(buf) - 1);
		if (n < 0 && errno == EPIPE)
			continue;
		if (n <= 0)
			break;
		buf[n] = '\0';
		msg = strchr(buf, ';');
		msg = msg ? msg + 1 : buf;
		for (i = 0; i < ARRAY_SIZE(kmsg_bad); i++) {
			if (!strstr(msg, kmsg_bad[i]))
				continue;
			if (!strcmp(kmsg_bad[i], "WARNING:") && strncmp(msg, "WARNING:", 8))
				continue;
			bad++;
			break;
		}
		if (i < ARRAY_SIZE(kmsg_bad) || (seen_bad && print_all_after_bad))
			fprintf(stderr, "# kernel: %s", msg);
		if (i < ARRAY_SIZE(kmsg_bad))
			seen_bad = true;
	}
	return bad;
}

/* ---------------------------------------------------------- supervisor -- */

static void print_task_state(pid_t pid)
{
	char path[64], buf[4096];
	int fd;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/wchan", pid);
	fd = open(path, O_RDONLY);
	if (fd >= 0) {
		n = read(fd, buf, sizeof(buf) - 1);
		if (n > 0) {
			buf[n] = '\0';
			fprintf(stderr, "# worker %d waits in: %s\n", pid, buf);
		}
		close(fd);
	}
	snprintf(path, sizeof(path), "/proc/%d/stack", pid);
	fd = open(path, O_RDONLY);
	if (fd >= 0) {
		n = read(fd, buf, sizeof(buf) - 1);
		if (n > 0) {
			buf[n] = '\0';
			fprintf(stderr, "# worker %d kernel stack:\n%s", pid, buf);
		}
		close(fd);
	}
}

/* Run one slice in a worker process; 0 ok, 1 a finding. */
static int run_slice(const struct phase *ph, uint64_t seed, double seconds,
		     uint64_t *calls)
{
	uint64_t start = now_ns(), c0 = atomic_load(&sh->calls);
	int status = 0, bad = 0;
	pid_t pid, parent = getpid();

	atomic_store(&sh->heartbeat_ns, now_ns());
	atomic_store(&sh->finding, 0);
	log_note("# slice: phase %s seed 0x%llx %.0fs (reproduce: vnpu_fuzz --phase %s --seed 0x%llx --seconds %.0f)",
		 ph->name, (unsigned long long)seed, seconds, ph->name,
		 (unsigned long long)seed, seconds);
	log_flush();
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		perror("fork");
		return 1;
	}
	if (!pid) {
		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(0);	/* the supervisor is gone already */
		_exit(worker_run(ph, seed, seconds));
	}
	for (;;) {
		pid_t got = waitpid(pid, &status, WNOHANG);
		uint64_t hb = atomic_load(&sh->heartbeat_ns);

		if (got == pid)
			break;
		if (kmsg_scan(true)) {
			usleep(500000);	/* the rest of the splat */
			kmsg_scan(true);
			fprintf(stderr, "# FINDING: the kernel log shows a problem (phase %s seed 0x%llx)\n",
				ph->name, (unsigned long long)seed);
			ring_dump(opt.last);
			bad = 1;
			kill(-pid, SIGKILL);
			waitpid(pid, &status, 0);
			break;
		}
		if (now_ns() > hb + (uint64_t)opt.hang_s * 1000000000ull) {
			fprintf(stderr, "# FINDING: no call finished for %d s: hang (phase %s seed 0x%llx)\n",
				opt.hang_s, ph->name, (unsigned long long)seed);
			print_task_state(pid);
			ring_dump(opt.last);
			bad = 1;
			kill(-pid, SIGKILL);
			waitpid(pid, &status, 0);
			break;
		}
		usleep(100000);
	}
	/* Reap leftovers of the process group (killed children, ...). */
	kill(-pid, SIGKILL);
	while (waitpid(-pid, NULL, WNOHANG) > 0)
		;
	if (!bad && WIFSIGNALED(status)) {
		fprintf(stderr, "# FINDING: worker died of signal %d (phase %s seed 0x%llx)\n",
			WTERMSIG(status), ph->name, (unsigned long long)seed);
		ring_dump(opt.last);
		bad = 1;
	} else if (!bad && WIFEXITED(status) && WEXITSTATUS(status)) {
		if (WEXITSTATUS(status) != 3)
			fprintf(stderr, "# worker exited with status %d\n", WEXITSTATUS(status));
		bad = 1;
	}
	if (!bad && kmsg_scan(true)) {
		fprintf(stderr, "# FINDING: the kernel log shows a problem (phase %s seed 0x%llx)\n",
			ph->name, (unsigned long long)seed);
		ring_dump(opt.last);
		bad = 1;
	}
	*calls = atomic_load(&sh->calls) - c0;
	(void)start;
	return bad;
}

static void usage(FILE *f)
{
	int i;

	fprintf(f,
		"usage: vnpu_fuzz [options]\n"
		"  -s, --seconds N     run for N seconds (default 600)\n"
		"  -S, --seed S        seed (default: from the clock; printed first)\n"
		"  -l, --log FILE      write one line per call to FILE\n"
		"  -p, --phase NAME    run only this phase (default: cycle through all)\n"
		"  -n, --calls N       stop a worker after N calls (for minimising)\n"
		"      --tap           one TAP line per phase; phases share the time\n"
		"      --known LIST    also generate the inputs of these known bugs\n"
		"                      (comma separated names, 'all' or 'none')\n"
		"      --core-unsafe   same as --known +core-unsafe\n"
		"      --last N        calls printed on a problem (default 40)\n"
		"      --hang S        watchdog: no call finished for S s (default 90)\n"
		"      --user UID      drop to UID/GID after opening /dev/kmsg\n"
		"      --full          log every task word and argument block\n"
		"      --probe-limit-ms N  the fairness probe's limit (default 5000)\n"
		"      --no-probe      do not run the fairness probe\n"
		"      --job-limit S   a watched job may run S seconds (default: twice job_max_ms)\n"
		"      --op ID         empty shapes: only operator ID (default: walk all)\n"
		"  -v, --verbose       echo every call to stderr\n"
		"phases:\n");
	for (i = 0; i < NPHASES; i++)
		fprintf(f, "  %-10s %s\n", phases[i].name, phases[i].what);
	fprintf(f, "known bugs (default generated: ");
	for (i = 0; known_bugs[i].name; i++)
		if (known_default & known_bugs[i].bit)
			fprintf(f, "%s ", known_bugs[i].name);
	fprintf(f, "):\n");
	for (i = 0; known_bugs[i].name; i++)
		fprintf(f, "  %-14s %s\n", known_bugs[i].name, known_bugs[i].what);
}

static unsigned int parse_known(const char *s, unsigned int cur)
{
	char *dup = strdup(s), *tok, *save;
	int i;

	for (tok = strtok_r(dup, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		bool add = true;

		if (*tok == '+' || *tok == '-') {
			add = *tok == '+';
			tok++;
		}
		if (!strcmp(tok, "all")) {
			cur = add ? KB_ALL : 0;
			continue;
		}
		if (!strcmp(tok, "none")) {
			cur = 0;
			continue;
		}
		for (i = 0; known_bugs[i].name; i++)
			if (!strcmp(tok, known_bugs[i].name))
				break;
		if (!known_bugs[i].name) {
			fprintf(stderr, "vnpu_fuzz: unknown bug name '%s'\n", tok);
			exit(2);
		}
		if (add)
			cur |= known_bugs[i].bit;
		else
			cur &= ~known_bugs[i].bit;
	}
	free(dup);
	return cur;
}

static void drop_privileges(int uid)
{
	char path[64];
	int i;

	/* Make the nodes usable by the target user (as root only). */
	for (i = 0; i < 16 && geteuid() == 0; i++) {
		snprintf(path, sizeof(path), "/dev/accel/accel%d", i);
		chmod(path, 0666);
	}
	if (setgroups(0, NULL) || setgid(uid) || setuid(uid)) {
		perror("vnpu_fuzz: dropping privileges");
		exit(2);
	}
}

/*
 * How long a watched job may run: twice the module's job_max_ms, the
 * engine time after which the driver aborts any job (a job that outlives
 * it is a finding); 120 s when the parameter cannot be read.
 */
static int default_job_limit_s(void)
{
	FILE *f = fopen("/sys/module/vnpu/parameters/job_max_ms", "r");
	unsigned long ms = 0;

	if (f) {
		if (fscanf(f, "%lu", &ms) != 1)
			ms = 0;
		fclose(f);
	}
	return ms ? (int)(ms / 500 + 1) : 120;
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "seconds", required_argument, NULL, 's' },
		{ "seed", required_argument, NULL, 'S' },
		{ "log", required_argument, NULL, 'l' },
		{ "phase", required_argument, NULL, 'p' },
		{ "calls", required_argument, NULL, 'n' },
		{ "tap", no_argument, NULL, 't' },
		{ "known", required_argument, NULL, 'k' },
		{ "core-unsafe", no_argument, NULL, 'u' },
		{ "last", required_argument, NULL, 'L' },
		{ "hang", required_argument, NULL, 'H' },
		{ "user", required_argument, NULL, 'U' },
		{ "full", no_argument, NULL, 'F' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "probe-limit-ms", required_argument, NULL, 'P' },
		{ "no-probe", no_argument, NULL, 'N' },
		{ "job-limit", required_argument, NULL, 'J' },
		{ "op", required_argument, NULL, 'O' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const struct phase *only = NULL;
	bool seed_given = false;
	pid_t probe = -1;
	uint64_t total_calls = 0, start;
	int ch, slice, failed = 0, nslices;
	double elapsed, slice_s;

	opt.seconds = 600;
	opt.last = 40;
	opt.hang_s = 90;
	opt.uid = -1;
	opt.known = known_default;
	opt.probe = true;
	opt.probe_limit_ms = 5000;
	opt.job_limit_s = default_job_limit_s();
	while ((ch = getopt_long(argc, argv, "s:S:l:p:n:vh", lopts, NULL)) != -1) {
		switch (ch) {
		case 's': opt.seconds = atof(optarg); break;
		case 'S': opt.seed = strtoull(optarg, NULL, 0); seed_given = true; break;
		case 'l': opt.log_path = optarg; break;
		case 'p': opt.phase = optarg; break;
		case 'n': opt.max_calls = strtoull(optarg, NULL, 0); break;
		case 't': opt.tap = true; break;
		case 'k': opt.known = parse_known(optarg, opt.known); break;
		case 'u': opt.known |= KB_CORE_UNSAFE; break;
		case 'L': opt.last = atoi(optarg); break;
		case 'H': opt.hang_s = atoi(optarg); break;
		case 'U': opt.uid = atoi(optarg); break;
		case 'F': opt.full = true; break;
		case 'v': opt.verbose = true; break;
		case 'P': opt.probe_limit_ms = atoi(optarg); break;
		case 'N': opt.probe = false; break;
		case 'J': opt.job_limit_s = atoi(optarg); break;
		case 'O': opt.edge_op = strtoul(optarg, NULL, 0); break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc || opt.seconds <= 0 || opt.probe_limit_ms <= 0 ||
	    opt.job_limit_s <= 0) {
		usage(stderr);
		return 2;
	}
	if (opt.phase) {
		only = find_phase(opt.phase);
		if (!only) {
			fprintf(stderr, "vnpu_fuzz: unknown phase '%s'\n", opt.phase);
			return 2;
		}
	}
	if (!seed_given)
		opt.seed = now_ns() ^ ((uint64_t)getpid() << 32);
	printf("vnpu_fuzz: seed 0x%llx (%llu)\n", (unsigned long long)opt.seed,
	       (unsigned long long)opt.seed);
	printf("# known bugs generated:");
	for (ch = 0; known_bugs[ch].name; ch++)
		if (opt.known & known_bugs[ch].bit)
			printf(" %s", known_bugs[ch].name);
	printf("%s\n", opt.known ? "" : " none");
	fflush(stdout);

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		  -1, 0);
	if (sh == MAP_FAILED) {
		perror("mmap");
		return 2;
	}
	kmsg_fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (kmsg_fd >= 0)
		lseek(kmsg_fd, 0, SEEK_END);
	else
		printf("# /dev/kmsg not readable: the kernel log is not watched\n");
	if (opt.log_path)
		log_open(opt.log_path);	/* before dropping privileges */
	if (opt.uid >= 0)
		drop_privileges(opt.uid);
	printf("# running as uid %d\n", (int)getuid());
	log_note("# vnpu_fuzz seed 0x%llx seconds %.0f phase %s known 0x%x",
		 (unsigned long long)opt.seed, opt.seconds, opt.phase ? opt.phase : "all",
		 opt.known);

	/*
	 * Slices: with --phase, one slice of the whole time (seed as given);
	 * with --tap, one slice per phase sharing the time; otherwise slices
	 * of up to 60 s cycling through the phases. Slice k > 0 uses a seed
	 * derived from the main one, printed so that it can be rerun alone.
	 */
	if (only)
		nslices = 1;
	else if (opt.tap)
		nslices = NPHASES;
	else
		nslices = (int)((opt.seconds + 59) / 60) < NPHASES ? NPHASES :
			  (int)((opt.seconds + 59) / 60);
	slice_s = opt.seconds / nslices;
	if (opt.probe && access("/dev/accel/accel0", R_OK | W_OK))
		opt.probe = false;	/* no device: the slices say so */
	if (opt.tap)
		printf("1..%d\n", nslices + (opt.probe ? 1 : 0));
	fflush(stdout);
	if (opt.probe)
		probe = probe_start("/dev/accel/accel0");
	start = now_ns();
	for (slice = 0; slice < nslices; slice++) {
		const struct phase *ph = only ? only : &phases[slice % NPHASES];
		uint64_t seed = slice ? seed_mix(opt.seed, slice) : opt.seed;
		uint64_t calls = 0, t0 = now_ns();
		int bad;

		printf("# slice %d: phase %s, seed 0x%llx, %.0f s\n", slice, ph->name,
		       (unsigned long long)seed, slice_s);
		fflush(stdout);
		bad = run_slice(ph, seed, slice_s, &calls);
		elapsed = (now_ns() - t0) / 1e9;
		total_calls += calls;
		if (opt.tap)
			printf("%s %d - fuzz %s seed 0x%llx %.0fs: %llu calls, %.0f/s\n",
			       bad ? "not ok" : "ok", slice + 1, ph->name,
			       (unsigned long long)seed, slice_s, (unsigned long long)calls,
			       calls / elapsed);
		else
			printf("# slice %d %s: %llu calls, %.0f/s\n", slice,
			       bad ? "FAILED" : "ok", (unsigned long long)calls, calls / elapsed);
		fflush(stdout);
		failed += bad;
		if (bad && !opt.tap)
			break;	/* the kernel may be in a bad state now */
		if (bad && kmsg_fd >= 0) {
			/* the kernel may be in a bad state now */
			while (++slice < nslices)
				printf("ok %d - fuzz %s # SKIP after a finding\n", slice + 1,
				       phases[slice % NPHASES].name);
			break;
		}
	}
	elapsed = (now_ns() - start) / 1e9;
	if (opt.probe) {
		uint64_t n, over, err, max_ms;
		bool probe_bad;

		probe_stop(probe);
		n = atomic_load(&sh->probe_n);
		over = atomic_load(&sh->probe_over);
		err = atomic_load(&sh->probe_err);
		max_ms = atomic_load(&sh->probe_max_ns) / 1000000;
		probe_bad = over || probe < 0 || (!n && elapsed > 10);
		if (opt.tap)
			printf("%s %d - fairness probe: %llu NOPs, max latency %llu ms, %llu over %d ms, %llu errors\n",
			       probe_bad ? "not ok" : "ok", nslices + 1, (unsigned long long)n,
			       (unsigned long long)max_ms, (unsigned long long)over,
			       opt.probe_limit_ms, (unsigned long long)err);
		else
			printf("# fairness probe %s: %llu NOPs, max latency %llu ms, %llu over %d ms, %llu errors\n",
			       probe_bad ? "FAILED" : "ok", (unsigned long long)n,
			       (unsigned long long)max_ms, (unsigned long long)over,
			       opt.probe_limit_ms, (unsigned long long)err);
		failed += probe_bad;
		log_note("# probe: %llu NOPs, max %llu ms, %llu over the limit",
			 (unsigned long long)n, (unsigned long long)max_ms,
			 (unsigned long long)over);
	}
	log_flush();
	printf("# calls per kind:\n");
	fflush(stdout);
	stats_print(stdout);
	printf("vnpu_fuzz: seed 0x%llx: %llu calls in %.1f s, %.0f calls/s, %d finding%s\n",
	       (unsigned long long)opt.seed, (unsigned long long)total_calls, elapsed,
	       total_calls / elapsed, failed, failed == 1 ? "" : "s");
	return failed ? 1 : 0;
}
