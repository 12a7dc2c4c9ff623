#include <webp/decode.h>
#include <webp/demux.h>

// libwebp's animation decoder (libwebpdemux's WebPAnimDecoder), which decodes a still image as one frame.
