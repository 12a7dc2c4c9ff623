// swift-format-ignore-file: AlwaysUseLowerCamelCase
// (The bindings keep their C names: they stand in for the C declarations they shadow.)

import CLazyLibSeat
import LazyLink

/// libseat (and libsystemd, which it links), loaded when a seat is first opened: commands that open no
/// seat never map them (see `LazyLibrary`).
public enum LibSeatLibrary {
    public static let shared = LazyLibrary(soname: KIOSK_LAZY_LIBSEAT_SONAME, load: kiosk_lazy_libseat_load)
}

// The libseat functions this module calls (the list in lazy_libseat.h), shadowing the C declarations.
let libseat_close_device = LibSeatLibrary.shared.functions.libseat_close_device!
let libseat_close_seat = LibSeatLibrary.shared.functions.libseat_close_seat!
let libseat_disable_seat = LibSeatLibrary.shared.functions.libseat_disable_seat!
let libseat_dispatch = LibSeatLibrary.shared.functions.libseat_dispatch!
let libseat_get_fd = LibSeatLibrary.shared.functions.libseat_get_fd!
let libseat_open_device = LibSeatLibrary.shared.functions.libseat_open_device!
let libseat_open_seat = LibSeatLibrary.shared.functions.libseat_open_seat!
let libseat_seat_name = LibSeatLibrary.shared.functions.libseat_seat_name!
let libseat_set_log_handler = LibSeatLibrary.shared.functions.libseat_set_log_handler!
let libseat_set_log_level = LibSeatLibrary.shared.functions.libseat_set_log_level!
let libseat_switch_session = LibSeatLibrary.shared.functions.libseat_switch_session!
