// SPDX-License-Identifier: MIT
/*
 * The C++ teardown of real programs: runtime objects held by unique_ptr
 * in a static object are destroyed by its destructor after main returns,
 * when main has already called aclrtResetDevice and aclFinalize (or only
 * the reset, or neither), or by an atexit handler. Each scenario runs in
 * a child process; the deleters' codes come back through a pipe and are
 * compared with the documented ones, and the child must exit 0: under
 * AddressSanitizer (the _asan build) that also means no leak and no
 * use-after-free in the library.
 */
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <sys/wait.h>
#include <unistd.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"

namespace {

enum What { STREAM, EVENT, CONTEXT, DEVMEM, HOSTMEM, GRAPH, TENSOR, SCALAR, EXECUTOR, NWHAT };
const char *const names[NWHAT] = {
	"aclrtDestroyStream", "aclrtDestroyEvent", "aclrtDestroyContext", "aclrtFree",
	"aclrtFreeHost", "aclmdlRIDestroy", "aclDestroyTensor", "aclDestroyScalar",
	"aclDestroyAclOpExecutor",
};

/* Plain data, so it is still valid while static destructors run. */
int result_fd = -1;

void report(What w, int code)
{
	char line[64];
	int n = snprintf(line, sizeof(line), "%d %d\n", (int)w, code);

	if (write(result_fd, line, (size_t)n) != n)
		_exit(3);
}

struct StreamDel { void operator()(void *p) const { report(STREAM, aclrtDestroyStream(p)); } };
struct EventDel { void operator()(void *p) const { report(EVENT, aclrtDestroyEvent(p)); } };
struct CtxDel { void operator()(void *p) const { report(CONTEXT, aclrtDestroyContext(p)); } };
struct DevDel { void operator()(void *p) const { report(DEVMEM, aclrtFree(p)); } };
struct HostDel { void operator()(void *p) const { report(HOSTMEM, aclrtFreeHost(p)); } };
struct GraphDel { void operator()(void *p) const { report(GRAPH, aclmdlRIDestroy(p)); } };
struct TensorDel { void operator()(aclTensor *p) const { report(TENSOR, aclDestroyTensor(p)); } };
struct ScalarDel { void operator()(aclScalar *p) const { report(SCALAR, aclDestroyScalar(p)); } };
struct ExecDel { void operator()(aclOpExecutor *p) const { report(EXECUTOR, aclDestroyAclOpExecutor(p)); } };

/* What a program keeps until it ends. */
struct Resources {
	std::unique_ptr<void, CtxDel> ctx;
	std::unique_ptr<void, StreamDel> stream;
	std::unique_ptr<void, EventDel> event;
	std::unique_ptr<void, DevDel> dev;
	std::unique_ptr<void, HostDel> host;
	std::unique_ptr<void, GraphDel> graph;
	std::unique_ptr<aclTensor, TensorDel> a, b, out;
	std::unique_ptr<aclScalar, ScalarDel> alpha;
	std::unique_ptr<aclOpExecutor, ExecDel> exec;
};

Resources statics;		/* destroyed after main returns */
Resources *for_atexit;

bool acquire(Resources &r)
{
	int64_t dims[1] = { 16 };
	float one = 1.0f;
	aclrtContext dflt, c;
	aclrtStream s;
	aclrtEvent e;
	aclmdlRI ri;
	aclOpExecutor *ex;
	uint64_t ws;
	void *d, *h;

	if (aclInit(nullptr) || aclrtSetDevice(0) || aclrtGetCurrentContext(&dflt) ||
	    aclrtCreateContext(&c, 0) || aclrtSetCurrentContext(dflt))
		return false;
	r.ctx.reset(c);
	if (aclrtCreateStream(&s) || aclrtCreateEvent(&e))
		return false;
	r.stream.reset(s);
	r.event.reset(e);
	if (aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST) || aclrtMallocHost(&h, 64))
		return false;
	r.dev.reset(d);
	r.host.reset(h);
	if (aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) ||
	    aclrtMemsetAsync(d, 64, 0, 64, s) || aclmdlRICaptureEnd(s, &ri))
		return false;
	r.graph.reset(ri);
	r.a.reset(aclCreateTensor(dims, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 1, d));
	r.b.reset(aclCreateTensor(dims, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 1, d));
	r.out.reset(aclCreateTensor(dims, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 1, d));
	r.alpha.reset(aclCreateScalar(&one, ACL_FLOAT));
	if (aclnnAddGetWorkspaceSize(r.a.get(), r.b.get(), r.alpha.get(), r.out.get(), &ws, &ex) ||
	    aclSetAclOpExecutorRepeatable(ex))
		return false;
	r.exec.reset(ex);
	return true;
}

