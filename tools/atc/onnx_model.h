/* SPDX-License-Identifier: MIT */
/* Reading an ONNX model with protobuf-c (message code generated from onnx.proto). */
#ifndef VNPU_ATC_ONNX_MODEL_H
#define VNPU_ATC_ONNX_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "onnx.pb-c.h"

/* Largest model file atc reads. */
#define ONNX_MAX_FILE_BYTES (2ULL << 30)

/*
 * Decode bytes into a model; NULL with a message in err when the bytes are
 * not a complete ModelProto or the model has no graph. Free with
 * onnx_model_free().
 */
Onnx__ModelProto *onnx_model_decode(const uint8_t *buf, size_t len,
				    char *err, size_t errlen);
/* Read and decode a file; NULL with a message naming the file. */
Onnx__ModelProto *onnx_model_load(const char *path, char *err, size_t errlen);
void onnx_model_free(Onnx__ModelProto *m);

#endif /* VNPU_ATC_ONNX_MODEL_H */
