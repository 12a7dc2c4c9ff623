// swift-format-ignore-file: AlwaysUseLowerCamelCase
// (The bindings keep their C names: they stand in for the C declarations they shadow.)

import CLazyGIF
import LazyLink

/// giflib (Debian's libgif7), loaded when the first GIF is decoded (see `LazyLibrary`).
enum GIFLibrary {
    static let shared = LazyLibrary(soname: KIOSK_LAZY_GIF_SONAME, load: kiosk_lazy_gif_load)
}

let DGifOpen = GIFLibrary.shared.functions.DGifOpen!
let DGifSlurp = GIFLibrary.shared.functions.DGifSlurp!
let DGifCloseFile = GIFLibrary.shared.functions.DGifCloseFile!
let DGifSavedExtensionToGCB = GIFLibrary.shared.functions.DGifSavedExtensionToGCB!
let GifErrorString = GIFLibrary.shared.functions.GifErrorString!
