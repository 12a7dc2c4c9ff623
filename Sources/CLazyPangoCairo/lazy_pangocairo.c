#include "lazy_pangocairo.h"

#include <fontconfig/fontconfig.h>
#include <stdio.h>

#ifdef KIOSK_TEXT_LINKED
// The linked text stack's profile (scripts/release-flags --text-stack linked; scripts/text-stack builds it)
// links text in: a table holds the linked functions' addresses, with nothing to open and nothing that can
// fail. The default release, as a debug build, loads Debian's shared libraries (below).
#define KIOSK_TEXT_ADDRESS(name) .name = &name,
#define KIOSK_TEXT_DEFINE_TABLE(TABLE, LOAD, SONAME, LIST) \
    const struct TABLE *LOAD(char *error, size_t size) { \
        (void)error; \
        (void)size; \
        static const struct TABLE table = {LIST(KIOSK_TEXT_ADDRESS)}; \
        return &table; \
    }

// The constructors scripts/text-stack moved out of .init_array (GObject's type system's start), so that
// they run when text is first used, as loading the shared libraries ran them, not at every exec.
extern void (*const __start_kiosk_deferred_init[])(void) __attribute__((weak));
extern void (*const __stop_kiosk_deferred_init[])(void) __attribute__((weak));

static KIOSK_TEXT_DEFINE_TABLE(kiosk_lazy_pangocairo, kiosk_linked_pangocairo, KIOSK_LAZY_PANGOCAIRO_SONAME, KIOSK_LAZY_PANGOCAIRO_FUNCTIONS)

// Called once (LazyLibrary's `static let`), before any of the table's functions.
const struct kiosk_lazy_pangocairo *kiosk_lazy_pangocairo_load(char *error, size_t size) {
    for (void (*const *constructor)(void) = __start_kiosk_deferred_init; constructor < __stop_kiosk_deferred_init; constructor++) {
        (*constructor)();
    }
    return kiosk_linked_pangocairo(error, size);
}
#else
#define KIOSK_TEXT_DEFINE_TABLE KIOSK_LAZY_DEFINE_LOADER

KIOSK_TEXT_DEFINE_TABLE(kiosk_lazy_pangocairo, kiosk_lazy_pangocairo_load, KIOSK_LAZY_PANGOCAIRO_SONAME, KIOSK_LAZY_PANGOCAIRO_FUNCTIONS)
#endif

/// The fontconfig functions its start calls.
#define KIOSK_LAZY_FONTCONFIG_FUNCTIONS(F) \
    F(FcConfigBuildFonts) \
    F(FcConfigCreate) \
    F(FcConfigDestroy) \
    F(FcConfigGetCacheDirs) \
    F(FcConfigParseAndLoad) \
    F(FcConfigSetCurrent) \
    F(FcInit) \
    F(FcStrListDone) \
    F(FcStrListNext)

struct kiosk_lazy_fontconfig {
    KIOSK_LAZY_FONTCONFIG_FUNCTIONS(KIOSK_LAZY_FIELD)
};

const struct kiosk_lazy_fontconfig *kiosk_lazy_fontconfig_table(char *error, size_t size);
KIOSK_TEXT_DEFINE_TABLE(kiosk_lazy_fontconfig, kiosk_lazy_fontconfig_table, KIOSK_LAZY_FONTCONFIG_SONAME, KIOSK_LAZY_FONTCONFIG_FUNCTIONS)

KIOSK_TEXT_DEFINE_TABLE(
    kiosk_lazy_fontconfig_application, kiosk_lazy_fontconfig_application_load, KIOSK_LAZY_FONTCONFIG_SONAME,
    KIOSK_LAZY_FONTCONFIG_APPLICATION_FUNCTIONS)

/// Set by `kiosk_lazy_fontconfig_load` (the same thread then calls `kiosk_lazy_fontconfig_init`).
static const struct kiosk_lazy_fontconfig *fontconfig;

int kiosk_lazy_fontconfig_load(char *error, size_t size) {
    fontconfig = kiosk_lazy_fontconfig_table(error, size);
    return fontconfig ? 0 : -1;
}

/// The system's configuration (fonts.conf and what it includes) and fonts, as FcInit loads them, made the
/// current configuration: 1, or 0 if it could not be (nothing is changed then).
static int load_system_configuration(void) {
    FcConfig *config = fontconfig->FcConfigCreate();
    if (!config) return 0;
    // FcInit would go on to warn and add default cache folders; leave that case to it.
    int loaded = fontconfig->FcConfigParseAndLoad(config, NULL, FcTrue);
    if (loaded) {
        FcStrList *cacheDirs = fontconfig->FcConfigGetCacheDirs(config);
        loaded = cacheDirs && fontconfig->FcStrListNext(cacheDirs);
        if (cacheDirs) fontconfig->FcStrListDone(cacheDirs);
    }
    // FcConfigSetCurrent takes a reference of its own.
    loaded = loaded && fontconfig->FcConfigBuildFonts(config) && fontconfig->FcConfigSetCurrent(config);
    fontconfig->FcConfigDestroy(config);
    return loaded;
}

int kiosk_lazy_fontconfig_init(char *error, size_t size) {
    if (!fontconfig && kiosk_lazy_fontconfig_load(error, size) != 0) return -1;
    // FcInit, after loading the configuration, also parses every file of fontconfig's template folder
    // (conf.avail, about 30 more on Debian) only to list their descriptions for fc-conflist. Loading the
    // same configuration with the public calls FcInit makes skips that: a third of fontconfig's start.
    if (load_system_configuration()) return 0;
    // Otherwise fontconfig's own start, with its fallback configuration and its warnings on stderr.
    // FcInit returns FcFalse when even that cannot be loaded.
    if (!fontconfig->FcInit()) {
        snprintf(error, size, "%s: FcInit failed: the font configuration cannot be loaded", KIOSK_LAZY_FONTCONFIG_SONAME);
        return -1;
    }
    return 0;
}
