// SPDX-License-Identifier: MIT
/*
 * Inference of the integer, logic and arithmetic operators that
 * infer_elem.c does not cover: And/Or/Xor, BitShift, Mod, IsInf/IsNaN,
 * Mean, CastLike.
 */
#include <string.h>

#include "infer_util.h"

static bool is_int(int dt)
{
	return !ir_dtype_is_float(dt) && dt != DT_BOOL;
}

/* And, Or, Xor: bool inputs, broadcast, bool out. */
INFER(logical)
{
	int k;

	for (k = 0; k < 2; k++)
		if (IN(k)->dtype != DT_BOOL)
			return NERR(n, "input %s is %s, the operator takes bool",
				    IN(k)->name, ir_dtype_name(IN(k)->dtype));
	return infer_compare(g, n, err, errlen);
}

/* BitShift: integers of one type; direction LEFT or RIGHT. */
INFER(bitshift)
{
	const struct ir_attr *d = ir_attr(n, "direction");

	if (!d || !d->s || (strcmp(d->s, "LEFT") && strcmp(d->s, "RIGHT")))
		return NERR(n, "needs direction LEFT or RIGHT");
	if (!is_int(IN(0)->dtype))
		return NERR(n, "input %s is %s, BitShift takes integers",
			    IN(0)->name, ir_dtype_name(IN(0)->dtype));
	return infer_binary(g, n, err, errlen);
}

/* Mod: numbers of one type; fmod 0 is for integers only, as ONNX says. */
INFER(mod)
{
	int64_t fmod = ir_attr_int(n, "fmod", 0);

	if (fmod != 0 && fmod != 1)
		return NERR(n, "fmod must be 0 or 1");
	if (IN(0)->dtype == DT_BOOL)
		return NERR(n, "input %s is bool", IN(0)->name);
	if (!fmod && !is_int(IN(0)->dtype))
		return NERR(n, "fmod=0 needs integers, %s is %s", IN(0)->name,
			    ir_dtype_name(IN(0)->dtype));
	return infer_binary(g, n, err, errlen);
}

/* IsInf, IsNaN: a float input, a bool output of its shape. */
INFER(float_test)
{
	if (!ir_dtype_is_float(IN(0)->dtype))
		return NERR(n, "input %s is %s, the operator takes a float type",
			    IN(0)->name, ir_dtype_name(IN(0)->dtype));
	return set_out(g, n, 0, DT_BOOL, IN(0)->rank, IN(0)->dims);
}

/* Mean: floats of one type, broadcast. */
INFER(mean)
{
	if (!ir_dtype_is_float(IN(0)->dtype))
		return NERR(n, "input %s is %s, Mean takes a float type",
			    IN(0)->name, ir_dtype_name(IN(0)->dtype));
	return infer_variadic(g, n, err, errlen);
}

/* CastLike: input 0 converted to input 1's type (STRING on the host). */
INFER(castlike)
{
	if (!ir_dtype_size(IN(1)->dtype))
		return NERR(n, "cannot cast to the type of %s", IN(1)->name);
	return set_out(g, n, 0, IN(1)->dtype, IN(0)->rank, IN(0)->dims);
}
