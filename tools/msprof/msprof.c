// SPDX-License-Identifier: MIT
/*
 * msprof: CANN's profiling command line on vnpu.
 *
 *   msprof --application="./app args" --output=DIR [switches]
 *   msprof [switches] app [args...]
 *   msprof --export=on|--parse=on|--query=on --output=DIR
 *
 * Collection runs the program with PROFILER_SAMPLECONFIG set to the
 * switches as a JSON object (the keys of acl.json's "profiler" section,
 * plus "output"); the library's aclInit reads it, and aclFinalize writes
 * the PROF_* directory and exports it. msprof then exports any new
 * directory that lacks its mindstudio_profiler_output (a program that did
 * not reach aclFinalize) and prints where the results are. Switches that
 * mean nothing on vnpu are accepted with a note, as CANN scripts pass
 * them. Documentation/profiling.md, "msprof".
 */
#include <dirent.h>
#include <errno.h>
#include <glob.h>
#include <json-c/json.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../lib/prof/prof.h"

enum kind {
	K_OUTPUT, K_APP, K_ENV, K_STORAGE, K_KEY, K_OFFLINE, K_NOTE, K_HELP,
};

static const char *const on_off[] = { "on", "off", NULL };
static const char *const task_time_v[] = {
	"on", "off", "l0", "l1", "l2", "l3", NULL };
static const char *const ge_api_v[] = { "off", "l0", "l1", NULL };
static const char *const task_block_v[] = { "on", "off", "all", NULL };
static const char *const metrics_v[] = {
	"ArithmeticUtilization", "PipeUtilization", "Memory", "MemoryL0",
	"ResourceConflictRatio", "MemoryUB", "L2Cache",
	"PipelineExecuteUtilization", "MemoryAccess", "PipeUtilizationExct",
	"PipeStallCycle", "ScalarRatio", NULL };

struct opt {
	const char *name;
	enum kind kind;
	const char *key;		/* K_KEY: the JSON key */
	const char *const *values;	/* allowed values, or NULL: any */
	const char *note;		/* K_NOTE: why it changes nothing */
	const char *value;		/* given value */
};

#define NOTE(n, why) { n, K_NOTE, NULL, NULL, why, NULL }
#define KEY(n, k, v) { n, K_KEY, k, v, NULL, NULL }

