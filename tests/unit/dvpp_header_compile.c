// SPDX-License-Identifier: MIT
/*
 * acl/ops/acl_dvpp.h compiled as ISO C11 (-std=c11 -pedantic -Werror)
 * the way a CMake project builds it: ENABLE_DVPP_INTERFACE comes from the
 * command line (add_definitions(-DENABLE_DVPP_INTERFACE)), not from the
 * source. Checks the enumerators' values against CANN's header and the
 * types of typical calls; the calls stay in unevaluated contexts (sizeof,
 * _Generic), so the program needs no library.
 */
#include <stdio.h>

#include "acl/acl.h"
#include "acl/ops/acl_dvpp.h"

#ifndef ENABLE_DVPP_INTERFACE
#error "the build is expected to define ENABLE_DVPP_INTERFACE"
#endif

#define IS_TYPE(expr, type) _Generic((expr), type: 1, default: 0)

_Static_assert(PIXEL_FORMAT_YUV_400 == 0, "YUV_400");
_Static_assert(PIXEL_FORMAT_YUV_SEMIPLANAR_420 == 1, "NV12");
_Static_assert(PIXEL_FORMAT_YVU_SEMIPLANAR_420 == 2, "NV21");
_Static_assert(PIXEL_FORMAT_YUV_PACKED_444 == 11, "YUV_PACKED_444");
_Static_assert(PIXEL_FORMAT_RGB_888 == 12 && PIXEL_FORMAT_BGR_888 == 13, "RGB/BGR 888");
_Static_assert(PIXEL_FORMAT_BGRA_8888 == 17, "BGRA_8888");
_Static_assert(PIXEL_FORMAT_YVU_PLANAR_420 == 20 && PIXEL_FORMAT_YVU_PLANAR_444 == 22, "planar");
_Static_assert(PIXEL_FORMAT_BGRA_1555 == 36 && PIXEL_FORMAT_BGRA_8565 == 40, "1555 / 8565");
_Static_assert(PIXEL_FORMAT_RGB_BAYER_8BPP == 50 && PIXEL_FORMAT_RGB_BAYER_16BPP == 54, "bayer");
_Static_assert(PIXEL_FORMAT_BGR_888_PLANAR == 70 && PIXEL_FORMAT_S64C1 == 84, "70..84");
_Static_assert(PIXEL_FORMAT_YUV_SEMIPLANAR_440 == 1000 && PIXEL_FORMAT_BUTT == 1003, "1000..1003");
_Static_assert(PIXEL_FORMAT_UNKNOWN == 10000, "UNKNOWN");
_Static_assert(H265_MAIN_LEVEL == 0 && H264_HIGH_LEVEL == 3, "acldvppStreamFormat");
_Static_assert(DVPP_CHNMODE_VPC == 1 && DVPP_CHNMODE_JPEGD == 2 && DVPP_CHNMODE_JPEGE == 4 &&
               DVPP_CHNMODE_PNGD == 8, "acldvppChannelMode");
_Static_assert(BORDER_CONSTANT == 0 && BORDER_REFLECT_101 == 3, "acldvppBorderType");
_Static_assert(ACL_VENC_THREAD_ID_UINT64 == 0 && ACL_VENC_BUF_ADDR_PTR == 7 &&
               ACL_VENC_MAX_IP_PROP_UINT32 == 12, "aclvencChannelDescParamType");
_Static_assert(ACL_JPEG_CSS_444 == 0 && ACL_JPEG_CSS_411 == 5 && ACL_JPEG_CSS_UNKNOWN == 1000,
               "acldvppJpegFormat");
_Static_assert(ACL_DVPP_CSC_MATRIX_UINT32 == 0 && ACL_DVPP_CHANNEL_ID_UINT64 == 2 &&
               ACL_DVPP_JPEGD_PRECISION_MODE_ENUM == 5, "acldvppChannelDescParamType");
_Static_assert(ACL_VDEC_CSC_MATRIX_UINT32 == 0 && ACL_VDEC_CALLBACK_PTR == 3 &&
               ACL_VDEC_BIT_DEPTH_UINT32 == 10, "aclvdecChannelDescParamType");
