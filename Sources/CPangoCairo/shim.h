#include <cairo.h>
#include <pango/pangocairo.h>

/* glibconfig.h is the one GLib header made per architecture (the widths of gsize, glong and pointers,
   the byte order), in /usr/lib/<multiarch>/glib-2.0/include: one of another architecture, which a cross
   build's include path can name (pkg-config of the build machine), would give pango's and cairo's API
   the wrong widths without a word. Checked against the compiler's own target. */
_Static_assert(GLIB_SIZEOF_VOID_P == sizeof(void *) && GLIB_SIZEOF_LONG == sizeof(long) && GLIB_SIZEOF_SIZE_T == sizeof(size_t),
    "glibconfig.h is of another architecture than this compiler's target");
_Static_assert((G_BYTE_ORDER == G_LITTLE_ENDIAN) == (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__),
    "glibconfig.h's byte order is not this compiler's target's");
