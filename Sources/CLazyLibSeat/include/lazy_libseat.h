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

/// Sets how `kiosk_seat_log_forked` writes its lines: the logger's label and the word for each of libseat's
/// levels (copied, cut to 31 bytes; an empty word: lines at that level are dropped).
void kiosk_seat_set_forked_log_format(const char *label, const char *error, const char *info, const char *debug);

/// Writes one of libseat's log lines from the process libseat's builtin backend forks to run its embedded
/// seatd, as the kiosk's log writes its own lines but with the time in UTC: "<time> <level> <label>:
/// <message>", with one write(2) to standard error. A child forked from a process with threads may only
/// do work that takes no lock another thread could have held at the fork (vsnprintf and gmtime_r take none
/// for libseat's formats); the Swift logging path there also made 1.8 MiB of the kiosk's code resident in
/// that process.
void kiosk_seat_log_forked(enum libseat_log_level level, const char *format, va_list arguments);

#endif
