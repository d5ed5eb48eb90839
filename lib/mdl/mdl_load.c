// SPDX-License-Identifier: MIT
/*
 * aclmdlLoadFrom{File,Mem}[WithMem], aclmdlQuerySize[FromMem], aclmdlUnload.
 * A file that cannot be read or is not a vnpu model is
 * ACL_ERROR_INVALID_FILE; a model that breaks a rule of the format is
 * ACL_ERROR_PARSE_MODEL. Nothing reaches the driver before om_read()
 * accepted the whole image.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "acl/acl_mdl.h"
#include "../core/entry_check.h"
#include "model.h"
#include "../core/prof_rt.h"

/* An 8-byte aligned copy of a file (om_read reads records in place). */
static aclError read_file(const char *func, const char *path, void **data,
			  size_t *size)
{
	struct stat st;
	size_t done = 0;
	uint8_t *p;
	int fd;

	if (!path)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM, "modelPath must not be NULL");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return acl_fail_at(func, ACL_ERROR_INVALID_FILE, "cannot open %s: %s",
				   path, strerror(errno));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size <= 0) {
		close(fd);
		return acl_fail_at(func, ACL_ERROR_INVALID_FILE,
				   "%s is not a readable, non-empty file", path);
	}
	p = aligned_alloc(8, ((size_t)st.st_size + 7) / 8 * 8);
	if (!p) {
		close(fd);
		return acl_fail_at(func, ACL_ERROR_BAD_ALLOC, "out of host memory");
	}
	while (done < (size_t)st.st_size) {
		ssize_t n = read(fd, p + done, (size_t)st.st_size - done);

		if (n <= 0) {
			close(fd);
			free(p);
			return acl_fail_at(func, ACL_ERROR_INVALID_FILE, "cannot read %s",
					   path);
		}
		done += (size_t)n;
	}
	close(fd);
	*data = p;
	*size = done;
	return ACL_SUCCESS;
}

/* om_read over data, copied first when it is not 8-byte aligned. */
static aclError parse(const char *func, const void *data, size_t size,
		      struct om_image *img, void **copy)
{
	char why[256];
	int ret;

	*copy = NULL;
	if (!data)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM, "model must not be NULL");
	if ((uintptr_t)data % 8 && size) {
		*copy = aligned_alloc(8, (size + 7) / 8 * 8);
		if (!*copy)
			return acl_fail_at(func, ACL_ERROR_BAD_ALLOC, "out of host memory");
		memcpy(*copy, data, size);
		data = *copy;
	}
	ret = om_read(data, size, img, why, sizeof(why));
	if (ret) {
		free(*copy);
		*copy = NULL;
	}
	if (ret == OM_ERR_FILE)
		return acl_fail_at(func, ACL_ERROR_INVALID_FILE, "not a model: %s", why);
	if (ret)
		return acl_fail_at(func, ACL_ERROR_PARSE_MODEL, "invalid model: %s", why);
	return ACL_SUCCESS;
}

static uint64_t work_size(const struct om_image *img)
{
	uint64_t w = 0;

	for (uint32_t v = 0; v < img->nvariants; v++)
		if (img->variants[v].arena_size > w)
			w = img->variants[v].arena_size;
	return w;
}

/* Caller memory of the WithMem forms: large enough, on this device. */
static aclError check_mem(const char *func, struct rt_context *ctx,
			  const struct om_image *img, const struct mdl_mem *mem)
{
	if (mem->work && (mem->work_size < work_size(img) ||
			  !mdl_dev_va(ctx->dev, mem->work, mem->work_size)))
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "workPtr: %zu bytes of this device's memory needed, got %zu at %p",
				   (size_t)work_size(img), mem->work_size, mem->work);
	if (mem->weight && (mem->weight_size < img->weights_size ||
			    !mdl_dev_va(ctx->dev, mem->weight, mem->weight_size)))
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "weightPtr: %zu bytes of this device's memory needed, got %zu at %p",
				   (size_t)img->weights_size, mem->weight_size, mem->weight);
	return ACL_SUCCESS;
}

