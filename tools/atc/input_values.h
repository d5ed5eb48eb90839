/* SPDX-License-Identifier: MIT */
/* --input_values: graph inputs frozen to constants (a vnpu extension). */
#ifndef VNPU_ATC_INPUT_VALUES_H
#define VNPU_ATC_INPUT_VALUES_H

#include <stddef.h>

#include "onnx_model.h"

/*
 * Apply "name:file.pb;name2:file2.pb" to m: each named graph input becomes
 * an initializer holding the TensorProto read from its file and is no
 * longer an input. NULL spec: nothing. Returns 0, or -1 with a message
 * naming the item at fault (bad syntax, no such input, unreadable or
 * malformed file, data type other than the input's).
 */
int atc_apply_input_values(Onnx__ModelProto *m, const char *spec,
			   char *err, size_t errlen);

#endif /* VNPU_ATC_INPUT_VALUES_H */
