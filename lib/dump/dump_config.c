// SPDX-License-Identifier: MIT
/*
 * The dump configuration: the "dump" object of aclmdlSetDump's file or of
 * acl.json, checked as CANN's adump checks it (Documentation/dump.md has
 * the keys and what vnpu does with each). One configuration is in force
 * at a time; models take a copy of their selection when they load.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include <json-c/json.h>

#include "acl/acl_base.h"
#include "../core/log.h"
#include "dump_int.h"

pthread_mutex_t dump_lock = PTHREAD_MUTEX_INITIALIZER;
struct dump_state dump_st;

static void list_free(struct dump_cfg *c)
{
	for (uint32_t i = 0; i < c->nlist; i++) {
		free(c->list[i].model);
		for (uint32_t k = 0; k < c->list[i].nlayers; k++)
			free(c->list[i].layers[k]);
		free(c->list[i].layers);
	}
	free(c->list);
	free(c->steps);
	c->list = NULL;
	c->steps = NULL;
	c->nlist = 0;
	c->nsteps = 0;
}

void dump_cfg_clear(struct dump_cfg *c)
{
	list_free(c);
	memset(c, 0, sizeof(*c));
}

static int bad(char *why, size_t len, const char *fmt, const char *a)
{
	snprintf(why, len, fmt, a);
	return ACL_ERROR_INVALID_DUMP_CONFIG;
}

/* A string member, or NULL when absent; -1 in *err when not a string. */
static const char *str_of(struct json_object *o, const char *key, int *err)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v))
		return NULL;
	if (!json_object_is_type(v, json_type_string)) {
		*err = -1;
		return NULL;
	}
	return json_object_get_string(v);
}

/* One of the words in set (NULL-terminated): its index, dflt absent, -1 bad. */
static int choose(struct json_object *o, const char *key, const char *const *set,
		  int dflt, char *why, size_t len)
{
	int err = 0;
	const char *s = str_of(o, key, &err);

	if (err) {
		snprintf(why, len, "\"%s\" must be a string", key);
		return -1;
	}
	if (!s)
		return dflt;
	for (int i = 0; set[i]; i++)
		if (!strcmp(s, set[i]))
			return i;
	snprintf(why, len, "\"%s\" has the unknown value \"%s\"", key, s);
	return -1;
}

static int check_path(struct dump_cfg *c, const char *path, char *why, size_t len)
{
	struct stat st;

	if (!path)
		return bad(why, len, "%s", "\"dump_path\" is missing");
	if (!*path)
		return bad(why, len, "%s", "\"dump_path\" is empty");
	if (strlen(path) >= DUMP_PATH_MAX)
		return bad(why, len, "\"dump_path\" \"%s\" is longer than 512 bytes", path);
	if (!realpath(path, c->path))
		return bad(why, len, "\"dump_path\" \"%s\" does not exist", path);
	if (stat(c->path, &st) || !S_ISDIR(st.st_mode))
		return bad(why, len, "\"dump_path\" \"%s\" is not a directory", path);
	if (access(c->path, R_OK | W_OK | X_OK))
		return bad(why, len, "\"dump_path\" \"%s\" is not writable", path);
	return 0;
}

/* "0|3|5-9": the iterations dumped; empty: every one. */
static int parse_steps(struct dump_cfg *c, const char *s, char *why, size_t len)
{
	const char *p = s;

	while (*p) {
		char *end;
		long a = strtol(p, &end, 10), b = a;

		if (end == p || a < 0)
			return bad(why, len, "\"dump_step\" \"%s\" is not N|N-M|...", s);
		p = end;
		if (*p == '-') {
			b = strtol(++p, &end, 10);
			if (end == p || b < a)
				return bad(why, len, "\"dump_step\" \"%s\" has a bad range", s);
			p = end;
		}
		if (*p == '|')
			p++;
		else if (*p)
			return bad(why, len, "\"dump_step\" \"%s\" is not N|N-M|...", s);
		if (c->nsteps == DUMP_MAX_STEPS)
			return bad(why, len, "\"dump_step\" \"%s\" has more than 100 ranges", s);
		if (!c->steps)
			c->steps = calloc(DUMP_MAX_STEPS, sizeof(*c->steps));
		if (!c->steps)
			return bad(why, len, "%s", "out of memory");
		c->steps[c->nsteps][0] = (uint64_t)a;
		c->steps[c->nsteps++][1] = (uint64_t)b;
	}
	return 0;
}

