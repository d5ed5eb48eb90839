// SPDX-License-Identifier: GPL-2.0-only
/*
 * UAPI tests of the vnpu skeleton device: nodes, DRM version, GET_PARAM
 * (every parameter and every validation rule), debugfs, fdinfo and the
 * io_uring passthrough. Runs in the VM with vnpu.ko loaded.
 */
#include <liburing.h>
#include <sys/mman.h>

#include "vnpu_test_util.h"
#include "kselftest_harness.h"

FIXTURE(dev)
{
	int fd;
	char path[64];
};

FIXTURE_SETUP(dev)
{
	char paths[VNPU_TEST_MAX_NODES][64];

	ASSERT_GE(vnpu_list_nodes(paths, VNPU_TEST_MAX_NODES), 1)
		TH_LOG("no /dev/accel node: is vnpu.ko loaded?");
	snprintf(self->path, sizeof(self->path), "%s", paths[0]);
	self->fd = open(self->path, O_RDWR | O_CLOEXEC);
	ASSERT_GE(self->fd, 0) TH_LOG("open %s: %s", self->path, strerror(errno));
}

FIXTURE_TEARDOWN(dev)
{
	close(self->fd);
}

/* Every accel node opens and belongs to vnpu. */
TEST(every_node_opens_and_is_vnpu)
{
	char paths[VNPU_TEST_MAX_NODES][64];
	char name[32];
	int n, i, fd;

	n = vnpu_list_nodes(paths, VNPU_TEST_MAX_NODES);
	ASSERT_GE(n, 1);
	for (i = 0; i < n; i++) {
		fd = open(paths[i], O_RDWR | O_CLOEXEC);
		ASSERT_GE(fd, 0) TH_LOG("open %s: %s", paths[i], strerror(errno));
		ASSERT_EQ(0, vnpu_driver_name(fd, name, sizeof(name)));
		EXPECT_STREQ("vnpu", name);
		close(fd);
	}
}

/* The number of nodes follows the num_devices module parameter. */
TEST(device_count_follows_num_devices)
{
	char paths[VNPU_TEST_MAX_NODES][64];
	long want = vnpu_module_param("num_devices");
	uint64_t v = 0;
	int n, fd;

	ASSERT_GE(want, 1);
	n = vnpu_list_nodes(paths, VNPU_TEST_MAX_NODES);
	ASSERT_EQ(want, n);
	fd = open(paths[0], O_RDWR | O_CLOEXEC);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, vnpu_get_param(fd, DRM_VNPU_PARAM_DEVICE_COUNT, &v));
	EXPECT_EQ((uint64_t)want, v);
	close(fd);
}

/* Device indices are 0..n-1, one per node, in node order. */
TEST(device_indices_are_distinct)
{
	char paths[VNPU_TEST_MAX_NODES][64];
	uint64_t seen = 0, v = 0;
	int n, i, fd;

	n = vnpu_list_nodes(paths, VNPU_TEST_MAX_NODES);
	ASSERT_GE(n, 1);
	for (i = 0; i < n; i++) {
		fd = open(paths[i], O_RDWR | O_CLOEXEC);
		ASSERT_GE(fd, 0);
		ASSERT_EQ(0, vnpu_get_param(fd, DRM_VNPU_PARAM_DEVICE_INDEX, &v));
		ASSERT_LT(v, (uint64_t)n);
		EXPECT_EQ(0, seen & (1ULL << v)) TH_LOG("index %lu twice", (unsigned long)v);
		seen |= 1ULL << v;
		close(fd);
	}
	EXPECT_EQ((1ULL << n) - 1, seen);
}

TEST_F(dev, param_uapi_version)
{
	uint64_t v = 0;

	ASSERT_EQ(0, vnpu_get_param(self->fd, DRM_VNPU_PARAM_UAPI_VERSION, &v));
	EXPECT_EQ(DRM_VNPU_UAPI_VERSION(DRM_VNPU_UAPI_MAJOR, DRM_VNPU_UAPI_MINOR), v);
}

TEST_F(dev, param_capabilities)
{
	uint64_t v = 0;

	ASSERT_EQ(0, vnpu_get_param(self->fd, DRM_VNPU_PARAM_CAPABILITIES, &v));
	EXPECT_EQ(0, v & ~DRM_VNPU_CAP_KNOWN) TH_LOG("unknown bits 0x%llx",
		(unsigned long long)(v & ~DRM_VNPU_CAP_KNOWN));
	EXPECT_EQ(DRM_VNPU_CAP_KNOWN, v);
}

