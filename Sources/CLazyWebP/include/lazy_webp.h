#ifndef KIOSK_LAZY_WEBP_H
#define KIOSK_LAZY_WEBP_H

#include <webp/decode.h>
#include <webp/demux.h>
#include <lazy_link.h>

/// libwebpdemux (with libwebp, which it links), loaded when a WebP is first decoded (LazyLink).
#define KIOSK_LAZY_WEBP_SONAME "libwebpdemux.so.2"

/// Every libwebp function the ImageDecoding module calls. The header's WebPAnimDecoderNew and
/// WebPAnimDecoderOptionsInit are inline functions passing the ABI version to these `Internal` ones.
#define KIOSK_LAZY_WEBP_FUNCTIONS(F) \
    F(WebPAnimDecoderOptionsInitInternal) \
    F(WebPAnimDecoderNewInternal) \
    F(WebPAnimDecoderGetInfo) \
    F(WebPAnimDecoderGetNext) \
    F(WebPAnimDecoderHasMoreFrames) \
    F(WebPAnimDecoderDelete) \
    F(WebPGetFeaturesInternal)

struct kiosk_lazy_webp {
    KIOSK_LAZY_WEBP_FUNCTIONS(KIOSK_LAZY_FIELD)
};

/// Loads libwebpdemux: its functions, or NULL with dlerror's text in `error`.
const struct kiosk_lazy_webp *kiosk_lazy_webp_load(char *error, size_t size);

/// WEBP_DEMUX_ABI_VERSION, which the `Internal` functions check against the library's.
static inline int kiosk_webp_demux_abi_version(void) { return WEBP_DEMUX_ABI_VERSION; }

/// WEBP_DECODER_ABI_VERSION, for WebPGetFeaturesInternal.
static inline int kiosk_webp_decoder_abi_version(void) { return WEBP_DECODER_ABI_VERSION; }

#endif
