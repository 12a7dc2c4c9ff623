#include <libseat.h>

// libseat.h declares functions, one struct and one enum, and no macros, so Swift imports all of it
// directly. Add prefixed `static inline clibseat_...` shims here if a macro is ever needed from Swift.