TEST_F(dev, param_memory)
{
	long mb = vnpu_module_param("mem_mb");
	uint64_t total = 1, used = 1, avail = 1;

	ASSERT_GT(mb, 0);
	ASSERT_EQ(0, vnpu_get_param(self->fd, DRM_VNPU_PARAM_MEM_TOTAL, &total));
	ASSERT_EQ(0, vnpu_get_param(self->fd, DRM_VNPU_PARAM_MEM_USED, &used));
	ASSERT_EQ(0, vnpu_get_param(self->fd, DRM_VNPU_PARAM_MEM_FREE, &avail));
	EXPECT_EQ((uint64_t)mb << 20, total);
	EXPECT_EQ(0, used);
	EXPECT_EQ(total, avail);
}

TEST_F(dev, param_engines_queue_timeout)
{
	uint64_t v = 0;

	ASSERT_EQ(0, vnpu_get_param(self->fd, DRM_VNPU_PARAM_ENGINE_COUNT, &v));
	EXPECT_EQ((uint64_t)vnpu_module_param("engines"), v);
	ASSERT_EQ(0, vnpu_get_param(self->fd, DRM_VNPU_PARAM_QUEUE_DEPTH, &v));
	EXPECT_EQ((uint64_t)vnpu_module_param("queue_depth"), v);
	ASSERT_EQ(0, vnpu_get_param(self->fd, DRM_VNPU_PARAM_JOB_TIMEOUT_MS, &v));
	EXPECT_EQ((uint64_t)vnpu_module_param("job_timeout_ms"), v);
}

/* Each invalid call differs from a valid one in one field. */
static int get_param_raw(int fd, struct drm_vnpu_get_param *gp)
{
	return ioctl(fd, DRM_IOCTL_VNPU_GET_PARAM, gp) ? -errno : 0;
}

TEST_F(dev, get_param_unknown_param_einval)
{
	uint32_t bad[] = { VNPU_TEST_LAST_PARAM + 1, 0x1000, 0xffffffffu };
	struct drm_vnpu_get_param gp;
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&gp, 0, sizeof(gp));
		gp.param = bad[i];
		gp.value = 0x5a5a;
		EXPECT_EQ(-EINVAL, get_param_raw(self->fd, &gp));
		EXPECT_EQ(0x5a5a, gp.value) TH_LOG("value changed on failure");
	}
}

TEST_F(dev, get_param_nonzero_pad_einval)
{
	struct drm_vnpu_get_param gp = { .param = DRM_VNPU_PARAM_UAPI_VERSION };

	ASSERT_EQ(0, get_param_raw(self->fd, &gp));
	gp.pad = 1;
	EXPECT_EQ(-EINVAL, get_param_raw(self->fd, &gp));
}

TEST_F(dev, get_param_nonzero_reserved_einval)
{
	struct drm_vnpu_get_param gp = { .param = DRM_VNPU_PARAM_UAPI_VERSION };

	gp.reserved = 0x80000000u;
	EXPECT_EQ(-EINVAL, get_param_raw(self->fd, &gp));
}

TEST_F(dev, get_param_nonzero_index_einval)
{
	struct drm_vnpu_get_param gp;
	uint64_t engines = 0;
	uint32_t p;
	bool per_engine;

	ASSERT_EQ(0, vnpu_get_param(self->fd, DRM_VNPU_PARAM_ENGINE_COUNT,
				    &engines));
	/*
	 * Only the ENGINE_* counters (UAPI 1.8) are indexed, by engine:
	 * index 1 is out of range for every other parameter, ENGINE_COUNT
	 * for those.
	 */
	for (p = 0; p <= VNPU_TEST_LAST_PARAM; p++) {
		per_engine = p >= DRM_VNPU_PARAM_ENGINE_BUSY_NS &&
			     p <= DRM_VNPU_PARAM_ENGINE_BYTES;
		memset(&gp, 0, sizeof(gp));
		gp.param = p;
		EXPECT_EQ(0, get_param_raw(self->fd, &gp)) TH_LOG("param %u", p);
		if (per_engine) {
			gp.index = engines - 1;
			EXPECT_EQ(0, get_param_raw(self->fd, &gp)) TH_LOG("param %u", p);
		}
		gp.index = per_engine ? engines : 1;
		EXPECT_EQ(-EINVAL, get_param_raw(self->fd, &gp)) TH_LOG("param %u", p);
		gp.index = 0xffffffffu;
		EXPECT_EQ(-EINVAL, get_param_raw(self->fd, &gp)) TH_LOG("param %u", p);
	}
}

TEST_F(dev, get_param_bad_pointer_efault)
{
	void *unmapped;

	EXPECT_EQ(-1, ioctl(self->fd, DRM_IOCTL_VNPU_GET_PARAM, NULL));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(-1, ioctl(self->fd, DRM_IOCTL_VNPU_GET_PARAM, (void *)8));
	EXPECT_EQ(EFAULT, errno);

	/* A page that was mapped and is gone. */
	unmapped = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, unmapped);
	munmap(unmapped, 4096);
	EXPECT_EQ(-1, ioctl(self->fd, DRM_IOCTL_VNPU_GET_PARAM, unmapped));
	EXPECT_EQ(EFAULT, errno);
}

