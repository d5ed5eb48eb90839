// SPDX-License-Identifier: MIT
/*
 * The operators atc compiles, in one table: adding an operator is one line
 * (its inference, its host evaluation if any, what it refuses). Also the
 * check that lists every node the compiler cannot handle in one message.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "infer_util.h"
#include "ir_gradient.h"

/* An attribute string other than the ones allowed (NULL: absent is ok). */
static const char *refuse_str(const struct ir_node *n, const char *name,
			      const char *const *ok, char *buf, size_t len)
{
	const struct ir_attr *a = ir_attr(n, name);
	int i;

	if (!a || !a->s)
		return NULL;
	for (i = 0; ok[i]; i++)
		if (!strcmp(a->s, ok[i]))
			return NULL;
	snprintf(buf, len, "%s=%s", name, a->s);
	return buf;
}

static const char *refuse_window(const struct ir_node *n, char *buf, size_t len)
{
	static const char *const pads[] = {
		"NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID", NULL,
	};

	return refuse_str(n, "auto_pad", pads, buf, len);
}

static const char *refuse_conv_transpose(const struct ir_node *n, char *buf,
					 size_t len)
{
	return refuse_window(n, buf, len);
}

static const char *refuse_pad(const struct ir_node *n, char *buf, size_t len)
{
	static const char *const modes[] = {
		"constant", "reflect", "edge", NULL,
	};

	return refuse_str(n, "mode", modes, buf, len);
}

static const char *refuse_resize(const struct ir_node *n, char *buf, size_t len)
{
	static const char *const modes[] = { "nearest", "linear", "cubic", NULL };
	static const char *const coords[] = {
		"half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric",
		"tf_half_pixel_for_nn", "tf_crop_and_resize", NULL,
	};
	static const char *const rounding[] = {
		"round_prefer_floor", "round_prefer_ceil", "floor", "ceil", NULL,
	};
	const char *r = refuse_str(n, "mode", modes, buf, len);

	if (r)
		return r;
	r = refuse_str(n, "nearest_mode", rounding, buf, len);
	return r ? r : refuse_str(n, "coordinate_transformation_mode", coords,
				  buf, len);
}

static const char *refuse_upsample(const struct ir_node *n, char *buf,
				   size_t len)
{
	static const char *const modes[] = { "nearest", "linear", NULL };

	return refuse_str(n, "mode", modes, buf, len);
}

static const char *refuse_maxpool(const struct ir_node *n, char *buf, size_t len)
{
	return refuse_window(n, buf, len);
}

static const char *refuse_grid_sample(const struct ir_node *n, char *buf,
				      size_t len)
{
	static const char *const modes[] = { "bilinear", "nearest", "bicubic", NULL };
	static const char *const pads[] = { "zeros", "border", "reflection", NULL };
	const char *r = refuse_str(n, "mode", modes, buf, len);

	return r ? r : refuse_str(n, "padding_mode", pads, buf, len);
}

static const char *refuse_roi_align(const struct ir_node *n, char *buf,
				    size_t len)
{
	static const char *const modes[] = { "avg", "max", NULL };
	static const char *const coords[] = { "half_pixel", "output_half_pixel", NULL };
	const char *r = refuse_str(n, "mode", modes, buf, len);

	return r ? r : refuse_str(n, "coordinate_transformation_mode", coords,
				  buf, len);
}

static const char *refuse_depth_space(const struct ir_node *n, char *buf,
				      size_t len)
{
	static const char *const modes[] = { "DCR", "CRD", NULL };

	return refuse_str(n, "mode", modes, buf, len);
}

static const char *refuse_gelu(const struct ir_node *n, char *buf, size_t len)
{
	static const char *const approx[] = { "none", "tanh", NULL };

	return refuse_str(n, "approximate", approx, buf, len);
}

/*
 * StringNormalizer's case tables are the default locale's (lib/aicpu/
 * aicpu_strnorm.c); a locale with other rules (Turkish i) is refused.
 */
