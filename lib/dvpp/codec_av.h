/* SPDX-License-Identifier: MIT */
/*
 * libavcodec and libavutil, loaded on first use (codec_av.c). Linking
 * them would make every program that loads libascendcl map about a
 * hundred shared objects (libavcodec's own dependencies: x264, x265,
 * vpx, ...), 20 ms per exec natively and far more in the test guest,
 * for a feature few programs use. The SONAMEs are those of the headers
 * we compile against, so the structures' layout matches.
 */
#ifndef VNPU_DVPP_CODEC_AV_H
#define VNPU_DVPP_CODEC_AV_H

#include <libavcodec/avcodec.h>
#include <libavutil/frame.h>

struct codec_av {
	AVCodecParserContext *(*parser_init)(int codec_id);
	int (*parser_parse2)(AVCodecParserContext *s, AVCodecContext *avctx,
			     uint8_t **poutbuf, int *poutbuf_size,
			     const uint8_t *buf, int buf_size, int64_t pts,
			     int64_t dts, int64_t pos);
	void (*parser_close)(AVCodecParserContext *s);
	const AVCodec *(*find_decoder)(enum AVCodecID id);
	AVCodecContext *(*alloc_context3)(const AVCodec *codec);
	int (*open2)(AVCodecContext *avctx, const AVCodec *codec,
		     AVDictionary **options);
	void (*free_context)(AVCodecContext **avctx);
	int (*send_packet)(AVCodecContext *avctx, const AVPacket *avpkt);
	int (*receive_frame)(AVCodecContext *avctx, AVFrame *frame);
	void (*flush_buffers)(AVCodecContext *avctx);
	AVPacket *(*packet_alloc)(void);
	void (*packet_free)(AVPacket **pkt);
	void (*packet_unref)(AVPacket *pkt);
	AVFrame *(*frame_alloc)(void);
	void (*frame_free)(AVFrame **frame);
	void (*frame_unref)(AVFrame *frame);
	int (*strerror)(int errnum, char *errbuf, size_t errbuf_size);
};

/* The table, loaded once; NULL (why says which) when a library or a
 * symbol is missing. */
const struct codec_av *codec_av_get(char *why, size_t why_len);

#endif /* VNPU_DVPP_CODEC_AV_H */
