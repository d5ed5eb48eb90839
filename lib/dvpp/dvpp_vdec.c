// SPDX-License-Identifier: MIT
/*
 * VDEC: aclvdecCreateChannel / SendFrame / SendSkippedFrame /
 * DestroyChannel.
 *
 * A channel owns a stream of its own on the current context and a
 * libavcodec decoder (codec_video.c). Each aclvdecSendFrame queues a
 * media task on that stream: the task copies the bitstream out of DVPP
 * memory and feeds the decoder; every frame that comes out is written
 * into the output picture of the SendFrame that started it (the decoder
 * hands back the call's record as the frame's tag), and the channel's
 * callback is handed to the thread the program named in the channel
 * description, which runs it from aclrtProcessReport as CANN's does.
 * Channels decode on the media pool, so two channels run at once.
 *
 * Every SendFrame gets exactly one callback: with the decoded picture
 * (retCode 0), or, when its data gave no picture by the end of the stream
 * (a damaged frame, a skipped frame), with the output it was given and a
 * non-zero retCode (NULL output for a skipped frame).
 * aclvdecDestroyChannel ends the stream as an eos would, waits for the
 * tasks and for the callbacks to have run, then frees everything.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../core/entry_check.h"
#include "../core/log.h"
#include "../core/rt_objects.h"
#include "dvpp_codec.h"
#include "dvpp_media_task.h"
#include "dvpp_vdec.h"
#include "dvpp_vpc_check.h"
#include "../core/prof_rt.h"

/* retCode of a frame that produced no picture, or whose output failed. */
#define VDEC_NO_PICTURE		1u
#define VDEC_BAD_OUTPUT		2u
/* How long DestroyChannel waits for the program's callback thread. */
#define VDEC_DRAIN_MS		60000

struct vdec_send {
	struct dvpp_vdec_chan *c;
	acldvppStreamDesc *in;
	acldvppPicDesc *out;		/* NULL: skipped frame, or eos only */
	void *out_data;			/* out's buffer as checked when sent */
	uint32_t out_size;
	void *user;
	uint64_t seq;			/* order of the sends */
	bool delivered;
	bool eos;
	struct vdec_send *next;
};

struct dvpp_vdec_chan {
	aclvdecChannelDesc *desc;
	struct rt_stream *s;
	struct rt_device *dev;
	struct dvpp_video_dec *dec;
	uint64_t tid;
	aclvdecCallback cb;
	pthread_mutex_t lock;		/* pending, sent */
	struct vdec_send *pending;	/* sent, not yet delivered, in order */
	uint64_t sent;
	bool closing;			/* aclFinalize: frames are dropped */
	struct dvpp_vdec_chan *next;
};

static pthread_mutex_t chans_lock = PTHREAD_MUTEX_INITIALIZER;
static struct dvpp_vdec_chan *chans;

/* On the program's thread: the callback, then the record goes. */
static void deliver(void *arg)
{
	struct vdec_send *r = arg;

	r->c->cb(r->in, r->out, r->user);
	free(r);
}

/* Take r off the pending list and hand it to the program's thread. */
static void post(struct dvpp_vdec_chan *c, struct vdec_send *r)
{
	struct vdec_send **pp;

	pthread_mutex_lock(&c->lock);
	for (pp = &c->pending; *pp; pp = &(*pp)->next)
		if (*pp == r) {
			*pp = r->next;
			break;
		}
	pthread_mutex_unlock(&c->lock);
	if (r->eos && !r->out) {	/* the end of the stream alone */
		free(r);
		return;
	}
	if (cb_post(c->s, deliver, r)) {
		rt_log(LOG_ERROR, "VDEC channel %u: no thread takes its callbacks",
		       c->desc->channel_id);
		free(r);
	}
}

