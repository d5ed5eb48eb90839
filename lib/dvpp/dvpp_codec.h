/* SPDX-License-Identifier: MIT */
/*
 * The codec layer of lib/dvpp: the "media CPU" work of JPEGD, JPEGE, PNGD
 * and VDEC done on the host with libjpeg-turbo (TurboJPEG), libpng and
 * FFmpeg's libavcodec. Pure functions: host buffers in, host buffers out,
 * no ACL state. The acldvpp* entry points (dvpp_jpeg*.c, dvpp_png*.c,
 * dvpp_vdec*.c) call them from their stream tasks.
 *
 * This header does not include acl_dvpp.h: pixel formats are the plain
 * acldvppPixelFormat numbers, defined below under their own names.
 *
 * Results: 0, or a negative errno, the same meaning everywhere:
 *   -EINVAL      a bad argument (NULL, zero size, a stride or format the
 *                DVPP rules refuse)
 *   -EBADMSG     the data is not a valid JPEG / PNG / stream, or it is
 *                damaged or truncated (libjpeg-turbo warnings included)
 *   -EOPNOTSUPP  valid, but not what DVPP decodes: progressive,
 *                arithmetic-coded, lossless, hierarchical or 12-bit JPEG,
 *                sampling other than 4:4:4/4:2:2/4:2:0/4:4:0/gray,
 *                CMYK/RGB-coded JPEG, a video frame not 8-bit 4:2:0/gray;
 *                for JPEG the API answers ACL_ERROR_UNSUPPORTED_JPEG
 *   -ERANGE      the picture's size is outside DVPP's range (below)
 *   -ENOSPC      the output buffer is smaller than the layout needs
 *   -ENOMEM      out of memory
 * A failure writes a one-line reason into why (why_len bytes, NUL-ended;
 * why may be NULL).
 */
#ifndef VNPU_DVPP_CODEC_H
#define VNPU_DVPP_CODEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* acldvppPixelFormat values the codecs read or write. */
#define DVPP_FMT_YUV_400		0
#define DVPP_FMT_NV12			1	/* YUV_SEMIPLANAR_420 */
#define DVPP_FMT_NV21			2	/* YVU_SEMIPLANAR_420 */
#define DVPP_FMT_YUV_SP_422		3
#define DVPP_FMT_YVU_SP_422		4
#define DVPP_FMT_YUV_SP_444		5
#define DVPP_FMT_YVU_SP_444		6
#define DVPP_FMT_YUYV_422		7
#define DVPP_FMT_UYVY_422		8
#define DVPP_FMT_YVYU_422		9
#define DVPP_FMT_VYUY_422		10
#define DVPP_FMT_RGB_888		12
#define DVPP_FMT_RGBA_8888		16
#define DVPP_FMT_UNKNOWN		10000	/* "as the source" */

/* acldvppJpegFormat values. */
#define DVPP_CSS_444			0
#define DVPP_CSS_422			1
#define DVPP_CSS_420			2
#define DVPP_CSS_GRAY			3
#define DVPP_CSS_440			4
#define DVPP_CSS_411			5
#define DVPP_CSS_UNKNOWN		1000

/* acldvppJpegdPrecisionMode: how odd sizes become even (see below). */
#define DVPP_JPEGD_ALIGN_DOWN		0
#define DVPP_JPEGD_ALIGN_UP		1
#define DVPP_JPEGD_ALIGN_DOWN_COMPAT	2	/* CANN's default; as DOWN */

/* acldvppStreamFormat values. */
#define DVPP_STREAM_H265_MAIN		0
#define DVPP_STREAM_H264_BASELINE	1
#define DVPP_STREAM_H264_MAIN		2
#define DVPP_STREAM_H264_HIGH		3

/*
 * Size ranges (Ascend 310/910). JPEGD: 32x32 to 8192x8192 (the
 * documented JPEG range of the Ascend decoders); JPEGE: 32x32 to
 * 8192x8192, even width (and height for NV12/NV21); PNGD: 32x32 to
 * 4096x4096; VDEC frames at most 4096x4096.
 */
#define DVPP_JPEGD_MIN			32u
#define DVPP_JPEGD_MAX			8192u
#define DVPP_JPEGE_MIN			32u
#define DVPP_JPEGE_MAX			8192u
#define DVPP_PNGD_MIN			32u
#define DVPP_PNGD_MAX			4096u
#define DVPP_VDEC_MAX			4096u

#define DVPP_ALIGN_UP(x, a)		(((x) + (a) - 1) / (a) * (a))

/*
 * A picture in DVPP memory: the format's planes one after the other, each
 * row width_stride bytes apart (for semi-planar formats the luma row;
 * the chroma rows of 4:4:4 are 2 * width_stride), height_stride rows of
 * luma, then the chroma plane. size is what the buffer needs.
 */
struct dvpp_pic_layout {
	uint32_t format;		/* acldvppPixelFormat */
	uint32_t width, height;		/* the picture, after rounding */
	uint32_t width_stride;		/* bytes (luma row or packed row) */
	uint32_t height_stride;		/* rows */
	uint32_t size;			/* bytes */
};

