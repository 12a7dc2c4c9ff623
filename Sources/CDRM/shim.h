#ifndef KIOSK_CDRM_SHIM_H
#define KIOSK_CDRM_SHIM_H
#include <stdint.h>
#include <xf86drm.h>
#include <xf86drmMode.h>
#include <drm_fourcc.h>
#include <sys/mman.h>

/* DRM_FORMAT_XRGB8888 is little-endian by definition (drm_fourcc.h: "[31:0] x:R:G:B 8:8:8:8 little
   endian"), and the kiosk writes its pixels into dumb buffers as native 32-bit words (pixman's x8r8g8b8,
   Graphics' Bitmap): the same bytes only on a little-endian CPU, as x86-64 and arm64 (aarch64 as Debian
   builds it) are. */
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "XRGB8888 buffers are written as native words: a little-endian CPU only");

/* Macros Swift cannot see, as prefixed static inline shims. */
static inline uint32_t kiosk_drm_format_xrgb8888(void) { return DRM_FORMAT_XRGB8888; }
static inline uint32_t kiosk_drm_format_argb8888(void) { return DRM_FORMAT_ARGB8888; }
static inline uint64_t kiosk_drm_cap_cursor_width(void) { return DRM_CAP_CURSOR_WIDTH; }
static inline uint64_t kiosk_drm_cap_cursor_height(void) { return DRM_CAP_CURSOR_HEIGHT; }
static inline int kiosk_drm_plane_type_cursor(void) { return DRM_PLANE_TYPE_CURSOR; }
static inline int kiosk_drm_event_context_version(void) { return DRM_EVENT_CONTEXT_VERSION; }
static inline uint32_t kiosk_drm_mode_type_preferred(void) { return DRM_MODE_TYPE_PREFERRED; }
static inline uint32_t kiosk_drm_mode_flag_interlace(void) { return DRM_MODE_FLAG_INTERLACE; }
static inline uint32_t kiosk_drm_mode_flag_dblscan(void) { return DRM_MODE_FLAG_DBLSCAN; }
static inline uint32_t kiosk_drm_mode_page_flip_event(void) { return DRM_MODE_PAGE_FLIP_EVENT; }
static inline uint32_t kiosk_drm_mode_atomic_test_only(void) { return DRM_MODE_ATOMIC_TEST_ONLY; }
static inline uint32_t kiosk_drm_mode_atomic_nonblock(void) { return DRM_MODE_ATOMIC_NONBLOCK; }
static inline uint32_t kiosk_drm_mode_atomic_allow_modeset(void) { return DRM_MODE_ATOMIC_ALLOW_MODESET; }
static inline uint64_t kiosk_drm_client_cap_universal_planes(void) { return DRM_CLIENT_CAP_UNIVERSAL_PLANES; }
static inline uint64_t kiosk_drm_client_cap_atomic(void) { return DRM_CLIENT_CAP_ATOMIC; }
static inline uint64_t kiosk_drm_cap_dumb_buffer(void) { return DRM_CAP_DUMB_BUFFER; }
static inline uint64_t kiosk_drm_cap_dumb_prefer_shadow(void) { return DRM_CAP_DUMB_PREFER_SHADOW; }
static inline uint32_t kiosk_drm_object_connector(void) { return DRM_MODE_OBJECT_CONNECTOR; }
static inline uint32_t kiosk_drm_object_crtc(void) { return DRM_MODE_OBJECT_CRTC; }
static inline uint32_t kiosk_drm_object_plane(void) { return DRM_MODE_OBJECT_PLANE; }
static inline uint32_t kiosk_drm_prop_blob(void) { return DRM_MODE_PROP_BLOB; }
static inline uint32_t kiosk_drm_prop_enum(void) { return DRM_MODE_PROP_ENUM; }
static inline uint32_t kiosk_drm_prop_bitmask(void) { return DRM_MODE_PROP_BITMASK; }
static inline uint32_t kiosk_drm_prop_range(void) { return DRM_MODE_PROP_RANGE; }
static inline uint32_t kiosk_drm_prop_object(void) { return DRM_MODE_PROP_OBJECT; }
static inline int kiosk_drm_plane_type_primary(void) { return DRM_PLANE_TYPE_PRIMARY; }
static inline void *kiosk_map_failed(void) { return MAP_FAILED; }
#endif
