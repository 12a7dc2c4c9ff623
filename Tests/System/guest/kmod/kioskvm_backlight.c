// SPDX-License-Identifier: GPL-2.0
/*
 * kioskvm_backlight: a backlight class device for the kiosk's system tests.
 *
 * QEMU's display devices have no backlight, and Debian's kernel builds the backlight class in but no
 * driver that would make one for a virtual panel. This module registers one, so that udev (its rules,
 * the group and mode of the `brightness` attribute), sysfs and the kiosk's matching of a backlight to
 * its connector are the kernel's own. It keeps the level it is given and reports it back as
 * actual_brightness; nothing else.
 *
 *   insmod kioskvm_backlight.ko [name=kioskvm_backlight] [type=raw|platform|firmware]
 *                               [connector=card0-Virtual-1] [max_brightness=255] [brightness=200]
 *
 * `connector` names the DRM connector's device (as /sys/class/drm names it): the backlight is registered
 * as its child, /sys/class/drm/card0-Virtual-1/kioskvm_backlight, as i915 and amdgpu register theirs
 * under the eDP connector. Empty: no parent (/sys/devices/virtual/backlight/NAME), as a firmware (ACPI)
 * backlight appears to the matching. Loading fails with ENODEV when the connector is not found.
 */
#include <linux/backlight.h>
#include <linux/device.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/string.h>

static char *name = "kioskvm_backlight";
module_param(name, charp, 0444);
MODULE_PARM_DESC(name, "the device's name in /sys/class/backlight");

static char *type = "raw";
module_param(type, charp, 0444);
MODULE_PARM_DESC(type, "the backlight's type: raw, platform or firmware");

static char *connector = "card0-Virtual-1";
module_param(connector, charp, 0444);
MODULE_PARM_DESC(connector, "the DRM connector device to register it under (card0-Virtual-1); empty: none");

static int max_brightness = 255;
module_param(max_brightness, int, 0444);
MODULE_PARM_DESC(max_brightness, "max_brightness");

static int brightness = 200;
module_param(brightness, int, 0444);
MODULE_PARM_DESC(brightness, "the level at load");

static struct backlight_device *backlight;
static struct device *parent;
/* What was last written: actual_brightness reads it back. */
static int level;

static int update_status(struct backlight_device *device)
{
	level = device->props.brightness;
	pr_info("kioskvm_backlight: %s brightness %d\n", dev_name(&device->dev), level);
	return 0;
}

static int get_brightness(struct backlight_device *device)
{
	return level;
}

static const struct backlight_ops ops = {
	.update_status = update_status,
	.get_brightness = get_brightness,
};

/* The device called `connector` among `device` and its descendants, with a reference taken. */
static int find_named(struct device *device, void *found)
{
	if (!strcmp(dev_name(device), connector)) {
		*(struct device **)found = get_device(device);
		return 1;
	}
	return device_for_each_child(device, found, find_named);
}

static int __init kioskvm_backlight_init(void)
{
	struct backlight_properties props = {};

	if (!strcmp(type, "raw"))
		props.type = BACKLIGHT_RAW;
	else if (!strcmp(type, "platform"))
		props.type = BACKLIGHT_PLATFORM;
	else if (!strcmp(type, "firmware"))
		props.type = BACKLIGHT_FIRMWARE;
	else
		return -EINVAL;
	if (max_brightness < 1 || brightness < 0 || brightness > max_brightness)
		return -EINVAL;
	props.max_brightness = max_brightness;
	props.brightness = brightness;
	props.power = FB_BLANK_UNBLANK;
	level = brightness;

	/* The DRM class is not exported to modules: search the PCI devices' trees (virtio-gpu's card and
	 * its connectors are below its PCI device) for the connector's device by name. */
	if (connector[0]) {
		bus_for_each_dev(&pci_bus_type, NULL, &parent, find_named);
		if (!parent) {
			pr_err("kioskvm_backlight: no device named %s below a PCI device\n", connector);
			return -ENODEV;
		}
	}
	backlight = backlight_device_register(name, parent, NULL, &ops, &props);
	if (IS_ERR(backlight)) {
		put_device(parent);
		return PTR_ERR(backlight);
	}
	pr_info("kioskvm_backlight: %s (%s, max %d) under %s\n", name, type, max_brightness,
		parent ? dev_name(parent) : "no device");
	return 0;
}

static void __exit kioskvm_backlight_exit(void)
{
	backlight_device_unregister(backlight);
	put_device(parent);
}

module_init(kioskvm_backlight_init);
module_exit(kioskvm_backlight_exit);
MODULE_DESCRIPTION("A backlight class device for the kiosk's system tests");
MODULE_LICENSE("GPL");