/* ------------------------------------------------------------------ JPEG */

struct dvpp_jpeg_info {
	uint32_t width, height;
	int32_t components;		/* in the frame header: 1, 3 or 4 */
	uint32_t css;			/* DVPP_CSS_* */
	uint8_t sof;			/* the frame marker: 0xc0 .. 0xcf */
	uint8_t precision;		/* bits per sample */
	/*
	 * Sequential Huffman coding with 8-bit samples (SOF0, or SOF1 at 8
	 * bits: the same coding with more tables). dvpp_jpeg_decode()
	 * answers -EOPNOTSUPP when this is false, when css is 4:1:1 or
	 * unknown, or when the components are not YCbCr or gray.
	 */
	bool baseline;
};

/*
 * Reads the header up to the frame marker. 0 with *info filled for any
 * JPEG whose frame header is intact (progressive and arithmetic-coded
 * ones too, with baseline false); -EBADMSG when there is no valid frame
 * header; -EOPNOTSUPP when the frame gives height 0 (a DNL marker).
 */
int dvpp_jpeg_info(const void *data, size_t size, struct dvpp_jpeg_info *info,
		   char *why, size_t why_len);

/*
 * The JPEGD output for a w x h picture of sampling css in out_format
 * (DVPP_FMT_UNKNOWN: the source's default):
 *
 *   source  default        also allowed     buffer
 *   4:4:4   YVU_SP_444 (6) NV12, NV21       ws * hs * 3
 *   4:2:2   YVU_SP_422 (4) NV12, NV21       ws * hs * 2
 *   4:2:0   NV21 (2)       NV12             ws * hs * 3 / 2
 *   4:4:0   NV21 (2)       NV12             ws * hs * 3 / 2
 *   gray    NV21 (2)       NV12             ws * hs * 3 / 2 (chroma 0x80)
 *
 * ws = ALIGN_UP(width, 128), hs = ALIGN_UP(height, 16). An odd width
 * (NV12/NV21, 4:2:2 SP) or height (NV12/NV21) is made even as CANN's
 * acldvppJpegdPrecisionMode says: rounded down (ALIGN_DOWN, the default
 * DOWN_COMPAT: the last column/row is dropped) or up (ALIGN_UP: one
 * column/row more, libjpeg-turbo's decoded padding where its planes have
 * it, else the last column/row repeated). layout->width/height are the
 * rounded sizes, the ones the API reports.
 * -EINVAL: format not allowed for css, or css 4:1:1/unknown (-EOPNOTSUPP),
 * -ERANGE: size outside DVPP_JPEGD_MIN..MAX.
 */
int dvpp_jpeg_out_layout(uint32_t width, uint32_t height, uint32_t css,
			 uint32_t out_format, uint32_t align_mode,
			 struct dvpp_pic_layout *layout, char *why,
			 size_t why_len);

/*
 * Decodes a baseline JPEG into dst (dst_size bytes) in the layout of
 * dvpp_jpeg_out_layout(), returned in *layout. The pixels are
 * libjpeg-turbo's: tjDecompressToYUVPlanes() gives the Y, Cb and Cr
 * planes at the source's sampling (no upsampling); luma is copied as is,
 * chroma interleaved (VU for the YVU formats). Where the target samples
 * chroma more coarsely than the source (4:4:4, 4:2:2, 4:4:0 to NV12/NV21)
 * each output sample is the rounded mean of the source samples it covers:
 * (a + b + 1) >> 1 for two, (a + b + c + d + 2) >> 2 for four, a sample
 * past the plane's edge being the edge's. Padding bytes (past the width
 * in a row, rows past the height) are 0. Any libjpeg-turbo warning
 * (damaged or truncated data) makes the decode fail with -EBADMSG.
 */
int dvpp_jpeg_decode(const void *data, size_t size, uint32_t out_format,
		     uint32_t align_mode, void *dst, size_t dst_size,
		     struct dvpp_pic_layout *layout, char *why, size_t why_len);

/*
 * JPEGE input: NV12/NV21 (width, height even; width_stride a multiple of
 * 16 and >= width; height_stride >= height and even; src_size >= ws * hs
 * * 3 / 2) or packed 4:2:2 YUYV/UYVY/YVYU/VYUY (width even; width_stride
 * a multiple of 16 and >= 2 * width; src_size >= ws * hs). Sizes within
 * DVPP_JPEGE_MIN..MAX. level: 0..100, 0 meaning 100 (CANN); the quality
 * given to libjpeg-turbo. Output: a baseline Huffman JFIF at 4:2:0 (NV12/
 * NV21) or 4:2:2 (packed), the source's chroma kept as is.
 * *out_size: in, the capacity of out; out, the JPEG's size (also on
 * -ENOSPC: the size it needs).
 */
