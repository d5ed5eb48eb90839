// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * DRM_VNPU_OP_VPC against OpenCV itself (the host build of the operator
 * library through tests/ops/vpc_cv_shim.c): resizes of NV12 pictures
 * plane by plane against cv::resize of the Y plane (CV_8UC1) and the UV
 * plane (CV_8UC2) — nearest bit for bit, bilinear and bicubic within the
 * bounds Documentation/vpc.md states —, RGB888 against CV_8UC3, crops
 * against resizes of the ROI, PyrDown against cv::pyrDown and MakeBorder
 * against cv::copyMakeBorder bit for bit; then the time of a 1920x1080
 * NV12 to 224x224 bilinear resize next to cv::resize's of both planes.
 * Prints TAP.
 */
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <vector>

#include "vpc_cv_shim.h"
#include "vpc_test_pic.h"

static int n_tests, n_failed;

static void tap(bool ok, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	printf("%s %d - ", ok ? "ok" : "not ok", ++n_tests);
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
	n_failed += !ok;
}

/* The bounds this test holds each mode to (Documentation/vpc.md). */
static const int bound_nearest = 0, bound_linear = 1, bound_cubic = 1;

struct attrs {
	int64_t ints[24];
	uint32_t floats[8];
};

static void attrs_init(attrs *a, const pic *s, const pic *d, int mode)
{
	memset(a, 0, sizeof(*a));
	a->ints[0] = s->fmt;
	a->ints[1] = s->w;
	a->ints[2] = s->h;
	a->ints[3] = s->ws;
	a->ints[4] = s->hs;
	a->ints[5] = d->fmt;
	a->ints[6] = d->w;
	a->ints[7] = d->h;
	a->ints[8] = d->ws;
	a->ints[9] = d->hs;
	a->ints[18] = mode;
}

static int run(const attrs *a, pic *s, pic *d, uint64_t *pieces = nullptr)
{
	return vpc_shim_run(a->ints, a->floats, s->buf, s->size, d->buf, d->size,
			    pieces);
}

/* A plane of a picture as a Mat over its bytes (no copy). */
static cv::Mat y_plane(const pic *p)
{
	return cv::Mat(p->h, p->w, CV_8UC1, p->buf, p->ws);
}

static cv::Mat uv_plane(const pic *p)
{
	return cv::Mat(p->h / 2, p->w / 2, CV_8UC2, p->buf + (size_t)p->ws * p->hs,
		       p->ws);
}

static cv::Mat rgb_plane(const pic *p)
{
	return cv::Mat(p->h, p->w, CV_8UC(pic_bpp(p->fmt)), p->buf, p->ws);
}

/* Largest |a - b| and how many elements differ. */
static int max_diff(const cv::Mat &a, const cv::Mat &b, long *differ)
{
	cv::Mat d;
	double mx;

	cv::absdiff(a, b, d);
	d = d.reshape(1);
	cv::minMaxLoc(d, nullptr, &mx);
	*differ = cv::countNonZero(d);
	return (int)mx;
}

static int cv_mode(int mode)
{
	return mode == 2 ? cv::INTER_NEAREST : mode == 1 ? cv::INTER_LINEAR :
	       cv::INTER_CUBIC;
}

static int bound_of(int mode)
{
	return mode == 2 ? bound_nearest : mode == 1 ? bound_linear : bound_cubic;
}

static const char *name_of(int mode)
{
	return mode == 2 ? "nearest" : mode == 1 ? "bilinear" : "bicubic";
}

struct geo {
	int sw, sh, dw, dh;
	int rx = 0, ry = 0, rw = 0, rh = 0;	/* source rectangle, rw 0: all */
};

static const geo geos[] = {
	{ 1920, 1080, 224, 224 }, { 640, 480, 320, 240 }, { 100, 60, 250, 150 },
	{ 64, 48, 64, 24 }, { 74, 58, 50, 22 }, { 2, 2, 16, 16 },
	{ 300, 200, 298, 202 }, { 1280, 720, 1920, 1080 }, { 96, 64, 30, 90 },
	{ 640, 480, 224, 224, 100, 50, 300, 260 }, { 200, 100, 64, 64, 2, 4, 6, 8 },
	{ 4096, 2160, 416, 416 }, { 58, 34, 640, 360 },
};

