/* SPDX-License-Identifier: MIT */
/*
 * vnpu-smi: show the vnpu devices, in the spirit of "npu-smi info" and
 * "nvidia-smi": each device's parameters (GET_PARAM and, when debugfs is
 * readable, the driver's info file), each engine's utilisation, tasks and
 * bytes (the ENGINE_* counters of UAPI 1.8, sampled twice), and the
 * processes using the devices (their DRM fdinfo). "-l [s]" redraws every
 * s seconds until interrupted; "-c n" stops after n frames.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <xf86drm.h>
#include <drm/vnpu_accel.h>

#define MAX_NPUS	64
#define MAX_ENGINES	64
#define MAX_CLIENTS	256
/* One-shot: the window the utilisation is measured over. */
#define SAMPLE_MS	200

struct npu {
	char node[256];
	char name[64];		/* platform device name, e.g. vnpu.0 */
	int fd;
	uint64_t p[DRM_VNPU_PARAM_DEVICE_COUNT + 1];
	long contexts;		/* from debugfs, -1 when unreadable */
	bool counters;		/* the driver has the ENGINE_* counters */
	uint32_t engines;
	uint64_t busy[MAX_ENGINES], tasks[MAX_ENGINES], bytes[MAX_ENGINES];
};

/* One DRM client (an open file) of a vnpu device, from fdinfo. */
struct client {
	int pid;
	char comm[32];
	long dev;		/* drm-vnpu-device, -1 when not reported */
	unsigned long long id;	/* drm-client-id */
	unsigned long long engine_ns;
	unsigned long long mem_kib, resident_kib;
};

struct sample {
	struct npu npus[MAX_NPUS];
	int count;
	struct client clients[MAX_CLIENTS];
	int nclients;
	uint64_t t_ns;		/* CLOCK_MONOTONIC */
};

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static int get_param(int fd, uint32_t param, uint32_t index, uint64_t *value)
{
	struct drm_vnpu_get_param gp = { .param = param, .index = index };

	if (drmIoctl(fd, DRM_IOCTL_VNPU_GET_PARAM, &gp))
		return -errno;
	*value = gp.value;
	return 0;
}

static void read_debugfs(struct npu *n)
{
	char path[PATH_MAX], line[128];
	FILE *f;

	n->contexts = -1;
	snprintf(path, sizeof(path), "/sys/kernel/debug/accel/%s/info", n->name);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "open_files: %ld", &n->contexts) == 1)
			n->contexts--;	/* not counting ourselves */
	fclose(f);
}

/* Open a node and read its parameters; the file stays open for sampling. */
static int probe(const char *node, struct npu *n)
{
	char path[PATH_MAX], link[PATH_MAX];
	drmVersionPtr v;
	uint64_t caps = 0;
	uint32_t i;
	ssize_t len;
	int fd, ret = -ENODEV;

	snprintf(path, sizeof(path), "/dev/accel/%s", node);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "vnpu-smi: %s: %s\n", path, strerror(errno));
		return -errno;
	}
	v = drmGetVersion(fd);
	if (!v || strcmp(v->name, "vnpu") != 0)
		goto out;

	memset(n, 0, sizeof(*n));
	snprintf(n->node, sizeof(n->node), "%s", node);
	for (i = 0; i <= DRM_VNPU_PARAM_DEVICE_COUNT; i++) {
		ret = get_param(fd, i, 0, &n->p[i]);
		if (ret) {
			fprintf(stderr, "vnpu-smi: %s: GET_PARAM %u: %s\n",
				path, i, strerror(-ret));
			goto out;
		}
	}
	caps = n->p[DRM_VNPU_PARAM_CAPABILITIES];
	n->counters = caps & DRM_VNPU_CAP_PROFILE;
	n->engines = n->p[DRM_VNPU_PARAM_ENGINE_COUNT];
	if (n->engines > MAX_ENGINES)
		n->engines = MAX_ENGINES;
	snprintf(path, sizeof(path), "/sys/class/accel/%s/device", node);
	len = readlink(path, link, sizeof(link) - 1);
	if (len > 0) {
		link[len] = '\0';
		snprintf(n->name, sizeof(n->name), "%.63s", basename(link));
	}
	read_debugfs(n);
	n->fd = fd;
	fd = -1;
	ret = 0;
out:
	if (v)
		drmFreeVersion(v);
	if (fd >= 0)
		close(fd);
	return ret;
}

static int by_index(const void *a, const void *b)
{
	const struct npu *x = a, *y = b;

	return (int)x->p[DRM_VNPU_PARAM_DEVICE_INDEX] -
	       (int)y->p[DRM_VNPU_PARAM_DEVICE_INDEX];
}

