// SPDX-License-Identifier: MIT
//
// acl/ops/acl_dvpp.h compiled as C++11 (-std=c++11 -Wall -Wextra -Werror)
// the way sample headers include it: the source defines
// ENABLE_DVPP_INTERFACE itself just before the include. Checks values with
// static_assert and type-checks JPEG-decode / resize / VDEC code written
// as CANN's C++ samples write it. That code sits in a function template
// that is never instantiated, so the program needs no library.
#include <cstdio>
#include <cstdint>
#include <type_traits>

#include "acl/acl.h"
#ifndef ENABLE_DVPP_INTERFACE
#define ENABLE_DVPP_INTERFACE
#endif
#include "acl/ops/acl_dvpp.h"

static_assert(acldvppPixelFormat::PIXEL_FORMAT_YVU_SEMIPLANAR_420 == 2, "scoped enumerator use");
static_assert(PIXEL_FORMAT_RGB_888 == 12 && PIXEL_FORMAT_UNKNOWN == 10000, "pixel formats");
static_assert(DVPP_CHNMODE_PNGD == 8, "channel modes");
static_assert(ACL_VDEC_OUT_PIC_FORMAT_UINT32 == 6 && ACL_VENC_RC_MODE_UINT32 == 9, "param types");
static_assert(std::is_same<decltype(&acldvppGetPicDescFormat),
                           acldvppPixelFormat (*)(const acldvppPicDesc *)>::value, "GetPicDescFormat");
static_assert(std::is_same<decltype(&acldvppVpcCropAndPasteAsync),
                           aclError (*)(acldvppChannelDesc *, acldvppPicDesc *, acldvppPicDesc *,
                                        acldvppRoiConfig *, acldvppRoiConfig *, aclrtStream)>::value,
              "VpcCropAndPasteAsync");
static_assert(std::is_same<aclvdecCallback,
                           void (*)(acldvppStreamDesc *, acldvppPicDesc *, void *)>::value, "aclvdecCallback");

// A template too, so that its calls need no library either.
template <typename Unused>
void VdecCallback(acldvppStreamDesc *input, acldvppPicDesc *output, void *userData)
{
    void *vdecOutBufferDev = acldvppGetPicDescData(output);
    (void)acldvppFree(vdecOutBufferDev);
    (void)acldvppDestroyPicDesc(output);
    (void)acldvppDestroyStreamDesc(input);
    (void)userData;
}

