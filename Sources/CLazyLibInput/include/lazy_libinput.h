#ifndef KIOSK_LAZY_LIBINPUT_H
#define KIOSK_LAZY_LIBINPUT_H

#include <libinput.h>
#include <lazy_link.h>

/// libinput, loaded on first use (LazyLink).
#define KIOSK_LAZY_LIBINPUT_SONAME "libinput.so.10"

/// Every function of it the LibInput module calls.
#define KIOSK_LAZY_LIBINPUT_FUNCTIONS(F) \
    F(libinput_device_config_calibration_get_default_matrix) \
    F(libinput_device_config_calibration_get_matrix) \
    F(libinput_device_config_calibration_has_matrix) \
    F(libinput_device_config_calibration_set_matrix) \
    F(libinput_device_get_id_product) \
    F(libinput_device_get_id_vendor) \
    F(libinput_device_get_name) \
    F(libinput_device_get_output_name) \
    F(libinput_device_get_size) \
    F(libinput_device_get_sysname) \
    F(libinput_device_get_udev_device) \
    F(libinput_device_has_capability) \
    F(libinput_device_ref) \
    F(libinput_device_unref) \
    F(libinput_dispatch) \
    F(libinput_event_destroy) \
    F(libinput_event_get_device) \
    F(libinput_event_get_keyboard_event) \
    F(libinput_event_get_pointer_event) \
    F(libinput_event_get_touch_event) \
    F(libinput_event_get_type) \
    F(libinput_event_keyboard_get_key) \
    F(libinput_event_keyboard_get_key_state) \
    F(libinput_event_keyboard_get_time_usec) \
    F(libinput_event_pointer_get_absolute_x) \
    F(libinput_event_pointer_get_absolute_x_transformed) \
    F(libinput_event_pointer_get_absolute_y) \
    F(libinput_event_pointer_get_absolute_y_transformed) \
    F(libinput_event_pointer_get_button) \
    F(libinput_event_pointer_get_button_state) \
    F(libinput_event_pointer_get_dx) \
    F(libinput_event_pointer_get_dy) \
    F(libinput_event_pointer_get_time_usec) \
    F(libinput_event_touch_get_seat_slot) \
    F(libinput_event_touch_get_slot) \
    F(libinput_event_touch_get_time_usec) \
    F(libinput_event_touch_get_x) \
    F(libinput_event_touch_get_x_transformed) \
    F(libinput_event_touch_get_y) \
    F(libinput_event_touch_get_y_transformed) \
    F(libinput_get_event) \
    F(libinput_get_fd) \
    F(libinput_get_user_data) \
    F(libinput_log_set_handler) \
    F(libinput_log_set_priority) \
    F(libinput_path_add_device) \
    F(libinput_path_create_context) \
    F(libinput_path_remove_device) \
    F(libinput_resume) \
    F(libinput_suspend) \
    F(libinput_udev_assign_seat) \
    F(libinput_udev_create_context) \
    F(libinput_unref)

struct kiosk_lazy_libinput {
    KIOSK_LAZY_LIBINPUT_FUNCTIONS(KIOSK_LAZY_FIELD)
};

/// Loads libinput: its functions, or NULL with dlerror's text in `error`.
const struct kiosk_lazy_libinput *kiosk_lazy_libinput_load(char *error, size_t size);

#endif
