#ifndef KIOSK_LAZY_PNG_H
#define KIOSK_LAZY_PNG_H

#include <png.h>
#include <lazy_link.h>

/// libpng, loaded on first use (LazyLink): the launch screen is read before pango and cairo (which carry
/// their own PNG reader) have loaded.
#define KIOSK_LAZY_PNG_SONAME "libpng16.so.16"

/// Every libpng function the PNG module calls.
#define KIOSK_LAZY_PNG_FUNCTIONS(F) \
    F(png_image_begin_read_from_file) \
    F(png_image_finish_read) \
    F(png_image_free)

struct kiosk_lazy_png {
    KIOSK_LAZY_PNG_FUNCTIONS(KIOSK_LAZY_FIELD)
};

/// Loads libpng: its functions, or NULL with dlerror's text in `error`.
const struct kiosk_lazy_png *kiosk_lazy_png_load(char *error, size_t size);

/// PNG_IMAGE_VERSION, the version a `png_image` must carry.
static inline png_uint_32 kiosk_png_image_version(void) { return PNG_IMAGE_VERSION; }

/// PNG_FORMAT_BGRA: 8 bits a channel, blue first, straight (not premultiplied) alpha.
static inline png_uint_32 kiosk_png_format_bgra(void) { return PNG_FORMAT_BGRA; }

#endif
