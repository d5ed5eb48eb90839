/* SPDX-License-Identifier: MIT */
/* Shared by the aclmdlRI entry points. */
#ifndef VNPU_API_MDL_RI_H
#define VNPU_API_MDL_RI_H

#include "acl/acl.h"
#include "../core/graph.h"

/* Check a graph handle; on failure the message is recorded. */
aclError mdl_graph_arg(const char *func, aclmdlRI ri, struct rt_graph **g);
/* Both arguments of a call on a graph and a stream (@required: no NULL). */
aclError mdl_graph_stream_args(const char *func, aclmdlRI ri,
			       aclrtStream stream, bool required,
			       struct rt_graph **g, struct rt_stream **s);

#endif /* VNPU_API_MDL_RI_H */
