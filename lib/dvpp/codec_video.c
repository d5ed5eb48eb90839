/* SPDX-License-Identifier: MIT */
/*
 * VDEC on the host: libavcodec's parser cuts the Annex-B stream into
 * access units wherever the caller's chunks end, its H.264/HEVC decoder
 * (one thread per channel, so that channels decode side by side) decodes
 * them, and each frame is handed over as NV12/NV21: luma copied, the
 * 4:2:0 chroma planes interleaved, nothing resampled.
 *
 * The caller's pts and tag travel with the data as a sequence number in
 * the packets' pts, which the parser and the decoder's reordering carry
 * to the frame; a ring maps it back.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "codec_av.h"
#include "dvpp_codec.h"

#define TAG_RING	512		/* sends a frame may lag behind */
#define SLICE		(256 * 1024)	/* bytes copied into the padded buffer */

struct tag_slot {
	int64_t seq;
	uint64_t pts;
	void *tag;
};

struct dvpp_video_dec {
	const struct codec_av *av;	/* libavcodec, loaded on first use */
	enum AVCodecID id;
	AVCodecContext *ctx;
	AVCodecParserContext *parser;
	AVPacket *pkt;
	AVFrame *frame;
	uint32_t out_format;
	dvpp_frame_cb cb;
	void *user;
	uint8_t *in;			/* SLICE bytes + libavcodec's padding */
	uint8_t *out;			/* the NV12/NV21 frame handed over */
	size_t out_size;
	int64_t seq;
	bool have_tag;
	struct tag_slot ring[TAG_RING];
	int err;			/* the first error of this send */
	char *why;
	size_t why_len;
};

static void note_error(struct dvpp_video_dec *d, int err, const char *what,
		       int averr)
{
	char msg[AV_ERROR_MAX_STRING_SIZE] = "";

	if (d->err)
		return;
	if (averr)
		d->av->strerror(averr, msg, sizeof(msg));
	d->err = dvpp_codec_fail(d->why, d->why_len, err, "%s%s%s", what,
				 averr ? ": " : "", msg);
}

static bool open_parser(struct dvpp_video_dec *d)
{
	d->parser = d->av->parser_init(d->id);
	return d->parser != NULL;
}

struct dvpp_video_dec *dvpp_video_dec_new(uint32_t codec, uint32_t out_format,
					  dvpp_frame_cb cb, void *user,
					  char *why, size_t why_len)
{
	const struct codec_av *av;
	struct dvpp_video_dec *d;
	const AVCodec *c;

	if (codec > DVPP_STREAM_H264_HIGH || !cb ||
	    (out_format != DVPP_FMT_NV12 && out_format != DVPP_FMT_NV21)) {
		dvpp_codec_fail(why, why_len, -EINVAL,
				"stream format %u, output format %u%s", codec,
				out_format, cb ? "" : ", no callback");
		return NULL;
	}
	av = codec_av_get(why, why_len);
	if (!av)
		return NULL;
	d = calloc(1, sizeof(*d));
	if (!d)
		goto nomem;
	d->av = av;
	d->id = codec == DVPP_STREAM_H265_MAIN ? AV_CODEC_ID_HEVC :
						 AV_CODEC_ID_H264;
	d->out_format = out_format;
	d->cb = cb;
	d->user = user;
	c = d->av->find_decoder(d->id);
	if (!c) {
		dvpp_codec_fail(why, why_len, -EOPNOTSUPP,
				"libavcodec has no %s decoder",
				d->id == AV_CODEC_ID_HEVC ? "HEVC" : "H.264");
		free(d);
		return NULL;
	}
	d->ctx = d->av->alloc_context3(c);
	d->pkt = d->av->packet_alloc();
	d->frame = d->av->frame_alloc();
	d->in = malloc(SLICE + AV_INPUT_BUFFER_PADDING_SIZE);
	if (!d->ctx || !d->pkt || !d->frame || !d->in || !open_parser(d))
		goto fail;
	d->ctx->thread_count = 1;
	/* refuse damaged data rather than conceal it silently */
	d->ctx->err_recognition = AV_EF_EXPLODE;
	d->ctx->max_pixels = (int64_t)DVPP_VDEC_MAX * DVPP_VDEC_MAX;
	/* A library does not print: errors reach the caller's why, and
	 * libavcodec's messages move down past AV_LOG_DEBUG (an error shows
	 * when av_log's level is at least AV_LOG_DEBUG + AV_LOG_ERROR). */
	d->ctx->log_level_offset = AV_LOG_DEBUG;
	if (d->av->open2(d->ctx, c, NULL) < 0)
		goto fail;
	return d;

fail:
	if (d->parser)
		d->av->parser_close(d->parser);
	d->av->free_context(&d->ctx);
	d->av->packet_free(&d->pkt);
	d->av->frame_free(&d->frame);
	free(d->in);
	free(d);
nomem:
	dvpp_codec_fail(why, why_len, -ENOMEM, "no memory for a decoder");
	return NULL;
}

