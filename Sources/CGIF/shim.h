#include <gif_lib.h>

// giflib (Debian's libgif-dev has no pkg-config file; the header is in /usr/include).
