#include <libinput.h>

// libinput.h declares functions, enums and opaque structs, and no macros Swift needs, so Swift imports
// all of it directly. It also includes <libudev.h>: the LibInput module reads a device's udev
// properties with those functions (linked through CUdev). Add prefixed `static inline clibinput_...`
// shims here if a macro is ever needed from Swift.
