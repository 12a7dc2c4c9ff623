#include <pixman.h>

// pixman's fixed-point helpers are macros with casts, which Swift does not import; these shims give the
// Graphics module the same arithmetic without re-deriving the 16.16 layout by hand.
static inline pixman_fixed_t cpixman_int_to_fixed(int i) { return pixman_int_to_fixed(i); }
static inline pixman_fixed_t cpixman_double_to_fixed(double d) { return pixman_double_to_fixed(d); }