static struct opt opts[] = {
	{ "output", K_OUTPUT, NULL, NULL, NULL, NULL },
	{ "application", K_APP, NULL, NULL, NULL, NULL },
	{ "environment", K_ENV, NULL, NULL, NULL, NULL },
	{ "storage-limit", K_STORAGE, "storage_limit", NULL, NULL, NULL },
	{ "export", K_OFFLINE, NULL, on_off, NULL, NULL },
	{ "parse", K_OFFLINE, NULL, on_off, NULL, NULL },
	{ "query", K_OFFLINE, NULL, on_off, NULL, NULL },
	{ "help", K_HELP, NULL, NULL, NULL, NULL },
	KEY("ascendcl", "ascendcl", on_off),
	KEY("runtime-api", "runtime_api", on_off),
	KEY("task-time", "task_time", task_time_v),
	KEY("aic-metrics", "aic_metrics", metrics_v),
	KEY("msproftx", "msproftx", on_off),
	KEY("task-memory", "task_memory", on_off),
	KEY("aicpu", "aicpu", on_off),
	KEY("l2", "l2", on_off),
	KEY("hccl", "hccl", on_off),
	KEY("ge-api", "ge_api", ge_api_v),
	KEY("task-tsfw", "task_tsfw", on_off),
	KEY("task-block", "task_block", task_block_v),
	NOTE("model-execution", "model executions are recorded with --task-time"),
	NOTE("ai-core", "AI-core time is recorded with --task-time"),
	NOTE("ai-vector-core", "vnpu has no separate vector cores"),
	NOTE("aic-mode", "tasks are always timed per task"),
	NOTE("aiv-mode", "vnpu has no separate vector cores"),
	NOTE("aiv-metrics", "vnpu has no separate vector cores"),
	NOTE("aic-freq", "no PMU sampling on vnpu"),
	NOTE("aiv-freq", "no PMU sampling on vnpu"),
	NOTE("npu-events", "no PMU events on vnpu"),
	NOTE("aicore-shape", "shapes come with --task-time"),
	NOTE("task-trace", "the same as --task-time here"),
	NOTE("instr-profiling", "no instruction sampling on vnpu"),
	NOTE("instr-profiling-freq", "no instruction sampling on vnpu"),
	NOTE("mstx-domain-include", "every mstx domain is kept"),
	NOTE("mstx-domain-exclude", "every mstx domain is kept"),
	NOTE("sys-devices", "no system sampling on vnpu"),
	NOTE("sys-period", "no system sampling on vnpu"),
	NOTE("sys-profiling", "no system sampling on vnpu"),
	NOTE("sys-sampling-freq", "no system sampling on vnpu"),
	NOTE("sys-pid-profiling", "no system sampling on vnpu"),
	NOTE("sys-pid-sampling-freq", "no system sampling on vnpu"),
	NOTE("sys-cpu-profiling", "no system sampling on vnpu"),
	NOTE("sys-cpu-freq", "no system sampling on vnpu"),
	NOTE("sys-hardware-mem", "no system sampling on vnpu"),
	NOTE("sys-hardware-mem-freq", "no system sampling on vnpu"),
	NOTE("sys-io-profiling", "no system sampling on vnpu"),
	NOTE("sys-io-sampling-freq", "no system sampling on vnpu"),
	NOTE("sys-interconnection-profiling", "no interconnect on vnpu"),
	NOTE("sys-interconnection-freq", "no interconnect on vnpu"),
	NOTE("sys-mem-serviceflow", "no system sampling on vnpu"),
	NOTE("sys-lp", "no low-power sampling on vnpu"),
	NOTE("sys-lp-freq", "no low-power sampling on vnpu"),
	NOTE("dvpp-profiling", "DVPP tasks appear in task_time"),
	NOTE("dvpp-freq", "DVPP tasks appear in task_time"),
	NOTE("llc-profiling", "no LLC counters on vnpu"),
	NOTE("host-sys", "no host system sampling"),
	NOTE("host-sys-pid", "no host system sampling"),
	NOTE("host-sys-usage", "no host system sampling"),
	NOTE("host-sys-usage-freq", "no host system sampling"),
	NOTE("python-path", "the exporter is built in"),
	NOTE("summary-format", "summaries are written as csv"),
	NOTE("type", "results are written as text (csv, json)"),
	NOTE("reports", "every summary is written"),
	NOTE("optype", "every operator is recorded"),
	NOTE("rule", "no analysis rules"),
	NOTE("analyze", "no analysis rules"),
	NOTE("clear", "raw data is kept"),
	NOTE("iteration-id", "every iteration is exported"),
	NOTE("model-id", "every model is exported"),
	NOTE("dynamic", "collection covers the whole run"),
	NOTE("pid", "collection covers the whole run of the program started"),
	NOTE("delay", "collection covers the whole run"),
	NOTE("duration", "collection covers the whole run"),
};

#define N_OPTS (sizeof(opts) / sizeof(opts[0]))

static void usage(FILE *f)
{
	fputs("usage: msprof --application=\"APP ARGS\" [--output=DIR] "
	      "[switches]\n"
	      "       msprof [switches] APP [ARGS...]\n"
	      "       msprof --export=on|--parse=on|--query=on --output=DIR\n"
	      "switches: --ascendcl=on|off --runtime-api=on|off "
	      "--task-time=on|off|l0|l1|l2|l3\n"
	      "          --aic-metrics=NAME --msproftx=on|off "
	      "--task-memory=on|off --aicpu=on|off\n"
	      "          --l2=on|off --hccl=on|off --ge-api=off|l0|l1 "
	      "--storage-limit=NMB\n"
	      "          --environment=\"K=V;K2=V2\" (and CANN's other "
	      "options, accepted with a note)\n", f);
}

static int usage_error(const char *fmt, const char *arg)
{
	fputs("msprof: ", stderr);
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	usage(stderr);
	return 1;
}

