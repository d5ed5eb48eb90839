/* SPDX-License-Identifier: MIT */
/* What the allocators hand out (aclrtGetMemUsageInfo). */
#include "rt_objects.h"

void alloc_usage(struct rt_device *dev, uint64_t used[2], uint64_t peak[2])
{
	pthread_mutex_lock(&dev->lock);
	used[0] = dev->dev_used;
	peak[0] = dev->dev_peak;
	used[1] = dev->host_used;
	peak[1] = dev->host_peak;
	pthread_mutex_unlock(&dev->lock);
}
