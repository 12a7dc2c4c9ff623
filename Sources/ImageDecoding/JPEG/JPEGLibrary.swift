// swift-format-ignore-file: AlwaysUseLowerCamelCase
// (The bindings keep their C names: they stand in for the C declarations they shadow.)

import CLazyJPEG
import LazyLink

/// libjpeg-turbo's TurboJPEG library, loaded when the first JPEG is decoded (see `LazyLibrary`).
enum JPEGLibrary {
    static let shared = LazyLibrary(soname: KIOSK_LAZY_JPEG_SONAME, load: kiosk_lazy_jpeg_load)
}

let tjInitDecompress = JPEGLibrary.shared.functions.tjInitDecompress!
let tjDecompressHeader3 = JPEGLibrary.shared.functions.tjDecompressHeader3!
let tjDecompress2 = JPEGLibrary.shared.functions.tjDecompress2!
let tjGetScalingFactors = JPEGLibrary.shared.functions.tjGetScalingFactors!
let tjGetErrorStr2 = JPEGLibrary.shared.functions.tjGetErrorStr2!
let tjGetErrorCode = JPEGLibrary.shared.functions.tjGetErrorCode!
let tjDestroy = JPEGLibrary.shared.functions.tjDestroy!
