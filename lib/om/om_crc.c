// SPDX-License-Identifier: MIT
/*
 * CRC-32 as zlib computes it (reflected polynomial 0xEDB88320, initial
 * and final inversion), so a section's checksum can be checked with any
 * zlib. A small table built on first use; no dependency.
 */
#include <pthread.h>

#include "om_read.h"

static uint32_t table[256];
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static void table_build(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;

		for (int k = 0; k < 8; k++)
			c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
		table[i] = c;
	}
}

uint32_t om_crc32(uint32_t crc, const void *p, size_t n)
{
	const uint8_t *b = p;

	pthread_once(&table_once, table_build);
	crc = ~crc;
	while (n--)
		crc = table[(crc ^ *b++) & 0xff] ^ (crc >> 8);
	return ~crc;
}
