#include "lazy_gif.h"

KIOSK_LAZY_DEFINE_LOADER(kiosk_lazy_gif, kiosk_lazy_gif_load, KIOSK_LAZY_GIF_SONAME, KIOSK_LAZY_GIF_FUNCTIONS)