/* The frame as NV12/NV21 in d->out; 0 or an error. */
static int convert(struct dvpp_video_dec *d, const AVFrame *f,
		   struct dvpp_frame *o)
{
	uint32_t w = (uint32_t)f->width, h = (uint32_t)f->height;
	uint32_t ws = DVPP_ALIGN_UP(w, 16u), hs = DVPP_ALIGN_UP(h, 2u);
	uint32_t cw = (w + 1) / 2, ch = (h + 1) / 2, x, y;
	bool gray = f->format == AV_PIX_FMT_GRAY8;
	bool vu = d->out_format == DVPP_FMT_NV21;
	size_t size = (size_t)ws * hs / 2 * 3;
	uint8_t *uv;

	if (f->format != AV_PIX_FMT_YUV420P &&
	    f->format != AV_PIX_FMT_YUVJ420P && !gray)
		return -EOPNOTSUPP;
	if (w == 0 || h == 0 || w > DVPP_VDEC_MAX || h > DVPP_VDEC_MAX)
		return -ERANGE;
	if (size > d->out_size) {
		uint8_t *p = realloc(d->out, size);

		if (!p)
			return -ENOMEM;
		d->out = p;
		d->out_size = size;
	}
	memset(d->out, 0, size);
	for (y = 0; y < h; y++)
		memcpy(d->out + (size_t)y * ws,
		       f->data[0] + (size_t)y * f->linesize[0], w);
	uv = d->out + (size_t)ws * hs;
	for (y = 0; y < ch; y++) {
		const uint8_t *u = gray ? NULL : f->data[1] + (size_t)y * f->linesize[1];
		const uint8_t *v = gray ? NULL : f->data[2] + (size_t)y * f->linesize[2];
		uint8_t *dst = uv + (size_t)y * ws;

		for (x = 0; x < cw; x++) {
			dst[2 * x + vu] = gray ? 0x80 : u[x];
			dst[2 * x + !vu] = gray ? 0x80 : v[x];
		}
	}
	*o = (struct dvpp_frame){
		.format = d->out_format, .width = w, .height = h,
		.width_stride = ws, .height_stride = hs,
		.data = d->out, .size = size,
		.corrupt = (f->flags & AV_FRAME_FLAG_CORRUPT) ||
			   f->decode_error_flags,
	};
	return 0;
}

static void deliver(struct dvpp_video_dec *d, const AVFrame *f)
{
	int64_t seq = f->pts != AV_NOPTS_VALUE ? f->pts :
						 f->best_effort_timestamp;
	struct dvpp_frame o;
	int ret = convert(d, f, &o);

	if (ret) {
		note_error(d, ret, ret == -EOPNOTSUPP ?
			   "a frame not in 8-bit 4:2:0 or gray" :
			   ret == -ERANGE ? "a frame larger than 4096x4096" :
			   "no memory for a frame", 0);
		return;
	}
	if (seq > 0 && d->ring[seq % TAG_RING].seq == seq) {
		o.pts = d->ring[seq % TAG_RING].pts;
		o.tag = d->ring[seq % TAG_RING].tag;
	}
	d->cb(d->user, &o);
}

