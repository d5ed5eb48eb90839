// SPDX-License-Identifier: MIT
/*
 * ACL API tests of initialisation and device discovery on the real driver:
 * aclInit/aclFinalize and their repeat-call codes, aclrtGetDeviceCount,
 * aclrtGetVersion, aclGetRecentErrMsg. Each TEST runs in its own process,
 * so every test starts uninitialised. Runs in the VM with vnpu.ko loaded.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <unistd.h>

#include "acl/acl.h"
#include "kselftest_harness.h"

static long module_param(const char *name)
{
	char path[128];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/module/vnpu/parameters/%s", name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

/* Write text to a new temporary file and return its path (static). */
static const char *temp_config(const char *text)
{
	static char path[] = "/tmp/acl_cfg_XXXXXX";
	int fd;

	strcpy(path, "/tmp/acl_cfg_XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		return NULL;
	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text)) {
		close(fd);
		return NULL;
	}
	close(fd);
	return path;
}

TEST(init_finalize)
{
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclFinalize());
	/* The cycle can be repeated. */
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclFinalize());
}

TEST(init_twice_repeat_initialize)
{
	const char *msg;

	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	EXPECT_EQ(ACL_ERROR_REPEAT_INITIALIZE, aclInit(NULL));
	/*
	 * As on CANN, a repeated aclInit is logged, not reported: no
	 * message is left for aclGetRecentErrMsg, so the next real error's
	 * message is not buried under it.
	 */
	msg = aclGetRecentErrMsg();
	EXPECT_EQ(NULL, msg) TH_LOG("message: %s", msg);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtGetDeviceCount(NULL));
	msg = aclGetRecentErrMsg();
	ASSERT_NE(NULL, msg);
	EXPECT_EQ(NULL, strstr(msg, "already initialized")) TH_LOG("message: %s", msg);
	/* Still initialised: the runtime works. */
	uint32_t n = 0;
	EXPECT_EQ(ACL_SUCCESS, aclrtGetDeviceCount(&n));
	EXPECT_EQ(ACL_SUCCESS, aclFinalize());
}

TEST(finalize_twice_repeat_finalize)
{
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclFinalize());
	EXPECT_EQ(ACL_ERROR_REPEAT_FINALIZE, aclFinalize());
	EXPECT_NE(NULL, aclGetRecentErrMsg());
}

TEST(finalize_without_init_repeat_finalize)
{
	EXPECT_EQ(ACL_ERROR_REPEAT_FINALIZE, aclFinalize());
}

TEST(finalize_reference_counts)
{
	uint64_t refs = 99;

	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_ERROR_REPEAT_INITIALIZE, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclFinalizeReference(&refs));
	EXPECT_EQ(1, refs);
	uint32_t n = 0;
	EXPECT_EQ(ACL_SUCCESS, aclrtGetDeviceCount(&n));
	ASSERT_EQ(ACL_SUCCESS, aclFinalizeReference(NULL));
	EXPECT_EQ(ACL_ERROR_REPEAT_FINALIZE, aclFinalizeReference(&refs));
	EXPECT_EQ(ACL_ERROR_UNINITIALIZE, aclrtGetDeviceCount(&n));
}

TEST(device_count_matches_driver)
{
	uint32_t n = 0;
	long want = module_param("num_devices");

	ASSERT_GE(want, 1);
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtGetDeviceCount(&n));
	EXPECT_EQ((uint32_t)want, n);
	ASSERT_EQ(ACL_SUCCESS, aclFinalize());
}

TEST(device_count_null_invalid_param)
{
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtGetDeviceCount(NULL));
	const char *msg = aclGetRecentErrMsg();
	ASSERT_NE(NULL, msg);
	EXPECT_NE(NULL, strstr(msg, "count"));
	ASSERT_EQ(ACL_SUCCESS, aclFinalize());
}

TEST(device_count_before_init_uninitialize)
{
	uint32_t n = 7;

	EXPECT_EQ(ACL_ERROR_UNINITIALIZE, aclrtGetDeviceCount(&n));
}

TEST(config_valid_json)
{
	/* adump requires dump_path once "dump" has keys (acl_dump_test) */
	const char *cfg = temp_config("{\n  \"dump\": {\"dump_list\": [ ], \"dump_path\": \"/tmp\"},\n"
				      "  \"err_msg_mode\": \"1\"\n}\n");

	ASSERT_NE(NULL, cfg);
	EXPECT_EQ(ACL_SUCCESS, aclInit(cfg));
	unlink(cfg);
	EXPECT_EQ(ACL_SUCCESS, aclFinalize());
}

TEST(config_missing_file_invalid_file)
{
	EXPECT_EQ(ACL_ERROR_INVALID_FILE, aclInit("/nonexistent/acl.json"));
	const char *msg = aclGetRecentErrMsg();
	ASSERT_NE(NULL, msg);
	EXPECT_NE(NULL, strstr(msg, "/nonexistent/acl.json"));
	/* Nothing was initialised. */
	EXPECT_EQ(ACL_ERROR_REPEAT_FINALIZE, aclFinalize());
}

TEST(config_unbalanced_parse_file)
{
	const char *cfg = temp_config("{\"dump\": {\"dump_list\": [ }\n");

	ASSERT_NE(NULL, cfg);
	EXPECT_EQ(ACL_ERROR_PARSE_FILE, aclInit(cfg));
	unlink(cfg);
	EXPECT_EQ(ACL_ERROR_REPEAT_FINALIZE, aclFinalize());
}

