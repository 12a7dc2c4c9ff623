#ifndef KIOSK_CFBDEV_SHIM_H
#define KIOSK_CFBDEV_SHIM_H
#include <linux/fb.h>
#include <linux/kd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

/* ioctl(2) is variadic, which Swift cannot call: one typed shim per request. Each returns ioctl's result
   (-1 with errno set on failure). */
static inline int kiosk_fb_get_var(int fd, struct fb_var_screeninfo *info) { return ioctl(fd, FBIOGET_VSCREENINFO, info); }
static inline int kiosk_fb_get_fix(int fd, struct fb_fix_screeninfo *info) { return ioctl(fd, FBIOGET_FSCREENINFO, info); }
static inline int kiosk_fb_pan(int fd, struct fb_var_screeninfo *info) { return ioctl(fd, FBIOPAN_DISPLAY, info); }
static inline int kiosk_kd_get_mode(int fd, int *mode) { return ioctl(fd, KDGETMODE, mode); }
static inline int kiosk_kd_set_mode(int fd, int mode) { return ioctl(fd, KDSETMODE, mode); }
static inline int kiosk_kd_graphics(void) { return KD_GRAPHICS; }
static inline int kiosk_kd_text(void) { return KD_TEXT; }
static inline void *kiosk_fb_map_failed(void) { return MAP_FAILED; }
#endif