/* The decoder's frame callback (on the media pool). */
static void on_frame(void *user, const struct dvpp_frame *f)
{
	struct dvpp_vdec_chan *c = user;
	struct vdec_send *r = f->tag, *p;

	if (c->closing)
		return;
	pthread_mutex_lock(&c->lock);
	for (p = c->pending; p && p != r; p = p->next)
		;
	if (!p)		/* no tag: the oldest waiting for a picture */
		for (p = c->pending; p && (!p->out || p->delivered); p = p->next)
			;
	if (p)
		p->delivered = true;
	pthread_mutex_unlock(&c->lock);
	if (!p) {
		rt_log(LOG_WARN, "VDEC channel %u: a frame with no send waiting is dropped",
		       c->desc->channel_id);
		return;
	}
	if (!p->out) {		/* a skipped frame: answered without a picture */
		post(c, p);
		return;
	}
	if (f->size > p->out_size ||
	    dvpp_to_device(c->dev, p->out_data, f->data, f->size)) {
		p->out->ret_code = VDEC_BAD_OUTPUT;
	} else {
		p->out->format = f->format;
		p->out->width = f->width;
		p->out->height = f->height;
		p->out->width_stride = f->width_stride;
		p->out->height_stride = f->height_stride;
		p->out->ret_code = f->corrupt ? VDEC_NO_PICTURE : 0;
	}
	post(c, p);
}

struct feed_task {
	struct vdec_send *r;
	const void *data;		/* device */
	uint32_t size;
	uint64_t pts;
};

/*
 * The stream ended after send number upto: every send up to it that gave
 * no picture is answered now, with retCode set.
 */
static void flush_undelivered(struct dvpp_vdec_chan *c, uint64_t upto)
{
	for (;;) {
		struct vdec_send *p;

		pthread_mutex_lock(&c->lock);
		for (p = c->pending; p && p->delivered; p = p->next)
			;
		if (p && p->seq > upto)
			p = NULL;
		if (p)
			p->delivered = true;
		pthread_mutex_unlock(&c->lock);
		if (!p)
			return;
		if (p->out)
			p->out->ret_code = VDEC_NO_PICTURE;
		post(c, p);
	}
}

static int feed_run(void *arg)
{
	struct feed_task *t = arg;
	struct vdec_send *r = t->r;
	struct dvpp_vdec_chan *c = r->c;
	bool eos = r->eos;		/* r may be answered and gone below */
	uint64_t seq = r->seq;
	char why[160] = "";
	void *buf = t->size ? malloc(t->size) : NULL;
	int ret = t->size && !buf ? -ENOMEM : 0;

	if (!ret && t->size)
		ret = dvpp_from_device(c->dev, buf, t->data, t->size);
	if (!ret)
		ret = dvpp_video_dec_send(c->dec, buf, t->size, eos, t->pts, r,
					  why, sizeof(why));
	if (ret)
		rt_log(LOG_WARN, "VDEC channel %u: %s", c->desc->channel_id,
		       why[0] ? why : "copying the stream");
	if (eos)
		flush_undelivered(c, seq);
	free(buf);
	free(t);
	return 0;	/* a bad frame is reported by its retCode, not the stream */
}

static aclError vdec_check_created(const char *func, aclvdecChannelDesc *d)
{
	if (!DVPP_IS(d, VDEC))
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "channelDesc %p is not a live aclvdecChannelDesc",
				   (void *)d);
	if (!d->chan)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "the channel is not created (aclvdecCreateChannel)");
	return ACL_SUCCESS;
}

