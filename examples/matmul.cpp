// SPDX-License-Identifier: MIT
// matmul: aclnnMatmul written the way CANN's C++ samples are. Multiplies a
// [M, K] by a [K, N] float matrix on the device and compares the result
// with a host reference, printing the largest absolute error.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_matmul.h"

#define CHECK(expr)                                                         \
    do {                                                                    \
        auto ret_ = (expr);                                                 \
        if (ret_ != 0) {                                                    \
            const char *msg_ = aclGetRecentErrMsg();                        \
            std::printf("%s failed, ERROR: %d\n%s\n", #expr,                \
                        static_cast<int>(ret_), msg_ ? msg_ : "");          \
            return 1;                                                       \
        }                                                                   \
    } while (0)

static int64_t ShapeSize(const std::vector<int64_t> &shape)
{
    int64_t n = 1;
    for (auto d : shape)
        n *= d;
    return n;
}

// Allocate device memory for hostData, copy it there and describe it.
static int CreateAclTensor(const std::vector<float> &hostData, const std::vector<int64_t> &shape,
                           void **deviceAddr, aclDataType dataType, aclTensor **tensor)
{
    auto size = ShapeSize(shape) * sizeof(float);
    CHECK(aclrtMalloc(deviceAddr, size, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemcpy(*deviceAddr, size, hostData.data(), size, ACL_MEMCPY_HOST_TO_DEVICE));
    std::vector<int64_t> strides(shape.size(), 1);
    for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; i--)
        strides[i] = shape[i + 1] * strides[i + 1];
    *tensor = aclCreateTensor(shape.data(), shape.size(), dataType, strides.data(), 0,
                              aclFormat::ACL_FORMAT_ND, shape.data(), shape.size(), *deviceAddr);
    return *tensor ? 0 : 1;
}

int main()
{
    const int64_t M = 64, K = 48, N = 32;
    int32_t deviceId = 0;
    aclrtStream stream = nullptr;
    CHECK(aclInit(nullptr));
    CHECK(aclrtSetDevice(deviceId));
    CHECK(aclrtCreateStream(&stream));

    std::vector<int64_t> selfShape = {M, K}, mat2Shape = {K, N}, outShape = {M, N};
    std::vector<float> selfHost(M * K), mat2Host(K * N), outHost(M * N, 0.0f);
    uint32_t seed = 12345;
    auto rnd = [&seed]() {
        seed = seed * 1664525u + 1013904223u;
        return static_cast<float>(seed >> 8) / 16777216.0f * 2.0f - 1.0f;
    };
    for (auto &v : selfHost)
        v = rnd();
    for (auto &v : mat2Host)
        v = rnd();

    void *selfDev = nullptr, *mat2Dev = nullptr, *outDev = nullptr;
    aclTensor *self = nullptr, *mat2 = nullptr, *out = nullptr;
    CHECK(CreateAclTensor(selfHost, selfShape, &selfDev, aclDataType::ACL_FLOAT, &self));
    CHECK(CreateAclTensor(mat2Host, mat2Shape, &mat2Dev, aclDataType::ACL_FLOAT, &mat2));
    CHECK(CreateAclTensor(outHost, outShape, &outDev, aclDataType::ACL_FLOAT, &out));

    uint64_t workspaceSize = 0;
    aclOpExecutor *executor = nullptr;
    CHECK(aclnnMatmulGetWorkspaceSize(self, mat2, out, 1, &workspaceSize, &executor));
    void *workspace = nullptr;
    if (workspaceSize > 0)
        CHECK(aclrtMalloc(&workspace, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclnnMatmul(workspace, workspaceSize, executor, stream));
    CHECK(aclrtSynchronizeStream(stream));
    std::printf("aclnnMatmul [%ld x %ld] x [%ld x %ld] -> [%ld x %ld], workspace %lu bytes\n",
                static_cast<long>(M), static_cast<long>(K), static_cast<long>(K),
                static_cast<long>(N), static_cast<long>(M), static_cast<long>(N),
                static_cast<unsigned long>(workspaceSize));

    CHECK(aclrtMemcpy(outHost.data(), outHost.size() * sizeof(float), outDev,
                      outHost.size() * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST));
    double maxErr = 0.0;
    for (int64_t i = 0; i < M; i++) {
        for (int64_t j = 0; j < N; j++) {
            double ref = 0.0;
            for (int64_t k = 0; k < K; k++)
                ref += static_cast<double>(selfHost[i * K + k]) * mat2Host[k * N + j];
            maxErr = std::fmax(maxErr, std::fabs(ref - outHost[i * N + j]));
        }
    }
    bool ok = maxErr < 1e-4;
    std::printf("max abs error vs host reference: %.3g (%s)\n", maxErr, ok ? "OK" : "FAILED");

    aclDestroyTensor(self);
    aclDestroyTensor(mat2);
    aclDestroyTensor(out);
    aclrtFree(selfDev);
    aclrtFree(mat2Dev);
    aclrtFree(outDev);
    if (workspace)
        aclrtFree(workspace);
    CHECK(aclrtDestroyStream(stream));
    CHECK(aclrtResetDevice(deviceId));
    CHECK(aclFinalize());
    return ok ? 0 : 1;
}
