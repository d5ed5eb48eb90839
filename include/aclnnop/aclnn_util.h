/*
 * aclnnop/aclnn_util.h - export marker for aclnn operator entry points.
 */
#ifndef VNPU_ACLNNOP_ACLNN_UTIL_H
#define VNPU_ACLNNOP_ACLNN_UTIL_H

#ifndef ACLNN_API
#if defined(_MSC_VER)
#define ACLNN_API __declspec(dllexport)
#else
#define ACLNN_API __attribute__((visibility("default")))
#endif
#endif

#endif /* VNPU_ACLNNOP_ACLNN_UTIL_H */
