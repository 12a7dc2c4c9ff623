#include "lazy_webp.h"

KIOSK_LAZY_DEFINE_LOADER(kiosk_lazy_webp, kiosk_lazy_webp_load, KIOSK_LAZY_WEBP_SONAME, KIOSK_LAZY_WEBP_FUNCTIONS)
