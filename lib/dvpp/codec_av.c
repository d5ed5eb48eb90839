/* SPDX-License-Identifier: MIT */
/* See codec_av.h: libavcodec/libavutil through dlopen, once. */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <libavutil/macros.h>

#include "codec_av.h"
#include "dvpp_codec.h"

#define AVCODEC_SONAME "libavcodec.so." AV_STRINGIFY(LIBAVCODEC_VERSION_MAJOR)
#define AVUTIL_SONAME "libavutil.so." AV_STRINGIFY(LIBAVUTIL_VERSION_MAJOR)

static pthread_once_t once = PTHREAD_ONCE_INIT;
static struct codec_av table;
static const struct codec_av *loaded;
static char failure[256];

static bool sym(void *lib, const char *name, void *slot)
{
	void *p = dlsym(lib, name);

	if (!p) {
		snprintf(failure, sizeof(failure), "%s has no %s",
			 lib ? "libavcodec/libavutil" : "?", name);
		return false;
	}
	*(void **)slot = p;
	return true;
}

static void load(void)
{
	/* Kept open for the life of the process. */
	void *util = dlopen(AVUTIL_SONAME, RTLD_NOW | RTLD_LOCAL);
	void *codec = util ? dlopen(AVCODEC_SONAME, RTLD_NOW | RTLD_LOCAL) : NULL;
	struct codec_av *t = &table;

	if (!codec) {
		snprintf(failure, sizeof(failure), "cannot load %s: %s",
			 util ? AVCODEC_SONAME : AVUTIL_SONAME, dlerror());
		return;
	}
	if (sym(codec, "av_parser_init", &t->parser_init) &&
	    sym(codec, "av_parser_parse2", &t->parser_parse2) &&
	    sym(codec, "av_parser_close", &t->parser_close) &&
	    sym(codec, "avcodec_find_decoder", &t->find_decoder) &&
	    sym(codec, "avcodec_alloc_context3", &t->alloc_context3) &&
	    sym(codec, "avcodec_open2", &t->open2) &&
	    sym(codec, "avcodec_free_context", &t->free_context) &&
	    sym(codec, "avcodec_send_packet", &t->send_packet) &&
	    sym(codec, "avcodec_receive_frame", &t->receive_frame) &&
	    sym(codec, "avcodec_flush_buffers", &t->flush_buffers) &&
	    sym(codec, "av_packet_alloc", &t->packet_alloc) &&
	    sym(codec, "av_packet_free", &t->packet_free) &&
	    sym(codec, "av_packet_unref", &t->packet_unref) &&
	    sym(util, "av_frame_alloc", &t->frame_alloc) &&
	    sym(util, "av_frame_free", &t->frame_free) &&
	    sym(util, "av_frame_unref", &t->frame_unref) &&
	    sym(util, "av_strerror", &t->strerror))
		loaded = t;
}

const struct codec_av *codec_av_get(char *why, size_t why_len)
{
	pthread_once(&once, load);
	if (!loaded)
		dvpp_codec_fail(why, why_len, -EOPNOTSUPP, "%s", failure);
	return loaded;
}