static aclError vdec_send_frame(const char *func, aclvdecChannelDesc *d,
		     acldvppStreamDesc *in, acldvppPicDesc *out, bool skipped,
		     void *user)
{
	struct dvpp_vdec_chan *c;
	struct vdec_send *r;
	struct feed_task *t;
	aclError e;

	RT_REQUIRE_INIT();
	e = vdec_check_created(func, d);
	if (e)
		return e;
	c = d->chan;
	if (!DVPP_IS(in, STREAM))
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "input %p is not a live acldvppStreamDesc", (void *)in);
	if (!in->eos && (!in->data || !in->size))
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "input has no data (acldvppSetStreamDescData/Size)");
	if (in->size) {
		e = dvpp_check_mem(func, "input data", in->data, in->size);
		if (e)
			return e;
	}
	if (!skipped && !out && !in->eos)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "output must not be NULL except with eos");
	if (out) {
		if (!DVPP_IS(out, PIC))
			return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
					   "output %p is not a live picture description",
					   (void *)out);
		if (out->format != PIXEL_FORMAT_YUV_SEMIPLANAR_420 &&
		    out->format != PIXEL_FORMAT_YVU_SEMIPLANAR_420)
			return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
					   "VDEC outputs NV12 or NV21, not format %u",
					   out->format);
		if (out->format != d->out_pic_format)
			return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
					   "output format %u is not the channel's %u",
					   out->format, d->out_pic_format);
		if (!out->data || !out->size)
			return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
					   "output needs data and size");
		e = dvpp_check_mem(func, "output data", out->data, out->size);
		if (e)
			return e;
	}
	r = calloc(1, sizeof(*r));
	t = calloc(1, sizeof(*t));
	if (!r || !t) {
		free(r);
		free(t);
		return acl_fail_at(func, ACL_ERROR_BAD_ALLOC, "out of host memory");
	}
	*r = (struct vdec_send){ c, in, out, out ? out->data : NULL,
				 out ? out->size : 0, user, 0, false, in->eos, NULL };
	*t = (struct feed_task){ r, in->data, in->size, in->timestamp };
	pthread_mutex_lock(&c->lock);
	r->seq = ++c->sent;
	{
		struct vdec_send **pp = &c->pending;

		while (*pp)
			pp = &(*pp)->next;
		*pp = r;
	}
	pthread_mutex_unlock(&c->lock);
	e = dvpp_media_launch(func, c->s, feed_run, t);
	if (e) {
		pthread_mutex_lock(&c->lock);
		for (struct vdec_send **pp = &c->pending; *pp; pp = &(*pp)->next)
			if (*pp == r) {
				*pp = r->next;
				break;
			}
		pthread_mutex_unlock(&c->lock);
		free(r);
		free(t);
	}
	return e;
}

aclError aclvdecSendFrame(aclvdecChannelDesc *channelDesc,
			  acldvppStreamDesc *input, acldvppPicDesc *output,
			  aclvdecFrameConfig *config, void *userData)
{
	PROF_API();
	(void)config;
	return vdec_send_frame(__func__, channelDesc, input, output, false, userData);
}

aclError aclvdecSendSkippedFrame(aclvdecChannelDesc *channelDesc,
				 acldvppStreamDesc *input,
				 aclvdecFrameConfig *config, void *userData)
{
	PROF_API();
	(void)config;
	return vdec_send_frame(__func__, channelDesc, input, NULL, true, userData);
}