static int open_npus(struct sample *s)
{
	struct dirent *de;
	DIR *d;

	s->count = 0;
	d = opendir("/dev/accel");
	if (!d) {
		fprintf(stderr, "vnpu-smi: /dev/accel: %s (is vnpu.ko loaded?)\n",
			strerror(errno));
		return -1;
	}
	while ((de = readdir(d)) && s->count < MAX_NPUS)
		if (!strncmp(de->d_name, "accel", 5) &&
		    !probe(de->d_name, &s->npus[s->count]))
			s->count++;
	closedir(d);
	qsort(s->npus, s->count, sizeof(s->npus[0]), by_index);
	return 0;
}

/* Its counters are read: the files may go (debugfs counts open files). */
static void close_npus(struct sample *s)
{
	int i;

	for (i = 0; i < s->count; i++) {
		if (s->npus[i].fd >= 0)
			close(s->npus[i].fd);
		s->npus[i].fd = -1;
	}
}

static void read_counters(struct sample *s)
{
	uint32_t e;
	int i;

	for (i = 0; i < s->count; i++) {
		struct npu *n = &s->npus[i];

		for (e = 0; n->counters && e < n->engines; e++) {
			get_param(n->fd, DRM_VNPU_PARAM_ENGINE_BUSY_NS, e, &n->busy[e]);
			get_param(n->fd, DRM_VNPU_PARAM_ENGINE_TASKS, e, &n->tasks[e]);
			get_param(n->fd, DRM_VNPU_PARAM_ENGINE_BYTES, e, &n->bytes[e]);
		}
	}
}

/* "123 KiB", "4 MiB" or "56" (bytes) as the DRM core prints sizes. */
static unsigned long long to_kib(const char *v)
{
	char *end;
	unsigned long long x = strtoull(v, &end, 10);

	while (*end == ' ')
		end++;
	if (!strncmp(end, "MiB", 3))
		return x << 10;
	if (!strncmp(end, "KiB", 3))
		return x;
	if (!strncmp(end, "GiB", 3))
		return x << 20;
	return (x + 1023) >> 10;
}

static void read_comm(int pid, char *comm, size_t len)
{
	char path[64];
	FILE *f;

	snprintf(comm, len, "?");
	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	f = fopen(path, "r");
	if (!f)
		return;
	if (fgets(comm, len, f))
		comm[strcspn(comm, "\n")] = '\0';
	fclose(f);
}

/* One fdinfo file: a client of a vnpu device, or nothing. */
static bool read_fdinfo(int pid, const char *path, struct client *c)
{
	char line[256];
	bool vnpu = false;
	FILE *f;

	f = fopen(path, "r");
	if (!f)
		return false;
	memset(c, 0, sizeof(*c));
	c->pid = pid;
	c->dev = -1;
	while (fgets(line, sizeof(line), f)) {
		char *v = strchr(line, ':');

		if (!v)
			continue;
		*v++ = '\0';
		while (*v == '\t' || *v == ' ')
			v++;
		if (!strcmp(line, "drm-driver"))
			vnpu = !strncmp(v, "vnpu", 4) && !isalnum((unsigned char)v[4]);
		else if (!strcmp(line, "drm-client-id"))
			c->id = strtoull(v, NULL, 10);
		else if (!strcmp(line, "drm-vnpu-device"))
			c->dev = strtol(v, NULL, 10);
		else if (!strcmp(line, "drm-engine-vnpu"))
			c->engine_ns = strtoull(v, NULL, 10);
		else if (!strcmp(line, "drm-total-memory"))
			c->mem_kib = to_kib(v);
		else if (!strcmp(line, "drm-resident-memory"))
			c->resident_kib = to_kib(v);
	}
	fclose(f);
	return vnpu;
}

static bool seen(const struct sample *s, int pid, unsigned long long id)
{
	int i;

	for (i = 0; i < s->nclients; i++)
		if (s->clients[i].pid == pid && s->clients[i].id == id)
			return true;
	return false;
}

/* Every vnpu client of every process but ourselves (fdinfo). */
static void scan_clients(struct sample *s)
{
	struct dirent *pe, *fe;
	char path[PATH_MAX];
	int me = getpid();
	DIR *proc, *fds;

	s->nclients = 0;
	proc = opendir("/proc");
	if (!proc)
		return;
	while ((pe = readdir(proc)) && s->nclients < MAX_CLIENTS) {
		int pid = atoi(pe->d_name);

		if (pid <= 0 || pid == me)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/fdinfo", pid);
		fds = opendir(path);
		if (!fds)
			continue;
		while ((fe = readdir(fds)) && s->nclients < MAX_CLIENTS) {
			struct client *c = &s->clients[s->nclients];

			if (fe->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "/proc/%d/fdinfo/%s", pid,
				 fe->d_name);
			/* A dup of a file already listed is the same client. */
			if (!read_fdinfo(pid, path, c) || seen(s, pid, c->id))
				continue;
			read_comm(pid, c->comm, sizeof(c->comm));
			s->nclients++;
		}
		closedir(fds);
	}
	closedir(proc);
}

