/* SPDX-License-Identifier: MIT */
/*
 * streams_events: two streams ordered by an event. Stream A copies 64 MiB
 * device -> device between two timing events; stream B waits for A's end
 * event (aclrtStreamWaitEvent) and then copies the result back to the host.
 * Prints the copy's elapsed time and checks the data.
 */
#include <stdint.h>
#include <stdlib.h>

#include "common.h"

#define SIZE (64u << 20)

int main(void)
{
	aclrtStream a, b;
	aclrtEvent start, end;
	void *src, *dst;
	uint32_t *host;
	size_t i, n = SIZE / 4, bad = 0;
	float ms;

	CHECK(aclInit(NULL));
	CHECK(aclrtSetDevice(0));
	CHECK(aclrtCreateStream(&a));
	CHECK(aclrtCreateStream(&b));
	CHECK(aclrtCreateEvent(&start));
	CHECK(aclrtCreateEvent(&end));
	printf("created 2 streams and 2 events on device 0\n");

	host = malloc(SIZE);
	if (!host)
		return 1;
	for (i = 0; i < n; i++)
		host[i] = (uint32_t)i * 2654435761u;
	CHECK(aclrtMalloc(&src, SIZE, ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK(aclrtMalloc(&dst, SIZE, ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK(aclrtMemcpy(src, SIZE, host, SIZE, ACL_MEMCPY_HOST_TO_DEVICE));

	/* Stream A: start event, 64 MiB device -> device copy, end event. */
	CHECK(aclrtRecordEvent(start, a));
	CHECK(aclrtMemcpyAsync(dst, SIZE, src, SIZE, ACL_MEMCPY_DEVICE_TO_DEVICE, a));
	CHECK(aclrtRecordEvent(end, a));
	/* Stream B: wait for A's copy, then copy the result back. */
	CHECK(aclrtStreamWaitEvent(b, end));
	for (i = 0; i < n; i++)
		host[i] = 0;
	CHECK(aclrtMemcpyAsync(host, SIZE, dst, SIZE, ACL_MEMCPY_DEVICE_TO_HOST, b));
	CHECK(aclrtSynchronizeStream(b));
	printf("stream B waited on stream A's event and copied the result back\n");

	CHECK(aclrtSynchronizeEvent(end));
	CHECK(aclrtEventElapsedTime(&ms, start, end));
	printf("64 MiB device -> device copy on stream A: %.3f ms (%.2f GiB/s)\n",
	       ms, ms > 0 ? 64.0 / 1024 / (ms / 1000) : 0.0);

	for (i = 0; i < n; i++)
		if (host[i] != (uint32_t)i * 2654435761u)
			bad++;
	printf("check: %zu of %zu words differ\n", bad, n);

	CHECK(aclrtFree(src));
	CHECK(aclrtFree(dst));
	CHECK(aclrtDestroyEvent(start));
	CHECK(aclrtDestroyEvent(end));
	CHECK(aclrtDestroyStream(a));
	CHECK(aclrtDestroyStream(b));
	CHECK(aclrtResetDevice(0));
	CHECK(aclFinalize());
	free(host);
	printf("%s\n", bad ? "FAILED" : "OK");
	return bad ? 1 : 0;
}
