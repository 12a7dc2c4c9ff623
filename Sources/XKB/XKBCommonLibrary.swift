// swift-format-ignore-file: AlwaysUseLowerCamelCase
// (The bindings keep their C names: they stand in for the C declarations they shadow.)

import CLazyXKBCommon
import LazyLink

/// xkbcommon, loaded when a keymap context is first made (see `LazyLibrary`).
public enum XKBCommonLibrary {
    public static let shared = LazyLibrary(soname: KIOSK_LAZY_XKBCOMMON_SONAME, load: kiosk_lazy_xkbcommon_load)
}

// The functions this module calls (the list in lazy_xkbcommon.h), shadowing their C declarations.
let xkb_compose_state_feed = XKBCommonLibrary.shared.functions.xkb_compose_state_feed!
let xkb_compose_state_get_one_sym = XKBCommonLibrary.shared.functions.xkb_compose_state_get_one_sym!
let xkb_compose_state_get_status = XKBCommonLibrary.shared.functions.xkb_compose_state_get_status!
let xkb_compose_state_get_utf8 = XKBCommonLibrary.shared.functions.xkb_compose_state_get_utf8!
let xkb_compose_state_new = XKBCommonLibrary.shared.functions.xkb_compose_state_new!
let xkb_compose_state_reset = XKBCommonLibrary.shared.functions.xkb_compose_state_reset!
let xkb_compose_state_unref = XKBCommonLibrary.shared.functions.xkb_compose_state_unref!
let xkb_compose_table_new_from_locale = XKBCommonLibrary.shared.functions.xkb_compose_table_new_from_locale!
let xkb_compose_table_unref = XKBCommonLibrary.shared.functions.xkb_compose_table_unref!
let xkb_context_get_user_data = XKBCommonLibrary.shared.functions.xkb_context_get_user_data!
let xkb_context_new = XKBCommonLibrary.shared.functions.xkb_context_new!
let xkb_context_set_log_fn = XKBCommonLibrary.shared.functions.xkb_context_set_log_fn!
let xkb_context_set_log_level = XKBCommonLibrary.shared.functions.xkb_context_set_log_level!
let xkb_context_set_user_data = XKBCommonLibrary.shared.functions.xkb_context_set_user_data!
let xkb_context_unref = XKBCommonLibrary.shared.functions.xkb_context_unref!
let xkb_keymap_key_repeats = XKBCommonLibrary.shared.functions.xkb_keymap_key_repeats!
let xkb_keymap_layout_get_name = XKBCommonLibrary.shared.functions.xkb_keymap_layout_get_name!
let xkb_keymap_new_from_names = XKBCommonLibrary.shared.functions.xkb_keymap_new_from_names!
let xkb_keymap_num_layouts = XKBCommonLibrary.shared.functions.xkb_keymap_num_layouts!
let xkb_keymap_unref = XKBCommonLibrary.shared.functions.xkb_keymap_unref!
let xkb_keysym_get_name = XKBCommonLibrary.shared.functions.xkb_keysym_get_name!
let xkb_keysym_to_utf32 = XKBCommonLibrary.shared.functions.xkb_keysym_to_utf32!
let xkb_state_key_get_one_sym = XKBCommonLibrary.shared.functions.xkb_state_key_get_one_sym!
let xkb_state_key_get_utf8 = XKBCommonLibrary.shared.functions.xkb_state_key_get_utf8!
let xkb_state_mod_name_is_active = XKBCommonLibrary.shared.functions.xkb_state_mod_name_is_active!
let xkb_state_new = XKBCommonLibrary.shared.functions.xkb_state_new!
let xkb_state_unref = XKBCommonLibrary.shared.functions.xkb_state_unref!
let xkb_state_update_key = XKBCommonLibrary.shared.functions.xkb_state_update_key!
