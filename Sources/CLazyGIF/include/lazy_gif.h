#ifndef KIOSK_LAZY_GIF_H
#define KIOSK_LAZY_GIF_H

#include <gif_lib.h>
#include <lazy_link.h>

/// giflib, loaded when a GIF is first decoded (LazyLink).
#define KIOSK_LAZY_GIF_SONAME "libgif.so.7"

/// Every giflib function the ImageDecoding module calls.
#define KIOSK_LAZY_GIF_FUNCTIONS(F) \
    F(DGifOpen) \
    F(DGifSlurp) \
    F(DGifCloseFile) \
    F(DGifSavedExtensionToGCB) \
    F(GifErrorString)

struct kiosk_lazy_gif {
    KIOSK_LAZY_GIF_FUNCTIONS(KIOSK_LAZY_FIELD)
};

/// Loads giflib: its functions, or NULL with dlerror's text in `error`.
const struct kiosk_lazy_gif *kiosk_lazy_gif_load(char *error, size_t size);

#endif