/* An ioctl number past the driver's table is refused. */
TEST_F(dev, unknown_driver_ioctl_einval)
{
	struct drm_vnpu_get_param gp = { 0 };
	unsigned long nr = DRM_IOWR(DRM_COMMAND_BASE + 0x3f,
				    struct drm_vnpu_get_param);

	EXPECT_EQ(-1, ioctl(self->fd, nr, &gp));
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(dev, debugfs_info_matches)
{
	uint64_t idx = 0;
	long open_before, open_after;
	int fd2;

	ASSERT_EQ(0, vnpu_get_param(self->fd, DRM_VNPU_PARAM_DEVICE_INDEX, &idx));
	ASSERT_EQ((long)idx, vnpu_debugfs_info(self->path, "device_index"));
	EXPECT_EQ(vnpu_module_param("engines"),
		  vnpu_debugfs_info(self->path, "engines"));
	EXPECT_EQ(vnpu_module_param("mem_mb") << 20,
		  vnpu_debugfs_info(self->path, "mem_total"));

	open_before = vnpu_debugfs_info(self->path, "open_files");
	ASSERT_GE(open_before, 1);
	fd2 = open(self->path, O_RDWR | O_CLOEXEC);
	ASSERT_GE(fd2, 0);
	open_after = vnpu_debugfs_info(self->path, "open_files");
	EXPECT_EQ(open_before + 1, open_after);
	close(fd2);
	EXPECT_EQ(open_before, vnpu_debugfs_info(self->path, "open_files"));
}

TEST_F(dev, fdinfo_names_driver)
{
	char path[64], line[256];
	int found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", self->fd);
	f = fopen(path, "r");
	ASSERT_NE(NULL, f);
	while (fgets(line, sizeof(line), f))
		if (!strcmp(line, "drm-driver:\tvnpu\n"))
			found = 1;
	fclose(f);
	EXPECT_EQ(1, found);
}

/* Submit one URING_CMD and return cqe->res (or a negative setup error). */
static int uring_cmd(int fd, unsigned int setup_flags, uint32_t op,
		     const void *payload, size_t len)
{
	struct io_uring ring;
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	int ret;

	ret = io_uring_queue_init(4, &ring, setup_flags);
	if (ret)
		return ret;
	sqe = io_uring_get_sqe(&ring);
	memset(sqe, 0, (setup_flags & IORING_SETUP_SQE128) ? 128 : 64);
	sqe->opcode = IORING_OP_URING_CMD;
	sqe->fd = fd;
	sqe->cmd_op = op;
	if (len)
		memcpy(sqe->cmd, payload, len);
	ret = io_uring_submit(&ring);
	if (ret == 1) {
		ret = io_uring_wait_cqe(&ring, &cqe);
		if (!ret) {
			ret = cqe->res;
			io_uring_cqe_seen(&ring, cqe);
		}
	} else if (ret >= 0) {
		ret = -EIO;
	}
	io_uring_queue_exit(&ring);
	return ret;
}

TEST_F(dev, uring_nop_returns_uapi_version)
{
	EXPECT_EQ(DRM_VNPU_UAPI_VERSION(DRM_VNPU_UAPI_MAJOR, DRM_VNPU_UAPI_MINOR),
		  uring_cmd(self->fd, IORING_SETUP_SQE128, DRM_VNPU_URING_CMD_NOP,
			    NULL, 0));
}

TEST_F(dev, uring_nop_nonzero_payload_einval)
{
	uint8_t payload[80] = { 0 };

	payload[79] = 1;
	EXPECT_EQ(-EINVAL, uring_cmd(self->fd, IORING_SETUP_SQE128,
				     DRM_VNPU_URING_CMD_NOP, payload,
				     sizeof(payload)));
}

TEST_F(dev, uring_unknown_cmd_eopnotsupp)
{
	EXPECT_EQ(-EOPNOTSUPP, uring_cmd(self->fd, IORING_SETUP_SQE128, 0x7777,
					 NULL, 0));
}

TEST_F(dev, uring_old_nop_number_eopnotsupp)
{
	/* UAPI 1.0's NOP was 0; commands are _IOC-encoded since 1.1. */
	EXPECT_EQ(-EOPNOTSUPP, uring_cmd(self->fd, IORING_SETUP_SQE128, 0,
					 NULL, 0));
}

TEST_F(dev, uring_small_sqe_einval)
{
	EXPECT_EQ(-EINVAL, uring_cmd(self->fd, 0, DRM_VNPU_URING_CMD_NOP, NULL, 0));
}

TEST_HARNESS_MAIN
