#ifndef KIOSK_LAZY_RSVG_H
#define KIOSK_LAZY_RSVG_H

#include <librsvg/rsvg.h>
#include <lazy_link.h>

/// librsvg, loaded when an SVG is first read (LazyLink). The cairo and GLib functions here are resolved
/// through librsvg's own dependencies (dlsym on its handle), so an SVG is drawn with the cairo librsvg
/// links, whichever text stack the kiosk carries: Debian's shared one (the same library Graphics loads) or
/// the linked profile's, whose copy inside the binary exports nothing for librsvg to use.
#define KIOSK_LAZY_RSVG_SONAME "librsvg-2.so.2"

/// Every function the ImageDecoding module's SVG reader calls.
#define KIOSK_LAZY_RSVG_FUNCTIONS(F) \
    F(rsvg_handle_new_from_stream_sync) \
    F(rsvg_handle_set_dpi) \
    F(g_memory_input_stream_new_from_data) \
    F(g_file_new_for_path) \
    F(rsvg_handle_get_intrinsic_size_in_pixels) \
    F(rsvg_handle_get_intrinsic_dimensions) \
    F(rsvg_handle_render_document) \
    F(g_object_unref) \
    F(g_error_free) \
    F(cairo_image_surface_create_for_data) \
    F(cairo_create) \
    F(cairo_scale) \
    F(cairo_destroy) \
    F(cairo_surface_destroy) \
    F(cairo_surface_flush) \
    F(cairo_status) \
    F(cairo_status_to_string) \
    F(cairo_format_stride_for_width)

struct kiosk_lazy_rsvg {
    KIOSK_LAZY_RSVG_FUNCTIONS(KIOSK_LAZY_FIELD)
};

/// Loads librsvg: its functions, or NULL with dlerror's text in `error`.
const struct kiosk_lazy_rsvg *kiosk_lazy_rsvg_load(char *error, size_t size);

#endif
