#include "lazy_libseat.h"

KIOSK_LAZY_DEFINE_LOADER(kiosk_lazy_libseat, kiosk_lazy_libseat_load, KIOSK_LAZY_LIBSEAT_SONAME, KIOSK_LAZY_LIBSEAT_FUNCTIONS)
