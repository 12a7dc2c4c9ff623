#ifndef KIOSK_LAZY_JPEG_H
#define KIOSK_LAZY_JPEG_H

#include <turbojpeg.h>
#include <lazy_link.h>

/// libjpeg-turbo's TurboJPEG library, loaded when a JPEG is first decoded (LazyLink).
#define KIOSK_LAZY_JPEG_SONAME "libturbojpeg.so.0"

/// Every TurboJPEG function the ImageDecoding module calls.
#define KIOSK_LAZY_JPEG_FUNCTIONS(F) \
    F(tjInitDecompress) \
    F(tjDecompressHeader3) \
    F(tjDecompress2) \
    F(tjGetScalingFactors) \
    F(tjGetErrorStr2) \
    F(tjGetErrorCode) \
    F(tjDestroy)

struct kiosk_lazy_jpeg {
    KIOSK_LAZY_JPEG_FUNCTIONS(KIOSK_LAZY_FIELD)
};

/// Loads libturbojpeg: its functions, or NULL with dlerror's text in `error`.
const struct kiosk_lazy_jpeg *kiosk_lazy_jpeg_load(char *error, size_t size);

/// TJSCALED: a side scaled by a scaling factor, rounded up, as the decoder computes it.
static inline int kiosk_tj_scaled(int side, tjscalingfactor factor) { return TJSCALED(side, factor); }

#endif
