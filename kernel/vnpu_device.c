// SPDX-License-Identifier: GPL-2.0-only
/*
 * vnpu: the virtual devices. Each NPU is a platform device bound to the
 * vnpu platform driver, whose probe creates the accel device. Using the
 * driver model (rather than creating DRM devices directly) gives every
 * device a devres scope, so unbinding or unloading frees all of it.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include <linux/dma-mapping.h>
#include <linux/platform_device.h>
#include <drm/drm_drv.h>
#include <drm/drm_managed.h>

#include "vnpu_drv.h"
#include "vnpu_job.h"

static struct platform_device *vnpu_pdevs[VNPU_MAX_DEVICES];

static int vnpu_probe(struct platform_device *pdev)
{
	struct vnpu_device *vdev;
	int ret;

	/* No real bus: allow any address, as vgem does. */
	ret = dma_coerce_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(64));
	if (ret)
		return ret;

	vdev = vnpu_drm_alloc(&pdev->dev);
	if (IS_ERR(vdev))
		return PTR_ERR(vdev);

	vdev->index = pdev->id;
	atomic_set(&vdev->open_files, 0);
	spin_lock_init(&vdev->mem.lock);
	INIT_LIST_HEAD(&vdev->bo_list);
	INIT_LIST_HEAD(&vdev->files);
	spin_lock_init(&vdev->split_lock);
	ret = drmm_mutex_init(&vdev->drm, &vdev->kill_lock);
	if (!ret)
		ret = drmm_mutex_init(&vdev->drm, &vdev->bo_lock);
	if (!ret)
		ret = drmm_mutex_init(&vdev->drm, &vdev->files_lock);
	if (!ret)
		ret = vnpu_engines_init(vdev);
	if (ret)
		return ret;
	platform_set_drvdata(pdev, vdev);

	ret = drm_dev_register(&vdev->drm, 0);
	if (ret)
		return ret;

	vnpu_debugfs_init(vdev);
	return 0;
}

static void vnpu_remove(struct platform_device *pdev)
{
	struct vnpu_device *vdev = platform_get_drvdata(pdev);

	drm_dev_unplug(&vdev->drm);
}

static struct platform_driver vnpu_platform_driver = {
	.probe = vnpu_probe,
	.remove = vnpu_remove,
	.driver = {
		.name = VNPU_DRIVER_NAME,
	},
};

/**
 * vnpu_devices_create() - register the driver and vnpu_cfg.num_devices devices
 *
 * Return: 0, or a negative errno with nothing left registered.
 */
int vnpu_devices_create(void)
{
	struct platform_device *pdev;
	u32 i;
	int ret;

	ret = platform_driver_register(&vnpu_platform_driver);
	if (ret)
		return ret;

	for (i = 0; i < vnpu_cfg.num_devices; i++) {
		pdev = platform_device_register_simple(VNPU_DRIVER_NAME, i,
						       NULL, 0);
		if (IS_ERR(pdev)) {
			ret = PTR_ERR(pdev);
			goto err_unregister_devices;
		}
		vnpu_pdevs[i] = pdev;

		/* The probe ran synchronously; a device without a driver failed it. */
		if (!platform_get_drvdata(pdev)) {
			pr_err("vnpu: device %u failed to probe\n", i);
			ret = -ENODEV;
			goto err_unregister_devices;
		}
	}
	return 0;

err_unregister_devices:
	vnpu_devices_destroy();
	return ret;
}

/**
 * vnpu_devices_destroy() - unregister every device, then the driver
 */
void vnpu_devices_destroy(void)
{
	int i;

	for (i = VNPU_MAX_DEVICES - 1; i >= 0; i--) {
		if (!vnpu_pdevs[i])
			continue;
		platform_device_unregister(vnpu_pdevs[i]);
		vnpu_pdevs[i] = NULL;
	}
	platform_driver_unregister(&vnpu_platform_driver);
}
