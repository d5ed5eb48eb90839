// SPDX-License-Identifier: MIT
/*
 * One dumped operator as one file, in vnpu's dump format (the layout is
 * in Documentation/dump.md; tools/dump/vnpu-dump reads it): a 64-byte
 * header, the operator's type, name and model, then each tensor's
 * record (io side, index, dtype, format, dims, byte count) and bytes.
 * The file's place follows CANN's tree:
 *   <dump_path>/<time>/<device>/<model>/<model_id>/<iteration>/
 *       <OpType>.<OpName>.<task>.<stream>.<timestamp>
 * and single operators go straight under <dump_path>/<time>/<device>/.
 * With an acldumpRegCallback callback the bytes go to it in chunks
 * instead, named by the same path, and nothing is written.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "../core/log.h"
#include "dump_int.h"

#define DUMP_MAGIC	"VNPUDUMP"
#define DUMP_VERSION	1u
#define DUMP_CHUNK	(64u * 1024u)

struct dump_file_header {
	char magic[8];
	uint32_t version;
	uint32_t header_size;
	uint32_t ntensors;
	uint32_t flags;			/* bit 0: a model's node */
	uint32_t model_id;
	int32_t device;
	uint64_t iteration;
	uint64_t timestamp_us;
	uint32_t stream;
	uint32_t task;
	uint16_t type_len, name_len, model_len, reserved;
};
_Static_assert(sizeof(struct dump_file_header) == 64, "dump header layout");

struct tensor_record {
	uint32_t output, index, dtype, format, rank, reserved;
};

static size_t pad8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

/* A name as one path component: '/' and blanks become '_'. */
static void component(char *out, size_t len, const char *in)
{
	size_t i;

	for (i = 0; in && in[i] && i + 1 < len; i++)
		out[i] = (in[i] == '/' || in[i] == ' ' || in[i] == '\\') ? '_' : in[i];
	out[i] = 0;
	if (!i)
		snprintf(out, len, "unnamed");
}

static int mkdirs(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(path, 0750) && errno != EEXIST) {
			*p = '/';
			return -errno;
		}
		*p = '/';
	}
	return 0;
}

static uint8_t *serialize(const struct dump_where *w, const char *type,
			  const char *name, const struct dump_tensor *t,
			  uint32_t nt, uint64_t now_us, size_t *size)
{
	struct dump_file_header h = { .version = DUMP_VERSION,
				      .header_size = sizeof(h) };
	size_t tl = strlen(type), nl = strlen(name);
	size_t ml = w->model ? strlen(w->model) : 0;
	size_t n = sizeof(h) + pad8(tl + nl + ml), o;
	uint8_t *buf;

	if (tl > UINT16_MAX || nl > UINT16_MAX || ml > UINT16_MAX)
		return NULL;
	for (uint32_t i = 0; i < nt; i++)
		n += sizeof(struct tensor_record) + t[i].rank * 8 + 8 +
		     pad8(t[i].bytes);
	buf = calloc(1, n);
	if (!buf)
		return NULL;
	memcpy(h.magic, DUMP_MAGIC, 8);
	h.ntensors = nt;
	h.flags = w->model ? 1 : 0;
	h.model_id = w->model_id;
	h.device = w->device;
	h.iteration = w->iteration;
	h.timestamp_us = now_us;
	h.stream = w->stream;
	h.task = w->task;
	h.type_len = (uint16_t)tl;
	h.name_len = (uint16_t)nl;
	h.model_len = (uint16_t)ml;
	memcpy(buf, &h, sizeof(h));
	o = sizeof(h);
	memcpy(buf + o, type, tl);
	memcpy(buf + o + tl, name, nl);
	if (ml)
		memcpy(buf + o + tl + nl, w->model, ml);
	o += pad8(tl + nl + ml);
	for (uint32_t i = 0; i < nt; i++) {
		struct tensor_record r = { t[i].output, t[i].index, t[i].dtype,
					   t[i].format, t[i].rank, 0 };

		memcpy(buf + o, &r, sizeof(r));
		o += sizeof(r);
		memcpy(buf + o, t[i].dims, t[i].rank * 8);
		o += t[i].rank * 8;
		memcpy(buf + o, &t[i].bytes, 8);
		o += 8;
		if (t[i].bytes)
			memcpy(buf + o, t[i].data, t[i].bytes);
		o += pad8(t[i].bytes);
	}
	*size = n;
	return buf;
}

