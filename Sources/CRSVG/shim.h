#include <librsvg/rsvg.h>

// librsvg (with the cairo, GObject and GLib it links): SVG drawn by cairo at the size it is shown at.
