// swift-format-ignore-file: AlwaysUseLowerCamelCase
// (The bindings keep their C names: they stand in for the C declarations they shadow.)

import CLazyLibInput
import LazyLink

/// libinput (with libevdev, libmtdev, libwacom and GUdev, which it links), loaded when an input context
/// is first made: the kiosk does that after its first frame, and commands without input never map it
/// (see `LazyLibrary`).
public enum LibInputLibrary {
    public static let shared = LazyLibrary(soname: KIOSK_LAZY_LIBINPUT_SONAME, load: kiosk_lazy_libinput_load)
}

// The functions this module calls (the list in lazy_libinput.h), shadowing their C declarations.
let libinput_device_config_calibration_get_default_matrix = LibInputLibrary.shared.functions
    .libinput_device_config_calibration_get_default_matrix!
let libinput_device_config_calibration_get_matrix = LibInputLibrary.shared.functions.libinput_device_config_calibration_get_matrix!
let libinput_device_config_calibration_has_matrix = LibInputLibrary.shared.functions.libinput_device_config_calibration_has_matrix!
let libinput_device_config_calibration_set_matrix = LibInputLibrary.shared.functions.libinput_device_config_calibration_set_matrix!
let libinput_device_get_id_product = LibInputLibrary.shared.functions.libinput_device_get_id_product!
let libinput_device_get_id_vendor = LibInputLibrary.shared.functions.libinput_device_get_id_vendor!
let libinput_device_get_name = LibInputLibrary.shared.functions.libinput_device_get_name!
let libinput_device_get_output_name = LibInputLibrary.shared.functions.libinput_device_get_output_name!
let libinput_device_get_size = LibInputLibrary.shared.functions.libinput_device_get_size!
let libinput_device_get_sysname = LibInputLibrary.shared.functions.libinput_device_get_sysname!
let libinput_device_get_udev_device = LibInputLibrary.shared.functions.libinput_device_get_udev_device!
let libinput_device_has_capability = LibInputLibrary.shared.functions.libinput_device_has_capability!
let libinput_device_ref = LibInputLibrary.shared.functions.libinput_device_ref!
let libinput_device_unref = LibInputLibrary.shared.functions.libinput_device_unref!
let libinput_dispatch = LibInputLibrary.shared.functions.libinput_dispatch!
let libinput_event_destroy = LibInputLibrary.shared.functions.libinput_event_destroy!
let libinput_event_get_device = LibInputLibrary.shared.functions.libinput_event_get_device!
let libinput_event_get_keyboard_event = LibInputLibrary.shared.functions.libinput_event_get_keyboard_event!
let libinput_event_get_pointer_event = LibInputLibrary.shared.functions.libinput_event_get_pointer_event!
let libinput_event_get_touch_event = LibInputLibrary.shared.functions.libinput_event_get_touch_event!
let libinput_event_get_type = LibInputLibrary.shared.functions.libinput_event_get_type!
let libinput_event_keyboard_get_key = LibInputLibrary.shared.functions.libinput_event_keyboard_get_key!
let libinput_event_keyboard_get_key_state = LibInputLibrary.shared.functions.libinput_event_keyboard_get_key_state!
let libinput_event_keyboard_get_time_usec = LibInputLibrary.shared.functions.libinput_event_keyboard_get_time_usec!
let libinput_event_pointer_get_absolute_x = LibInputLibrary.shared.functions.libinput_event_pointer_get_absolute_x!
let libinput_event_pointer_get_absolute_x_transformed = LibInputLibrary.shared.functions.libinput_event_pointer_get_absolute_x_transformed!
let libinput_event_pointer_get_absolute_y = LibInputLibrary.shared.functions.libinput_event_pointer_get_absolute_y!
let libinput_event_pointer_get_absolute_y_transformed = LibInputLibrary.shared.functions.libinput_event_pointer_get_absolute_y_transformed!
let libinput_event_pointer_get_button = LibInputLibrary.shared.functions.libinput_event_pointer_get_button!
let libinput_event_pointer_get_button_state = LibInputLibrary.shared.functions.libinput_event_pointer_get_button_state!
let libinput_event_pointer_get_dx = LibInputLibrary.shared.functions.libinput_event_pointer_get_dx!
let libinput_event_pointer_get_dy = LibInputLibrary.shared.functions.libinput_event_pointer_get_dy!
let libinput_event_pointer_get_time_usec = LibInputLibrary.shared.functions.libinput_event_pointer_get_time_usec!
let libinput_event_touch_get_seat_slot = LibInputLibrary.shared.functions.libinput_event_touch_get_seat_slot!
let libinput_event_touch_get_slot = LibInputLibrary.shared.functions.libinput_event_touch_get_slot!
let libinput_event_touch_get_time_usec = LibInputLibrary.shared.functions.libinput_event_touch_get_time_usec!
let libinput_event_touch_get_x = LibInputLibrary.shared.functions.libinput_event_touch_get_x!
let libinput_event_touch_get_x_transformed = LibInputLibrary.shared.functions.libinput_event_touch_get_x_transformed!
let libinput_event_touch_get_y = LibInputLibrary.shared.functions.libinput_event_touch_get_y!
let libinput_event_touch_get_y_transformed = LibInputLibrary.shared.functions.libinput_event_touch_get_y_transformed!
let libinput_get_event = LibInputLibrary.shared.functions.libinput_get_event!
let libinput_get_fd = LibInputLibrary.shared.functions.libinput_get_fd!
let libinput_get_user_data = LibInputLibrary.shared.functions.libinput_get_user_data!
let libinput_log_set_handler = LibInputLibrary.shared.functions.libinput_log_set_handler!
let libinput_log_set_priority = LibInputLibrary.shared.functions.libinput_log_set_priority!
let libinput_path_add_device = LibInputLibrary.shared.functions.libinput_path_add_device!
let libinput_path_create_context = LibInputLibrary.shared.functions.libinput_path_create_context!
let libinput_path_remove_device = LibInputLibrary.shared.functions.libinput_path_remove_device!
let libinput_resume = LibInputLibrary.shared.functions.libinput_resume!
let libinput_suspend = LibInputLibrary.shared.functions.libinput_suspend!
let libinput_udev_assign_seat = LibInputLibrary.shared.functions.libinput_udev_assign_seat!
let libinput_udev_create_context = LibInputLibrary.shared.functions.libinput_udev_create_context!
let libinput_unref = LibInputLibrary.shared.functions.libinput_unref!
