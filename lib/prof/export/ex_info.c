/* SPDX-License-Identifier: MIT */
/*
 * info.json of a raw data directory: the session's process, its start in
 * both clocks (the output files are named after the wall-clock start, in
 * local time as CANN names them) and what was collected.
 */
#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "export.h"

static int get_u64(struct ex_data *d, json_object *o, const char *key,
		   uint64_t *out, int required)
{
	json_object *v;
	int64_t x;

	if (!json_object_object_get_ex(o, key, &v)) {
		if (required)
			return ex_fail(d, EINVAL, "info.json: no \"%s\"", key);
		return 0;
	}
	if (!json_object_is_type(v, json_type_int))
		return ex_fail(d, EINVAL, "info.json: \"%s\" is not an integer",
			       key);
	errno = 0;
	x = json_object_get_int64(v);
	if (x < 0 || errno)
		return ex_fail(d, EINVAL, "info.json: \"%s\" out of range", key);
	*out = (uint64_t)x;
	return 0;
}

static int get_str(struct ex_data *d, json_object *o, const char *key,
		   char **out)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v))
		return 0;
	if (!json_object_is_type(v, json_type_string))
		return ex_fail(d, EINVAL, "info.json: \"%s\" is not a string",
			       key);
	*out = strdup(json_object_get_string(v));
	return *out ? 0 : ex_fail(d, ENOMEM, "out of memory");
}

int ex_read_info(struct ex_data *d)
{
	char path[PATH_MAX];
	uint64_t version = 0;
	json_object *o;
	struct tm tm;
	time_t sec;
	int ret;

	if (snprintf(path, sizeof(path), "%s/info.json", d->dir) >=
	    (int)sizeof(path))
		return ex_fail(d, ENAMETOOLONG, "%s: path too long", d->dir);
	o = json_object_from_file(path);
	if (!o)
		return ex_fail(d, errno == ENOENT ? ENOENT : EINVAL,
			       "%s: missing or not JSON", path);
	if (!json_object_is_type(o, json_type_object)) {
		json_object_put(o);
		return ex_fail(d, EINVAL, "%s: not a JSON object", path);
	}
	ret = get_u64(d, o, "version", &version, 1);
	if (!ret && version != 1)
		ret = ex_fail(d, EINVAL, "info.json: version %llu, expected 1",
			      (unsigned long long)version);
	if (!ret)
		ret = get_u64(d, o, "start_ns", &d->start_ns, 1);
	if (!ret)
		ret = get_u64(d, o, "start_wall_us", &d->start_wall_us, 1);
	if (!ret)
		ret = get_u64(d, o, "stop_ns", &d->stop_ns, 0);
	if (!ret)
		ret = get_u64(d, o, "pid", &d->pid, 0);
	if (!ret)
		ret = get_str(d, o, "app", &d->app);
	if (!ret)
		ret = get_str(d, o, "cpu", &d->cpu);
	if (!ret)
		ret = get_str(d, o, "aic_metrics", &d->aic_metrics);
	if (!ret)
		ret = get_str(d, o, "data_type_config", &d->data_type_config);
	json_object_put(o);
	if (ret)
		return ret;
	sec = (time_t)(d->start_wall_us / 1000000);
	if (!localtime_r(&sec, &tm) ||
	    !strftime(d->stamp, sizeof(d->stamp), "%Y%m%d%H%M%S", &tm))
		return ex_fail(d, EINVAL, "info.json: start_wall_us out of range");
	return 0;
}