static const char *refuse_locale(const struct ir_node *n, char *buf, size_t len)
{
	static const char *const locales[] = {
		"", "C", "C.UTF-8", "POSIX", "en_US", "en_US.UTF-8", "en_GB",
		"en_GB.UTF-8", NULL,
	};
	static const char *const actions[] = { "NONE", "LOWER", "UPPER", NULL };
	const char *r = refuse_str(n, "locale", locales, buf, len);

	return r ? r : refuse_str(n, "case_change_action", actions, buf, len);
}

#define ANY 64
const struct ir_op ir_ops[] = {
	/* op_type	infer	fold	refuse	min max lowered fold_on_shape */
	{ "Abs", infer_same, fold_elementwise, NULL, 1, 1, true, false },
	{ "Acos", infer_unary_float, NULL, NULL, 1, 1, true, false },
	{ "Acosh", infer_unary_float, NULL, NULL, 1, 1, true, false },
	{ "Adagrad", infer_optimizer, NULL, NULL, 5, ANY, true, false },
	{ "Adam", infer_optimizer, NULL, NULL, 6, ANY, true, false },
	{ "Add", infer_binary, fold_elementwise, NULL, 2, 2, true, false },
	{ "And", infer_logical, NULL, NULL, 2, 2, true, false },
	{ "ArgMax", infer_argreduce, NULL, NULL, 1, 1, true, false },
	{ "ArgMin", infer_argreduce, NULL, NULL, 1, 1, true, false },
	{ "Asin", infer_unary_float, NULL, NULL, 1, 1, true, false },
	{ "Asinh", infer_unary_float, NULL, NULL, 1, 1, true, false },
	{ "Atan", infer_unary_float, NULL, NULL, 1, 1, true, false },
	{ "Atanh", infer_unary_float, NULL, NULL, 1, 1, true, false },
	{ "AveragePool", infer_pool, NULL, refuse_window, 1, 1, true, false },
	{ "BatchNormalization", infer_batchnorm, NULL, NULL, 5, 5, true, false },
	{ "BitShift", infer_bitshift, NULL, NULL, 2, 2, true, false },
	{ "BlackmanWindow", infer_window, NULL, NULL, 1, 1, true, false },
	{ "Cast", infer_cast, fold_cast, NULL, 1, 1, true, false },
	{ "CastLike", infer_castlike, NULL, NULL, 2, 2, true, false },
	{ "Ceil", infer_unary_float, NULL, NULL, 1, 1, true, false },
	{ "Celu", infer_unary_float, NULL, NULL, 1, 1, true, false },
	{ "Clip", infer_clip, NULL, NULL, 1, 3, true, false },
	{ "Compress", infer_compress, NULL, NULL, 2, 2, true, false },
	{ "Concat", infer_concat, fold_concat, NULL, 1, ANY, true, false },
	{ "ConcatFromSequence", ir_sequence_unresolved, NULL, NULL, 1, 1, false, false },
	{ "Constant", infer_constant, fold_constant, NULL, 0, 0, false, false },
	{ "ConstantOfShape", infer_constant_of_shape, fold_constant_of_shape, NULL, 1, 1, false, false },
	{ "Conv", infer_conv, NULL, refuse_window, 2, 3, true, false },
	{ "ConvInteger", infer_conv, NULL, refuse_window, 2, 4, true, false },
	{ "ConvTranspose", infer_conv_transpose, NULL, refuse_conv_transpose, 2, 3, true, false },
	{ "Cos", infer_unary_float, NULL, NULL, 1, 1, true, false },
	{ "Cosh", infer_unary_float, NULL, NULL, 1, 1, true, false },
	{ "CumSum", infer_cumsum, NULL, NULL, 2, 2, true, false },
	{ "DFT", infer_dft, NULL, NULL, 1, 2, true, false },
	{ "DepthToSpace", infer_depth_space, NULL, refuse_depth_space, 1, 1, true, false },
	{ "DequantizeLinear", infer_dequantize, NULL, NULL, 2, 3, true, false },
	{ "Det", infer_det, NULL, NULL, 1, 1, true, false },
	{ "Div", infer_binary, fold_elementwise, NULL, 2, 2, true, false },
	{ "Dropout", infer_dropout, fold_copy, NULL, 1, 3, true, false },
	{ "DynamicQuantizeLinear", infer_dynamic_quantize, NULL, NULL, 1, 1, true, false },
	{ "Einsum", infer_einsum, NULL, NULL, 1, 8, true, false },
	{ "Elu", infer_unary_float, NULL, NULL, 1, 1, true, false },
	{ "Equal", infer_compare, fold_elementwise, NULL, 2, 2, true, false },
	{ "Erf", infer_unary_float, fold_elementwise, NULL, 1, 1, true, false },
	{ "Exp", infer_unary_float, fold_elementwise, NULL, 1, 1, true, false },
	{ "Expand", infer_expand, fold_expand, NULL, 2, 2, true, false },
	{ "EyeLike", infer_eye_like, fold_eye_like, NULL, 1, 1, false, true },
	{ "Flatten", infer_flatten, fold_copy, NULL, 1, 1, true, false },
	{ "Floor", infer_unary_float, NULL, NULL, 1, 1, true, false },
	{ "GRU", infer_rnn, NULL, NULL, 3, 6, true, false },
	{ "Gather", infer_gather, fold_gather, NULL, 2, 2, true, false },
	{ "GatherElements", infer_gather_elements, NULL, NULL, 2, 2, true, false },
	{ "GatherND", infer_gather_nd, NULL, NULL, 2, 2, true, false },
	{ "Gelu", infer_unary_float, NULL, refuse_gelu, 1, 1, true, false },
	{ "Gemm", infer_gemm, NULL, NULL, 2, 3, true, false },
	{ "GlobalAveragePool", infer_global_pool, NULL, NULL, 1, 1, true, false },
	{ "GlobalMaxPool", infer_global_pool, NULL, NULL, 1, 1, true, false },
	{ "Gradient", ir_gradient_unresolved, NULL, NULL, 1, ANY, false, false },
	{ "Greater", infer_compare, fold_elementwise, NULL, 2, 2, true, false },
	{ "GreaterOrEqual", infer_compare, NULL, NULL, 2, 2, true, false },
	{ "GridSample", infer_grid_sample, NULL, refuse_grid_sample, 2, 2, true, false },
	{ "HammingWindow", infer_window, NULL, NULL, 1, 1, true, false },
	{ "HannWindow", infer_window, NULL, NULL, 1, 1, true, false },
	{ "HardSigmoid", infer_unary_float, NULL, NULL, 1, 1, true, false },
	{ "HardSwish", infer_unary_float, NULL, NULL, 1, 1, true, false },
	{ "Hardmax", infer_hardmax, NULL, NULL, 1, 1, true, false },
	{ "Identity", infer_same, fold_copy, NULL, 1, 1, true, false },
	{ "InstanceNormalization", infer_instancenorm, NULL, NULL, 3, 3, true, false },
	{ "IsInf", infer_float_test, NULL, NULL, 1, 1, true, false },
	{ "IsNaN", infer_float_test, NULL, NULL, 1, 1, true, false },
	{ "LRN", infer_lrn, NULL, NULL, 1, 1, true, false },
	{ "LSTM", infer_rnn, NULL, NULL, 3, 8, true, false },
	{ "LayerNormalization", infer_layernorm, NULL, NULL, 2, 3, true, false },
	{ "LeakyRelu", infer_unary_float, NULL, NULL, 1, 1, true, false },
	{ "Less", infer_compare, fold_elementwise, NULL, 2, 2, true, false },
	{ "LessOrEqual", infer_compare, NULL, NULL, 2, 2, true, false },
	{ "Log", infer_unary_float, fold_elementwise, NULL, 1, 1, true, false },
	{ "LogSoftmax", infer_softmax, NULL, NULL, 1, 1, true, false },
	{ "MatMul", infer_matmul, NULL, NULL, 2, 3, true, false },
	{ "MatMulInteger", infer_matmul_integer, NULL, NULL, 2, 4, true, false },
	{ "Max", infer_variadic, fold_elementwise, NULL, 1, 8, true, false },
	{ "MaxPool", infer_pool, NULL, refuse_maxpool, 1, 1, true, false },
	{ "MaxUnpool", infer_max_unpool, NULL, NULL, 2, 3, true, false },
	{ "Mean", infer_mean, NULL, NULL, 1, 8, true, false },
	{ "MeanVarianceNormalization", infer_mvn, NULL, NULL, 1, 1, true, false },
	{ "MelWeightMatrix", infer_melweight, NULL, NULL, 5, 5, true, false },
	{ "Min", infer_variadic, fold_elementwise, NULL, 1, 8, true, false },
	{ "Mod", infer_mod, NULL, NULL, 2, 2, true, false },
	{ "Momentum", infer_optimizer, NULL, NULL, 5, ANY, true, false },
	{ "Mul", infer_binary, fold_elementwise, NULL, 2, 2, true, false },
	{ "Neg", infer_same, fold_elementwise, NULL, 1, 1, true, false },
	{ "NegativeLogLikelihoodLoss", infer_nll_loss, NULL, NULL, 2, 3, true, false },
	{ "NonMaxSuppression", infer_nms, NULL, NULL, 2, 5, true, false },
	{ "NonZero", infer_nonzero, NULL, NULL, 1, 1, true, false },
	{ "Not", infer_not, fold_elementwise, NULL, 1, 1, true, false },
	{ "OneHot", infer_one_hot, NULL, NULL, 3, 3, true, false },
	{ "Or", infer_logical, NULL, NULL, 2, 2, true, false },
	{ "PRelu", infer_prelu, NULL, NULL, 2, 2, true, false },
	{ "Pad", infer_pad, NULL, refuse_pad, 1, 4, true, false },
	{ "Pow", infer_binary, fold_elementwise, NULL, 2, 2, true, false },
	{ "QLinearConv", infer_conv, NULL, refuse_window, 8, 9, true, false },
	{ "QLinearMatMul", infer_matmul_integer, NULL, NULL, 8, 8, true, false },
	{ "QuantizeLinear", infer_quantize, NULL, NULL, 2, 3, true, false },
	{ "RNN", infer_rnn, NULL, NULL, 3, 6, true, false },
	{ "Range", infer_range, fold_range, NULL, 3, 3, false, false },
	{ "Reciprocal", infer_unary_float, fold_elementwise, NULL, 1, 1, true, false },
	{ "ReduceL1", infer_reduce, NULL, NULL, 1, 2, true, false },
	{ "ReduceL2", infer_reduce, NULL, NULL, 1, 2, true, false },
	{ "ReduceLogSum", infer_reduce, NULL, NULL, 1, 2, true, false },
	{ "ReduceLogSumExp", infer_reduce, NULL, NULL, 1, 2, true, false },
	{ "ReduceMax", infer_reduce, NULL, NULL, 1, 2, true, false },
	{ "ReduceMean", infer_reduce, NULL, NULL, 1, 2, true, false },
	{ "ReduceMin", infer_reduce, NULL, NULL, 1, 2, true, false },
	{ "ReduceProd", infer_reduce, NULL, NULL, 1, 2, true, false },
	{ "ReduceSum", infer_reduce, NULL, NULL, 1, 2, true, false },
	{ "ReduceSumSquare", infer_reduce, NULL, NULL, 1, 2, true, false },
	{ "Relu", infer_same, fold_elementwise, NULL, 1, 1, true, false },
	{ "Reshape", infer_reshape, fold_copy, NULL, 2, 2, true, false },
	{ "Resize", infer_resize, NULL, refuse_resize, 1, 4, true, false },
	{ "ReverseSequence", infer_reverse_sequence, NULL, NULL, 2, 2, true, false },
	{ "RoiAlign", infer_roi_align, NULL, refuse_roi_align, 3, 3, true, false },
	{ "Round", infer_unary_float, NULL, NULL, 1, 1, true, false },
	{ "STFT", infer_stft, NULL, NULL, 2, 4, true, false },
	{ "Scatter", infer_scatter_elements, NULL, NULL, 3, 3, true, false },
	{ "ScatterElements", infer_scatter_elements, NULL, NULL, 3, 3, true, false },
	{ "ScatterND", infer_scatter_nd, NULL, NULL, 3, 3, true, false },
	{ "Selu", infer_unary_float, NULL, NULL, 1, 1, true, false },
	{ "SequenceAt", ir_sequence_unresolved, NULL, NULL, 2, 2, false, false },
	{ "SequenceConstruct", ir_sequence_unresolved, NULL, NULL, 1, ANY, false, false },
	{ "SequenceEmpty", ir_sequence_unresolved, NULL, NULL, 0, 0, false, false },
	{ "SequenceErase", ir_sequence_unresolved, NULL, NULL, 1, 2, false, false },
	{ "SequenceInsert", ir_sequence_unresolved, NULL, NULL, 2, 3, false, false },
	{ "SequenceLength", ir_sequence_unresolved, NULL, NULL, 1, 1, false, false },
	{ "Shape", infer_shape, fold_shape, NULL, 1, 1, false, true },
	{ "Shrink", infer_unary_float, NULL, NULL, 1, 1, true, false },
	{ "Sigmoid", infer_unary_float, fold_elementwise, NULL, 1, 1, true, false },
	{ "Sign", infer_same, NULL, NULL, 1, 1, true, false },
	{ "Sin", infer_unary_float, NULL, NULL, 1, 1, true, false },
	{ "Sinh", infer_unary_float, NULL, NULL, 1, 1, true, false },
	{ "Size", infer_size, fold_size, NULL, 1, 1, false, true },
	{ "Slice", infer_slice, fold_slice, NULL, 1, 5, true, false },
	{ "Softmax", infer_softmax, NULL, NULL, 1, 1, true, false },
	{ "SoftmaxCrossEntropyLoss", infer_sce_loss, NULL, NULL, 2, 3, true, false },
	{ "Softplus", infer_unary_float, NULL, NULL, 1, 1, true, false },
	{ "Softsign", infer_unary_float, NULL, NULL, 1, 1, true, false },
	{ "SpaceToDepth", infer_depth_space, NULL, NULL, 1, 1, true, false },
	{ "Split", infer_split, NULL, NULL, 1, 2, true, false },
	{ "SplitToSequence", ir_sequence_unresolved, NULL, NULL, 1, 2, false, false },
	{ "Sqrt", infer_unary_float, fold_elementwise, NULL, 1, 1, true, false },
	{ "Squeeze", infer_squeeze, fold_copy, NULL, 1, 2, true, false },
	{ "StringNormalizer", infer_strnorm, NULL, refuse_locale, 1, 1, true, false },
	{ "Sub", infer_binary, fold_elementwise, NULL, 2, 2, true, false },
	{ "Sum", infer_variadic, NULL, NULL, 1, 8, true, false },
	{ "Tan", infer_unary_float, NULL, NULL, 1, 1, true, false },
	{ "Tanh", infer_unary_float, fold_elementwise, NULL, 1, 1, true, false },
	{ "TfIdfVectorizer", infer_tfidf, NULL, NULL, 1, 1, true, false },
	{ "ThresholdedRelu", infer_unary_float, NULL, NULL, 1, 1, true, false },
	{ "Tile", infer_tile, NULL, NULL, 2, 2, true, false },
	{ "TopK", infer_topk, NULL, NULL, 2, 2, true, false },
	{ "Transpose", infer_transpose, fold_transpose, NULL, 1, 1, true, false },
	{ "Trilu", infer_trilu, NULL, NULL, 1, 2, true, false },
	{ "Unique", infer_unique, NULL, NULL, 1, 1, true, false },
	{ "Unsqueeze", infer_unsqueeze, fold_copy, NULL, 1, 2, true, false },
	{ "Upsample", infer_resize, NULL, refuse_upsample, 1, 2, true, false },
	{ "Where", infer_where, fold_where, NULL, 3, 3, true, false },
	{ "Xor", infer_logical, NULL, NULL, 2, 2, true, false },
};
const size_t ir_nops = sizeof(ir_ops) / sizeof(ir_ops[0]);

