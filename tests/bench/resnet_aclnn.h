/* SPDX-License-Identifier: MIT */
/*
 * ResNet-18 (batch 1, a square image of hw pixels, 224 for the real
 * thing, BatchNorm folded into the convolutions' bias) issued op by op through aclnn calls: the path an application
 * takes without an offline model. 48 operators per inference: 20
 * aclnnConvolution, 17 aclnnRelu, 8 aclnnAdd, aclnnMaxPool2d,
 * aclnnAdaptiveAvgPool2d and aclnnAddmm. The weights are constant (the
 * benchmark measures what issuing costs, not the values).
 */
#ifndef VNPU_BENCH_RESNET_ACLNN_H
#define VNPU_BENCH_RESNET_ACLNN_H

#include <stdint.h>

#include "acl/acl.h"

struct resnet_aclnn;

/* Allocates the weights and activations on the current device; hw is a
 * multiple of 32. */
struct resnet_aclnn *resnet_aclnn_create(int64_t hw);
/* Issues one inference on stream s; 0 or the first failing status. */
int resnet_aclnn_issue(struct resnet_aclnn *r, aclrtStream s);
/* Operators one inference issues. */
int resnet_aclnn_ops(const struct resnet_aclnn *r);
void resnet_aclnn_destroy(struct resnet_aclnn *r);

#endif /* VNPU_BENCH_RESNET_ACLNN_H */