static aclError load(const char *func, const void *data, size_t size,
		     uint32_t *id, const struct mdl_mem *mem, const char *name)
{
	struct rt_context *ctx;
	struct om_image img;
	char why[160] = "";
	void *copy;
	aclError e;
	int ret;

	if (!id)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM, "modelId must not be NULL");
	ctx = context_current();
	if (!ctx)
		return acl_fail_at(func, ACL_ERROR_RT_CONTEXT_NULL,
				   "no current context: call aclrtSetDevice first");
	e = parse(func, data, size, &img, &copy);
	if (!e && mem)
		e = check_mem(func, ctx, &img, mem);
	if (e) {
		free(copy);
		return e;
	}
	ret = model_load(ctx, &img, mem, name, id, why, sizeof(why));
	free(copy);
	if (ret)
		return rt_error_at(func, ret, ACL_ERROR_RT_WAIT_TIMEOUT, "loading the model");
	return ACL_SUCCESS;
}

aclError aclmdlLoadFromMem(const void *model, size_t modelSize, uint32_t *modelId)
{
	PROF_API();
	RT_REQUIRE_INIT();
	return load(__func__, model, modelSize, modelId, NULL, "");
}

aclError aclmdlLoadFromMemWithMem(const void *model, size_t modelSize,
				  uint32_t *modelId, void *workPtr, size_t workSize,
				  void *weightPtr, size_t weightSize)
{
	PROF_API();
	struct mdl_mem mem = { workPtr, weightPtr, workSize, weightSize };

	RT_REQUIRE_INIT();
	return load(__func__, model, modelSize, modelId, &mem, "");
}

/* A model file's name for dump_list: its base name without ".om". */
static const char *model_file_name(const char *path, char *out, size_t len)
{
	const char *base = strrchr(path, '/');
	size_t n;

	base = base ? base + 1 : path;
	n = strlen(base);
	if (n > 3 && !strcmp(base + n - 3, ".om"))
		n -= 3;
	if (n >= len)
		n = len - 1;
	memcpy(out, base, n);
	out[n] = 0;
	return out;
}

static aclError load_file(const char *func, const char *path, uint32_t *id,
			  const struct mdl_mem *mem)
{
	char name[256];
	size_t size;
	void *data;
	aclError e;

	if (!id)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM, "modelId must not be NULL");
	e = read_file(func, path, &data, &size);
	if (e)
		return e;
	e = load(func, data, size, id, mem, model_file_name(path, name, sizeof(name)));
	free(data);
	return e;
}

aclError aclmdlLoadFromFile(const char *modelPath, uint32_t *modelId)
{
	PROF_API();
	RT_REQUIRE_INIT();
	return load_file(__func__, modelPath, modelId, NULL);
}

aclError aclmdlLoadFromFileWithMem(const char *modelPath, uint32_t *modelId,
				   void *workPtr, size_t workSize,
				   void *weightPtr, size_t weightSize)
{
	PROF_API();
	struct mdl_mem mem = { workPtr, weightPtr, workSize, weightSize };

	RT_REQUIRE_INIT();
	return load_file(__func__, modelPath, modelId, &mem);
}

static aclError query(const char *func, const void *data, size_t size,
		      size_t *workSize, size_t *weightSize)
{
	struct om_image img;
	void *copy;
	aclError e;

	if (!workSize || !weightSize)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "workSize and weightSize must not be NULL");
	e = parse(func, data, size, &img, &copy);
	if (e)
		return e;
	*workSize = work_size(&img);
	*weightSize = img.weights_size;
	free(copy);
	return ACL_SUCCESS;
}

aclError aclmdlQuerySizeFromMem(const void *model, size_t modelSize,
				size_t *workSize, size_t *weightSize)
{
	PROF_API();
	RT_REQUIRE_INIT();
	return query(__func__, model, modelSize, workSize, weightSize);
}

aclError aclmdlQuerySize(const char *fileName, size_t *workSize, size_t *weightSize)
{
	PROF_API();
	size_t size;
	void *data;
	aclError e;

	RT_REQUIRE_INIT();
	if (!workSize || !weightSize)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"workSize and weightSize must not be NULL");
	e = read_file(__func__, fileName, &data, &size);
	if (e)
		return e;
	e = query(__func__, data, size, workSize, weightSize);
	free(data);
	return e;
}

aclError aclmdlUnload(uint32_t modelId)
{
	PROF_API();
	RT_REQUIRE_INIT();
	if (model_unload(modelId))
		return acl_fail(ACL_ERROR_INVALID_MODEL_ID, "model %u is not loaded",
				modelId);
	return ACL_SUCCESS;
}
