/* The kernel and C library values that the project's Swift and Python code writes out by hand, where it has
 * no C module to take them from, checked against the headers of the architecture this is compiled for.
 * scripts/check-arm64 compiles it for x86-64 and for aarch64 (with -O2: the device-number checks below need
 * glibc's inline major/minor); it is never linked into anything. A value that differs on one of them stops
 * the compile with the name of the Swift or Python code that assumes it.
 *
 * The shims' own assertions (Sources/CCEC, CDRM, CPangoCairo, CStopSignals) sit in the headers the Swift
 * build reads; these are for code that has no such header. */
#define _GNU_SOURCE
#include <linux/input.h>
#include <linux/uinput.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/sysmacros.h>
#include <sys/time.h>
#include <sys/timerfd.h>
#include <sys/types.h>
#include <time.h>

/* ---- Tests/LibInputTests/VirtualInputDevice.swift: the requests of its `UInput` enum, the bytes its
   uinput_setup and uinput_abs_setup hold, the input_event `emit` writes. */
_Static_assert(UI_DEV_CREATE == 0x5501 && UI_DEV_DESTROY == 0x5502, "UInput.devCreate, devDestroy");
_Static_assert(UI_DEV_SETUP == 0x405c5503 && UI_ABS_SETUP == 0x401c5504, "UInput.devSetup, absSetup");
_Static_assert(UI_SET_EVBIT == 0x40045564 && UI_SET_KEYBIT == 0x40045565 && UI_SET_RELBIT == 0x40045566,
    "UInput.setEventBit, setKeyBit, setRelBit");
_Static_assert(UI_SET_PROPBIT == 0x4004556e, "UInput.setPropertyBit");
_Static_assert(UI_GET_SYSNAME(64) == 0x8040552c, "UInput.getSysname64");
_Static_assert(sizeof(struct uinput_setup) == 92 && offsetof(struct uinput_setup, name) == 8, "its 92-byte uinput_setup, the name at 8");
_Static_assert(offsetof(struct uinput_setup, id.vendor) == 2 && offsetof(struct uinput_setup, id.product) == 4
    && offsetof(struct uinput_setup, id.version) == 6, "put16 at 2, 4 and 6");
/* absSetup: seven 32-bit words, the u16 code in the first, the maximum in the fourth, the resolution in the
   seventh. */
_Static_assert(sizeof(struct uinput_abs_setup) == 28 && offsetof(struct uinput_abs_setup, absinfo) == 4,
    "its 28-byte uinput_abs_setup, absinfo at 4");
_Static_assert(offsetof(struct uinput_abs_setup, absinfo.maximum) == 3 * 4
    && offsetof(struct uinput_abs_setup, absinfo.resolution) == 6 * 4, "setup[3] is the maximum, setup[6] the resolution");
/* emit: 24 bytes, the time left zero (the kernel stamps it), type at 16, code at 18, value at 20. */
_Static_assert(sizeof(struct input_event) == 24 && offsetof(struct input_event, type) == 16
    && offsetof(struct input_event, code) == 18 && offsetof(struct input_event, value) == 20, "emit's input_event");

/* ---- Tests/System/scenarios/test_input.py, UINPUT and MOUSE (the guest's Python): its UI_* numbers, the
   legacy uinput_user_dev it writes (struct.pack "80sHHHHI", then 64 i each of absmax and absmin and 2 x 64
   zero ones) and its input_event ("qqHHi", native: two longs of time). */
_Static_assert(UI_SET_ABSBIT == 0x40045567, "UI_SET_ABSBIT");
_Static_assert(offsetof(struct uinput_user_dev, id) == 80 && offsetof(struct uinput_user_dev, ff_effects_max) == 88
    && offsetof(struct uinput_user_dev, absmax) == 92 && offsetof(struct uinput_user_dev, absmin) == 92 + 64 * 4
    && sizeof(struct uinput_user_dev) == 92 + 4 * 64 * 4, "\"80sHHHHI\" + \"64i\" x 4");
_Static_assert(sizeof(long) == 8 && sizeof(struct timeval) == 2 * sizeof(long), "\"qq\": an input_event's time is two 64-bit longs");

