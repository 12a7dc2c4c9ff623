#ifndef KIOSK_LAZY_XKBCOMMON_H
#define KIOSK_LAZY_XKBCOMMON_H

#include <xkbcommon/xkbcommon.h>
#include <xkbcommon/xkbcommon-compose.h>
#include <lazy_link.h>

/// xkbcommon, loaded on first use (LazyLink).
#define KIOSK_LAZY_XKBCOMMON_SONAME "libxkbcommon.so.0"

/// Every function of it the XKB module calls.
#define KIOSK_LAZY_XKBCOMMON_FUNCTIONS(F) \
    F(xkb_compose_state_feed) \
    F(xkb_compose_state_get_one_sym) \
    F(xkb_compose_state_get_status) \
    F(xkb_compose_state_get_utf8) \
    F(xkb_compose_state_new) \
    F(xkb_compose_state_reset) \
    F(xkb_compose_state_unref) \
    F(xkb_compose_table_new_from_locale) \
    F(xkb_compose_table_unref) \
    F(xkb_context_get_user_data) \
    F(xkb_context_new) \
    F(xkb_context_set_log_fn) \
    F(xkb_context_set_log_level) \
    F(xkb_context_set_user_data) \
    F(xkb_context_unref) \
    F(xkb_keymap_key_repeats) \
    F(xkb_keymap_layout_get_name) \
    F(xkb_keymap_new_from_names) \
    F(xkb_keymap_num_layouts) \
    F(xkb_keymap_unref) \
    F(xkb_keysym_get_name) \
    F(xkb_keysym_to_utf32) \
    F(xkb_state_key_get_one_sym) \
    F(xkb_state_key_get_utf8) \
    F(xkb_state_mod_name_is_active) \
    F(xkb_state_new) \
    F(xkb_state_unref) \
    F(xkb_state_update_key)

struct kiosk_lazy_xkbcommon {
    KIOSK_LAZY_XKBCOMMON_FUNCTIONS(KIOSK_LAZY_FIELD)
};

/// Loads xkbcommon: its functions, or NULL with dlerror's text in `error`.
const struct kiosk_lazy_xkbcommon *kiosk_lazy_xkbcommon_load(char *error, size_t size);

#endif
