// SPDX-License-Identifier: GPL-2.0-only
/*
 * vnpu: module parameters, the DRM driver and its file operations.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include <linux/fs.h>
#include <linux/memcontrol.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sysfs.h>
#include <drm/drm_accel.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_ioctl.h>
#include <uapi/drm/vnpu_accel.h>

#include "vnpu_drv.h"
#include "vnpu_gem.h"
#include "vnpu_job.h"
#include "vnpu_opcall.h"
#include "vnpu_prof.h"

static unsigned int num_devices = 2;
module_param(num_devices, uint, 0444);
MODULE_PARM_DESC(num_devices, "Number of virtual NPUs to create (1-16, default 2)");

static unsigned int mem_mb = 1024;
module_param(mem_mb, uint, 0444);
MODULE_PARM_DESC(mem_mb, "Device memory per NPU in MiB (1-65536, default 1024)");

static unsigned int engines = 2;
module_param(engines, uint, 0444);
MODULE_PARM_DESC(engines, "AI-core engines per NPU (1-64, default 2)");

static unsigned int queue_depth = 64;
module_param(queue_depth, uint, 0444);
MODULE_PARM_DESC(queue_depth, "Jobs in flight per queue (1-4096, default 64)");

/*
 * Sized for an emulated device on a busy host: operator pieces report
 * progress every few milliseconds natively (tens under TCG), so 10 s
 * without any is a hang; one inference of a big model is one job of
 * minutes of emulated compute (ResNet-50 at batch 1 took 5 minutes on a
 * heavily loaded 2-core host, batch 8 takes several times that), so the
 * hard limit is the range's top, an hour.
 */
static unsigned int job_timeout_ms = 10000;
module_param(job_timeout_ms, uint, 0444);
MODULE_PARM_DESC(job_timeout_ms, "Job hang-detection timeout in ms (10-600000, default 10000)");

static unsigned int job_max_ms = VNPU_MAX_JOB_MS;
module_param(job_max_ms, uint, 0444);
MODULE_PARM_DESC(job_max_ms, "Engine time after which a job is aborted even if it makes progress, in ms (100-3600000, default 3600000)");

static unsigned int job_slice_ms = 10;
module_param(job_slice_ms, uint, 0444);
MODULE_PARM_DESC(job_slice_ms, "Engine time a job runs before it yields to another file's job, in ms (1-1000, default 10)");

/* Read back, it names the unit in use: what simd=auto chose. */
static char simd[8] = "auto";
static struct kparam_string vnpu_simd_kps = {
	.maxlen = sizeof(simd),
	.string = simd,
};

static int vnpu_simd_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%s\n", vnpu_ops_simd_name());
}

static const struct kernel_param_ops vnpu_simd_ops = {
	.set = param_set_copystring,
	.get = vnpu_simd_get,
};
module_param_cb(simd, &vnpu_simd_ops, &vnpu_simd_kps, 0444);
MODULE_PARM_DESC(simd, "Widest vector unit the operators use: auto, avx512, avx2 or sse2 (default auto: the widest the CPU has, unless a narrower one runs GEMM twice as fast); reads back as the unit in use");

struct vnpu_config vnpu_cfg;

static int vnpu_open(struct drm_device *drm, struct drm_file *file)
{
	struct vnpu_device *vdev = to_vnpu_device(drm);
	struct vnpu_file *vfile;

	vfile = kzalloc(sizeof(*vfile), GFP_KERNEL_ACCOUNT);
	if (!vfile)
		return -ENOMEM;
	vfile->vdev = vdev;
	if (vnpu_slots_init(vfile)) {
		kfree(vfile);
		return -ENOMEM;
	}

	kref_init(&vfile->ref);
	vfile->memcg = get_mem_cgroup_from_mm(current->mm);
	vfile->pid = get_pid(task_tgid(current));
	spin_lock_init(&vfile->limits_lock);
	vnpu_prof_init(vfile);
	vnpu_bufcache_init(vfile);
	xa_init_flags(&vfile->queues, XA_FLAGS_ALLOC1);
	xa_init_flags(&vfile->cmdbufs, XA_FLAGS_ALLOC1);
	vnpu_mmu_ctx_init(vfile);
	file->driver_priv = vfile;
	atomic_inc(&vdev->open_files);
	mutex_lock(&vdev->files_lock);
	list_add_tail(&vfile->link, &vdev->files);
	mutex_unlock(&vdev->files_lock);
	return 0;
}