static struct opt *find_opt(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < N_OPTS; i++)
		if (strlen(opts[i].name) == len &&
		    !strncmp(opts[i].name, name, len))
			return &opts[i];
	return NULL;
}

static const char *value_of(const char *name)
{
	struct opt *o = find_opt(name, strlen(name));

	return o ? o->value : NULL;
}

static int allowed(const struct opt *o, const char *v)
{
	const char *const *w;

	if (!o->values)
		return 1;
	for (w = o->values; *w; w++)
		if (!strcmp(*w, v))
			return 1;
	return 0;
}

/* "200MB" or "200": [200, 4294967295] MB, as CANN. */
static int storage_ok(const char *v)
{
	unsigned long long n;
	char *end;

	if (*v < '0' || *v > '9')
		return 0;
	errno = 0;
	n = strtoull(v, &end, 10);
	if (errno || (*end && strcmp(end, "MB")))
		return 0;
	return n >= 200 && n <= 4294967295ull;
}

/* Parse the options; *first_app: index of the program in the newer form. */
static int parse(int argc, char **argv, int *first_app)
{
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *eq, *v;
		struct opt *o;

		if (strncmp(a, "--", 2) || !a[2])
			break;
		a += 2;
		eq = strchr(a, '=');
		o = find_opt(a, eq ? (size_t)(eq - a) : strlen(a));
		if (!o)
			return usage_error("unknown option %s", argv[i]);
		if (o->kind == K_HELP) {
			usage(stdout);
			exit(0);
		}
		if (eq) {
			v = eq + 1;
		} else if (i + 1 < argc) {
			v = argv[++i];
		} else {
			return usage_error("option %s needs a value", argv[i]);
		}
		if (!allowed(o, v) ||
		    (o->kind == K_STORAGE && !storage_ok(v)) ||
		    (o->kind != K_NOTE && o->kind != K_ENV && !*v)) {
			fprintf(stderr, "msprof: invalid value '%s' for --%s\n",
				v, o->name);
			usage(stderr);
			return 1;
		}
		if (o->kind == K_NOTE)
			fprintf(stderr, "msprof: note: --%s accepted, no effect "
				"on vnpu (%s)\n", o->name, o->note);
		o->value = v;
	}
	*first_app = i;
	return 0;
}