int dvpp_jpeg_encode(const void *src, size_t src_size, uint32_t format,
		     uint32_t width, uint32_t height, uint32_t width_stride,
		     uint32_t height_stride, uint32_t level, void *out,
		     size_t *out_size, char *why, size_t why_len);

/* An upper bound of dvpp_jpeg_encode()'s output (libjpeg-turbo's
 * tjBufSize() for the input's sampling), after the same checks of format
 * and size. */
int dvpp_jpeg_predict_enc_size(uint32_t format, uint32_t width,
			       uint32_t height, uint32_t *size, char *why,
			       size_t why_len);

/* ------------------------------------------------------------------- PNG */

struct dvpp_png_info {
	uint32_t width, height;
	/* Channels once palette and tRNS are expanded: gray 1, gray+alpha
	 * 2, RGB 3, RGBA 4; a palette is 3, or 4 with tRNS; gray or RGB
	 * with tRNS count their alpha. */
	int32_t components;
	bool alpha;			/* components is 2 or 4 */
	uint8_t bit_depth;		/* of the file: 1, 2, 4, 8, 16 */
	uint8_t color_type;		/* PNG_COLOR_TYPE_* */
	bool interlaced;
};

int dvpp_png_info(const void *data, size_t size, struct dvpp_png_info *info,
		  char *why, size_t why_len);

/*
 * PNGD output: RGB_888 from any source (alpha dropped, gray repeated in
 * R, G and B), RGBA_8888 from a source with alpha only; DVPP_FMT_UNKNOWN
 * is RGBA_8888 when the source has alpha, else RGB_888. width_stride =
 * ALIGN_UP(width, 128) * 3 or * 4 bytes, height_stride = ALIGN_UP(height,
 * 16), size = ws * hs. -ERANGE outside DVPP_PNGD_MIN..MAX.
 */
int dvpp_png_out_layout(uint32_t width, uint32_t height, bool alpha,
			uint32_t out_format, struct dvpp_pic_layout *layout,
			char *why, size_t why_len);

/*
 * Decodes with libpng: palette expanded, gray to RGB by repetition,
 * 16-bit samples reduced to their high byte (png_set_strip_16), low bit
 * depths scaled to 8 bits, interlacing undone; no gamma or colour
 * management. Padding bytes are 0.
 */
int dvpp_png_decode(const void *data, size_t size, uint32_t out_format,
		    void *dst, size_t dst_size, struct dvpp_pic_layout *layout,
		    char *why, size_t why_len);

/* ----------------------------------------------------------------- video */

/*
 * A decoded frame, valid during the callback only: NV12/NV21 in
 * width_stride = ALIGN_UP(width, 16), height_stride = ALIGN_UP(height, 2)
 * (the Y plane, then the interleaved chroma plane; padding bytes 0),
 * size = ws * hs * 3 / 2 bytes. pts and tag are those of the
 * dvpp_video_dec_send() call whose data started the frame's access unit
 * (0 and NULL if the decoder could not tell); frames come in display
 * order. corrupt: libavcodec concealed errors in this frame.
 */
struct dvpp_frame {
	uint32_t format;		/* DVPP_FMT_NV12 or DVPP_FMT_NV21 */
	uint32_t width, height;
	uint32_t width_stride, height_stride;
	const uint8_t *data;
	size_t size;
	uint64_t pts;
	void *tag;
	bool corrupt;
};

typedef void (*dvpp_frame_cb)(void *user, const struct dvpp_frame *frame);

struct dvpp_video_dec;

/*
 * A decoder for one channel: codec is a DVPP_STREAM_* value, out_format
 * NV12 or NV21; frames go to cb(user, frame) from the thread that calls
 * dvpp_video_dec_send() or _free(). One decoding thread per channel.
 * NULL on failure (why says which).
 */
struct dvpp_video_dec *dvpp_video_dec_new(uint32_t codec, uint32_t out_format,
					  dvpp_frame_cb cb, void *user,
					  char *why, size_t why_len);

/*
 * Feeds size bytes of an Annex-B elementary stream, cut anywhere: access
 * units are found by libavcodec's parser and decoded as they complete;
 * each decoded frame goes to the callback. eos: the stream ends after
 * this data: the last access unit and every delayed frame are delivered,
 * then the decoder is ready for a new stream. Returns 0, or the first
 * error met (-EBADMSG: data the decoder refused, -EOPNOTSUPP: a frame
 * format it cannot give as NV12/NV21, -ERANGE: a frame larger than
 * DVPP_VDEC_MAX); decoding goes on after an error with the data that
 * follows.
 */
int dvpp_video_dec_send(struct dvpp_video_dec *dec, const void *data,
			size_t size, bool eos, uint64_t pts, void *tag,
			char *why, size_t why_len);

/* Delivers the frames still held (as an eos would), then frees. */
void dvpp_video_dec_free(struct dvpp_video_dec *dec);

/* --------------------------------------------------------------- helpers */

/* Writes a reason into why (codec_why.c); returns err. */
int dvpp_codec_fail(char *why, size_t why_len, int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif /* VNPU_DVPP_CODEC_H */