// Sample-style code; checked at definition, never instantiated.
template <typename Unused>
aclError sample_program(Unused)
{
    aclrtStream stream = nullptr;
    acldvppChannelDesc *dvppChannelDesc = acldvppCreateChannelDesc();
    aclError ret = acldvppCreateChannel(dvppChannelDesc);

    // JPEG decode: image info, predicted size, decode, read back the strides.
    const void *hostJpeg = nullptr;
    uint32_t jpegSize = 0, width = 0, height = 0, decSize = 0;
    int32_t components = 0;
    ret = acldvppJpegGetImageInfoV2(hostJpeg, jpegSize, &width, &height, &components, nullptr);
    ret = acldvppJpegPredictDecSize(hostJpeg, jpegSize, PIXEL_FORMAT_YUV_SEMIPLANAR_420, &decSize);
    void *decodeOut = nullptr;
    ret = acldvppMalloc(&decodeOut, decSize);
    acldvppPicDesc *decodeOutputDesc = acldvppCreatePicDesc();
    acldvppSetPicDescData(decodeOutputDesc, decodeOut);
    acldvppSetPicDescFormat(decodeOutputDesc, PIXEL_FORMAT_YUV_SEMIPLANAR_420);
    acldvppSetPicDescWidth(decodeOutputDesc, width);
    acldvppSetPicDescHeight(decodeOutputDesc, height);
    acldvppSetPicDescWidthStride(decodeOutputDesc, (width + 127) / 128 * 128);
    acldvppSetPicDescHeightStride(decodeOutputDesc, (height + 15) / 16 * 16);
    acldvppSetPicDescSize(decodeOutputDesc, decSize);
    ret = acldvppJpegDecodeAsync(dvppChannelDesc, decodeOut, jpegSize, decodeOutputDesc, stream);
    ret = aclrtSynchronizeStream(stream);
    uint32_t outWidthStride = acldvppGetPicDescWidthStride(decodeOutputDesc);

    // Resize into a model's input.
    acldvppResizeConfig *resizeConfig = acldvppCreateResizeConfig();
    ret = acldvppSetResizeConfigInterpolation(resizeConfig, 1);
    acldvppPicDesc *resizeOutputDesc = acldvppCreatePicDesc();
    acldvppSetPicDescFormat(resizeOutputDesc, static_cast<acldvppPixelFormat>(1));
    ret = acldvppVpcResizeAsync(dvppChannelDesc, decodeOutputDesc, resizeOutputDesc, resizeConfig, stream);
    acldvppRoiConfig *cropArea = acldvppCreateRoiConfig(0, outWidthStride - 1, 0, height - 1);
    ret = acldvppVpcCropAsync(dvppChannelDesc, decodeOutputDesc, resizeOutputDesc, cropArea, stream);

    // Batch crop: one source, two areas.
    acldvppBatchPicDesc *src = acldvppCreateBatchPicDesc(1);
    acldvppBatchPicDesc *dst = acldvppCreateBatchPicDesc(2);
    acldvppPicDesc *first = acldvppGetPicDesc(dst, 0);
    acldvppSetPicDescRetCode(first, 0);
    uint32_t roiNums[] = {2};
    acldvppRoiConfig *cropAreas[2] = {cropArea, cropArea};
    ret = acldvppVpcBatchCropAsync(dvppChannelDesc, src, roiNums, 1, dst, cropAreas, stream);

    // Video decode channel, as the vdec samples set it up.
    aclvdecChannelDesc *vdecChannelDesc = aclvdecCreateChannelDesc();
    ret = aclvdecSetChannelDescChannelId(vdecChannelDesc, 10);
    ret = aclvdecSetChannelDescThreadId(vdecChannelDesc, 0);
    ret = aclvdecSetChannelDescCallback(vdecChannelDesc, VdecCallback<Unused>);
    ret = aclvdecSetChannelDescEnType(vdecChannelDesc, static_cast<acldvppStreamFormat>(2));
    ret = aclvdecSetChannelDescOutPicFormat(vdecChannelDesc, static_cast<acldvppPixelFormat>(1));
    ret = aclvdecCreateChannel(vdecChannelDesc);
    acldvppStreamDesc *streamInputDesc = acldvppCreateStreamDesc();
    ret = acldvppSetStreamDescEos(streamInputDesc, 1);
    aclvdecFrameConfig *frameConfig = aclvdecCreateFrameConfig();
    ret = aclvdecSendFrame(vdecChannelDesc, streamInputDesc, nullptr, frameConfig, nullptr);
    ret = aclvdecDestroyFrameConfig(frameConfig);
    ret = aclvdecDestroyChannel(vdecChannelDesc);
    ret = aclvdecDestroyChannelDesc(vdecChannelDesc);

    (void)acldvppDestroyBatchPicDesc(src);
    (void)acldvppDestroyBatchPicDesc(dst);
    (void)acldvppDestroyRoiConfig(cropArea);
    (void)acldvppDestroyResizeConfig(resizeConfig);
    (void)acldvppDestroyPicDesc(resizeOutputDesc);
    (void)acldvppDestroyPicDesc(decodeOutputDesc);
    (void)acldvppFree(decodeOut);
    ret = acldvppDestroyChannel(dvppChannelDesc);
    return ret == ACL_SUCCESS ? acldvppDestroyChannelDesc(dvppChannelDesc) : ret;
}

int main()
{
    acldvppPixelFormat fmt = PIXEL_FORMAT_YUV_SEMIPLANAR_420;
    int failures = fmt == 1 ? 0 : 1;
    std::printf("%s 1 - acl/ops/acl_dvpp.h builds as C++11 when the source defines "
                "ENABLE_DVPP_INTERFACE; sample-style code type-checks\n", failures ? "not ok" : "ok");
    return failures;
}