const struct ir_op *ir_op_find(const char *op_type)
{
	size_t i;

	for (i = 0; i < ir_nops; i++)
		if (!strcmp(ir_ops[i].op_type, op_type))
			return &ir_ops[i];
	return NULL;
}

/*
 * The default domain; the training optimizers also come from
 * ai.onnx.preview.training (their only domain).
 */
bool ir_op_domain_ok(const struct ir_node *n, const struct ir_op *op)
{
	if (!n->domain[0] || !strcmp(n->domain, "ai.onnx"))
		return true;
	return op && (op->infer == infer_optimizer ||
		      op->infer == ir_gradient_unresolved) &&
	       !strcmp(n->domain, "ai.onnx.preview.training");
}

/* Why node n cannot be compiled ("Loop", "Resize mode=cubic"), or NULL. */
static const char *why_not(const struct ir_node *n, bool lowered_only,
			   char *buf, size_t len)
{
	const struct ir_op *op = ir_op_find(n->op_type);
	char attr[128];
	const char *r;

	if (!ir_op_domain_ok(n, op)) {
		snprintf(buf, len, "%s (domain %s)", n->op_type, n->domain);
		return buf;
	}
	if (!op) {
		snprintf(buf, len, "%s", n->op_type);
		return buf;
	}
	if (op->refuse && (r = op->refuse(n, attr, sizeof(attr)))) {
		snprintf(buf, len, "%s %s", n->op_type, r);
		return buf;
	}
	if (lowered_only && !op->lowered) {
		snprintf(buf, len, "%s (not constant after folding)", n->op_type);
		return buf;
	}
	return NULL;
}

