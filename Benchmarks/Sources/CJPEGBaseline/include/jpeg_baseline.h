#ifndef KIOSK_JPEG_BASELINE_H
#define KIOSK_JPEG_BASELINE_H

#include <stddef.h>

/// djpeg's decoding, in process: libjpeg's API as djpeg calls it (jpeg_read_header, scale_num/scale_denom,
/// the default accurate DCT and fancy upsampling, jpeg_start_decompress, jpeg_read_scanlines), into RGB
/// rows of `width * 3` bytes as djpeg's PPM writer takes them, without the file writing. `out` must hold
/// the scaled image. Returns 0, or -1 when libjpeg failed. Writes the scaled size to `width` and `height`.
int kiosk_baseline_djpeg(const unsigned char *data, size_t size, int num, int denom, unsigned char *out, size_t capacity,
                         int *width, int *height);

/// A JPEG of `width` x `height` RGB pixels at `quality`, 4:2:0 (cjpeg's defaults), into a buffer the caller
/// frees with free(3). Returns its size, or 0 when libjpeg failed.
size_t kiosk_baseline_cjpeg(const unsigned char *rgb, int width, int height, int quality, unsigned char **jpeg);

#endif
