/* SPDX-License-Identifier: MIT */
/*
 * The SoC every vnpu device presents itself as. CANN clients pick code
 * paths by it (ggml's build takes the chip from "npu-smi info" and
 * defines ASCEND_910B), so aclrtGetSocName and tools/npu-smi both read
 * it from here. The 910B3 is the part whose operator set vnpu follows.
 */
#ifndef VNPU_CORE_SOC_H
#define VNPU_CORE_SOC_H

#define VNPU_CHIP_NAME	"910B3"
#define VNPU_SOC_NAME	"Ascend" VNPU_CHIP_NAME

#endif
