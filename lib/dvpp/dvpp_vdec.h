/* SPDX-License-Identifier: MIT */
/* Video decode channels (dvpp_vdec.c). */
#ifndef VNPU_DVPP_VDEC_H
#define VNPU_DVPP_VDEC_H

/* aclFinalize: every channel still open is closed (frames dropped). */
void vdec_teardown(void);
/* A fork's child: the parent's channels and their threads are not ours. */
void vdec_forget_after_fork(void);

#endif /* VNPU_DVPP_VDEC_H */
