#include "lazy_jpeg.h"

KIOSK_LAZY_DEFINE_LOADER(kiosk_lazy_jpeg, kiosk_lazy_jpeg_load, KIOSK_LAZY_JPEG_SONAME, KIOSK_LAZY_JPEG_FUNCTIONS)
