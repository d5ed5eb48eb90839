// SPDX-License-Identifier: MIT
/*
 * CANN's aipp.cfg (atc --insert_op_conf) in protobuf text format:
 *
 *   aipp_op {            # or "aipp_op: {"
 *       aipp_mode: static
 *       input_format : YUV420SP_U8
 *       matrix_r0c0 : 256
 *       ...
 *   }
 *
 * Keys are CANN's names; a key vnpu does not know, a value out of range
 * or a key given twice is an error naming the line, never ignored.
 * Values go straight into the device's parameter block; CANN's defaults
 * fill the keys left out (var_reci 1.0; with csc_switch the BT.601
 * matrix and biases of CANN's insert_op.proto).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aipp_cfg.h"

#define CFG_MAX_BYTES	(1 << 20)

struct lexer {
	const char *p;
	int line;
	char tok[128];
	int tok_line;
	char *err;
	size_t errlen;
};

__attribute__((format(printf, 3, 4)))
static int fail(struct lexer *L, int line, const char *fmt, ...)
{
	size_t n = (size_t)snprintf(L->err, L->errlen, "line %d: ", line);
	va_list ap;

	if (n < L->errlen) {
		va_start(ap, fmt);
		vsnprintf(L->err + n, L->errlen - n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* The next token into L->tok: a word, a number, '{', '}' or ':'. 0 at the end. */
static int next(struct lexer *L)
{
	size_t n = 0;

	for (;;) {
		while (*L->p == ' ' || *L->p == '\t' || *L->p == '\r' ||
		       *L->p == '\n') {
			if (*L->p == '\n')
				L->line++;
			L->p++;
		}
		if (*L->p != '#')
			break;
		while (*L->p && *L->p != '\n')
			L->p++;
	}
	L->tok_line = L->line;
	if (!*L->p) {
		L->tok[0] = 0;
		return 0;
	}
	if (strchr("{}:", *L->p)) {
		L->tok[0] = *L->p++;
		L->tok[1] = 0;
		return 1;
	}
	while (*L->p && !strchr(" \t\r\n{}:#", *L->p)) {
		if (n + 1 >= sizeof(L->tok))
			return fail(L, L->line, "a word longer than %zu characters",
				    sizeof(L->tok) - 1);
		L->tok[n++] = *L->p++;
	}
	L->tok[n] = 0;
	return 1;
}

static int parse_int(struct lexer *L, const char *key, long lo, long hi,
		     long *v)
{
	char *end;

	errno = 0;
	*v = strtol(L->tok, &end, 10);
	if (!L->tok[0] || *end || errno || *v < lo || *v > hi)
		return fail(L, L->tok_line, "%s: '%s' is not an integer in %ld..%ld",
			    key, L->tok, lo, hi);
	return 0;
}

static int parse_float(struct lexer *L, const char *key, float *v)
{
	char *end;
	double d;

	errno = 0;
	d = strtod(L->tok, &end);
	if (!L->tok[0] || *end || errno || !isfinite(d) || fabs(d) > 3.0e38)
		return fail(L, L->tok_line, "%s: '%s' is not a finite number", key,
			    L->tok);
	*v = (float)d;
	return 0;
}

static int parse_bool(struct lexer *L, const char *key, int8_t *v)
{
	static const char *const t[] = { "true", "True", "1" };
	static const char *const f[] = { "false", "False", "0" };
	size_t i;

	for (i = 0; i < 3; i++) {
		if (!strcmp(L->tok, t[i])) {
			*v = 1;
			return 0;
		}
		if (!strcmp(L->tok, f[i])) {
			*v = 0;
			return 0;
		}
	}
	return fail(L, L->tok_line, "%s: '%s' is not true or false", key, L->tok);
}

static uint32_t fbits(float f)
{
	uint32_t u;

	memcpy(&u, &f, sizeof(u));
	return u;
}

/* CANN's input formats: the four the device reads, and the rest by name. */
static const char *const formats[] = {
	NULL, "YUV420SP_U8", "XRGB8888_U8", "RGB888_U8", "YUV400_U8",
	"NC1HWC0DI_FP16", "NC1HWC0DI_S8", "ARGB8888_U8", "YUYV_U8",
	"YUV422SP_U8", "AYUV444_U8", "RAW10", "RAW12", "RAW16", "RAW24",
	"RGB16", "RGB20", "RGB24", "RGB8_IR", "RGB16_IR", "RGB24_IR",
};

