/* SPDX-License-Identifier: MIT */
/*
 * memory: device and memory management. Selects device 0, allocates device
 * memory, copies a buffer host -> device, sets part of it with aclrtMemset,
 * copies it back and checks it, and reports the device's free memory before,
 * during and after. (aclrtMalloc carves small buffers out of 64 MiB
 * device chunks, so the free figure drops by a chunk, not by 4 MiB.)
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

#define SIZE (4u << 20)

int main(void)
{
	size_t free0, free1, free2, total;
	uint8_t *host, *back;
	void *dev;
	size_t i, bad = 0;

	CHECK(aclInit(NULL));
	CHECK(aclrtSetDevice(0));
	printf("set device 0\n");
	CHECK(aclrtGetMemInfo(ACL_HBM_MEM, &free0, &total));
	printf("device memory: %zu MiB free of %zu MiB\n", free0 >> 20, total >> 20);

	CHECK(aclrtMalloc(&dev, SIZE, ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK(aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total));
	printf("aclrtMalloc %u MiB: free now %zu MiB (%zu KiB less)\n", SIZE >> 20,
	       free1 >> 20, (free0 - free1) >> 10);

	host = malloc(SIZE);
	back = malloc(SIZE);
	if (!host || !back)
		return 1;
	for (i = 0; i < SIZE; i++)
		host[i] = (uint8_t)(i * 7 + 1);
	CHECK(aclrtMemcpy(dev, SIZE, host, SIZE, ACL_MEMCPY_HOST_TO_DEVICE));
	printf("copied %u MiB host -> device\n", SIZE >> 20);
	/* Set the second half to 0xab. */
	CHECK(aclrtMemset((uint8_t *)dev + SIZE / 2, SIZE / 2, 0xab, SIZE / 2));
	printf("aclrtMemset second half to 0xab\n");
	CHECK(aclrtMemcpy(back, SIZE, dev, SIZE, ACL_MEMCPY_DEVICE_TO_HOST));
	printf("copied %u MiB device -> host\n", SIZE >> 20);
	for (i = 0; i < SIZE; i++) {
		uint8_t want = i < SIZE / 2 ? host[i] : 0xab;

		if (back[i] != want)
			bad++;
	}
	printf("check: %zu of %u bytes differ\n", bad, SIZE);

	CHECK(aclrtFree(dev));
	CHECK(aclrtGetMemInfo(ACL_HBM_MEM, &free2, &total));
	/* Small allocations come from 64 MiB chunks the library keeps until
	 * aclrtResetDevice, and the kernel counts a kept chunk as used. */
	printf("aclrtFree: free now %zu MiB%s\n", free2 >> 20,
	       free2 == free0 ? " (as before)" :
	       " (the library keeps its 64 MiB chunk until reset)");
	CHECK(aclrtResetDevice(0));
	CHECK(aclFinalize());
	free(host);
	free(back);
	printf("%s\n", bad ? "FAILED" : "OK");
	return bad ? 1 : 0;
}
