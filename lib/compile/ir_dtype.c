// SPDX-License-Identifier: MIT
/*
 * ONNX's element type numbers as aclDataType: a table of the format's
 * numbers, kept apart from the ONNX reader (ir_onnx.c) so that the
 * compiler passes the runtime links for aclopCompile need no protobuf.
 */
#include "ir.h"

/* ONNX TensorProto.DataType to aclDataType; -2 when not supported. */
int ir_dtype_from_onnx(int32_t t)
{
	static const int map[] = {
		[1] = 0,	/* FLOAT */
		[2] = 4,	/* UINT8 */
		[3] = 2,	/* INT8 */
		[4] = 7,	/* UINT16 */
		[5] = 6,	/* INT16 */
		[6] = 3,	/* INT32 */
		[7] = 9,	/* INT64 */
		[8] = 13,	/* STRING: host operators only */
		[9] = 12,	/* BOOL */
		[10] = 1,	/* FLOAT16 */
		[11] = 11,	/* DOUBLE */
		[12] = 8,	/* UINT32 */
		[13] = 10,	/* UINT64 */
		[16] = 27,	/* BFLOAT16 */
	};

	if (t <= 0 || t >= (int32_t)(sizeof(map) / sizeof(map[0])) ||
	    (!map[t] && t != 1))
		return -2;
	return map[t];
}
