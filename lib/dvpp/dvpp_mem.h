/* SPDX-License-Identifier: MIT */
/* DVPP memory (dvpp_mem.c): which device buffers the media calls accept. */
#ifndef VNPU_DVPP_MEM_H
#define VNPU_DVPP_MEM_H

#include <stdint.h>

struct rt_device;

/* The largest acldvppMalloc: 4 GiB, more than any 16384 x 16384 picture. */
#define DVPP_MEM_MAX (4ull << 30)

/* What acldvppMalloc(size) takes: size rounded up to 32, plus 32. */
uint64_t dvpp_mem_size(uint64_t size);

/*
 * 0 when [p, p + len) lies in one live acldvppMalloc block; -ENOENT when
 * p is in none, -ERANGE when the range runs past its block's end.
 */
int dvpp_mem_check(const void *p, uint64_t len);

/* Forget every block (aclFinalize, a fork's child). */
void dvpp_mem_forget_all(void);

#endif /* VNPU_DVPP_MEM_H */