static void vnpu_file_release(struct kref *ref)
{
	struct vnpu_file *vfile = container_of(ref, struct vnpu_file, ref);

	/* The core closed every handle first, so nothing is mapped. */
	vnpu_mmu_ctx_fini(vfile);
	vnpu_bufcache_fini(vfile);
	vnpu_slots_fini(vfile);
	mutex_destroy(&vfile->prof_lock);
	mem_cgroup_put(vfile->memcg);
	put_pid(vfile->pid);
	kfree(vfile);
}

/**
 * vnpu_file_put() - drop a context reference
 * @vfile: the context; jobs keep it alive after the file is closed
 */
void vnpu_file_put(struct vnpu_file *vfile)
{
	kref_put(&vfile->ref, vnpu_file_release);
}

static void vnpu_postclose(struct drm_device *drm, struct drm_file *file)
{
	struct vnpu_file *vfile = file->driver_priv;
	struct vnpu_device *vdev = vfile->vdev;

	/* Running jobs stop at their next task; queued ones are cancelled. */
	WRITE_ONCE(vfile->closed, true);
	/* The engines stop writing the ring before the kernel drops it. */
	vnpu_prof_fini(vfile);
	vnpu_queues_fini(vfile);
	vnpu_cmdbufs_fini(vfile);
	/* Mappings hold objects, which hold the file: break the cycle. */
	vnpu_vm_close(vfile);
	mutex_lock(&vdev->files_lock);
	list_del(&vfile->link);
	mutex_unlock(&vdev->files_lock);
	atomic_dec(&vdev->open_files);
	vnpu_file_put(vfile);
}

static const struct drm_ioctl_desc vnpu_ioctls[] = {
	DRM_IOCTL_DEF_DRV(VNPU_GET_PARAM, vnpu_get_param_ioctl, 0),
	DRM_IOCTL_DEF_DRV(VNPU_BO_CREATE, vnpu_bo_create_ioctl, 0),
	DRM_IOCTL_DEF_DRV(VNPU_BO_INFO, vnpu_bo_info_ioctl, 0),
	DRM_IOCTL_DEF_DRV(VNPU_MEMCPY, vnpu_memcpy_ioctl, 0),
	DRM_IOCTL_DEF_DRV(VNPU_FAULT_INFO, vnpu_fault_info_ioctl, 0),
	DRM_IOCTL_DEF_DRV(VNPU_QUEUE_CREATE, vnpu_queue_create_ioctl, 0),
	DRM_IOCTL_DEF_DRV(VNPU_QUEUE_DESTROY, vnpu_queue_destroy_ioctl, 0),
	DRM_IOCTL_DEF_DRV(VNPU_QUEUE_RESET, vnpu_queue_reset_ioctl, 0),
	DRM_IOCTL_DEF_DRV(VNPU_SUBMIT, vnpu_submit_ioctl, 0),
	DRM_IOCTL_DEF_DRV(VNPU_JOB_STATUS, vnpu_job_status_ioctl, 0),
	DRM_IOCTL_DEF_DRV(VNPU_CMDBUF_CREATE, vnpu_cmdbuf_create_ioctl, 0),
	DRM_IOCTL_DEF_DRV(VNPU_CMDBUF_DESTROY, vnpu_cmdbuf_destroy_ioctl, 0),
	DRM_IOCTL_DEF_DRV(VNPU_VM_RESERVE, vnpu_vm_reserve_ioctl, 0),
	DRM_IOCTL_DEF_DRV(VNPU_VM_RELEASE, vnpu_vm_release_ioctl, 0),
	DRM_IOCTL_DEF_DRV(VNPU_VM_MAP, vnpu_vm_map_ioctl, 0),
	DRM_IOCTL_DEF_DRV(VNPU_VM_UNMAP, vnpu_vm_unmap_ioctl, 0),
	DRM_IOCTL_DEF_DRV(VNPU_PROF_CTL, vnpu_prof_ctl_ioctl, 0),
	DRM_IOCTL_DEF_DRV(VNPU_CMDBUF_UPDATE, vnpu_cmdbuf_update_ioctl, 0),
};

static void vnpu_show_fdinfo(struct drm_printer *p, struct drm_file *file)
{
	struct vnpu_file *vfile = file->driver_priv;

	/* Which device: tools match clients to devices by it. */
	drm_printf(p, "drm-vnpu-device:\t%u\n", vfile->vdev->index);
	drm_printf(p, "drm-engine-vnpu:\t%llu ns\n",
		   (u64)atomic64_read(&vfile->busy_ns));
	drm_show_memory_stats(p, file);
}

/*
 * DRM_ACCEL_FOPS as of 6.12, but with .uring_cmd and .show_fdinfo, and
 * with the core ioctls filtered (vnpu_ioctl.c).
 */
