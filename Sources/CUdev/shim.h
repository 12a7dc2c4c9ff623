#include <libudev.h>

// libudev's only macro, udev_list_entry_foreach, is a plain loop over udev_list_entry_get_next; the Udev
// module walks lists with that function directly, so no shim is needed here. Add prefixed
// `static inline cudev_...` shims here if a macro is ever needed from Swift.
