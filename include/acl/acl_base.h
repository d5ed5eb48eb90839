/*
 * acl/acl_base.h - umbrella for the basic ACL types: runtime base types,
 * tensor descriptions and both error-code tables.
 */
#ifndef VNPU_ACL_ACL_BASE_H
#define VNPU_ACL_ACL_BASE_H

#include "acl_base_rt.h"
#include "acl_base_mdl.h"
#include "error_codes/rt_error_codes.h"
#include "error_codes/ge_error_codes.h"

#endif /* VNPU_ACL_ACL_BASE_H */