/* ---- Tests/System/scenarios/test_harness.py, check_resources_see_fds_threads_timerfds_and_mappings (a
   host-only check, run on any machine): timerfd_create(1, 0o2000000), its `Spec` of four c_longs, mmap's
   offset as a c_long. */
_Static_assert(CLOCK_MONOTONIC == 1 && TFD_CLOEXEC == 02000000, "timerfd_create(1, 0o2000000): CLOCK_MONOTONIC, TFD_CLOEXEC");
_Static_assert(sizeof(struct itimerspec) == 4 * sizeof(long) && offsetof(struct itimerspec, it_value) == 2 * sizeof(long),
    "Spec: interval seconds and nanoseconds, then value's, each a long");
_Static_assert(sizeof(off_t) == sizeof(long), "mmap's offset passed as a c_long");

/* ---- Sources/KioskRuntime/ControlServer.swift: `Credentials` (Int32, UInt32, UInt32) is struct ucred. */
_Static_assert(sizeof(struct ucred) == 12 && offsetof(struct ucred, pid) == 0 && offsetof(struct ucred, uid) == 4
    && offsetof(struct ucred, gid) == 8 && sizeof(pid_t) == 4 && sizeof(uid_t) == 4 && sizeof(gid_t) == 4,
    "Credentials: pid_t, uid_t, gid_t of 4 bytes each");

/* ---- Sources/kiosk/ControlClient.swift and the tests' sockets: timeval(tv_sec: Int, tv_usec: Int) takes
   time_t and suseconds_t as Swift's Int (64 bits). */
_Static_assert(sizeof(time_t) == 8 && sizeof(suseconds_t) == 8, "timeval's fields are Swift Ints");

/* ---- Sources/DRMDisplay/DRMCards.swift, majorNumber and minorNumber (glibc's major() and minor(), which
   Swift cannot import), and Tests/DRMDisplayTests/DeviceNumberTests.swift's makedev: the same encoding of a
   64-bit dev_t as glibc's. glibc's are inline functions, not constant expressions, so no _Static_assert can
   call them: each comparison below is folded away by the optimizer when it holds, and a call of
   `kiosk_device_number_mismatch` left over is a compile error (GCC's `error` attribute). */
_Static_assert(sizeof(dev_t) == 8, "majorNumber and minorNumber take a 64-bit dev_t");
#ifndef __USE_EXTERN_INLINES
#error "compile with -O2: glibc defines major(), minor() and makedev() inline only when optimizing"
#endif
#define SWIFT_MAJOR(d) ((((uint64_t)(d) >> 8) & 0xfff) | (((uint64_t)(d) >> 32) & ~(uint64_t)0xfff))
#define SWIFT_MINOR(d) (((uint64_t)(d) & 0xff) | (((uint64_t)(d) >> 12) & 0xffffff00))
#define SWIFT_MAKEDEV(ma, mi) \
    ((((uint64_t)(ma) & 0xfff) << 8) | (((uint64_t)(ma) & 0xfffff000) << 32) | ((uint64_t)(mi) & 0xff) \
        | (((uint64_t)(mi) & 0xffffff00) << 12))
extern void kiosk_device_number_mismatch(void)
    __attribute__((error("DRMCards.swift's majorNumber/minorNumber or DeviceNumberTests' makedev differ from glibc's")));
#define CHECK_DEVICE(ma, mi) \
    if (SWIFT_MAKEDEV(ma, mi) != makedev(ma, mi) || SWIFT_MAJOR(makedev(ma, mi)) != major(makedev(ma, mi)) \
        || SWIFT_MINOR(makedev(ma, mi)) != minor(makedev(ma, mi)) || major(makedev(ma, mi)) != (ma) \
        || minor(makedev(ma, mi)) != (mi)) \
        kiosk_device_number_mismatch();
/* DeviceNumberTests' pairs: DRM's major (226) with minors below and above 8 bits, large majors. */
void kiosk_check_device_numbers(void);
void kiosk_check_device_numbers(void) {
    CHECK_DEVICE(226u, 0u)
    CHECK_DEVICE(226u, 255u)
    CHECK_DEVICE(226u, 256u)
    CHECK_DEVICE(226u, 1048575u)
    CHECK_DEVICE(4095u, 12345u)
    CHECK_DEVICE(4096u, 7u)
    CHECK_DEVICE(0xfffffu, 0xfffffu)
}