void release_at_exit()
{
	delete for_atexit;
}

enum Mode { FINALIZE, RESET, NEITHER, ATEXIT, NMODE };
const char *const mode_names[NMODE] = {
	"aclrtResetDevice and aclFinalize in main, static destructor",
	"aclrtResetDevice in main, static destructor",
	"nothing in main, static destructor",
	"aclrtResetDevice and aclFinalize in main, atexit handler",
};

/* The documented codes (Documentation/acl-runtime.md). */
int expected(Mode m, What w)
{
	const int UNINIT = ACL_ERROR_UNINITIALIZE;

	if (w == TENSOR || w == SCALAR || w == EXECUTOR)
		return 0;	/* the program's host objects */
	switch (m) {
	case FINALIZE: case ATEXIT:
		return UNINIT;
	case RESET:
		return w == STREAM || w == DEVMEM || w == HOSTMEM ? ACL_ERROR_RT_CONTEXT_NULL :
		       w == GRAPH ? ACL_ERROR_RT_PARAM_INVALID : 0;
	default:
		return 0;
	}
}

/* The child: acquire, maybe tear down, return from "main". */
int child(Mode m)
{
	Resources *r = &statics;

	if (m == ATEXIT) {
		r = for_atexit = new Resources;
		atexit(release_at_exit);
	}
	if (!acquire(*r)) {
		fprintf(stderr, "acquiring resources failed: %s\n", aclGetRecentErrMsg());
		return 4;
	}
	if (m != NEITHER && aclrtResetDevice(0))
		return 5;
	if ((m == FINALIZE || m == ATEXIT) && aclFinalize())
		return 6;
	return 0;	/* exit() runs the destructors */
}

} // namespace

int main()
{
	int n = 0, fails = 0;

	printf("TAP version 13\n1..%d\n", NMODE * (NWHAT + 1));
	fflush(stdout);
	for (int m = 0; m < NMODE; m++) {
		int fds[2], got[NWHAT], status = 0;
		char buf[4096];
		size_t len = 0;
		ssize_t k;
		pid_t pid;

		if (pipe(fds))
			return 2;
		pid = fork();
		if (pid == 0) {
			close(fds[0]);
			result_fd = fds[1];
			exit(child((Mode)m));
		}
		close(fds[1]);
		while ((k = read(fds[0], buf + len, sizeof(buf) - 1 - len)) > 0)
			len += (size_t)k;
		buf[len] = 0;
		close(fds[0]);
		waitpid(pid, &status, 0);
		for (int w = 0; w < NWHAT; w++)
			got[w] = -1;
		for (char *line = strtok(buf, "\n"); line; line = strtok(nullptr, "\n")) {
			int w, code;

			if (sscanf(line, "%d %d", &w, &code) == 2 && w >= 0 && w < NWHAT)
				got[w] = code;
		}
		for (int w = 0; w < NWHAT; w++) {
			bool ok = got[w] == expected((Mode)m, (What)w);

			fails += !ok;
			printf("%s %d - %s: %s returns %d (want %d)\n", ok ? "ok" : "not ok", ++n,
			       mode_names[m], names[w], got[w], expected((Mode)m, (What)w));
		}
		bool clean = WIFEXITED(status) && WEXITSTATUS(status) == 0;
		fails += !clean;
		printf("%s %d - %s: the process exits 0 (status 0x%x)\n", clean ? "ok" : "not ok",
		       ++n, mode_names[m], status);
		fflush(stdout);
	}
	return fails ? 1 : 0;
}
