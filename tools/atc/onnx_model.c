// SPDX-License-Identifier: MIT
/*
 * ONNX models through protobuf-c: the parser is the generated one, this
 * file only reads the file and turns failures into messages.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onnx_model.h"

Onnx__ModelProto *onnx_model_decode(const uint8_t *buf, size_t len,
				    char *err, size_t errlen)
{
	Onnx__ModelProto *m;

	if (!len) {
		snprintf(err, errlen, "the model is empty");
		return NULL;
	}
	m = onnx__model_proto__unpack(NULL, len, buf);
	if (!m) {
		snprintf(err, errlen,
			 "not a valid ONNX model (malformed or truncated protobuf, %zu bytes)",
			 len);
		return NULL;
	}
	if (!m->graph) {
		snprintf(err, errlen, "the ONNX model has no graph");
		onnx__model_proto__free_unpacked(m, NULL);
		return NULL;
	}
	return m;
}

Onnx__ModelProto *onnx_model_load(const char *path, char *err, size_t errlen)
{
	Onnx__ModelProto *m = NULL;
	uint8_t *buf = NULL;
	FILE *f = fopen(path, "rb");
	long size;
	char why[256];

	if (!f) {
		snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
		return NULL;
	}
	if (fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET)) {
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
		goto out;
	}
	if ((unsigned long long)size > ONNX_MAX_FILE_BYTES) {
		snprintf(err, errlen, "%s is %ld bytes: larger than atc reads (%llu)",
			 path, size, ONNX_MAX_FILE_BYTES);
		goto out;
	}
	buf = malloc(size ? (size_t)size : 1);
	if (!buf) {
		snprintf(err, errlen, "out of memory reading %s", path);
		goto out;
	}
	if (fread(buf, 1, (size_t)size, f) != (size_t)size) {
		snprintf(err, errlen, "cannot read %s", path);
		goto out;
	}
	m = onnx_model_decode(buf, (size_t)size, why, sizeof(why));
	if (!m)
		snprintf(err, errlen, "%s: %s", path, why);
out:
	free(buf);
	fclose(f);
	return m;
}

void onnx_model_free(Onnx__ModelProto *m)
{
	if (m)
		onnx__model_proto__free_unpacked(m, NULL);
}
