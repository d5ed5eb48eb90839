// SPDX-License-Identifier: GPL-2.0-only
/*
 * vnpu: tracepoint definitions.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#define CREATE_TRACE_POINTS
#include "vnpu_trace.h"