static const struct file_operations vnpu_fops = {
	.owner = THIS_MODULE,
	.open = accel_open,
	.release = drm_release,
	.unlocked_ioctl = vnpu_ioctl,		/* core ioctls filtered */
#ifdef CONFIG_COMPAT
	.compat_ioctl = vnpu_compat_ioctl,
#endif
	.poll = drm_poll,
	.read = drm_read,
	.llseek = noop_llseek,
	.mmap = drm_gem_mmap,
	.fop_flags = FOP_UNSIGNED_OFFSET,
	.show_fdinfo = drm_show_fdinfo,
	.uring_cmd = vnpu_uring_cmd,
};

static const struct drm_driver vnpu_drm_driver = {
	.driver_features = DRIVER_GEM | DRIVER_COMPUTE_ACCEL |
			   DRIVER_SYNCOBJ | DRIVER_SYNCOBJ_TIMELINE,
	.open = vnpu_open,
	.postclose = vnpu_postclose,
	.gem_create_object = vnpu_gem_create_object,
	.gem_prime_import_sg_table = vnpu_gem_prime_import_sg_table,
	.show_fdinfo = vnpu_show_fdinfo,
	.ioctls = vnpu_ioctls,
	.num_ioctls = ARRAY_SIZE(vnpu_ioctls),
	.fops = &vnpu_fops,
	.name = VNPU_DRIVER_NAME,
	.desc = VNPU_DRIVER_DESC,
#ifdef HAVE_DRM_DRIVER_DATE
	.date = "20261121",
#endif
	.major = DRM_VNPU_UAPI_MAJOR,
	.minor = DRM_VNPU_UAPI_MINOR,
};

/**
 * vnpu_drm_alloc() - allocate a device bound to @parent
 * @parent: the platform device; the DRM device is freed with its devres
 *
 * Return: the device or an ERR_PTR.
 */
struct vnpu_device *vnpu_drm_alloc(struct device *parent)
{
	return devm_drm_dev_alloc(parent, &vnpu_drm_driver,
				  struct vnpu_device, drm);
}

static int vnpu_check_range(const char *name, unsigned int val,
			    unsigned int min, unsigned int max)
{
	if (val >= min && val <= max)
		return 0;
	pr_err("vnpu: %s=%u is out of range %u..%u\n", name, val, min, max);
	return -EINVAL;
}

static int vnpu_config_init(void)
{
	int ret = 0;

	ret |= vnpu_check_range("num_devices", num_devices, 1, VNPU_MAX_DEVICES);
	ret |= vnpu_check_range("mem_mb", mem_mb, 1, VNPU_MAX_MEM_MB);
	ret |= vnpu_check_range("engines", engines, 1, VNPU_MAX_ENGINES);
	ret |= vnpu_check_range("queue_depth", queue_depth, 1,
				VNPU_MAX_QUEUE_DEPTH);
	ret |= vnpu_check_range("job_timeout_ms", job_timeout_ms, 10,
				VNPU_MAX_TIMEOUT_MS);
	ret |= vnpu_check_range("job_max_ms", job_max_ms, 100, VNPU_MAX_JOB_MS);
	ret |= vnpu_check_range("job_slice_ms", job_slice_ms, 1,
				VNPU_MAX_SLICE_MS);
	if (ret)
		return -EINVAL;

	vnpu_cfg.num_devices = num_devices;
	vnpu_cfg.mem_bytes = (u64)mem_mb << 20;
	vnpu_cfg.engines = engines;
	vnpu_cfg.queue_depth = queue_depth;
	vnpu_cfg.job_timeout_ms = job_timeout_ms;
	vnpu_cfg.job_max_ms = job_max_ms;
	vnpu_cfg.job_slice_ms = job_slice_ms;
	return 0;
}

static int __init vnpu_init(void)
{
	int ret;

	ret = vnpu_config_init();
	if (ret)
		return ret;
	ret = vnpu_ops_setup(simd);
	if (ret)
		return ret;

	ret = vnpu_devices_create();
	if (ret)
		return ret;

	pr_info("vnpu: %u devices, %u MiB memory and %u engines each, queue depth %u, job timeout %u ms, job limit %u ms, slice %u ms, vector unit %s, UAPI %u.%u\n",
		num_devices, mem_mb, engines, queue_depth, job_timeout_ms,
		job_max_ms, job_slice_ms, vnpu_ops_simd_name(),
		DRM_VNPU_UAPI_MAJOR, DRM_VNPU_UAPI_MINOR);
	return 0;
}

static void __exit vnpu_exit(void)
{
	vnpu_devices_destroy();
}

module_init(vnpu_init);
module_exit(vnpu_exit);

MODULE_DESCRIPTION("Virtual NPU accel driver");
MODULE_AUTHOR("The vnpu authors");
MODULE_LICENSE("GPL");
