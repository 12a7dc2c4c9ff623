#include <xkbcommon/xkbcommon.h>
#include <xkbcommon/xkbcommon-compose.h>

// xkbcommon.h's macros that Swift needs are plain constants (XKB_KEYCODE_INVALID, the XKB_MOD_NAME_*
// strings of xkbcommon-names.h), which Swift imports directly. Add prefixed `static inline cxkb_...`
// shims here if a function-like macro is ever needed from Swift.
