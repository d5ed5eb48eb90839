// SPDX-License-Identifier: MIT
/*
 * ONNX's element type numbers as aclDataType: a table of the format's
 * numbers, kept apart from the ONNX reader (ir_onnx.c) so that the
 * compiler passes the runtime links for aclopCompile need no protobuf.
 */
#include "ir.h"
#include "../om/om_format.h"

/*
 * ONNX TensorProto.DataType to aclDataType; -2 when not supported. Every
 * dtype of the list has its ONNX number here (tests/unit/dtype_test.c).
 */
int ir_dtype_from_onnx(int32_t t)
{
	static const int map[] = {
		[1] = DT_FLOAT,
		[2] = DT_UINT8,
		[3] = DT_INT8,
		[4] = DT_UINT16,
		[5] = DT_INT16,
		[6] = DT_INT32,
		[7] = DT_INT64,
		[8] = OM_DTYPE_STRING,	/* host operators only */
		[9] = DT_BOOL,
		[10] = DT_FLOAT16,
		[11] = DT_DOUBLE,
		[12] = DT_UINT32,
		[13] = DT_UINT64,
		[16] = DT_BF16,
	};

	if (t <= 0 || t >= (int32_t)(sizeof(map) / sizeof(map[0])) ||
	    (!map[t] && t != 1))
		return -2;
	return map[t];
}
