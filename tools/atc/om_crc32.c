// SPDX-License-Identifier: MIT
/*
 * CRC-32 as zlib and PNG compute it (polynomial 0xEDB88320 reflected,
 * initial and final XOR 0xFFFFFFFF), one table lookup per byte. The
 * table is built on first use: 256 entries, no dependency.
 */
#include "om_build.h"

static uint32_t table[256];
static int table_ready;

static void build_table(void)
{
	uint32_t i, k, c;

	for (i = 0; i < 256; i++) {
		c = i;
		for (k = 0; k < 8; k++)
			c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
		table[i] = c;
	}
	table_ready = 1;
}

uint32_t om_crc32(uint32_t crc, const void *data, size_t n)
{
	const uint8_t *p = data;

	if (!table_ready)
		build_table();
	crc = ~crc;
	while (n--)
		crc = table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}
