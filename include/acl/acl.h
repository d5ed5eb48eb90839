/*
 * acl/acl.h - single include for applications: runtime, single-operator and
 * offline-model interfaces.
 */
#ifndef VNPU_ACL_ACL_H
#define VNPU_ACL_ACL_H

#include "acl_rt.h"
#include "acl_op.h"
#include "acl_mdl.h"

#endif /* VNPU_ACL_ACL_H */