aclError aclvdecCreateChannel(aclvdecChannelDesc *channelDesc)
{
	PROF_API();
	struct dvpp_vdec_chan *c;
	struct rt_context *ctx;
	char why[160] = "";
	int ret;

	RT_REQUIRE_INIT();
	if (!DVPP_IS(channelDesc, VDEC))
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"channelDesc %p is not a live aclvdecChannelDesc",
				(void *)channelDesc);
	if (channelDesc->chan)
		return acl_fail(ACL_ERROR_INVALID_PARAM, "the channel exists already");
	if (!channelDesc->callback)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"no callback (aclvdecSetChannelDescCallback)");
	if (!channelDesc->thread_id)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"no thread to run the callback (aclvdecSetChannelDescThreadId)");
	if (channelDesc->en_type > H264_HIGH_LEVEL)
		return acl_fail(ACL_ERROR_INVALID_PARAM, "unknown stream format %u",
				channelDesc->en_type);
	if (channelDesc->out_pic_format != PIXEL_FORMAT_YUV_SEMIPLANAR_420 &&
	    channelDesc->out_pic_format != PIXEL_FORMAT_YVU_SEMIPLANAR_420)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"VDEC outputs NV12 or NV21, not format %u",
				channelDesc->out_pic_format);
	ctx = context_current();
	if (!ctx)
		return rt_error(-ESRCH, "creating a VDEC channel");
	pthread_mutex_lock(&chans_lock);
	for (c = chans; c; c = c->next)
		if (c->desc->channel_id == channelDesc->channel_id)
			break;
	pthread_mutex_unlock(&chans_lock);
	if (c)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"VDEC channel %u is in use", channelDesc->channel_id);
	c = calloc(1, sizeof(*c));
	if (!c)
		return acl_fail(ACL_ERROR_BAD_ALLOC, "out of host memory");
	pthread_mutex_init(&c->lock, NULL);
	c->desc = channelDesc;
	c->dev = ctx->dev;
	c->tid = channelDesc->thread_id;
	c->cb = channelDesc->callback;
	c->dec = dvpp_video_dec_new(channelDesc->en_type,
				    channelDesc->out_pic_format, on_frame, c,
				    why, sizeof(why));
	if (!c->dec) {
		free(c);
		return acl_fail(ACL_ERROR_FAILURE, "VDEC: %s", why);
	}
	ret = stream_create(ctx, 0, &c->s);
	if (!ret) {
		ret = cb_subscribe(c->tid, c->s);
		if (ret)
			stream_destroy(c->s);
	}
	if (ret) {
		dvpp_video_dec_free(c->dec);
		free(c);
		if (ret == -EMLINK)
			return acl_fail(ACL_ERROR_INVALID_PARAM,
					"thread %llu serves callbacks of another device",
					(unsigned long long)channelDesc->thread_id);
		return rt_error(ret, "creating a VDEC channel");
	}
	channelDesc->chan = c;
	pthread_mutex_lock(&chans_lock);
	c->next = chans;
	chans = c;
	pthread_mutex_unlock(&chans_lock);
	return ACL_SUCCESS;
}

static void unlink_chan(struct dvpp_vdec_chan *c)
{
	pthread_mutex_lock(&chans_lock);
	for (struct dvpp_vdec_chan **pp = &chans; *pp; pp = &(*pp)->next)
		if (*pp == c) {
			*pp = c->next;
			break;
		}
	pthread_mutex_unlock(&chans_lock);
}

static int end_run(void *arg)
{
	struct dvpp_vdec_chan *c = arg;
	char why[160];

	dvpp_video_dec_send(c->dec, NULL, 0, true, 0, NULL, why, sizeof(why));
	flush_undelivered(c, UINT64_MAX);
	return 0;
}

aclError aclvdecDestroyChannel(aclvdecChannelDesc *channelDesc)
{
	PROF_API();
	struct dvpp_vdec_chan *c;
	aclError e = ACL_SUCCESS;
	int ret;

	RT_REQUIRE_INIT();
	e = vdec_check_created(__func__, channelDesc);
	if (e)
		return e;
	c = channelDesc->chan;
	/* the end of the stream: every frame out, every send answered */
	ret = cb_launch_media(c->s, end_run, c);
	if (!ret)
		ret = stream_sync(c->s, -1);
	if (!ret)
		ret = cb_wait_all_run(c->s, VDEC_DRAIN_MS);
	if (ret)
		e = rt_error(ret, "waiting for the channel's frames and callbacks");
	cb_unsubscribe(c->tid, c->s);
	stream_destroy(c->s);
	dvpp_video_dec_free(c->dec);
	unlink_chan(c);
	pthread_mutex_destroy(&c->lock);
	free(c);
	channelDesc->chan = NULL;
	return e;
}

void vdec_teardown(void)
{
	struct dvpp_vdec_chan *c;

	pthread_mutex_lock(&chans_lock);
	while ((c = chans)) {
		chans = c->next;
		c->desc->chan = NULL;
		c->closing = true;
		pthread_mutex_unlock(&chans_lock);
		/* the media tasks still queued end before c goes */
		stream_sync(c->s, VDEC_DRAIN_MS);
		pthread_mutex_lock(&chans_lock);
		dvpp_video_dec_free(c->dec);
		while (c->pending) {
			struct vdec_send *r = c->pending;

			c->pending = r->next;
			free(r);
		}
		free(c);
	}
	pthread_mutex_unlock(&chans_lock);
}

void vdec_forget_after_fork(void)
{
	pthread_mutex_init(&chans_lock, NULL);
	chans = NULL;
}