static void take(struct sample *s)
{
	read_counters(s);
	scan_clients(s);
	s->t_ns = now_ns();
}

static const struct client *find_client(const struct sample *s,
					const struct client *c)
{
	int i;

	for (i = 0; i < s->nclients; i++)
		if (s->clients[i].pid == c->pid && s->clients[i].id == c->id)
			return &s->clients[i];
	return NULL;
}

static void human(char *buf, size_t len, double v)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	unsigned int u = 0;

	while (v >= 1024 && u < 4) {
		v /= 1024;
		u++;
	}
	snprintf(buf, len, u ? "%.1f %s" : "%.0f %s", v, unit[u]);
}

static double pct(double part, double whole)
{
	double p = whole > 0 ? 100.0 * part / whole : 0;

	return p < 0 ? 0 : p > 100 ? 100 : p;
}

static const char *rule =
	"+-----+----------+----------+---------+---------------------+-------+-------------+\n";

static void print_devices(const struct sample *s)
{
	char stamp[64];
	time_t t = time(NULL);
	int i;

	strftime(stamp, sizeof(stamp), "%Y-%m-%d %H:%M:%S", localtime(&t));
	printf("%s", rule);
	printf("| %-58s %20s |\n", "vnpu-smi                   virtual NPU devices", stamp);
	printf("%s", rule);
	printf("| NPU | Node     | Device   | Engines | Memory used / total | Queue | Contexts    |\n");
	printf("%s", rule);
	for (i = 0; i < s->count; i++) {
		const uint64_t *p = s->npus[i].p;
		char mem[48], ctx[24];

		snprintf(mem, sizeof(mem), "%llu / %llu MiB",
			 (unsigned long long)(p[DRM_VNPU_PARAM_MEM_USED] >> 20),
			 (unsigned long long)(p[DRM_VNPU_PARAM_MEM_TOTAL] >> 20));
		if (s->npus[i].contexts >= 0)
			snprintf(ctx, sizeof(ctx), "%ld", s->npus[i].contexts);
		else
			snprintf(ctx, sizeof(ctx), "-");
		printf("| %3llu | %-8s | %-8s | %7llu | %19s | %5llu | %-11s |\n",
		       (unsigned long long)p[DRM_VNPU_PARAM_DEVICE_INDEX],
		       s->npus[i].node, s->npus[i].name,
		       (unsigned long long)p[DRM_VNPU_PARAM_ENGINE_COUNT], mem,
		       (unsigned long long)p[DRM_VNPU_PARAM_QUEUE_DEPTH], ctx);
	}
	printf("%s", rule);
	if (s->count)
		printf("UAPI %llu.%llu, capabilities 0x%llx, job timeout %llu ms\n",
		       (unsigned long long)(s->npus[0].p[DRM_VNPU_PARAM_UAPI_VERSION] >> 16),
		       (unsigned long long)(s->npus[0].p[DRM_VNPU_PARAM_UAPI_VERSION] & 0xffff),
		       (unsigned long long)s->npus[0].p[DRM_VNPU_PARAM_CAPABILITIES],
		       (unsigned long long)s->npus[0].p[DRM_VNPU_PARAM_JOB_TIMEOUT_MS]);
}

static const char *erule =
	"+-----+--------+--------+------------+--------------+-------------+-------------+\n";

/* Utilisation over [a, b]; tasks and bytes since load, and per second. */
static void print_engines(const struct sample *a, const struct sample *b)
{
	double wall = (double)(b->t_ns - a->t_ns), secs = wall / 1e9;
	uint32_t e;
	int i;

	printf("\n%s", erule);
	printf("| NPU | Engine | Util %% | Tasks      | Tasks/s      | Bytes       | Bytes/s     |\n");
	printf("%s", erule);
	for (i = 0; i < b->count; i++) {
		const struct npu *n = &b->npus[i], *o = &a->npus[i];

		if (!n->counters) {
			printf("| %3llu | %-72s |\n",
			       (unsigned long long)n->p[DRM_VNPU_PARAM_DEVICE_INDEX],
			       "no engine counters (UAPI before 1.8)");
			continue;
		}
		for (e = 0; e < n->engines; e++) {
			char bytes[24], rate[24];

			human(bytes, sizeof(bytes), (double)n->bytes[e]);
			human(rate, sizeof(rate),
			      secs > 0 ? (double)(n->bytes[e] - o->bytes[e]) / secs : 0);
			printf("| %3llu | %6u | %6.1f | %10llu | %12.0f | %11s | %9s/s |\n",
			       (unsigned long long)n->p[DRM_VNPU_PARAM_DEVICE_INDEX],
			       e, pct((double)(n->busy[e] - o->busy[e]), wall),
			       (unsigned long long)n->tasks[e],
			       secs > 0 ? (double)(n->tasks[e] - o->tasks[e]) / secs : 0,
			       bytes, rate);
		}
	}
	printf("%s", erule);
}