static int parse_item(struct dump_entry *e, struct json_object *it, uint32_t i,
		      char *why, size_t len)
{
	struct json_object *layers;
	char at[32];
	int err = 0;
	const char *name;

	snprintf(at, sizeof(at), "dump_list[%u]", i);
	if (!json_object_is_type(it, json_type_object))
		return bad(why, len, "\"%s\" must be an object", at);
	name = str_of(it, "model_name", &err);
	if (err)
		return bad(why, len, "\"%s.model_name\" must be a string", at);
	if (name && !*name)
		return bad(why, len, "\"%s.model_name\" is empty", at);
	if (name && !(e->model = strdup(name)))
		return bad(why, len, "%s", "out of memory");
	if (!json_object_object_get_ex(it, "layer", &layers))
		return 0;
	if (!json_object_is_type(layers, json_type_array))
		return bad(why, len, "\"%s.layer\" must be an array of strings", at);
	e->nlayers = (uint32_t)json_object_array_length(layers);
	if (!e->nlayers)
		return bad(why, len, "\"%s.layer\" is empty", at);
	e->layers = calloc(e->nlayers, sizeof(*e->layers));
	if (!e->layers)
		return bad(why, len, "%s", "out of memory");
	for (uint32_t k = 0; k < e->nlayers; k++) {
		struct json_object *l = json_object_array_get_idx(layers, k);

		if (!json_object_is_type(l, json_type_string))
			return bad(why, len, "\"%s.layer\" must be an array of strings", at);
		e->layers[k] = strdup(json_object_get_string(l));
		if (!e->layers[k])
			return bad(why, len, "%s", "out of memory");
	}
	return 0;
}

static int parse_list(struct dump_cfg *c, struct json_object *d, char *why,
		      size_t len)
{
	struct json_object *list;
	size_t n;

	if (!json_object_object_get_ex(d, "dump_list", &list))
		return 0;
	if (!json_object_is_type(list, json_type_array))
		return bad(why, len, "%s", "\"dump_list\" must be an array");
	n = json_object_array_length(list);
	if (!n)
		return 0;
	c->list = calloc(n, sizeof(*c->list));
	if (!c->list)
		return bad(why, len, "%s", "out of memory");
	c->nlist = (uint32_t)n;
	for (uint32_t i = 0; i < n; i++) {
		int ret = parse_item(&c->list[i],
				     json_object_array_get_idx(list, i), i, why, len);

		if (ret)
			return ret;
	}
	return 0;
}

/*
 * The "dump" object d into c: 0, or ACL_ERROR_INVALID_DUMP_CONFIG with
 * the reason in why. c is cleared first and left cleared on failure.
 */