TEST(config_too_deep_parse_file)
{
	const char *cfg = temp_config("[[[[[[[[[[[1]]]]]]]]]]]");

	ASSERT_NE(NULL, cfg);
	EXPECT_EQ(ACL_ERROR_PARSE_FILE, aclInit(cfg));
	unlink(cfg);
}

TEST(config_ten_levels_ok)
{
	const char *cfg = temp_config("[[[[[[[[[[1]]]]]]]]]]");

	ASSERT_NE(NULL, cfg);
	EXPECT_EQ(ACL_SUCCESS, aclInit(cfg));
	unlink(cfg);
	EXPECT_EQ(ACL_SUCCESS, aclFinalize());
}

/* Run aclInit(cfg) and a failing call with stdout captured; return it. */
static char *init_and_capture(const char *cfg_text, aclError *init_ret)
{
	static char out[8192];
	const char *cfg = temp_config(cfg_text);
	int fds[2], saved;
	ssize_t n;

	if (!cfg || pipe(fds))
		return NULL;
	fflush(stdout);
	saved = dup(1);
	dup2(fds[1], 1);
	*init_ret = aclInit(cfg);
	aclrtGetVersion(NULL, NULL, NULL);	/* fails: logs at error level */
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	close(fds[1]);
	n = read(fds[0], out, sizeof(out) - 1);
	out[n > 0 ? n : 0] = '\0';
	close(fds[0]);
	unlink(cfg);
	return out;
}

TEST(config_log_level_prints_errors)
{
	aclError ret = -1;
	char *out;

	unsetenv("ASCEND_SLOG_PRINT_TO_STDOUT");
	out = init_and_capture("{ \"log_level\": \"error\" }", &ret);
	ASSERT_NE(NULL, out);
	EXPECT_EQ(ACL_SUCCESS, ret);
	EXPECT_NE(NULL, strstr(out, "[ERROR]")) TH_LOG("captured: %s", out);
	EXPECT_NE(NULL, strstr(out, "aclrtGetVersion"));
	EXPECT_EQ(ACL_SUCCESS, aclFinalize());
}

TEST(config_log_level_null_is_silent)
{
	aclError ret = -1;
	char *out;

	setenv("ASCEND_SLOG_PRINT_TO_STDOUT", "1", 1);
	out = init_and_capture("{ \"log_level\": 4 }", &ret);
	ASSERT_NE(NULL, out);
	EXPECT_EQ(ACL_SUCCESS, ret);
	EXPECT_EQ(NULL, strstr(out, "[ERROR]")) TH_LOG("captured: %s", out);
	EXPECT_EQ(ACL_SUCCESS, aclFinalize());
}

TEST(config_bad_log_level_parse_file)
{
	const char *cfg = temp_config("{ \"log_level\": \"loud\" }");
	const char *msg;

	ASSERT_NE(NULL, cfg);
	EXPECT_EQ(ACL_ERROR_PARSE_FILE, aclInit(cfg));
	unlink(cfg);
	msg = aclGetRecentErrMsg();
	ASSERT_NE(NULL, msg);
	EXPECT_NE(NULL, strstr(msg, "log_level"));
	EXPECT_EQ(ACL_ERROR_REPEAT_FINALIZE, aclFinalize());
}

TEST(version_is_1_17_0)
{
	int32_t major = -1, minor = -1, patch = -1;

	EXPECT_EQ(ACL_SUCCESS, aclrtGetVersion(&major, &minor, &patch));
	EXPECT_EQ(1, major);
	EXPECT_EQ(17, minor);
	EXPECT_EQ(0, patch);
}

TEST(version_null_args_invalid_param)
{
	int32_t a, b, c;

	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtGetVersion(NULL, &b, &c));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtGetVersion(&a, NULL, &c));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtGetVersion(&a, &b, NULL));
}

TEST(recent_err_msg_is_cleared_and_newest_first)
{
	const char *msg;

	EXPECT_EQ(NULL, aclGetRecentErrMsg());
	EXPECT_EQ(ACL_ERROR_REPEAT_FINALIZE, aclFinalize());
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtGetVersion(NULL, NULL, NULL));
	msg = aclGetRecentErrMsg();
	ASSERT_NE(NULL, msg);
	/* Newest (aclrtGetVersion) before older (aclFinalize). */
	ASSERT_NE(NULL, strstr(msg, "aclrtGetVersion"));
	ASSERT_NE(NULL, strstr(msg, "aclFinalize"));
	EXPECT_LT(strstr(msg, "aclrtGetVersion"), strstr(msg, "aclFinalize"));
	EXPECT_EQ(NULL, aclGetRecentErrMsg());
}

static void *other_thread(void *arg)
{
	(void)arg;
	return (void *)aclGetRecentErrMsg();
}

TEST(recent_err_msg_is_per_thread)
{
	pthread_t t;
	void *seen = (void *)1;

	EXPECT_EQ(ACL_ERROR_REPEAT_FINALIZE, aclFinalize());
	ASSERT_EQ(0, pthread_create(&t, NULL, other_thread, NULL));
	ASSERT_EQ(0, pthread_join(t, &seen));
	EXPECT_EQ(NULL, seen);
	EXPECT_NE(NULL, aclGetRecentErrMsg());
}

TEST_HARNESS_MAIN
