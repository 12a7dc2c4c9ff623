#ifndef KIOSK_LAZY_PANGOCAIRO_H
#define KIOSK_LAZY_PANGOCAIRO_H

#include <fontconfig/fontconfig.h>
#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>
#include <lazy_link.h>

/// pangocairo (with pango, cairo, GObject and GLib, which it links), loaded on first use (LazyLink).
#define KIOSK_LAZY_PANGOCAIRO_SONAME "libpangocairo-1.0.so.0"

/// Every function of it the Graphics module calls.
#define KIOSK_LAZY_PANGOCAIRO_FUNCTIONS(F) \
    F(cairo_arc) \
    F(cairo_clip) \
    F(cairo_close_path) \
    F(cairo_create) \
    F(cairo_destroy) \
    F(cairo_fill) \
    F(cairo_font_options_create) \
    F(cairo_font_options_destroy) \
    F(cairo_font_options_set_antialias) \
    F(cairo_font_options_set_hint_metrics) \
    F(cairo_font_options_set_hint_style) \
    F(cairo_format_stride_for_width) \
    F(cairo_get_source) \
    F(cairo_image_surface_create_for_data) \
    F(cairo_image_surface_create_from_png) \
    F(cairo_image_surface_create_from_png_stream) \
    F(cairo_image_surface_get_data) \
    F(cairo_image_surface_get_format) \
    F(cairo_image_surface_get_height) \
    F(cairo_image_surface_get_stride) \
    F(cairo_image_surface_get_width) \
    F(cairo_move_to) \
    F(cairo_new_path) \
    F(cairo_new_sub_path) \
    F(cairo_paint) \
    F(cairo_paint_with_alpha) \
    F(cairo_pattern_set_extend) \
    F(cairo_pattern_set_filter) \
    F(cairo_rectangle) \
    F(cairo_recording_surface_create) \
    F(cairo_recording_surface_ink_extents) \
    F(cairo_restore) \
    F(cairo_rotate) \
    F(cairo_save) \
    F(cairo_scale) \
    F(cairo_set_fill_rule) \
    F(cairo_set_operator) \
    F(cairo_set_source_rgba) \
    F(cairo_set_source_surface) \
    F(cairo_status) \
    F(cairo_status_to_string) \
    F(cairo_surface_destroy) \
    F(cairo_surface_flush) \
    F(cairo_surface_mark_dirty) \
    F(cairo_surface_set_user_data) \
    F(cairo_surface_status) \
    F(cairo_surface_write_to_png) \
    F(cairo_surface_write_to_png_stream) \
    F(cairo_translate) \
    F(g_object_unref) \
    F(pango_cairo_context_set_font_options) \
    F(pango_cairo_font_map_get_default) \
    F(pango_cairo_font_map_new) \
    F(pango_cairo_font_map_set_default) \
    F(pango_cairo_show_layout) \
    F(pango_cairo_update_layout) \
    F(pango_attr_background_alpha_new) \
    F(pango_attr_background_new) \
    F(pango_attr_font_desc_new) \
    F(pango_attr_foreground_alpha_new) \
    F(pango_attr_foreground_new) \
    F(pango_attr_letter_spacing_new) \
    F(pango_attr_list_insert) \
    F(pango_attr_list_new) \
    F(pango_attr_list_unref) \
    F(pango_attr_rise_new) \
    F(pango_attr_strikethrough_new) \
    F(pango_attr_underline_new) \
    F(pango_context_get_font_map) \
    F(pango_context_set_base_dir) \
    F(pango_context_set_round_glyph_positions) \
    F(pango_fc_font_map_config_changed) \
    F(pango_font_describe) \
    F(pango_font_description_free) \
    F(pango_font_description_get_family) \
    F(pango_font_description_new) \
    F(pango_font_description_set_absolute_size) \
    F(pango_font_description_set_family) \
    F(pango_font_description_set_weight) \
    F(pango_font_map_create_context) \
    F(pango_font_map_load_font) \
    F(pango_layout_get_baseline) \
    F(pango_layout_get_cursor_pos) \
    F(pango_layout_get_extents) \
    F(pango_layout_get_iter) \
    F(pango_layout_get_line_count) \
    F(pango_layout_get_line_readonly) \
    F(pango_layout_get_unknown_glyphs_count) \
    F(pango_layout_is_ellipsized) \
    F(pango_layout_iter_free) \
    F(pango_layout_iter_get_line_extents) \
    F(pango_layout_iter_next_line) \
    F(pango_layout_line_get_resolved_direction) \
    F(pango_layout_new) \
    F(pango_layout_set_alignment) \
    F(pango_layout_set_attributes) \
    F(pango_layout_set_ellipsize) \
    F(pango_layout_set_font_description) \
    F(pango_layout_set_height) \
    F(pango_layout_set_indent) \
    F(pango_layout_set_spacing) \
    F(pango_layout_set_text) \
    F(pango_layout_set_width) \
    F(pango_layout_set_wrap) \
    F(pango_layout_xy_to_index)

struct kiosk_lazy_pangocairo {
    KIOSK_LAZY_PANGOCAIRO_FUNCTIONS(KIOSK_LAZY_FIELD)
};

/// Loads pangocairo (with pango, cairo, GObject and GLib, which it links): its functions, or NULL with dlerror's text in `error`.
/// Built with KIOSK_TEXT_LINKED (the linked text stack: scripts/text-stack links them in), the linked functions, never NULL.
const struct kiosk_lazy_pangocairo *kiosk_lazy_pangocairo_load(char *error, size_t size);

/// fontconfig, which pango links: loaded on its own so that its start can run beside pango's load.
#define KIOSK_LAZY_FONTCONFIG_SONAME "libfontconfig.so.1"

/// Loads fontconfig and finds the functions its start calls (dlopen and dlsym, which hold the dynamic
/// loader's lock): 0, or -1 with the reason in `error`. Call it before another thread starts loading pango:
/// a dlsym waits for every dlopen under way, so done after, fontconfig's start waited for all of pango's
/// 35 libraries. Built with KIOSK_TEXT_LINKED, the linked functions: 0.
int kiosk_lazy_fontconfig_load(char *error, size_t size);

/// Has fontconfig read the system's configuration and font caches and makes that its current
/// configuration (what `FcInit` does, without parsing the template folder `FcInit` also reads for
/// fc-conflist), the longest part of text's start, on a thread of its own while pango and cairo load on
/// another. Falls back to `FcInit` (its fallback configuration, its warnings) when the system's cannot be
/// loaded. Loads fontconfig first if `kiosk_lazy_fontconfig_load` has not (on the same thread): 0, or -1
/// with the reason in `error`.
int kiosk_lazy_fontconfig_init(char *error, size_t size);

/// The fontconfig functions that add an application's own font files (`Font.register(fileAt:)`).
#define KIOSK_LAZY_FONTCONFIG_APPLICATION_FUNCTIONS(F) \
    F(FcConfigAppFontAddFile) \
    F(FcConfigGetCurrent) \
    F(FcConfigGetFonts) \
    F(FcPatternGetString)

struct kiosk_lazy_fontconfig_application {
    KIOSK_LAZY_FONTCONFIG_APPLICATION_FUNCTIONS(KIOSK_LAZY_FIELD)
};

/// Loads fontconfig (already loaded with pango, which links it) and finds the functions that add
/// application fonts: the table, or NULL with dlerror's text in `error`. Built with KIOSK_TEXT_LINKED,
/// the linked functions, never NULL.
const struct kiosk_lazy_fontconfig_application *kiosk_lazy_fontconfig_application_load(char *error, size_t size);

#endif