static int parse_dump(struct dump_cfg *c, struct json_object *d, char *why,
		      size_t len)
{
	static const char *const modes[] = { "input", "output", "all", NULL };
	static const char *const onoff[] = { "off", "on", NULL };
	static const char *const data[] = { "tensor", "stats", NULL };
	static const char *const levels[] = { "op", "kernel", "all", NULL };
	int err = 0, m, sw, dd, lv, dbg, ret;
	const char *path, *scene, *step;

	dump_cfg_clear(c);
	if (!json_object_is_type(d, json_type_object))
		return bad(why, len, "%s", "\"dump\" must be an object");
	scene = str_of(d, "dump_scene", &err);
	path = str_of(d, "dump_path", &err);
	step = str_of(d, "dump_step", &err);
	if (err)
		return bad(why, len, "%s",
			   "\"dump_scene\", \"dump_path\" and \"dump_step\" must be strings");
	m = choose(d, "dump_mode", modes, 1, why, len);
	sw = choose(d, "dump_op_switch", onoff, 0, why, len);
	dd = choose(d, "dump_data", data, 0, why, len);
	lv = choose(d, "dump_level", levels, 2, why, len);
	dbg = choose(d, "dump_debug", onoff, 0, why, len);
	if (m < 0 || sw < 0 || dd < 0 || lv < 0 || dbg < 0)
		return ACL_ERROR_INVALID_DUMP_CONFIG;
	if (scene || dbg == 1) {
		/* Exception, watcher and overflow dumps: nothing to write here. */
		rt_log(LOG_WARN, "dump: \"%s\" is accepted but vnpu writes no such dump",
		       scene ? "dump_scene" : "dump_debug");
		c->other = true;
		if (scene && strcmp(scene, "watcher"))
			return 0;
	}
	ret = check_path(c, path, why, len);
	if (!ret && step)
		ret = parse_steps(c, step, why, len);
	if (!ret)
		ret = parse_list(c, d, why, len);
	if (ret) {
		dump_cfg_clear(c);
		return ret;
	}
	c->mode = m == 0 ? DUMP_INPUT : m == 1 ? DUMP_OUTPUT : DUMP_INPUT | DUMP_OUTPUT;
	c->op_switch = sw == 1;
	c->stats = dd == 1;
	c->level = lv;
	/* adump's NeedDump: a list, the op switch, or another dump kind. */
	c->on = c->nlist || c->op_switch;
	return 0;
}

/* "20261129203000": the run's folder, one per configuration. */
static void stamp_now(struct dump_cfg *c)
{
	time_t t = time(NULL);
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(c->stamp, sizeof(c->stamp), "%Y%m%d%H%M%S", &tm);
}

int dump_cfg_load_file(struct dump_cfg *c, const char *file, char *why,
		       size_t len)
{
	struct json_object *root, *d;
	struct stat st;
	int ret;

	if (stat(file, &st) || !S_ISREG(st.st_mode) || access(file, R_OK)) {
		snprintf(why, len, "cannot read the dump configuration '%s'", file);
		return ACL_ERROR_INVALID_FILE;
	}
	dump_cfg_clear(c);
	if (!st.st_size)
		return 0;	/* an empty file configures nothing (CANN) */
	root = json_object_from_file(file);
	if (!root) {
		snprintf(why, len, "'%s' is not valid JSON", file);
		return ACL_ERROR_INVALID_DUMP_CONFIG;
	}
	if (!json_object_object_get_ex(root, "dump", &d) ||
	    (json_object_is_type(d, json_type_object) &&
	     !json_object_object_length(d))) {
		/* no "dump", or an empty one: nothing to configure (adump) */
		json_object_put(root);
		return 0;
	}
	ret = parse_dump(c, d, why, len);
	json_object_put(root);
	if (!ret)
		stamp_now(c);
	return ret;
}

bool dump_active(void)
{
	return dump_st.cfg.on && (dump_st.init || dump_st.from_acl);
}

bool dump_op_wanted(void)
{
	return dump_active() && dump_st.cfg.op_switch;
}

uint32_t dump_op_mode(void)
{
	return dump_st.cfg.mode;
}

int dump_acl_init(const char *config_path, char *why, size_t len)
{
	struct dump_cfg c = { 0 };
	int ret;

	dump_acl_finalize();	/* nothing of an earlier aclInit stays */
	if (!config_path || !*config_path)
		return 0;
	/* aclInit checked the file already; a missing section is fine. */
	ret = dump_cfg_load_file(&c, config_path, why, len);
	if (ret == ACL_ERROR_INVALID_DUMP_CONFIG && strstr(why, "not valid JSON"))
		ret = 0;	/* config_file_check's rules decide about syntax */
	if (ret) {
		dump_cfg_clear(&c);
		return ret;
	}
	pthread_mutex_lock(&dump_lock);
	dump_cfg_clear(&dump_st.cfg);
	dump_st.cfg = c;
	dump_st.from_acl = c.on || c.other;
	pthread_mutex_unlock(&dump_lock);
	return 0;
}

void dump_acl_finalize(void)
{
	pthread_mutex_lock(&dump_lock);
	dump_cfg_clear(&dump_st.cfg);
	dump_st.init = false;
	dump_st.from_acl = false;
	dump_st.seq = 0;
	pthread_mutex_unlock(&dump_lock);
	dump_args_reset();
}
