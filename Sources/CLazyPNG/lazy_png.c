#include "lazy_png.h"

KIOSK_LAZY_DEFINE_LOADER(kiosk_lazy_png, kiosk_lazy_png_load, KIOSK_LAZY_PNG_SONAME, KIOSK_LAZY_PNG_FUNCTIONS)
