#ifndef KIOSK_LAZY_LIBSEAT_H
#define KIOSK_LAZY_LIBSEAT_H

#include <libseat.h>
#include <lazy_link.h>

/// libseat, loaded on first use (LazyLink).
#define KIOSK_LAZY_LIBSEAT_SONAME "libseat.so.1"

/// Every libseat function the Seat module calls.
#define KIOSK_LAZY_LIBSEAT_FUNCTIONS(F) \
    F(libseat_close_device) \
    F(libseat_close_seat) \
    F(libseat_disable_seat) \
    F(libseat_dispatch) \
    F(libseat_get_fd) \
    F(libseat_open_device) \
    F(libseat_open_seat) \
    F(libseat_seat_name) \
    F(libseat_set_log_handler) \
    F(libseat_set_log_level) \
    F(libseat_switch_session)

struct kiosk_lazy_libseat {
    KIOSK_LAZY_LIBSEAT_FUNCTIONS(KIOSK_LAZY_FIELD)
};

/// Loads libseat: its functions, or NULL with dlerror's text in `error`.
const struct kiosk_lazy_libseat *kiosk_lazy_libseat_load(char *error, size_t size);

#endif
