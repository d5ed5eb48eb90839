// SPDX-License-Identifier: MIT
/*
 * The conformance runner's host mode: every compiled test's model.om run
 * on the host with the host build of the device operator library
 * (tests/unit/om_host_exec.h), the same code the device runs, so the
 * operator work can be measured without booting a guest.
 *
 *   conf_host <tests.txt>    one test directory a line (prepare.py's)
 *
 * Writes <test>/host/result.txt and out_<k>.bin for every test with a
 * model.om; tools/conformance/compare.py judges them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf_io.h"
#include "om_host_exec.h"

#define MODE "host"
#define TEST_SECS 120

static uint8_t *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	long size;

	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (size = ftell(f)) > 0 && !fseek(f, 0, SEEK_SET)) {
		buf = malloc((size_t)size);
		if (buf && fread(buf, 1, (size_t)size, f) != (size_t)size) {
			free(buf);
			buf = NULL;
		}
		*len = (size_t)size;
	}
	fclose(f);
	return buf;
}

static int in_bytes(const struct conf_in *c, size_t *bytes)
{
	uint64_t n = omx_dtype_size((uint32_t)c->dtype);
	int k;

	for (k = 0; k < c->rank; k++)
		n *= (uint64_t)c->dims[k];
	*bytes = (size_t)n;
	return omx_dtype_size((uint32_t)c->dtype) ? 0 : -1;
}

/* One test, in the child: 0 when a result was written. */
/* Dense bytes of dims d of dtype. */
static uint64_t om_io_bytes(uint32_t dtype, const struct omx_dims *d)
{
	uint64_t n = omx_dtype_size(dtype);

	for (uint32_t k = 0; k < d->rank; k++)
		n *= (uint64_t)d->dims[k];
	return n;
}

static int run_test(const char *dir, void *arg)
{
	const struct om_io *ios;
	const char *strs;
	struct conf_test t;
	struct om_exec x;
	char rdir[4400], why[512], path[4400];
	void *io[2 * OM_MAX_IO] = { 0 };
	struct omx_dims odims[OM_MAX_IO];
	uint8_t *file;
	size_t len;
	uint32_t nio, nin = 0, k;
	int ret;

	if (conf_read_manifest(&t, dir, why, sizeof(why)) ||
	    conf_result_dir(&t, MODE, rdir, sizeof(rdir))) {
		fprintf(stderr, "conf_host: %s: %s\n", dir, why);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/model.om", dir);
	file = read_all(path, &len);
	if (!file || omx_open(&x, file, len)) {
		conf_result(rdir, "status error cannot read model.om");
		return 0;
	}
	ios = omx_sec(&x, OM_SEC_IO);
	strs = omx_sec(&x, OM_SEC_STRINGS);
	nio = x.sec[OM_SEC_IO]->count;
	if (nio > 2 * OM_MAX_IO) {
		conf_result(rdir, "status error %u inputs and outputs", nio);
		return 0;
	}
	for (k = 0; k < nio; k++) {
		const struct om_io *o = &ios[k];
		const char *name = strs + o->name;
		const struct conf_in *c;
		size_t bytes = 0;

		io[k] = calloc(1, o->size ? o->size : 1);
		if (!io[k]) {
			conf_result(rdir, "status error out of memory");
			return 0;
		}
		if (o->flags & OM_IO_OUTPUT) {
			memset(io[k], CONF_POISON, o->size);
			continue;
		}
		nin++;
		c = conf_find_input(&t, name);
		if (!c) {
			conf_result(rdir, "status error the model's input %s is not in the test data",
				    name);
			return 0;
		}
		if (o->dtype == OM_DTYPE_STRING && (uint32_t)c->dtype == o->dtype &&
		    !in_bytes(c, &bytes) && bytes == o->size) {
			/* packed strings: any size up to the buffer's */
			if (conf_read_upto(dir, c->file, io[k], o->size, &bytes)) {
				conf_result(rdir, "status error %s does not fit the %llu-byte input",
					    c->file, (unsigned long long)o->size);
				return 0;
			}
			continue;
		}
		if ((uint32_t)c->dtype != o->dtype || in_bytes(c, &bytes) ||
		    bytes != o->size) {
			conf_result(rdir, "status error input %s: dtype %d, %zu bytes given; the model takes dtype %u, %llu bytes",
				    name, c->dtype, bytes, o->dtype,
				    (unsigned long long)o->size);
			return 0;
		}
		if (conf_read_file(dir, c->file, io[k], bytes)) {
			conf_result(rdir, "status error cannot read %s", c->file);
			return 0;
		}
	}
	ret = omx_run_dims(&x, 0, io, odims);
	if (ret) {
		conf_result(rdir, "status error node %d refused its task (check)", ret - 1);
		return 0;
	}
	for (k = nin; k < nio; k++) {
		const struct om_io *o = &ios[k];
		const struct omx_dims *d = &odims[k - nin];
		/* a dynamic output's real dims (a host node's), else the record's */
		uint64_t size = om_io_bytes(o->dtype, d);

		/* a string's text follows its heads anywhere in the buffer */
		if (o->dtype == OM_DTYPE_STRING)
			size = o->size;

		if (conf_write_output(rdir, (int)(k - nin), io[k], size)) {
			conf_result(rdir, "status error cannot write out_%u.bin", k - nin);
			return 0;
		}
		conf_result_out(rdir, (int)(k - nin), strs + o->name, (int)o->dtype,
				(int)d->rank, d->dims);
	}
	conf_result(rdir, "status ok");
	(void)arg;
	return 0;
}

int main(int argc, char **argv)
{
	char line[4400], om[4500];
	int ran = 0, failed = 0;
	FILE *list;

	if (argc != 2) {
		fprintf(stderr, "usage: conf_host <tests.txt>\n");
		return 2;
	}
	list = fopen(argv[1], "r");
	if (!list) {
		perror(argv[1]);
		return 2;
	}
	while (fgets(line, sizeof(line), list)) {
		line[strcspn(line, "\n")] = '\0';
		if (!line[0])
			continue;
		snprintf(om, sizeof(om), "%s/model.om", line);
		if (access(om, R_OK))
			continue;	/* not compiled: prepare.py recorded why */
		ran++;
		failed += conf_isolated(line, MODE, TEST_SECS, run_test, NULL) != 0;
	}
	fclose(list);
	printf("conf_host: ran %d compiled tests (%d did not finish)\n", ran, failed);
	return 0;
}
