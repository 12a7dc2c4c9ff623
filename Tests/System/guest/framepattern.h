/*
 * framepattern: the known frames of the guest's DRM helpers, which the system tests compute again in
 * Python, pixel for pixel (kioskvm/drm.py: frame_pattern and plane_pattern): keep both in sync.
 *
 * frame_pattern (drmframe's frame, drmplanes' primary plane), pixel (x, y) of a WxH frame, XRGB8888, all
 * integer arithmetic:
 *   y <  H/4: eight vertical colour bars, bar = x*8/W:
 *             white, yellow, cyan, green, magenta, red, blue, black
 *   y >= H/4: r = x*255/(W-1), g = y*255/(H-1), b = (x ^ y) & 255
 *
 * plane_pattern (drmplanes' overlay and cursor planes), pixel (x, y) of a WxH plane, ARGB8888 with
 * premultiplied alpha (every colour channel at most alpha, as DRM's default "Pre-multiplied" blend mode
 * expects): with fx = x*255/(W-1), fy = y*255/(H-1),
 *   overlay: alpha = fx,             r0 = 255 - fy, g0 = (x ^ y) & 255, b0 = fy
 *   cursor:  alpha = (fx + fy) / 2,  r0 = 255,      g0 = fx,            b0 = (x * y) & 255
 *   channel = channel0 * alpha / 255
 * so that every alpha from 0 (transparent) to 255 (opaque) is in each plane.
 */
#ifndef KIOSKVM_FRAMEPATTERN_H
#define KIOSKVM_FRAMEPATTERN_H

#include <stdint.h>

static inline uint32_t frame_pattern(uint32_t x, uint32_t y, uint32_t w, uint32_t h) {
    static const uint32_t bars[8] = {0xffffff, 0xffff00, 0x00ffff, 0x00ff00, 0xff00ff, 0xff0000, 0x0000ff, 0x000000};
    if (y < h / 4) return bars[x * 8 / w];
    uint32_t r = x * 255 / (w > 1 ? w - 1 : 1);
    uint32_t g = y * 255 / (h > 1 ? h - 1 : 1);
    uint32_t b = (x ^ y) & 255;
    return r << 16 | g << 8 | b;
}

enum plane_kind { PLANE_OVERLAY, PLANE_CURSOR };

static inline uint32_t plane_pattern(enum plane_kind kind, uint32_t x, uint32_t y, uint32_t w, uint32_t h) {
    uint32_t fx = x * 255 / (w > 1 ? w - 1 : 1), fy = y * 255 / (h > 1 ? h - 1 : 1);
    uint32_t a, r, g, b;
    if (kind == PLANE_OVERLAY) {
        a = fx, r = 255 - fy, g = (x ^ y) & 255, b = fy;
    } else {
        a = (fx + fy) / 2, r = 255, g = fx, b = (x * y) & 255;
    }
    return a << 24 | (r * a / 255) << 16 | (g * a / 255) << 8 | (b * a / 255);
}

#endif
