#include <png.h>

// libpng's simplified reading API (png_image) is all the kiosk uses. Its format and version are macros
// built from flags; CLazyPNG's header gives Swift their values as functions.