_Static_assert(ACL_DVPP_CSC_MATRIX_BT601_WIDE == 0 && ACL_DVPP_CSC_MATRIX_BT2020_NARROW == 5,
               "acldvppCscMatrix");
_Static_assert(ACL_YUVOUT_ALIGN_DOWN == 0 && ACL_YUVOUT_ALIGN_DOWN_COMPAT == 2,
               "acldvppJpegdPrecisionMode");

static void on_frame(acldvppStreamDesc *in, acldvppPicDesc *out, void *user)
{
    (void)in;
    (void)out;
    (void)user;
}

int main(void)
{
    acldvppChannelDesc *chan = NULL;
    acldvppPicDesc *pic = NULL;
    acldvppBatchPicDesc *batch = NULL;
    acldvppRoiConfig *rois[2] = {NULL, NULL};
    acldvppBorderConfig *borders[2] = {NULL, NULL};
    acldvppResizeConfig *rsz = NULL;
    acldvppJpegeConfig *jpege = NULL;
    acldvppHist *hist = NULL;
    aclvdecChannelDesc *vdec = NULL;
    aclvencFrameConfig *vencf = NULL;
    uint32_t nums[1] = {2}, w = 0, h = 0, sz = 0;
    int32_t comps = 0;
    acldvppJpegFormat jfmt = ACL_JPEG_CSS_420;
    uint32_t *hdata = NULL;
    uint16_t hlen = 0;
    void *dev = NULL;
    aclrtStream stream = NULL;
    int ok = 1;

    ok &= IS_TYPE(acldvppMalloc(&dev, 1024), aclError);
    ok &= IS_TYPE(acldvppCreateChannelDesc(), acldvppChannelDesc *);
    ok &= IS_TYPE(acldvppGetChannelDescChannelId(chan), uint64_t);
    ok &= IS_TYPE(acldvppCreatePicDesc(), acldvppPicDesc *);
    ok &= IS_TYPE(acldvppGetPicDescData(pic), void *);
    ok &= IS_TYPE(acldvppGetPicDescFormat(pic), acldvppPixelFormat);
    ok &= IS_TYPE(acldvppSetPicDescFormat(pic, PIXEL_FORMAT_YUV_SEMIPLANAR_420), aclError);
    ok &= IS_TYPE(acldvppGetPicDesc(batch, 0), acldvppPicDesc *);
    ok &= IS_TYPE(acldvppCreateRoiConfig(0, 15, 0, 15), acldvppRoiConfig *);
    ok &= IS_TYPE(acldvppGetResizeConfigInterpolation(rsz), uint32_t);
    ok &= IS_TYPE(acldvppGetJpegeConfigLevel(jpege), uint32_t);
    ok &= IS_TYPE(acldvppGetBorderConfigValue(borders[0], 0), double);
    ok &= IS_TYPE(acldvppGetBorderConfigBorderType(borders[0]), acldvppBorderType);
    ok &= IS_TYPE(acldvppGetHistData(hist, 0, &hdata, &hlen), aclError);
    ok &= IS_TYPE(acldvppVpcBatchCropResizeMakeBorderAsync(chan, batch, nums, 1, batch, rois, borders,
                                                           rsz, stream), aclError);
    ok &= IS_TYPE(acldvppJpegGetImageInfoV2(dev, 4, &w, &h, &comps, &jfmt), aclError);
    ok &= IS_TYPE(acldvppJpegPredictDecSize(dev, 4, PIXEL_FORMAT_YUV_SEMIPLANAR_420, &sz), aclError);
    ok &= IS_TYPE(aclvdecSetChannelDescCallback(vdec, on_frame), aclError);
    ok &= IS_TYPE(aclvdecGetChannelDescCallback(vdec), aclvdecCallback);
    ok &= IS_TYPE(aclvdecGetChannelDescEnType(vdec), acldvppStreamFormat);
    ok &= IS_TYPE(aclvencGetFrameConfigEos(vencf), uint8_t);
    ok &= IS_TYPE(acldvppGetStreamDescTimestamp(NULL), uint64_t);

    printf("%s 1 - acl/ops/acl_dvpp.h builds as C11 with -DENABLE_DVPP_INTERFACE; "
           "values and call types match CANN\n", ok ? "ok" : "not ok");
    return ok ? 0 : 1;
}
