// swift-format-ignore-file: AlwaysUseLowerCamelCase
// (The bindings keep their C names: they stand in for the C declarations they shadow.)

import CLazyWebP
import LazyLink

/// libwebpdemux with libwebp, loaded when the first WebP is decoded (see `LazyLibrary`).
enum WebPLibrary {
    static let shared = LazyLibrary(soname: KIOSK_LAZY_WEBP_SONAME, load: kiosk_lazy_webp_load)
}

let WebPAnimDecoderOptionsInitInternal = WebPLibrary.shared.functions.WebPAnimDecoderOptionsInitInternal!
let WebPAnimDecoderNewInternal = WebPLibrary.shared.functions.WebPAnimDecoderNewInternal!
let WebPAnimDecoderGetInfo = WebPLibrary.shared.functions.WebPAnimDecoderGetInfo!
let WebPAnimDecoderGetNext = WebPLibrary.shared.functions.WebPAnimDecoderGetNext!
let WebPAnimDecoderHasMoreFrames = WebPLibrary.shared.functions.WebPAnimDecoderHasMoreFrames!
let WebPAnimDecoderDelete = WebPLibrary.shared.functions.WebPAnimDecoderDelete!
let WebPGetFeaturesInternal = WebPLibrary.shared.functions.WebPGetFeaturesInternal!