static int write_file(const char *path, const uint8_t *buf, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0640);
	size_t o = 0;

	if (fd < 0)
		return -errno;
	while (o < n) {
		ssize_t k = write(fd, buf + o, n - o);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			close(fd);
			return k < 0 ? -errno : -EIO;
		}
		o += (size_t)k;
	}
	return close(fd) ? -errno : 0;
}

/* The bytes to the callback, DUMP_CHUNK at a time; the last is flagged. */
static int to_callback(int32_t (*cb)(const acldumpChunk *, int32_t),
		       int32_t flag, const char *path, const uint8_t *buf,
		       size_t n)
{
	acldumpChunk *c = malloc(sizeof(*c) + DUMP_CHUNK);
	size_t o = 0, pl = strlen(path);
	int ret = 0;

	if (!c)
		return -ENOMEM;
	if (pl >= sizeof(c->fileName))
		pl = sizeof(c->fileName) - 1;
	do {
		uint32_t k = (uint32_t)(n - o < DUMP_CHUNK ? n - o : DUMP_CHUNK);

		memset(c, 0, sizeof(*c));
		memcpy(c->fileName, path, pl);	/* zeroed: terminated */
		c->bufLen = k;
		c->isLastChunk = o + k == n;
		c->offset = (int64_t)o;
		c->flag = flag;
		memcpy(c->dataBuf, buf + o, k);
		if (cb(c, (int32_t)(sizeof(*c) + k)))
			ret = -EIO;
		o += k;
	} while (!ret && o < n);
	free(c);
	return ret;
}

int dump_write_op(const struct dump_where *w, const char *op_type,
		  const char *op_name, const struct dump_tensor *t,
		  uint32_t nt)
{
	char path[PATH_MAX + 512], ty[128], nm[256], md[256];
	int32_t (*cb)(const acldumpChunk *, int32_t);
	const char *root, *stamp;
	struct timespec ts;
	uint64_t now_us;
	uint8_t *buf;
	size_t n = 0;
	int32_t flag;
	int ret, k;

	clock_gettime(CLOCK_REALTIME, &ts);
	now_us = (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
	component(ty, sizeof(ty), op_type);
	component(nm, sizeof(nm), op_name);
	pthread_mutex_lock(&dump_lock);
	cb = dump_st.cb;
	flag = dump_st.cb_flag;
	if (w->sel) {
		root = dump_sel_path(w->sel, &stamp);
	} else {
		root = dump_st.cfg.path;
		stamp = dump_st.cfg.stamp;
	}
	if (w->model) {
		component(md, sizeof(md), w->model);
		k = snprintf(path, sizeof(path), "%s/%s/%d/%s/%u/%llu/%s.%s.%u.%u.%llu",
			 root, stamp, w->device, md, w->model_id,
			 (unsigned long long)w->iteration, ty, nm, w->task,
			 w->stream, (unsigned long long)now_us);
	} else {
		k = snprintf(path, sizeof(path), "%s/%s/%d/%s.%s.%u.%u.%llu", root,
			 stamp, w->device, ty, nm, w->task, w->stream,
			 (unsigned long long)now_us);
	}
	pthread_mutex_unlock(&dump_lock);
	if (k < 0 || (size_t)k >= sizeof(path))
		return -ENAMETOOLONG;
	buf = serialize(w, op_type, op_name, t, nt, now_us, &n);
	if (!buf)
		return -ENOMEM;
	if (cb) {
		ret = to_callback(cb, flag, path, buf, n);
	} else {
		ret = mkdirs(path);
		if (!ret)
			ret = write_file(path, buf, n);
	}
	if (ret)
		rt_log(LOG_ERROR, "dump: %s: %s", path, strerror(-ret));
	free(buf);
	return ret;
}

void dump_gather(void *dst, const void *src, uint32_t elem, uint32_t rank,
		 const int64_t *dims, const int64_t *strides)
{
	int64_t idx[DUMP_MAX_RANK] = { 0 }, total = 1;
	uint8_t *d = dst;

	for (uint32_t i = 0; i < rank; i++)
		total *= dims[i];
	for (int64_t k = 0; k < total; k++) {
		int64_t off = 0;

		for (uint32_t i = 0; i < rank; i++)
			off += idx[i] * strides[i];
		memcpy(d + (size_t)k * elem, (const uint8_t *)src + off * elem, elem);
		for (uint32_t i = rank; i-- > 0;) {
			if (++idx[i] < dims[i])
				break;
			idx[i] = 0;
		}
	}
}
