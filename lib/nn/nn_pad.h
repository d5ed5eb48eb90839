/* SPDX-License-Identifier: MIT */
/* The driver's PAD task, shared by ConstantPadNd and the 2-D paddings. */
#ifndef VNPU_NN_PAD_H
#define VNPU_NN_PAD_H

#include "nn_ops_common.h"

/* PAD's modes (ints[16]). */
enum nn_pad_mode { NN_PAD_CONSTANT = 0, NN_PAD_REFLECT = 1, NN_PAD_EDGE = 2 };

/*
 * self padded into out by one PAD task. p holds npairs (before, after)
 * pairs from self's last dim backwards (PyTorch's order, npairs <= rank,
 * checked by the caller with its own message); each pair must suit its
 * dim in the mode, and out must have self's dtype and the padded shape.
 * at comes with the caller's floats (the constant), ints are set here.
 * Reported as func.
 */
aclnnStatus nn_pad_task(const char *func, const aclTensor *self,
			const int64_t *p, uint64_t npairs, aclTensor *out,
			enum nn_pad_mode mode, struct drm_vnpu_op_attrs *at,
			uint64_t *workspaceSize, aclOpExecutor **executor);

#endif /* VNPU_NN_PAD_H */