static int mkdirs(const char *path)
{
	char buf[PATH_MAX], *p;

	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf))
		return -ENAMETOOLONG;
	for (p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(buf, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

/* The switches as acl.json's "profiler" section, plus "output". */
static char *sample_config(const char *output)
{
	static const struct { const char *key, *def; } defaults[] = {
		{ "ascendcl", "on" }, { "runtime_api", "off" },
		{ "task_time", "on" }, { "aic_metrics", "PipeUtilization" },
		{ "msproftx", "off" }, { "task_memory", "off" },
		{ "aicpu", "off" }, { "l2", "off" }, { "hccl", "off" },
		{ "ge_api", "off" },
	};
	json_object *o = json_object_new_object();
	char *s;
	size_t i, k;

	json_object_object_add(o, "switch", json_object_new_string("on"));
	json_object_object_add(o, "output", json_object_new_string(output));
	for (k = 0; k < sizeof(defaults) / sizeof(defaults[0]); k++)
		json_object_object_add(o, defaults[k].key,
				       json_object_new_string(defaults[k].def));
	for (i = 0; i < N_OPTS; i++)
		if ((opts[i].kind == K_KEY || opts[i].kind == K_STORAGE) &&
		    opts[i].value)
			json_object_object_add(o, opts[i].key,
					       json_object_new_string(opts[i].value));
	s = strdup(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
						       JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
	return s;
}

/* --environment="K=V;K2=V2": set for the program. */
static int apply_env(const char *spec)
{
	char *copy = strdup(spec), *save = NULL, *kv;

	if (!copy)
		return -1;
	for (kv = strtok_r(copy, ";", &save); kv;
	     kv = strtok_r(NULL, ";", &save)) {
		char *eq = strchr(kv, '=');

		if (!eq || eq == kv) {
			fprintf(stderr, "msprof: --environment: '%s' is not "
				"NAME=VALUE\n", kv);
			free(copy);
			return -1;
		}
		*eq = '\0';
		setenv(kv, eq + 1, 1);
	}
	free(copy);
	return 0;
}

/* PROF_* directories directly under dir, as a NULL-terminated list. */
static char **prof_dirs(const char *dir)
{
	char **v = calloc(1, sizeof(*v));
	size_t n = 0;
	struct dirent *e;
	DIR *d = opendir(dir);

	if (!d || !v)
		goto out;
	while ((e = readdir(d))) {
		char **nv;

		if (strncmp(e->d_name, "PROF_", 5))
			continue;
		nv = realloc(v, (n + 2) * sizeof(*v));
		if (!nv)
			break;
		v = nv;
		if (asprintf(&v[n], "%s/%s", dir, e->d_name) < 0)
			break;
		v[++n] = NULL;
	}
out:
	if (d)
		closedir(d);
	return v;
}

static void free_list(char **v)
{
	size_t i;

	for (i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

static int in_list(char **v, const char *s)
{
	for (; v && *v; v++)
		if (!strcmp(*v, s))
			return 1;
	return 0;
}

/* The first file of dir/mindstudio_profiler_output/<pattern>, or NULL. */
static char *output_file(const char *dir, const char *pattern)
{
	char *pat = NULL, *r = NULL;
	glob_t g;

	if (asprintf(&pat, "%s/mindstudio_profiler_output/%s", dir,
		     pattern) < 0)
		return NULL;
	if (!glob(pat, 0, NULL, &g)) {
		if (g.gl_pathc)
			r = strdup(g.gl_pathv[g.gl_pathc - 1]);
		globfree(&g);
	}
	free(pat);
	return r;
}

/* Export dir when forced or when it has no op_summary yet; print paths. */
static int export_one(const char *dir, int force)
{
	char why[512], *f;
	int ret;

	f = output_file(dir, "op_summary_*.csv");
	if (force || !f) {
		ret = prof_export(dir, why, sizeof(why));
		if (ret) {
			fprintf(stderr, "msprof: export of %s failed: %s\n",
				dir, why);
			free(f);
			return 1;
		}
	}
	free(f);
	printf("msprof: results: %s/mindstudio_profiler_output\n", dir);
	f = output_file(dir, "timeline_*.html");
	if (f)
		printf("msprof: timeline: %s\n", f);
	free(f);
	return 0;
}

static int is_prof_dir(const char *dir)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/info.json", dir);
	return access(path, R_OK) == 0;
}

/* A PROF_* folder (named so, or holding info.json): export it itself. */
static int names_prof_dir(const char *dir)
{
	const char *base;
	size_t n = strlen(dir);

	while (n > 1 && dir[n - 1] == '/')
		n--;
	base = memrchr(dir, '/', n - 1);
	base = base ? base + 1 : dir;
	return is_prof_dir(dir) || !strncmp(base, "PROF_", 5);
}

static void query_one(const char *dir)
{
	char path[PATH_MAX];
	json_object *o, *v;
	const char *app = "?";
	char *f;

	snprintf(path, sizeof(path), "%s/info.json", dir);
	o = json_object_from_file(path);
	if (o && json_object_object_get_ex(o, "app", &v))
		app = json_object_get_string(v);
	f = output_file(dir, "op_summary_*.csv");
	printf("%s\n  app: %s\n", dir, app);
	if (o && json_object_object_get_ex(o, "devices", &v))
		printf("  devices: %s\n", json_object_to_json_string(v));
	if (o && json_object_object_get_ex(o, "start_wall_us", &v))
		printf("  start_wall_us: %s\n", json_object_get_string(v));
	printf("  exported: %s\n", f ? "yes" : "no");
	free(f);
	json_object_put(o);
}

static int offline(const char *out, int query)
{
	char **v;
	size_t i;
	int bad = 0, n = 0;

	if (!out)
		return usage_error("%s needs --output=DIR", "offline mode");
	if (names_prof_dir(out)) {
		if (query) {
			query_one(out);
			return 0;
		}
		return export_one(out, 1);
	}
	v = prof_dirs(out);
	for (i = 0; v && v[i]; i++) {
		struct stat st;

		if (stat(v[i], &st) || !S_ISDIR(st.st_mode))
			continue;
		n++;
		if (query)
			query_one(v[i]);
		else
			bad |= export_one(v[i], 1);
	}
	free_list(v);
	if (!n) {
		fprintf(stderr, "msprof: no PROF_* directory under %s\n", out);
		return 1;
	}
	return bad;
}

/* Split --application's string at blanks (CANN does not use a shell). */
static char **split_app(const char *s)
{
	char *copy = strdup(s), *save = NULL, *t, **v = NULL;
	size_t n = 0;

	if (!copy)
		return NULL;
	for (t = strtok_r(copy, " \t", &save); t;
	     t = strtok_r(NULL, " \t", &save)) {
		char **nv = realloc(v, (n + 2) * sizeof(*v));

		if (!nv)
			break;
		v = nv;
		v[n++] = strdup(t);
		v[n] = NULL;
	}
	free(copy);
	return v;
}

static pid_t child;

static void forward(int sig)
{
	if (child > 0)
		kill(child, sig);
}

static int run(char **app, const char *out)
{
	pid_t parent = getpid();
	char *cfg = sample_config(out);
	char **before = prof_dirs(out), **after;
	const char *env = value_of("environment");
	int status, code, found = 0;
	size_t i;

	if (!cfg)
		return 1;
	signal(SIGINT, forward);
	signal(SIGTERM, forward);
	signal(SIGHUP, forward);
	fflush(NULL);
	child = fork();
	if (child < 0) {
		perror("msprof: fork");
		return 1;
	}
	if (child == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(1);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		setenv("PROFILER_SAMPLECONFIG", cfg, 1);
		if (env && apply_env(env))
			_exit(127);
		execvp(app[0], app);
		fprintf(stderr, "msprof: cannot run %s: %s\n", app[0],
			strerror(errno));
		_exit(127);
	}
	free(cfg);
	while (waitpid(child, &status, 0) < 0)
		if (errno != EINTR) {
			perror("msprof: waitpid");
			return 1;
		}
	code = WIFEXITED(status) ? WEXITSTATUS(status) :
	       WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 1;
	after = prof_dirs(out);
	for (i = 0; after && after[i]; i++) {
		if (in_list(before, after[i]) || !is_prof_dir(after[i]))
			continue;
		found++;
		export_one(after[i], 0);
	}
	if (!found)
		fprintf(stderr, "msprof: the program wrote no PROF_* directory "
			"under %s (did it call aclInit and aclFinalize?)\n",
			out);
	free_list(before);
	free_list(after);
	return code;
}

int main(int argc, char **argv)
{
	const char *out_opt, *appstr;
	char out[PATH_MAX], **app;
	int first = 1, ret, i;

	if (argc < 2) {
		usage(stderr);
		return 1;
	}
	if (parse(argc, argv, &first))
		return 1;
	out_opt = value_of("output");
	for (i = 0; i < 3; i++) {
		static const char *const modes[] = { "export", "parse", "query" };
		const char *v = value_of(modes[i]);

		if (v && !strcmp(v, "on")) {
			if (first < argc || value_of("application"))
				return usage_error("%s", "--export, --parse and "
						   "--query take no program");
			return offline(out_opt, i == 2);
		}
	}
	appstr = value_of("application");
	if (appstr && first < argc)
		return usage_error("%s", "give the program either with "
				   "--application or after the options");
	if (!appstr && first >= argc)
		return usage_error("%s", "no program to run");
	if (!out_opt)
		out_opt = ".";
	ret = mkdirs(out_opt);
	if (ret || !realpath(out_opt, out)) {
		fprintf(stderr, "msprof: --output=%s: %s\n", out_opt,
			strerror(ret ? -ret : errno));
		return 1;
	}
	app = appstr ? split_app(appstr) : &argv[first];
	if (!app || !app[0]) {
		if (appstr)
			free_list(app);
		return usage_error("%s", "--application is empty");
	}
	ret = run(app, out);
	if (appstr)
		free_list(app);
	return ret;
}
