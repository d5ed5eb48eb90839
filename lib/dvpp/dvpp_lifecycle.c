// SPDX-License-Identifier: MIT
/*
 * What DVPP keeps across calls (the acldvppMalloc blocks, video decode
 * channels) goes at aclFinalize, and a fork's child forgets the parent's.
 */
#include "../core/lifecycle.h"
#include "dvpp_lifecycle.h"
#include "dvpp_mem.h"
#include "dvpp_vdec.h"

static void dvpp_teardown(void)
{
	vdec_teardown();
	dvpp_mem_forget_all();
}

static void dvpp_after_fork(void)
{
	vdec_forget_after_fork();
	dvpp_mem_forget_all();
}

static const struct rt_lifecycle dvpp_lifecycle = {
	.name = "dvpp",
	.after_fork = dvpp_after_fork,
	.teardown = dvpp_teardown,
};

void dvpp_lifecycle_register(void)
{
	rt_lifecycle_register(&dvpp_lifecycle);
}
