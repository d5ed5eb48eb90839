/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Fixed-width types and macros for the operator library, host flavour:
 * the names the kernel uses, from the C library's <stdint.h>.
 */
#ifndef __VNPU_OPS_TYPES_H__
#define __VNPU_OPS_TYPES_H__

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define BIT(n) (1UL << (n))
#define BIT_ULL(n) (1ULL << (n))
#ifndef __always_inline
#define __always_inline inline __attribute__((always_inline))
#define noinline __attribute__((__noinline__))
#define __maybe_unused __attribute__((__unused__))
#endif

#endif /* __VNPU_OPS_TYPES_H__ */