/* Sends one packet (NULL: drain) and delivers what comes out. */
static void decode(struct dvpp_video_dec *d, AVPacket *pkt)
{
	int ret = d->av->send_packet(d->ctx, pkt);

	if (ret < 0 && ret != AVERROR_EOF)
		note_error(d, -EBADMSG, "the decoder refused an access unit",
			   ret);
	for (;;) {
		ret = d->av->receive_frame(d->ctx, d->frame);
		if (ret == AVERROR(EAGAIN) || ret == AVERROR_EOF)
			break;
		if (ret < 0) {
			note_error(d, -EBADMSG, "decoding failed", ret);
			break;
		}
		deliver(d, d->frame);
		d->av->frame_unref(d->frame);
	}
}

/* Runs a slice (or, with n == 0, the parser's end) through the parser. */
static void parse(struct dvpp_video_dec *d, const uint8_t *p, size_t n)
{
	bool flush = n == 0;

	do {
		uint8_t *au = NULL;
		int au_size = 0;
		int used = d->av->parser_parse2(d->parser, d->ctx, &au, &au_size,
					    flush ? NULL : p, (int)n, d->seq,
					    d->seq, 0);

		if (used < 0 || (used == 0 && !au_size && !flush)) {
			note_error(d, -EBADMSG, "the parser failed", used);
			return;
		}
		p += used;
		n -= (size_t)used;
		if (au_size) {
			d->av->packet_unref(d->pkt);
			d->pkt->data = au;
			d->pkt->size = au_size;
			d->pkt->pts = d->parser->pts;
			d->pkt->dts = d->parser->dts;
			decode(d, d->pkt);
			d->pkt->data = NULL;
			d->pkt->size = 0;
		}
	} while (n > 0);
}

static void end_stream(struct dvpp_video_dec *d)
{
	parse(d, NULL, 0);
	decode(d, NULL);
	d->av->flush_buffers(d->ctx);
	d->av->parser_close(d->parser);
	if (!open_parser(d))
		note_error(d, -ENOMEM, "no memory for a parser", 0);
}

int dvpp_video_dec_send(struct dvpp_video_dec *d, const void *data,
			size_t size, bool eos, uint64_t pts, void *tag,
			char *why, size_t why_len)
{
	const uint8_t *p = data;
	struct tag_slot *last;

	if (!d || (!data && size))
		return dvpp_codec_fail(why, why_len, -EINVAL, "NULL argument");
	if (!d->parser)
		return dvpp_codec_fail(why, why_len, -ENOMEM,
				       "the decoder has no parser");
	d->err = 0;
	d->why = why;
	d->why_len = why_len;
	/* A new sequence number when what the data carries changes. */
	last = &d->ring[d->seq % TAG_RING];
	if (!d->have_tag || last->pts != pts || last->tag != tag) {
		d->seq++;
		d->ring[d->seq % TAG_RING] =
			(struct tag_slot){ .seq = d->seq, .pts = pts, .tag = tag };
		d->have_tag = true;
	}
	while (size > 0) {
		size_t n = size < SLICE ? size : SLICE;

		memcpy(d->in, p, n);
		memset(d->in + n, 0, AV_INPUT_BUFFER_PADDING_SIZE);
		parse(d, d->in, n);
		p += n;
		size -= n;
	}
	if (eos)
		end_stream(d);
	d->why = NULL;
	return d->err;
}

void dvpp_video_dec_free(struct dvpp_video_dec *d)
{
	if (!d)
		return;
	if (d->parser) {
		d->err = 0;
		end_stream(d);
	}
	if (d->parser)
		d->av->parser_close(d->parser);
	d->av->free_context(&d->ctx);
	d->av->packet_free(&d->pkt);
	d->av->frame_free(&d->frame);
	free(d->in);
	free(d->out);
	free(d);
}
