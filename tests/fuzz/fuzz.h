/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vnpu_fuzz: shared declarations. See Documentation/fuzzing.md.
 */
#ifndef VNPU_FUZZ_H
#define VNPU_FUZZ_H

#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>
#include <liburing.h>
#include <drm/vnpu_accel.h>

/* ----------------------------------------------------------- random -- */

struct rng {
	uint64_t s;
};

uint64_t rnd64(struct rng *r);
/* Uniform in [0, n); 0 when n is 0. */
uint64_t rnd(struct rng *r, uint64_t n);
/* True with probability 1/n. */
bool one_in(struct rng *r, uint64_t n);
/* A boundary value: 0, 1, -1, 2^40, 2^62, UINT64_MAX, page edges, ... */
uint64_t rnd_interesting(struct rng *r);
/* x changed a little or replaced by a boundary value. */
uint64_t rnd_mutate(struct rng *r, uint64_t x);
/* A 64-bit seed derived from a seed and a tag (splitmix). */
uint64_t seed_mix(uint64_t seed, uint64_t tag);

/* ------------------------------------------------ known kernel bugs -- */

/*
 * Inputs that trigger kernel bugs already known (and being fixed on main).
 * A bug's inputs are generated only when its bit is in opt.known; the
 * default (KNOWN_DEFAULT) holds the bugs whose fix has landed.
 */
enum {
	KB_EXTENT = 1 << 0,	/* KERNEL tensor extent overflow */
	KB_VA_END = 1 << 1,	/* VAs at/above IMPORT_START + RANGE_SIZE */
	KB_CORE_UNSAFE = 1 << 2, /* GET_MAGIC, GET_UNIQUE, AUTH, SET_VERSION, masters */
	KB_QUEUE_RACE = 1 << 3,	/* QUEUE_CREATE racing QUEUE_DESTROY */
	KB_SYNCOBJ_COUNT = 1 << 4, /* huge count_handles in syncobj arrays */
	KB_ALL = (1 << 5) - 1,
};

struct known_bug {
	unsigned int bit;
	const char *name;
	const char *what;
};

extern const struct known_bug known_bugs[];
extern const unsigned int known_default;

/* ---------------------------------------------------------- options -- */

struct options {
	uint64_t seed;
	double seconds;
	uint64_t max_calls;	/* 0: no limit */
	const char *log_path;
	const char *phase;	/* NULL: cycle through all */
	unsigned int known;	/* KB_* bits whose inputs are generated */
	int last;		/* calls printed on a problem */
	int uid;		/* drop to this uid/gid (-1: stay) */
	bool tap;
	bool verbose;
	bool full;		/* log every task word and argument */
	int hang_s;		/* watchdog */
	bool probe;		/* run the fairness probe */
	int probe_limit_ms;	/* a NOP may wait at most this long */
	int job_limit_s;	/* a watched job may run at most this long */
	uint32_t edge_op;	/* empty only this operator's tensors (0: walk all) */
};

extern struct options opt;
/* When the current worker's slice ends (now_ns() clock). */
extern uint64_t worker_end_ns;

/* ------------------------------------------------------ shared state -- */

#define RING_N		256
#define LINE_LEN	320

struct shared {
	_Atomic uint64_t calls;
	_Atomic uint64_t heartbeat_ns;
	_Atomic uint32_t ring_pos;
	_Atomic int finding;
	char finding_msg[1024];
	char ring[RING_N][LINE_LEN];
	/* per-call-name statistics: calls and successes */
	_Atomic uint64_t stat_calls[64];
	_Atomic uint64_t stat_ok[64];
	const char *_Atomic stat_name[64];
	/* the fairness probe (fuzz_probe.c) */
	_Atomic uint64_t probe_n;	/* NOPs that completed */
	_Atomic uint64_t probe_over;	/* ... of them above the limit */
	_Atomic uint64_t probe_max_ns;	/* the longest wait */
	_Atomic uint64_t probe_err;	/* submits or waits that failed */
	_Atomic uint64_t probe_wait_start_ns; /* the NOP waiting now, or 0 */
};

extern struct shared *sh;

uint64_t now_ns(void);

/* ------------------------------------------------------------- log -- */

