// swift-format-ignore-file: AlwaysUseLowerCamelCase
// (The bindings keep their C names: they stand in for the C declarations they shadow.)

import CLazyPNG
import LazyLink

/// libpng, loaded when a PNG is first read here (see `LazyLibrary`). The kiosk's other PNG reader is cairo's
/// (Graphics), part of the text stack whose 35 libraries load on a thread of their own at start; the launch
/// screen is shown before they are loaded, so it is read with libpng (which cairo links too) on its own.
public enum PNGLibrary {
    public static let shared = LazyLibrary(soname: KIOSK_LAZY_PNG_SONAME, load: kiosk_lazy_png_load)
}

let png_image_begin_read_from_file = PNGLibrary.shared.functions.png_image_begin_read_from_file!
let png_image_finish_read = PNGLibrary.shared.functions.png_image_finish_read!
let png_image_free = PNGLibrary.shared.functions.png_image_free!