static int parse_format(struct lexer *L, uint32_t *fmt)
{
	size_t i;

	for (i = 1; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (!strcmp(L->tok, formats[i]))
			break;
	if (i == sizeof(formats) / sizeof(formats[0]))
		return fail(L, L->tok_line, "input_format: '%s' is not an AIPP input format",
			    L->tok);
	if (i > 4)
		return fail(L, L->tok_line, "input_format: %s is not supported by vnpu's AIPP (YUV420SP_U8, XRGB8888_U8, RGB888_U8 and YUV400_U8 are)",
			    L->tok);
	*fmt = (uint32_t)i;
	return 0;
}

/* Keys, each with a bit in a block's "seen" set. */
enum key_kind { K_MODE, K_RANK, K_FORMAT, K_MAXSRC, K_BOOL, K_INT, K_FLOAT,
		K_FALSE_ONLY };

struct key {
	const char *name;
	enum key_kind kind;
	size_t off;		/* into struct drm_vnpu_aipp_params */
	int size;		/* of the field: 1, 2 or 4 */
	long lo, hi;
	int index;		/* for floats: which channel; -1: all */
	int dynamic_ok;
};

#define P(f) offsetof(struct drm_vnpu_aipp_params, f)
#define I32(name, f, lo, hi) { name, K_INT, P(f), 4, lo, hi, 0, 0 }
#define S16(name, f) { name, K_INT, P(f), 2, -32768, 32767, 0, 0 }
#define U8(name, f) { name, K_INT, P(f), 1, 0, 255, 0, 0 }
#define SW(name, f) { name, K_BOOL, P(f), 1, 0, 1, 0, 0 }
#define FL(name, f, i) { name, K_FLOAT, P(f), 4, 0, 0, i, 0 }

static const struct key keys[] = {
	{ "aipp_mode", K_MODE, 0, 0, 0, 0, 0, 1 },
	{ "related_input_rank", K_RANK, 0, 0, 0, OM_MAX_IO - 1, 0, 1 },
	{ "max_src_image_size", K_MAXSRC, 0, 0, 1, 8192L * 8192 * 4, 0, 1 },
	{ "support_rotation", K_FALSE_ONLY, 0, 0, 0, 0, 0, 1 },
	{ "single_line_mode", K_FALSE_ONLY, 0, 0, 0, 0, 0, 0 },
	{ "input_format", K_FORMAT, 0, 0, 0, 0, 0, 0 },
	I32("src_image_size_w", src_w, 0, 8192),
	I32("src_image_size_h", src_h, 0, 8192),
	SW("crop", crop_switch),
	I32("load_start_pos_w", crop_x, 0, 8191),
	I32("load_start_pos_h", crop_y, 0, 8191),
	I32("crop_size_w", crop_w, 0, 8192),
	I32("crop_size_h", crop_h, 0, 8192),
	SW("resize", scf_switch),
	I32("resize_output_w", scf_w, 0, 8192),
	I32("resize_output_h", scf_h, 0, 8192),
	SW("padding", pad_switch),
	I32("left_padding_size", pad_left, 0, 8192),
	I32("right_padding_size", pad_right, 0, 8192),
	I32("top_padding_size", pad_top, 0, 8192),
	I32("bottom_padding_size", pad_bottom, 0, 8192),
	FL("padding_value", pad_value, -1),
	SW("csc_switch", csc_switch),
	SW("rbuv_swap_switch", rbuv_swap),
	SW("ax_swap_switch", ax_swap),
	S16("matrix_r0c0", csc_matrix[0]), S16("matrix_r0c1", csc_matrix[1]),
	S16("matrix_r0c2", csc_matrix[2]), S16("matrix_r1c0", csc_matrix[3]),
	S16("matrix_r1c1", csc_matrix[4]), S16("matrix_r1c2", csc_matrix[5]),
	S16("matrix_r2c0", csc_matrix[6]), S16("matrix_r2c1", csc_matrix[7]),
	S16("matrix_r2c2", csc_matrix[8]),
	U8("output_bias_0", csc_out_bias[0]), U8("output_bias_1", csc_out_bias[1]),
	U8("output_bias_2", csc_out_bias[2]),
	U8("input_bias_0", csc_in_bias[0]), U8("input_bias_1", csc_in_bias[1]),
	U8("input_bias_2", csc_in_bias[2]),
	S16("mean_chn_0", mean[0]), S16("mean_chn_1", mean[1]),
	S16("mean_chn_2", mean[2]), S16("mean_chn_3", mean[3]),
	FL("min_chn_0", min, 0), FL("min_chn_1", min, 1),
	FL("min_chn_2", min, 2), FL("min_chn_3", min, 3),
	FL("var_reci_chn_0", var_reci, 0), FL("var_reci_chn_1", var_reci, 1),
	FL("var_reci_chn_2", var_reci, 2), FL("var_reci_chn_3", var_reci, 3),
};

#define NKEYS (sizeof(keys) / sizeof(keys[0]))

/* CANN's defaults for a switched-on matrix (insert_op.proto). */
static const int16_t csc_default[9] = { 298, 516, 0, 298, -100, -208,
					298, 0, 409 };
static const uint8_t bias_default[3] = { 16, 128, 128 };

struct block {
	struct compile_aipp *a;
	uint8_t seen[NKEYS];
	int mode_line;
};

static const struct key *find_key(const char *name)
{
	size_t i;

	for (i = 0; i < NKEYS; i++)
		if (!strcmp(keys[i].name, name))
			return &keys[i];
	return NULL;
}

static void store(void *base, const struct key *k, long v)
{
	uint8_t *f = (uint8_t *)base + k->off;
	int8_t i8 = (int8_t)v;
	int16_t i16 = (int16_t)v;
	int32_t i32 = (int32_t)v;

	if (k->size == 1)
		memcpy(f, &i8, 1);
	else if (k->size == 2)
		memcpy(f, &i16, 2);
	else
		memcpy(f, &i32, 4);
}

static int value(struct lexer *L, struct block *B, const struct key *k)
{
	struct compile_aipp *a = B->a;
	uint32_t *fl = (uint32_t *)((uint8_t *)&a->p + k->off);
	int8_t b;
	long v;
	float f = 0;
	int c;

	switch (k->kind) {
	case K_MODE:
		if (!strcmp(L->tok, "static"))
			a->mode = OM_AIPP_STATIC;
		else if (!strcmp(L->tok, "dynamic"))
			a->mode = OM_AIPP_DYNAMIC;
		else
			return fail(L, L->tok_line, "aipp_mode: '%s' is not static or dynamic",
				    L->tok);
		B->mode_line = L->tok_line;
		return 0;
	case K_RANK:
		if (parse_int(L, k->name, k->lo, k->hi, &v))
			return -1;
		a->input = (int)v;
		return 0;
	case K_MAXSRC:
		if (parse_int(L, k->name, k->lo, k->hi, &v))
			return -1;
		a->max_src_size = v;
		return 0;
	case K_FALSE_ONLY:
		if (parse_bool(L, k->name, &b))
			return -1;
		if (b)
			return fail(L, L->tok_line, "%s: true is not supported by vnpu's AIPP",
				    k->name);
		return 0;
	case K_FORMAT:
		return parse_format(L, &a->p.input_format);
	case K_BOOL:
		if (parse_bool(L, k->name, &b))
			return -1;
		store(&a->p, k, b);
		return 0;
	case K_INT:
		if (parse_int(L, k->name, k->lo, k->hi, &v))
			return -1;
		store(&a->p, k, v);
		return 0;
	default:		/* K_FLOAT */
		if (parse_float(L, k->name, &f))
			return -1;
		if (k->index >= 0)
			fl[k->index] = fbits(f);
		else
			for (c = 0; c < 4; c++)
				fl[c] = fbits(f);
		return 0;
	}
}

/* The defaults of keys left out, and the rules between keys. */
static int finish_block(struct lexer *L, struct block *B, int line)
{
	struct compile_aipp *a = B->a;
	size_t i;
	int c;

	a->line = line;
	if (!a->mode)
		return fail(L, line, "aipp_op needs aipp_mode (static or dynamic)");
	if (a->mode == OM_AIPP_DYNAMIC) {
		for (i = 0; i < NKEYS; i++)
			if (B->seen[i] && !keys[i].dynamic_ok)
				return fail(L, line, "%s is not allowed with aipp_mode: dynamic (the program sets it with aclmdlSetAIPP*)",
					    keys[i].name);
		if (!a->max_src_size)
			return fail(L, line, "aipp_mode: dynamic needs max_src_image_size");
		memset(&a->p, 0, sizeof(a->p));
		return 0;
	}
	if (B->seen[find_key("max_src_image_size") - keys])
		return fail(L, line, "max_src_image_size is only for aipp_mode: dynamic");
	if (!a->p.input_format)
		return fail(L, line, "aipp_mode: static needs input_format");
	for (c = 0; c < 4; c++)
		if (!B->seen[find_key("var_reci_chn_0") - keys + c])
			a->p.var_reci[c] = fbits(1.0f);
	if (a->p.csc_switch) {
		for (c = 0; c < 9; c++)
			if (!B->seen[find_key("matrix_r0c0") - keys + c])
				a->p.csc_matrix[c] = csc_default[c];
		for (c = 0; c < 3; c++) {
			if (!B->seen[find_key("output_bias_0") - keys + c])
				a->p.csc_out_bias[c] = bias_default[c];
			if (!B->seen[find_key("input_bias_0") - keys + c])
				a->p.csc_in_bias[c] = bias_default[c];
		}
	}
	return 0;
}

static int parse_block(struct lexer *L, struct compile_aipp *a)
{
	struct block B;
	int line = L->tok_line;
	const struct key *k;

	memset(&B, 0, sizeof(B));
	memset(a, 0, sizeof(*a));
	B.a = a;
	for (;;) {
		if (next(L) < 0)
			return -1;
		if (!L->tok[0])
			return fail(L, line, "aipp_op has no closing '}'");
		if (!strcmp(L->tok, "}"))
			return finish_block(L, &B, line);
		k = find_key(L->tok);
		if (!k)
			return fail(L, L->tok_line, "unknown key '%s' in aipp_op",
				    L->tok);
		if (B.seen[k - keys]++)
			return fail(L, L->tok_line, "%s is given twice", k->name);
		if (next(L) < 0)
			return -1;
		if (strcmp(L->tok, ":"))
			return fail(L, L->tok_line, "%s needs ': value'", k->name);
		if (next(L) < 0)
			return -1;
		if (!L->tok[0] || strchr("{}:", L->tok[0]))
			return fail(L, L->tok_line, "%s needs a value", k->name);
		if (value(L, &B, k))
			return -1;
	}
}

int aipp_cfg_parse(const char *text, struct compile_aipp *out, int max,
		   char *err, size_t errlen)
{
	struct lexer L = { .p = text, .line = 1, .err = err, .errlen = errlen };
	int n = 0, i;

	for (;;) {
		if (next(&L) < 0)
			return -1;
		if (!L.tok[0])
			break;
		if (strcmp(L.tok, "aipp_op"))
			return fail(&L, L.tok_line, "'%s': only aipp_op blocks are supported",
				    L.tok);
		if (next(&L) < 0)
			return -1;
		if (!strcmp(L.tok, ":") && next(&L) < 0)
			return -1;
		if (strcmp(L.tok, "{"))
			return fail(&L, L.tok_line, "aipp_op needs '{'");
		if (n == max)
			return fail(&L, L.tok_line, "more than %d aipp_op blocks", max);
		if (parse_block(&L, &out[n]))
			return -1;
		for (i = 0; i < n; i++)
			if (out[i].input == out[n].input)
				return fail(&L, out[n].line, "aipp_op blocks %d and %d are both for input %d",
					    i + 1, n + 1, out[n].input);
		if (out[n].mode == OM_AIPP_DYNAMIC)
			for (i = 0; i < n; i++)
				if (out[i].mode == OM_AIPP_DYNAMIC)
					return fail(&L, out[n].line, "only one aipp_op block may be dynamic");
		n++;
	}
	if (!n)
		return fail(&L, L.line, "no aipp_op block");
	return n;
}

int aipp_cfg_load(const char *path, struct compile_aipp *out, int max,
		  char *err, size_t errlen)
{
	char *text, msg[512];
	size_t n;
	FILE *f;
	int ret;

	f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "--insert_op_conf=%s: %s", path,
			 strerror(errno));
		return -1;
	}
	text = malloc(CFG_MAX_BYTES + 1);
	n = text ? fread(text, 1, CFG_MAX_BYTES + 1, f) : 0;
	fclose(f);
	if (!text || n > CFG_MAX_BYTES || memchr(text, 0, n)) {
		snprintf(err, errlen, "--insert_op_conf=%s: %s", path,
			 !text ? "out of memory" : n > CFG_MAX_BYTES ?
			 "larger than 1 MiB" : "not a text file");
		free(text);
		return -1;
	}
	text[n] = 0;
	ret = aipp_cfg_parse(text, out, max, msg, sizeof(msg));
	if (ret < 0)
		snprintf(err, errlen, "--insert_op_conf=%s: %s", path, msg);
	free(text);
	return ret;
}