static void test_nv12_planes(int mode)
{
	for (const geo &g : geos) {
		pic s, d;
		attrs a;
		cv::Mat ry, ruv;
		int rw = g.rw ? g.rw : g.sw, rh = g.rw ? g.rh : g.sh;
		long dy, duv;
		int my, muv;

		pic_make(&s, F_NV12, g.sw, g.sh, 0);
		pic_make(&d, F_NV12, g.dw, g.dh, 0);
		pic_fill(&s, (uint64_t)g.sw * 31 + g.dw);
		attrs_init(&a, &s, &d, mode);
		a.ints[10] = g.rx;
		a.ints[11] = g.ry;
		a.ints[12] = g.rw;
		a.ints[13] = g.rh;
		if (run(&a, &s, &d)) {
			tap(false, "%s NV12 %dx%d -> %dx%d: refused", name_of(mode), g.sw,
			    g.sh, g.dw, g.dh);
			continue;
		}
		cv::resize(y_plane(&s)(cv::Rect(g.rx, g.ry, rw, rh)).clone(), ry,
			   cv::Size(g.dw, g.dh), 0, 0, cv_mode(mode));
		cv::resize(uv_plane(&s)(cv::Rect(g.rx / 2, g.ry / 2, rw / 2, rh / 2)).clone(),
			   ruv, cv::Size(g.dw / 2, g.dh / 2), 0, 0, cv_mode(mode));
		my = max_diff(y_plane(&d), ry, &dy);
		muv = max_diff(uv_plane(&d), ruv, &duv);
		tap(my <= bound_of(mode) && muv <= bound_of(mode),
		    "%s NV12 %dx%d (rect %d,%d %dx%d) -> %dx%d: Y max |diff| %d "
		    "(%ld of %d differ), UV max %d (%ld of %d)", name_of(mode), g.sw,
		    g.sh, g.rx, g.ry, rw, rh, g.dw, g.dh, my, dy, g.dw * g.dh, muv, duv,
		    g.dw * g.dh / 2);
		pic_free(&s);
		pic_free(&d);
	}
}

static void test_rgb(int mode)
{
	static const geo rg[] = {
		{ 640, 480, 224, 224 }, { 33, 17, 100, 41 }, { 500, 375, 499, 376 },
		{ 7, 5, 3, 2 },
	};

	for (const geo &g : rg) {
		pic s, d;
		attrs a;
		cv::Mat r;
		long n;
		int m;

		pic_make(&s, F_RGB888, g.sw, g.sh, 0);
		pic_make(&d, F_RGB888, g.dw, g.dh, 0);
		pic_fill(&s, (uint64_t)g.sh * 7 + g.dh);
		attrs_init(&a, &s, &d, mode);
		if (run(&a, &s, &d)) {
			tap(false, "%s RGB888: refused", name_of(mode));
			continue;
		}
		cv::resize(rgb_plane(&s), r, cv::Size(g.dw, g.dh), 0, 0, cv_mode(mode));
		m = max_diff(rgb_plane(&d), r, &n);
		tap(m <= bound_of(mode), "%s RGB888 %dx%d -> %dx%d: max |diff| %d "
		    "(%ld of %d differ)", name_of(mode), g.sw, g.sh, g.dw, g.dh, m, n,
		    3 * g.dw * g.dh);
		pic_free(&s);
		pic_free(&d);
	}
}

static void test_pyrdown(void)
{
	static const int sz[][2] = {
		{ 1, 1 }, { 2, 1 }, { 3, 3 }, { 4, 7 }, { 5, 2 }, { 16, 9 },
		{ 639, 479 }, { 1920, 1080 }, { 101, 3 },
	};

	for (const auto &z : sz) {
		pic s, d;
		attrs a;
		cv::Mat r;
		long n;
		int m;

		pic_make(&s, F_YUV400, z[0], z[1], 0);
		pic_make(&d, F_YUV400, (z[0] + 1) / 2, (z[1] + 1) / 2, 0);
		pic_fill(&s, z[0] * 3 + z[1]);
		attrs_init(&a, &s, &d, 0);
		a.ints[20] = 1;
		if (run(&a, &s, &d)) {
			tap(false, "PyrDown %dx%d: refused", z[0], z[1]);
			continue;
		}
		cv::pyrDown(y_plane(&s), r);
		m = max_diff(y_plane(&d), r, &n);
		tap(m == 0 && r.cols == d.w && r.rows == d.h,
		    "PyrDown %dx%d -> %dx%d: bit for bit (%ld differ)", z[0], z[1], d.w,
		    d.h, n);
		pic_free(&s);
		pic_free(&d);
	}
}

