/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * What host programs using the operator library share: the CPU features,
 * found the way the module finds them (it uses boot_cpu_has()).
 */
#ifndef __VNPU_OPS_HOST_H__
#define __VNPU_OPS_HOST_H__

#include <stdio.h>
#include <string.h>

#include "vnpu_ops.h"

static inline u32 vnpu_ops_host_cpu(void)
{
	u32 f = 0;

	__builtin_cpu_init();
	if (__builtin_cpu_supports("sse2"))
		f |= VNPU_CPU_SSE2;
	if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
		f |= VNPU_CPU_AVX2_FMA;
	if (__builtin_cpu_supports("avx512f") &&
	    __builtin_cpu_supports("avx512bw") &&
	    __builtin_cpu_supports("avx512vl"))
		f |= VNPU_CPU_AVX512;
	if (__builtin_cpu_supports("f16c"))
		f |= VNPU_CPU_F16C;
	return f;
}

/*
 * The features the loaded module's operators use: the host's, capped by
 * the unit the module reports in /sys/module/vnpu/parameters/simd (its
 * simd=auto probe may have chosen a narrower one). A test comparing the
 * device with this library bit for bit must compute with these.
 */
static inline u32 vnpu_ops_module_cpu(void)
{
	u32 f = vnpu_ops_host_cpu();
	char unit[16] = "";
	FILE *p = fopen("/sys/module/vnpu/parameters/simd", "r");

	if (p) {
		if (!fgets(unit, sizeof(unit), p))
			unit[0] = 0;
		fclose(p);
	}
	if (!strncmp(unit, "avx2", 4))
		f &= ~VNPU_CPU_AVX512;
	else if (!strncmp(unit, "sse2", 4))
		f &= ~(VNPU_CPU_AVX512 | VNPU_CPU_AVX2_FMA);
	return f;
}

#endif /* __VNPU_OPS_HOST_H__ */