int ir_check_supported(const struct ir_graph *g, bool lowered_only,
		       char *msg, size_t len)
{
	char why[256], other[256];
	size_t off;
	int i, j, count = 0;
	bool *done = calloc((size_t)g->nnodes + 1, 1);

	if (!done)
		return snprintf(msg, len, "atc: out of memory"), -1;
	off = (size_t)snprintf(msg, len, "atc: unsupported operators: ");
	/* one group per reason, the nodes of each in graph order */
	for (i = 0; i < g->nnodes; i++) {
		bool first_group = !count;
		int in_group = 0;

		if (done[i] || g->nodes[i].dead ||
		    !why_not(&g->nodes[i], lowered_only, why, sizeof(why)))
			continue;
		for (j = i; j < g->nnodes; j++) {
			if (g->nodes[j].dead || done[j] ||
			    !why_not(&g->nodes[j], lowered_only, other, sizeof(other)) ||
			    strcmp(why, other))
				continue;
			done[j] = true;
			count++;
			if (off < len)
				off += (size_t)snprintf(msg + off, len - off, "%s%s",
							in_group++ ? ", " :
							first_group ? "" : "); ",
							"");
			if (in_group == 1 && off < len)
				off += (size_t)snprintf(msg + off, len - off,
							"%s (nodes: ", why);
			if (off < len)
				off += (size_t)snprintf(msg + off, len - off, "%s",
							g->nodes[j].name);
		}
	}
	if (count && off < len)
		snprintf(msg + off, len - off, ")");
	if (!count && len)
		msg[0] = '\0';
	free(done);
	return count;
}