static const char *prule =
	"+-----+---------+------------------+--------+--------+-------------+------------+\n";

static uint32_t engines_of(const struct sample *s, long dev)
{
	int i;

	for (i = 0; i < s->count; i++)
		if ((long)s->npus[i].p[DRM_VNPU_PARAM_DEVICE_INDEX] == dev)
			return s->npus[i].engines ? s->npus[i].engines : 1;
	return 1;
}

static void print_processes(const struct sample *a, const struct sample *b)
{
	double wall = (double)(b->t_ns - a->t_ns);
	int i;

	printf("\n%s", prule);
	printf("| NPU | PID     | Process          | Client | Util %% | Engine time | Memory     |\n");
	printf("%s", prule);
	if (!b->nclients)
		printf("| %-77s |\n", "No running processes found");
	for (i = 0; i < b->nclients; i++) {
		const struct client *c = &b->clients[i], *o = find_client(a, c);
		unsigned long long d = o && c->engine_ns >= o->engine_ns ?
				       c->engine_ns - o->engine_ns : 0;
		char dev[24], mem[24];

		if (c->dev >= 0)
			snprintf(dev, sizeof(dev), "%ld", c->dev);
		else
			snprintf(dev, sizeof(dev), "-");
		human(mem, sizeof(mem), (double)c->mem_kib * 1024);
		printf("| %3s | %7d | %-16.16s | %6llu | %6.1f | %8llu ms | %10s |\n",
		       dev, c->pid, c->comm, c->id,
		       pct((double)d, wall * engines_of(b, c->dev)),
		       c->engine_ns / 1000000, mem);
	}
	printf("%s", prule);
}

/* Sleep ms, cut short by SIGINT. */
static void nap(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	while (!stop && nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static void usage(FILE *f, const char *argv0)
{
	fprintf(f, "usage: %s [-l [SECONDS]] [-c COUNT]\n"
		"  Lists the vnpu devices, their engines' utilisation, tasks and bytes,\n"
		"  and the processes using them.\n"
		"  -l [SECONDS]  redraw every SECONDS (default 1) until interrupted\n"
		"  -c COUNT      stop after COUNT frames\n", argv0);
}

static bool number(const char *s, double *v)
{
	char *end;

	if (!s || !*s)
		return false;
	*v = strtod(s, &end);
	return !*end && *v > 0;
}

int main(int argc, char **argv)
{
	static struct sample bufs[2];
	struct sample *prev = &bufs[0], *cur = &bufs[1], *tmp;
	struct sigaction sa = { .sa_handler = on_signal };
	bool loop = false, tty = isatty(STDOUT_FILENO);
	double interval = 1, v;
	long count = 1, frame;
	int i, ret = 0;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-l")) {
			loop = true;
			count = -1;
			if (i + 1 < argc && number(argv[i + 1], &v)) {
				interval = v;
				i++;
			}
		} else if (!strcmp(argv[i], "-c") && i + 1 < argc &&
			   number(argv[i + 1], &v)) {
			count = (long)v;
			i++;
		} else {
			bool help = !strcmp(argv[i], "-h") || !strcmp(argv[i], "--help");

			usage(help ? stdout : stderr, argv[0]);
			return help ? 0 : 2;
		}
	}
	sigaction(SIGINT, &sa, NULL);	/* no SA_RESTART: the nap ends */
	sigaction(SIGTERM, &sa, NULL);

	if (open_npus(prev))
		return 1;
	take(prev);
	close_npus(prev);
	nap(loop ? (unsigned int)(interval * 1000) : SAMPLE_MS);
	for (frame = 0; !stop && (count < 0 || frame < count); frame++) {
		if (frame)
			nap((unsigned int)(interval * 1000));
		if (stop)
			break;
		/* Devices come and go with the module: look again each frame. */
		if (open_npus(cur)) {
			ret = 1;
			break;
		}
		take(cur);
		close_npus(cur);
		if (cur->count != prev->count)
			*prev = *cur;	/* changed: one frame without rates */
		if (loop && tty)
			printf("\033[H\033[2J");
		else if (frame)
			printf("\n");
		print_devices(cur);
		print_engines(prev, cur);
		print_processes(prev, cur);
		fflush(stdout);
		if (!cur->count) {
			fprintf(stderr, "vnpu-smi: no vnpu device found\n");
			ret = 1;
		}
		tmp = prev;
		prev = cur;
		cur = tmp;
	}
	return ret;
}
