/* SPDX-License-Identifier: MIT */
/* DVPP's hooks into the runtime's lifecycle (dvpp_lifecycle.c). */
#ifndef VNPU_DVPP_LIFECYCLE_H
#define VNPU_DVPP_LIFECYCLE_H

/* Called by aclInit before the runtime starts. */
void dvpp_lifecycle_register(void);

#endif /* VNPU_DVPP_LIFECYCLE_H */
