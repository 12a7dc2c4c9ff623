#include <turbojpeg.h>

// libjpeg-turbo's TurboJPEG API: errors are return codes with a message (tjGetErrorStr2), where the
// libjpeg API reports them by longjmp, which Swift cannot catch.
