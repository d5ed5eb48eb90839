/* SPDX-License-Identifier: MIT */
/* Shared by the aclmdlRI entry points. */
#ifndef VNPU_API_MDL_RI_H
#define VNPU_API_MDL_RI_H

#include "acl/acl.h"
#include "../core/graph.h"

/* Check a graph handle; on failure the message is recorded. */
aclError mdl_graph_arg(const char *func, aclmdlRI ri, struct rt_graph **g);

#endif /* VNPU_API_MDL_RI_H */
