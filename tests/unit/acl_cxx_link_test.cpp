// SPDX-License-Identifier: MIT
// A C++ program as CANN samples write them, linked against the CANN
// library names (-lascendcl -lnnopbase -lopapi): the headers must work in
// C++ and all three names must resolve to libacl.
#include <cstdio>
#include <cstdlib>

#include "acl/acl.h"

int main()
{
    setenv("VNPU_ACCEL_DIR", "/nonexistent-accel-dir", 1);
    aclDataType dt = aclDataType::ACL_FLOAT;
    if (dt != ACL_FLOAT || ACL_FLOAT16 != 1) {
        std::printf("not ok 1 - aclDataType in C++\n");
        return 1;
    }
    std::printf("ok 1 - aclDataType in C++\n");

    aclError ret = aclInit(nullptr);
    std::printf("%s 2 - aclInit(nullptr) through libascendcl\n",
                ret == ACL_SUCCESS ? "ok" : "not ok");
    int32_t major = 0, minor = 0, patch = 0;
    aclError vret = aclrtGetVersion(&major, &minor, &patch);
    bool vok = vret == ACL_SUCCESS && major == 1 && minor == 17 && patch == 0;
    std::printf("%s 3 - aclrtGetVersion is 1.17.0\n", vok ? "ok" : "not ok");
    aclError fret = aclFinalize();
    std::printf("%s 4 - aclFinalize\n", fret == ACL_SUCCESS ? "ok" : "not ok");
    return (ret == ACL_SUCCESS && vok && fret == ACL_SUCCESS) ? 0 : 1;
}
