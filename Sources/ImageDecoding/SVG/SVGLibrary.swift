// swift-format-ignore-file: AlwaysUseLowerCamelCase
// (The bindings keep their C names: they stand in for the C declarations they shadow.)

import CLazyRSVG
import LazyLink

/// librsvg (Debian's librsvg2-2) with the GIO and cairo it links, loaded when the first SVG is read (see
/// `LazyLibrary`).
enum SVGLibrary {
    static let shared = LazyLibrary(soname: KIOSK_LAZY_RSVG_SONAME, load: kiosk_lazy_rsvg_load)
}

let rsvg_handle_new_from_stream_sync = SVGLibrary.shared.functions.rsvg_handle_new_from_stream_sync!
let rsvg_handle_set_dpi = SVGLibrary.shared.functions.rsvg_handle_set_dpi!
let rsvg_handle_get_intrinsic_size_in_pixels = SVGLibrary.shared.functions.rsvg_handle_get_intrinsic_size_in_pixels!
let rsvg_handle_get_intrinsic_dimensions = SVGLibrary.shared.functions.rsvg_handle_get_intrinsic_dimensions!
let rsvg_handle_render_document = SVGLibrary.shared.functions.rsvg_handle_render_document!
let g_memory_input_stream_new_from_data = SVGLibrary.shared.functions.g_memory_input_stream_new_from_data!
let g_file_new_for_path = SVGLibrary.shared.functions.g_file_new_for_path!
let g_object_unref = SVGLibrary.shared.functions.g_object_unref!
let g_error_free = SVGLibrary.shared.functions.g_error_free!
let cairo_image_surface_create_for_data = SVGLibrary.shared.functions.cairo_image_surface_create_for_data!
let cairo_create = SVGLibrary.shared.functions.cairo_create!
let cairo_scale = SVGLibrary.shared.functions.cairo_scale!
let cairo_destroy = SVGLibrary.shared.functions.cairo_destroy!
let cairo_surface_destroy = SVGLibrary.shared.functions.cairo_surface_destroy!
let cairo_surface_flush = SVGLibrary.shared.functions.cairo_surface_flush!
let cairo_status = SVGLibrary.shared.functions.cairo_status!
let cairo_status_to_string = SVGLibrary.shared.functions.cairo_status_to_string!
let cairo_format_stride_for_width = SVGLibrary.shared.functions.cairo_format_stride_for_width!
