#include "lazy_rsvg.h"

KIOSK_LAZY_DEFINE_LOADER(kiosk_lazy_rsvg, kiosk_lazy_rsvg_load, KIOSK_LAZY_RSVG_SONAME, KIOSK_LAZY_RSVG_FUNCTIONS)
