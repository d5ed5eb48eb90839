// SPDX-License-Identifier: GPL-2.0-only
/* Placeholder: being written (allocation failure injection). */
#include "kselftest_harness.h"

TEST_HARNESS_MAIN
