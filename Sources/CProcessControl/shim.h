// prctl(2) is variadic, which Swift cannot call: one prefixed inline function per use.
#include <sys/prctl.h>

// Transparent huge pages off for this process and the processes it forks (Linux 3.15; PR_SET_THP_DISABLE).
// Returns 0, or -1 with errno set.
static inline int kiosk_disable_transparent_huge_pages(void) { return prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0); }
