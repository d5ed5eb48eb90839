// SPDX-License-Identifier: GPL-2.0-only
/*
 * vnpu_fuzz: random numbers, the call log and the ring of recent calls.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "fuzz.h"

struct options opt;
struct shared *sh;
uint64_t worker_end_ns;

/* ----------------------------------------------------------- random -- */

uint64_t seed_mix(uint64_t seed, uint64_t tag)
{
	uint64_t z = seed + 0x9e3779b97f4a7c15ull * (tag + 1);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

uint64_t rnd64(struct rng *r)
{
	/* splitmix64: tiny, good enough, trivially reproducible */
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

uint64_t rnd(struct rng *r, uint64_t n)
{
	return n ? rnd64(r) % n : 0;
}

bool one_in(struct rng *r, uint64_t n)
{
	return rnd(r, n) == 0;
}

static const uint64_t interesting[] = {
	0, 1, 2, 7, 8, 63, 64, 4095, 4096, 4097, 8192, 65536,
	(1ull << 21) - 1, 1ull << 21, (1ull << 21) + 1,
	0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0xffff,
	0x7fffffff, 0x80000000, 0xffffffff, 0x100000000ull,
	(1ull << 22) + 1, 1ull << 32, 1ull << 36,
	(1ull << 40) - 1, 1ull << 40, (1ull << 40) + 1,
	1ull << 62, 1ull << 63, (1ull << 63) - 1, (1ull << 63) + 1,
	UINT64_MAX, UINT64_MAX - 1, UINT64_MAX - 4095,
	DRM_VNPU_VA_DEVICE_START, DRM_VNPU_VA_HOST_START,
	DRM_VNPU_VA_USER_START, DRM_VNPU_VA_IMPORT_START,
	DRM_VNPU_VA_DEVICE_START - 1, DRM_VNPU_VA_DEVICE_START + DRM_VNPU_VA_DEVICE_STRIDE,
	DRM_VNPU_VA_IMPORT_START + DRM_VNPU_VA_RANGE_SIZE - 1,
	DRM_VNPU_VA_IMPORT_START + DRM_VNPU_VA_RANGE_SIZE,
	DRM_VNPU_VA_IMPORT_START + DRM_VNPU_VA_RANGE_SIZE + 4096,
	DRM_VNPU_BO_MAX_SIZE, DRM_VNPU_BO_MAX_SIZE + 1,
	DRM_VNPU_MAX_ARGS_SIZE, DRM_VNPU_MAX_TASKS, DRM_VNPU_MAX_TASKS + 1,
	0xffff800000000000ull, 0xffffffff80000000ull,
};

uint64_t rnd_interesting(struct rng *r)
{
	uint64_t v = interesting[rnd(r, ARRAY_SIZE(interesting))];

	switch (rnd(r, 8)) {
	case 0:
		return -v;
	case 1:
		return v + rnd(r, 16) - 8;
	default:
		return v;
	}
}

uint64_t rnd_mutate(struct rng *r, uint64_t x)
{
	switch (rnd(r, 10)) {
	case 0:
		return x + 1;
	case 1:
		return x - 1;
	case 2:
		return x + 4096;
	case 3:
		return x ^ (1ull << rnd(r, 64));
	case 4:
		return x * 2;
	case 5:
		return rnd64(r);
	case 6:
		return x + rnd_interesting(r);
	default:
		return rnd_interesting(r);
	}
}

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* ------------------------------------------------------------- log -- */

static int log_fd = -1;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static char log_buf[1 << 16];
static size_t log_len;

void log_open(const char *path)
{
	log_fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (log_fd < 0) {
		perror(path);
		exit(2);
	}
	/* Keep it out of the small fd numbers random calls use. */
	if (log_fd < 200) {
		int fd = fcntl(log_fd, F_DUPFD_CLOEXEC, 200);

		if (fd >= 0) {
			close(log_fd);
			log_fd = fd;
		}
	}
}

static void log_flush_locked(void)
{
	size_t off = 0;

	while (log_fd >= 0 && off < log_len) {
		ssize_t n = write(log_fd, log_buf + off, log_len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		off += n;
	}
	log_len = 0;
}

void log_flush(void)
{
	pthread_mutex_lock(&log_lock);
	log_flush_locked();
	pthread_mutex_unlock(&log_lock);
}

static void log_line(const char *line, int len)
{
	if (log_fd < 0)
		return;
	pthread_mutex_lock(&log_lock);
	if (log_len + len + 1 > sizeof(log_buf))
		log_flush_locked();
	memcpy(log_buf + log_len, line, len);
	log_len += len;
	log_buf[log_len++] = '\n';
	pthread_mutex_unlock(&log_lock);
}

static uint32_t ring_reserve(void)
{
	return atomic_fetch_add(&sh->ring_pos, 1);
}

static void ring_put(uint32_t slot, const char *line)
{
	char *dst = sh->ring[slot % RING_N];

	snprintf(dst, LINE_LEN, "%s", line);
}

void log_note(const char *fmt, ...)
{
	char line[LINE_LEN];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(line))
		n = sizeof(line) - 1;
	ring_put(ring_reserve(), line);
	log_line(line, n);
	if (opt.verbose)
		fprintf(stderr, "%s\n", line);
}

void ring_dump(int n)
{
	uint32_t end = atomic_load(&sh->ring_pos), i;

	if (n > RING_N)
		n = RING_N;
	if ((uint32_t)n > end)
		n = end;
	fprintf(stderr, "# the last %d calls (all processes and threads):\n", n);
	for (i = end - n; i != end; i++)
		fprintf(stderr, "#   %s\n", sh->ring[i % RING_N]);
}

void finding(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	log_note("# FINDING: %s", msg);
	log_flush();
	if (!atomic_exchange(&sh->finding, 1))
		snprintf(sh->finding_msg, sizeof(sh->finding_msg), "%s", msg);
	fprintf(stderr, "# FINDING (pid %d): %s\n", getpid(), msg);
	ring_dump(opt.last);
	_exit(3);
}

/* ------------------------------------------------------------ calls -- */

__thread bool tl_timer;
__thread int tl_tid;

static int stat_index(const char *name)
{
	int i;

	/* Names are string literals: the same address in every fork. */
	for (i = 0; i < 63; i++) {
		const char *cur = atomic_load(&sh->stat_name[i]);

		if (cur == name)
			return i;
		if (!cur) {
			const char *expect = NULL;

			if (atomic_compare_exchange_strong(&sh->stat_name[i],
							   &expect, name) ||
			    expect == name)
				return i;
		}
	}
	return 63;
}

void call_begin(struct call *cl, const char *name, const char *fmt, ...)
{
	uint64_t n = atomic_fetch_add(&sh->calls, 1) + 1;
	va_list ap;

	cl->stat = stat_index(name);
	atomic_fetch_add(&sh->stat_calls[cl->stat], 1);
	cl->len = snprintf(cl->buf, sizeof(cl->buf), "%llu p%d.%d %s ",
			   (unsigned long long)n, getpid(), tl_tid, name);
	va_start(ap, fmt);
	cl->len += vsnprintf(cl->buf + cl->len, sizeof(cl->buf) - cl->len, fmt, ap);
	va_end(ap);
	if (cl->len >= (int)sizeof(cl->buf))
		cl->len = sizeof(cl->buf) - 1;
	cl->slot = ring_reserve();
	/* The ring shows a call that never returns as "-> ...". */
	snprintf(sh->ring[cl->slot % RING_N], LINE_LEN, "%.*s -> ...",
		 LINE_LEN - 8, cl->buf);
	atomic_store(&sh->heartbeat_ns, now_ns());
	if (opt.max_calls && n > opt.max_calls) {
		log_flush();
		_exit(0);
	}
}

void call_end(struct call *cl, long ret, const char *fmt, ...)
{
	va_list ap;
	int n = cl->len;
	const char *en = ret < 0 && ret > -4096 ? strerrorname_np(-ret) : NULL;

	if (ret >= 0)
		atomic_fetch_add(&sh->stat_ok[cl->stat], 1);
	n += snprintf(cl->buf + n, sizeof(cl->buf) - n, " -> %ld", ret);
	if (en && n < (int)sizeof(cl->buf))
		n += snprintf(cl->buf + n, sizeof(cl->buf) - n, " %s", en);
	if (fmt && n < (int)sizeof(cl->buf)) {
		cl->buf[n++] = ' ';
		va_start(ap, fmt);
		n += vsnprintf(cl->buf + n, sizeof(cl->buf) - n, fmt, ap);
		va_end(ap);
	}
	if (n >= (int)sizeof(cl->buf))
		n = sizeof(cl->buf) - 1;
	ring_put(cl->slot, cl->buf);
	log_line(cl->buf, n);
	if (opt.verbose)
		fprintf(stderr, "%s\n", cl->buf);
	atomic_store(&sh->heartbeat_ns, now_ns());
}

void call_timer(int ms)
{
	struct itimerval it = { 0 };

	if (!tl_timer)
		return;
	it.it_value.tv_sec = ms / 1000;
	it.it_value.tv_usec = (ms % 1000) * 1000;
	setitimer(ITIMER_REAL, &it, NULL);
}

int fz_ioctl(int fd, unsigned long req, void *arg)
{
	int ret;

	call_timer(5000);
	ret = ioctl(fd, req, arg);
	call_timer(0);
	return ret ? -errno : 0;
}

void stats_print(FILE *f);
void stats_print(FILE *f)
{
	int i;

	for (i = 0; i < 64 && atomic_load(&sh->stat_name[i]); i++)
		fprintf(f, "#   %-22s %8llu calls %8llu ok\n", sh->stat_name[i],
			(unsigned long long)atomic_load(&sh->stat_calls[i]),
			(unsigned long long)atomic_load(&sh->stat_ok[i]));
}