static void test_make_border(void)
{
	static const int cv_type[4] = { cv::BORDER_CONSTANT, cv::BORDER_REPLICATE,
					cv::BORDER_REFLECT, cv::BORDER_REFLECT_101 };
	static const uint32_t fmts[] = { F_RGB888, F_BGRA, F_YUV400 };
	const float vals[4] = { 7.4f, 300.0f, -5.0f, 128.5f };

	for (uint32_t f : fmts)
		for (int t = 0; t < 4; t++) {
			/* borders wider than the image, on uneven sides */
			pic s, d;
			attrs a;
			cv::Mat r;
			long n;
			int m, top = 13, left = 21;

			pic_make(&s, f, 9, 6, 0);
			pic_make(&d, f, 9 + left + 4, 6 + top + 2, 0);
			pic_fill(&s, 77 + t);
			attrs_init(&a, &s, &d, 0);
			a.ints[20] = 2;
			a.ints[21] = t;
			a.ints[14] = left;
			a.ints[15] = top;
			a.ints[16] = 9;
			a.ints[17] = 6;
			memcpy(a.floats, vals, sizeof(vals));
			if (run(&a, &s, &d)) {
				tap(false, "MakeBorder format %u type %d: refused", f, t);
				continue;
			}
			cv::copyMakeBorder(rgb_plane(&s), r, top, 2, left, 4, cv_type[t],
					   cv::Scalar(vals[0], vals[1], vals[2], vals[3]));
			m = max_diff(rgb_plane(&d), r, &n);
			tap(m == 0, "MakeBorder format %u type %d: bit for bit (%ld differ)",
			    f, t, n);
			pic_free(&s);
			pic_free(&d);
		}
}

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

template <typename F> static double median_us(F fn, int reps)
{
	std::vector<double> t;

	for (int i = 0; i < reps; i++) {
		double t0 = now_us();

		fn();
		t.push_back(now_us() - t0);
	}
	std::sort(t.begin(), t.end());
	return t[t.size() / 2];
}

/* Not a pass/fail test: machines and their load vary. */
static void bench(void)
{
	pic s, d;
	attrs a;
	cv::Mat ry, ruv;
	uint64_t pieces = 0;
	double vpc, cv_mt, cv_1;
	int threads = cv::getNumThreads();

	pic_make(&s, F_NV12, 1920, 1080, 0);
	pic_make(&d, F_NV12, 224, 224, 0);
	pic_fill(&s, 1);
	attrs_init(&a, &s, &d, 1);
	run(&a, &s, &d, &pieces);
	vpc = median_us([&] { run(&a, &s, &d); }, 200);
	cv_mt = median_us([&] {
		cv::resize(y_plane(&s), ry, cv::Size(224, 224), 0, 0, cv::INTER_LINEAR);
		cv::resize(uv_plane(&s), ruv, cv::Size(112, 112), 0, 0, cv::INTER_LINEAR);
	}, 200);
	cv::setNumThreads(1);
	cv_1 = median_us([&] {
		cv::resize(y_plane(&s), ry, cv::Size(224, 224), 0, 0, cv::INTER_LINEAR);
		cv::resize(uv_plane(&s), ruv, cv::Size(112, 112), 0, 0, cv::INTER_LINEAR);
	}, 200);
	cv::setNumThreads(threads);
	printf("# bench NV12 1920x1080 -> 224x224 bilinear: VPC %.1f us (%llu "
	       "piece(s), one thread), cv::resize Y + UV %.1f us (%d threads), "
	       "%.1f us (1 thread)\n", vpc, (unsigned long long)pieces, cv_mt,
	       threads, cv_1);
	pic_free(&s);
	pic_free(&d);
}

int main(void)
{
	printf("TAP version 13\n");
	for (int mode = 0; mode <= 2; mode++)
		test_nv12_planes(mode);
	for (int mode = 0; mode <= 2; mode++)
		test_rgb(mode);
	test_pyrdown();
	test_make_border();
	bench();
	printf("1..%d\n", n_tests);
	return n_failed ? 1 : 0;
}
