// timerfd_create(2) and timerfd_settime(2), which Glibc's Swift module leaves out.
#include <sys/timerfd.h>
