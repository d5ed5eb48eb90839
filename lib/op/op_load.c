// SPDX-License-Identifier: MIT
/*
 * aclopSetModelDir and aclopLoad: single-op models from atc --singleop
 * into the registry. A directory is read whole: every "*.om" in it must
 * be a single-op model, and the first one that is not fails the call
 * (the ones before it stay loaded), naming the file.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/entry_check.h"
#include "op.h"
#include "../core/prof_rt.h"

#define OP_FILE_MAX	(1ull << 30)

static aclError read_all(const char *func, const char *path, void **data,
			 size_t *len)
{
	FILE *f = fopen(path, "rb");
	long n;

	*data = NULL;
	if (!f)
		return acl_fail_at(func, ACL_ERROR_READ_MODEL_FAILURE, "%s: %s",
				   path, strerror(errno));
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 ||
	    (unsigned long long)n > OP_FILE_MAX || fseek(f, 0, SEEK_SET)) {
		fclose(f);
		return acl_fail_at(func, ACL_ERROR_READ_MODEL_FAILURE,
				   "%s: cannot size the file (or above 1 GiB)", path);
	}
	*data = malloc((size_t)n + 1);
	if (!*data || fread(*data, 1, (size_t)n, f) != (size_t)n) {
		fclose(f);
		free(*data);
		*data = NULL;
		return acl_fail_at(func, ACL_ERROR_READ_MODEL_FAILURE,
				   "%s: read failed", path);
	}
	fclose(f);
	*len = (size_t)n;
	return ACL_SUCCESS;
}

static int is_om(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return n > 3 && !strcmp(d->d_name + n - 3, ".om");
}

aclError aclopSetModelDir(const char *modelDir)
{
	PROF_API();
	struct dirent **names;
	aclError e = ACL_SUCCESS;
	char path[4096];
	int n, i;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(modelDir);
	n = scandir(modelDir, &names, is_om, alphasort);
	if (n < 0)
		return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: %s", modelDir,
				strerror(errno));
	for (i = 0; i < n; i++) {
		void *data = NULL;
		size_t len = 0;

		if (!e && snprintf(path, sizeof(path), "%s/%s", modelDir,
				   names[i]->d_name) < (int)sizeof(path)) {
			e = read_all(__func__, path, &data, &len);
			if (!e)
				e = op_registry_add(__func__, data, len, path);
			free(data);
		}
		free(names[i]);
	}
	free(names);
	return e;
}

aclError aclopLoad(const void *model, size_t modelSize)
{
	PROF_API();
	RT_REQUIRE_INIT();
	if (!model || !modelSize)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"model must not be NULL and modelSize not 0");
	return op_registry_add(__func__, model, modelSize, "the model");
}

/* The runtime has no op queue to bound: ops go onto streams directly. */
aclError aclopSetMaxOpQueueNum(uint64_t maxOpNum)
{
	PROF_API();
	RT_REQUIRE_INIT();
	if (!maxOpNum)
		return acl_fail(ACL_ERROR_INVALID_PARAM, "maxOpNum must be positive");
	return ACL_SUCCESS;
}
