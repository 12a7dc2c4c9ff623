#include "lazy_pangocairo.h"

#include <stdio.h>

KIOSK_LAZY_DEFINE_LOADER(kiosk_lazy_pangocairo, kiosk_lazy_pangocairo_load, KIOSK_LAZY_PANGOCAIRO_SONAME, KIOSK_LAZY_PANGOCAIRO_FUNCTIONS)

/// FcInit, once `kiosk_lazy_fontconfig_load` found it (the same thread calls both).
static int (*kiosk_fc_init)(void);

int kiosk_lazy_fontconfig_load(char *error, size_t size) {
    static const char *const names[] = {"FcInit"};
    void *slot;
    if (kiosk_lazy_link(KIOSK_LAZY_FONTCONFIG_SONAME, names, &slot, 1, error, size) != 0) return -1;
    kiosk_fc_init = (int (*)(void))slot;
    return 0;
}

int kiosk_lazy_fontconfig_init(char *error, size_t size) {
    if (!kiosk_fc_init && kiosk_lazy_fontconfig_load(error, size) != 0) return -1;
    // FcInit returns FcFalse when the configuration cannot be loaded (fontconfig says why on stderr).
    if (!kiosk_fc_init()) {
        snprintf(error, size, "%s: FcInit failed: the font configuration cannot be loaded", KIOSK_LAZY_FONTCONFIG_SONAME);
        return -1;
    }
    return 0;
}