void log_open(const char *path);
void log_flush(void);
/* A free-form line ("# ..."), to the log and the ring. */
void log_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print the last n lines of the ring to stderr. */
void ring_dump(int n);
/* Report something impossible: printed, recorded, the worker exits 3. */
void finding(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* One logged call: name and arguments, then the result. */
struct call {
	char buf[LINE_LEN];
	int len;
	uint32_t slot;
	int stat;
};

void call_begin(struct call *cl, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void call_end(struct call *cl, long ret, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* ioctl with EINTR reported (not retried); 0 or -errno. */
int fz_ioctl(int fd, unsigned long req, void *arg);
/* Arm (ms > 0) or disarm (0) the per-call alarm of this thread. */
void call_timer(int ms);
extern __thread bool tl_timer;

/* ------------------------------------------------------- contexts -- */

#define MAX_CTX		6
#define MAX_BOS		40
#define MAX_QUEUES	12
#define MAX_CMDBUFS	16
#define MAX_SYNCOBJS	16
#define MAX_DMABUFS	8
#define MAX_RESV	8
#define MAX_VMAPS	32

/* A VM_RESERVE range or a VM_MAP mapping the fuzzer made. */
struct frange {
	uint64_t va;
	uint64_t size;
};

struct fbo {
	uint32_t handle;
	uint32_t placement;
	uint32_t flags;
	uint64_t va;
	uint64_t size;
	uint8_t *cpu;		/* mmap, or NULL */
	size_t map_len;
};

struct fqueue {
	uint32_t id;
	uint32_t syncobj;
	uint64_t seq;		/* last seq the kernel returned */
	uint32_t inflight;	/* submits since the last observed idle */
};

struct fctx {
	int fd;
	int dev;
	uint32_t gen;		/* which open this is: fds are reused */
	struct fbo bos[MAX_BOS];
	int nbo;
	struct fqueue q[MAX_QUEUES];
	int nq;
	uint32_t cmdbufs[MAX_CMDBUFS];
	uint32_t cb_bindings[MAX_CMDBUFS];	/* binding_count of each */
	int ncb;
	uint32_t so[MAX_SYNCOBJS];	/* syncobjs we created */
	uint64_t so_point[MAX_SYNCOBJS];
	int nso;
	struct frange resv[MAX_RESV];
	int nresv;
	struct frange vmaps[MAX_VMAPS];
	int nvmap;
};

struct worker {
	struct rng r;
	struct fctx ctx[MAX_CTX];
	int nctx;
	int ndev;
	char nodes[8][64];
	int dmabufs[MAX_DMABUFS];
	int ndmabuf;
	struct io_uring ring;
	bool ring_ok;
	int ring_pending;
	/* batches uring SUBMITs point at, freed once nothing is pending */
	struct batch *held[256];
	int nheld;
	/* host memory the kernel may legitimately write (MEMCPY, USER BOs) */
	uint8_t *scratch;
	size_t scratch_len;
	uint8_t *userpool;	/* page aligned, for PLACEMENT_USER */
	size_t userpool_len;
	uint8_t *ro_page;	/* PROT_READ page */
	/* witness context: memory nobody else can reach */
	int wfd;	/* >= WITNESS_FD_MIN */
	struct fbo wbo[2];
	uint32_t wqueue, wsync;
	uint64_t wseq;
	uint64_t wpattern;
	/* known host memory of the fuzzer itself, checked for corruption */
	uint8_t guard[4096];
	uint64_t guard_seed;
	/* edge shapes: the next operator and tensor to empty (fuzz_edge.c) */
	uint32_t edge_op, edge_t;
	bool edge_started;
	/* jobs that must end within opt.job_limit_s (fuzz_edge.c) */
	struct watch {
		uint32_t gen;	/* the context's */
		uint32_t queue;
		uint32_t syncobj;
		bool own_queue;	/* destroy the queue once the job ended */
		uint64_t seq;
		uint64_t t0;
		char what[96];
	} watch[16];
	int nwatch;
};

/* ctx.c */
int ctx_open(struct worker *w, int dev);
void ctx_close(struct worker *w, int i);
struct fctx *ctx_pick(struct worker *w);
void ctx_forget_bo(struct fctx *c, int i);
void worker_init(struct worker *w, uint64_t seed);
void worker_fini(struct worker *w);
void witness_init(struct worker *w);
void witness_check(struct worker *w);

/* calls.c: one random call of each kind */
void do_get_param(struct worker *w, struct fctx *c);
void do_bo_create(struct worker *w, struct fctx *c);
void do_bo_info(struct worker *w, struct fctx *c);
void do_gem_close(struct worker *w, struct fctx *c);
void do_mmap(struct worker *w, struct fctx *c);
void do_memcpy(struct worker *w, struct fctx *c);
void do_fault_info(struct worker *w, struct fctx *c);
void do_queue_create(struct worker *w, struct fctx *c);
void do_queue_destroy(struct worker *w, struct fctx *c);
void do_queue_reset(struct worker *w, struct fctx *c);
void do_submit(struct worker *w, struct fctx *c);
void do_job_status(struct worker *w, struct fctx *c);
void do_job_wait(struct worker *w, struct fctx *c);
void do_cmdbuf_create(struct worker *w, struct fctx *c);
void do_cmdbuf_destroy(struct worker *w, struct fctx *c);
void do_cmdbuf_replay(struct worker *w, struct fctx *c);
/* fuzz_update.c: CMDBUF_UPDATE (UAPI 1.9) */
void do_cmdbuf_update(struct worker *w, struct fctx *c);
void do_version(struct worker *w, struct fctx *c);
void do_prime_export(struct worker *w, struct fctx *c);
void do_prime_import(struct worker *w, struct fctx *c);
void do_syncobj(struct worker *w, struct fctx *c);
void do_core_unsafe(struct worker *w, struct fctx *c);
void do_bad_ioctl(struct worker *w, struct fctx *c);
void do_uring(struct worker *w, struct fctx *c);

/* vm.c: VM_RESERVE, VM_RELEASE, VM_MAP, VM_UNMAP and accesses through them */
void do_vm(struct worker *w, struct fctx *c);
/* An address in one of c's reservations (mapped or not), or 0. */
uint64_t vm_addr(struct worker *w, struct fctx *c);
void uring_reset(struct worker *w, bool reap);
int bo_create(struct worker *w, struct fctx *c, uint64_t size, uint32_t placement,
	      uint32_t flags, bool map);
int queue_create(struct worker *w, struct fctx *c);

/* tasks.c: batches */
struct batch {
	struct drm_vnpu_task *tasks;	/* count * stride bytes */
	uint32_t count;
	uint32_t stride;
	uint64_t *args;
	uint32_t args_size;
	uint32_t cap_args;
	bool heavy;			/* may run long; submit rarely */
	char note[96];			/* what an edge generator made */
	struct drm_vnpu_sync in[DRM_VNPU_MAX_SYNCS + 8];
	struct drm_vnpu_sync out[DRM_VNPU_MAX_SYNCS + 8];
};

void batch_gen(struct worker *w, struct fctx *c, struct batch *b, bool mutate);
/*
 * One KERNEL task of operator number @opi (an index into the operator
 * list, modulo its length; opt.edge_op instead when set) whose tensor @ti
 * (modulo the count) has a 0 at dimension @d (modulo the rank) and
 * strides of 0, 1 or 2^40 (@mode). The batch's note says which. Returns
 * the number of tensors; *rank is the emptied tensor's.
 */
uint32_t batch_edge(struct worker *w, struct fctx *c, struct batch *b,
		    uint32_t opi, uint32_t ti, uint32_t d, uint32_t mode,
		    uint32_t *rank);
uint32_t fuzz_nops(void);
/* One split-phase operator on long rows in object @big (fuzz_tasks.c). */
void batch_split(struct worker *w, struct batch *b, const struct fbo *big);
/* Room for @count tasks of 64 bytes and an argument block. */
void batch_alloc(struct batch *b, uint32_t count);
/*
 * Make task @t a KERNEL task of a random operator with its tensors in
 * [base, base + limit) (fuzz_tasks.c).
 */
void batch_kernel_at(struct worker *w, struct batch *b, struct drm_vnpu_task *t,
		     uint64_t base, uint64_t limit);
void batch_free(struct batch *b);
void batch_bind(struct worker *w, struct batch *b, uint32_t count);
void held_free(struct worker *w);
/* A short description for the log. */
int batch_desc(const struct batch *b, char *buf, size_t len);

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* edge.c: the generators of the shapes, objects and queues phases */
void do_edge_shapes(struct worker *w, struct fctx *c);
void do_split_rows(struct worker *w, struct fctx *c);
void do_vm_inflight(struct worker *w, struct fctx *c);
void do_bind_edge(struct worker *w, struct fctx *c);
void do_many_queues(struct worker *w);
void do_teardown_race(struct worker *w);
/* Poll the watched jobs; with @final wait for them (bounded). */
void watch_check(struct worker *w, bool final);
/* calls.c helpers the edge generators share */
void submit_fill(struct worker *w, struct fctx *c, struct drm_vnpu_submit *s,
		 struct batch *b, struct drm_vnpu_sync *in, struct drm_vnpu_sync *out,
		 int *qi);

/* prof.c: PROF_CTL, a checked ring, the toggle-and-scribble race */
void do_prof_ctl(struct worker *w, struct fctx *c);
void do_prof_check(struct worker *w);
void do_prof_race(struct worker *w);

/* probe.c: the fairness probe, a process of its own */
pid_t probe_start(const char *node);
void probe_stop(pid_t pid);

/* The witness's file descriptor is at least this. */
#define WITNESS_FD_MIN 900

#endif
