// swift-format-ignore-file: AlwaysUseLowerCamelCase
// (The bindings keep their C names: they stand in for the C declarations they shadow.)

import CLazyPangoCairo
import LazyLink

/// pango and cairo with everything they link (GLib, GObject, HarfBuzz, FreeType, fontconfig, libpng and,
/// in Debian's cairo, X11's client libraries: 35 libraries), loaded when text or a drawing is first made
/// (see `LazyLibrary`), in a debug build and the default release alike. Bitmaps and composition (pixman) do
/// not need them. The linked text stack's profile links them in instead (`KIOSK_TEXT_LINKED`,
/// `scripts/release-build --text-stack linked`, scripts/text-stack): the table is then the linked
/// functions' and its load cannot fail.
public enum PangoCairoLibrary {
    public static let shared = LazyLibrary(soname: KIOSK_LAZY_PANGOCAIRO_SONAME, load: kiosk_lazy_pangocairo_load)
}

// The functions this module calls (the list in lazy_pangocairo.h), shadowing their C declarations.
let cairo_arc = PangoCairoLibrary.shared.functions.cairo_arc!
let cairo_clip = PangoCairoLibrary.shared.functions.cairo_clip!
let cairo_close_path = PangoCairoLibrary.shared.functions.cairo_close_path!
let cairo_create = PangoCairoLibrary.shared.functions.cairo_create!
let cairo_destroy = PangoCairoLibrary.shared.functions.cairo_destroy!
let cairo_fill = PangoCairoLibrary.shared.functions.cairo_fill!
let cairo_font_options_create = PangoCairoLibrary.shared.functions.cairo_font_options_create!
let cairo_font_options_destroy = PangoCairoLibrary.shared.functions.cairo_font_options_destroy!
let cairo_font_options_set_antialias = PangoCairoLibrary.shared.functions.cairo_font_options_set_antialias!
let cairo_font_options_set_hint_metrics = PangoCairoLibrary.shared.functions.cairo_font_options_set_hint_metrics!
let cairo_font_options_set_hint_style = PangoCairoLibrary.shared.functions.cairo_font_options_set_hint_style!
let cairo_format_stride_for_width = PangoCairoLibrary.shared.functions.cairo_format_stride_for_width!
let cairo_get_source = PangoCairoLibrary.shared.functions.cairo_get_source!
let cairo_image_surface_create_for_data = PangoCairoLibrary.shared.functions.cairo_image_surface_create_for_data!
let cairo_image_surface_create_from_png = PangoCairoLibrary.shared.functions.cairo_image_surface_create_from_png!
let cairo_image_surface_create_from_png_stream = PangoCairoLibrary.shared.functions.cairo_image_surface_create_from_png_stream!
let cairo_image_surface_get_data = PangoCairoLibrary.shared.functions.cairo_image_surface_get_data!
let cairo_image_surface_get_format = PangoCairoLibrary.shared.functions.cairo_image_surface_get_format!
let cairo_image_surface_get_height = PangoCairoLibrary.shared.functions.cairo_image_surface_get_height!
let cairo_image_surface_get_stride = PangoCairoLibrary.shared.functions.cairo_image_surface_get_stride!
let cairo_image_surface_get_width = PangoCairoLibrary.shared.functions.cairo_image_surface_get_width!
let cairo_move_to = PangoCairoLibrary.shared.functions.cairo_move_to!
let cairo_new_path = PangoCairoLibrary.shared.functions.cairo_new_path!
let cairo_new_sub_path = PangoCairoLibrary.shared.functions.cairo_new_sub_path!
let cairo_paint = PangoCairoLibrary.shared.functions.cairo_paint!
let cairo_paint_with_alpha = PangoCairoLibrary.shared.functions.cairo_paint_with_alpha!
let cairo_pattern_set_extend = PangoCairoLibrary.shared.functions.cairo_pattern_set_extend!
let cairo_pattern_set_filter = PangoCairoLibrary.shared.functions.cairo_pattern_set_filter!
let cairo_rectangle = PangoCairoLibrary.shared.functions.cairo_rectangle!
let cairo_recording_surface_create = PangoCairoLibrary.shared.functions.cairo_recording_surface_create!
let cairo_recording_surface_ink_extents = PangoCairoLibrary.shared.functions.cairo_recording_surface_ink_extents!
let cairo_restore = PangoCairoLibrary.shared.functions.cairo_restore!
let cairo_rotate = PangoCairoLibrary.shared.functions.cairo_rotate!
let cairo_save = PangoCairoLibrary.shared.functions.cairo_save!
let cairo_scale = PangoCairoLibrary.shared.functions.cairo_scale!
let cairo_set_fill_rule = PangoCairoLibrary.shared.functions.cairo_set_fill_rule!
let cairo_set_operator = PangoCairoLibrary.shared.functions.cairo_set_operator!
let cairo_set_source_rgba = PangoCairoLibrary.shared.functions.cairo_set_source_rgba!
let cairo_set_source_surface = PangoCairoLibrary.shared.functions.cairo_set_source_surface!
let cairo_status = PangoCairoLibrary.shared.functions.cairo_status!
let cairo_status_to_string = PangoCairoLibrary.shared.functions.cairo_status_to_string!
let cairo_surface_destroy = PangoCairoLibrary.shared.functions.cairo_surface_destroy!
let cairo_surface_flush = PangoCairoLibrary.shared.functions.cairo_surface_flush!
let cairo_surface_mark_dirty = PangoCairoLibrary.shared.functions.cairo_surface_mark_dirty!
let cairo_surface_set_user_data = PangoCairoLibrary.shared.functions.cairo_surface_set_user_data!
let cairo_surface_status = PangoCairoLibrary.shared.functions.cairo_surface_status!
let cairo_surface_write_to_png = PangoCairoLibrary.shared.functions.cairo_surface_write_to_png!
let cairo_surface_write_to_png_stream = PangoCairoLibrary.shared.functions.cairo_surface_write_to_png_stream!
let cairo_translate = PangoCairoLibrary.shared.functions.cairo_translate!
let g_object_unref = PangoCairoLibrary.shared.functions.g_object_unref!
let pango_cairo_context_set_font_options = PangoCairoLibrary.shared.functions.pango_cairo_context_set_font_options!
let pango_cairo_font_map_get_default = PangoCairoLibrary.shared.functions.pango_cairo_font_map_get_default!
let pango_cairo_font_map_new = PangoCairoLibrary.shared.functions.pango_cairo_font_map_new!
let pango_cairo_font_map_set_default = PangoCairoLibrary.shared.functions.pango_cairo_font_map_set_default!
let pango_cairo_show_layout = PangoCairoLibrary.shared.functions.pango_cairo_show_layout!
let pango_cairo_update_layout = PangoCairoLibrary.shared.functions.pango_cairo_update_layout!
let pango_context_get_font_map = PangoCairoLibrary.shared.functions.pango_context_get_font_map!
let pango_context_set_base_dir = PangoCairoLibrary.shared.functions.pango_context_set_base_dir!
let pango_context_set_round_glyph_positions = PangoCairoLibrary.shared.functions.pango_context_set_round_glyph_positions!
let pango_attr_background_alpha_new = PangoCairoLibrary.shared.functions.pango_attr_background_alpha_new!
let pango_attr_background_new = PangoCairoLibrary.shared.functions.pango_attr_background_new!
let pango_attr_font_desc_new = PangoCairoLibrary.shared.functions.pango_attr_font_desc_new!
let pango_attr_foreground_alpha_new = PangoCairoLibrary.shared.functions.pango_attr_foreground_alpha_new!
let pango_attr_foreground_new = PangoCairoLibrary.shared.functions.pango_attr_foreground_new!
let pango_attr_letter_spacing_new = PangoCairoLibrary.shared.functions.pango_attr_letter_spacing_new!
let pango_attr_list_insert = PangoCairoLibrary.shared.functions.pango_attr_list_insert!
let pango_attr_list_new = PangoCairoLibrary.shared.functions.pango_attr_list_new!
let pango_attr_list_unref = PangoCairoLibrary.shared.functions.pango_attr_list_unref!
let pango_attr_rise_new = PangoCairoLibrary.shared.functions.pango_attr_rise_new!
let pango_attr_strikethrough_new = PangoCairoLibrary.shared.functions.pango_attr_strikethrough_new!
let pango_attr_underline_new = PangoCairoLibrary.shared.functions.pango_attr_underline_new!
let pango_layout_set_attributes = PangoCairoLibrary.shared.functions.pango_layout_set_attributes!
let pango_layout_set_indent = PangoCairoLibrary.shared.functions.pango_layout_set_indent!
let pango_layout_set_spacing = PangoCairoLibrary.shared.functions.pango_layout_set_spacing!
let pango_fc_font_map_config_changed = PangoCairoLibrary.shared.functions.pango_fc_font_map_config_changed!
let pango_font_describe = PangoCairoLibrary.shared.functions.pango_font_describe!
let pango_font_description_free = PangoCairoLibrary.shared.functions.pango_font_description_free!
let pango_font_description_get_family = PangoCairoLibrary.shared.functions.pango_font_description_get_family!
let pango_font_description_new = PangoCairoLibrary.shared.functions.pango_font_description_new!
let pango_font_description_set_absolute_size = PangoCairoLibrary.shared.functions.pango_font_description_set_absolute_size!
let pango_font_description_set_family = PangoCairoLibrary.shared.functions.pango_font_description_set_family!
let pango_font_description_set_weight = PangoCairoLibrary.shared.functions.pango_font_description_set_weight!
let pango_font_map_create_context = PangoCairoLibrary.shared.functions.pango_font_map_create_context!
let pango_font_map_load_font = PangoCairoLibrary.shared.functions.pango_font_map_load_font!
let pango_layout_get_baseline = PangoCairoLibrary.shared.functions.pango_layout_get_baseline!
let pango_layout_get_cursor_pos = PangoCairoLibrary.shared.functions.pango_layout_get_cursor_pos!
let pango_layout_get_extents = PangoCairoLibrary.shared.functions.pango_layout_get_extents!
let pango_layout_get_iter = PangoCairoLibrary.shared.functions.pango_layout_get_iter!
let pango_layout_get_line_count = PangoCairoLibrary.shared.functions.pango_layout_get_line_count!
let pango_layout_get_line_readonly = PangoCairoLibrary.shared.functions.pango_layout_get_line_readonly!
let pango_layout_get_unknown_glyphs_count = PangoCairoLibrary.shared.functions.pango_layout_get_unknown_glyphs_count!
let pango_layout_is_ellipsized = PangoCairoLibrary.shared.functions.pango_layout_is_ellipsized!
let pango_layout_iter_free = PangoCairoLibrary.shared.functions.pango_layout_iter_free!
let pango_layout_iter_get_line_extents = PangoCairoLibrary.shared.functions.pango_layout_iter_get_line_extents!
let pango_layout_iter_next_line = PangoCairoLibrary.shared.functions.pango_layout_iter_next_line!
let pango_layout_line_get_resolved_direction = PangoCairoLibrary.shared.functions.pango_layout_line_get_resolved_direction!
let pango_layout_new = PangoCairoLibrary.shared.functions.pango_layout_new!
let pango_layout_set_alignment = PangoCairoLibrary.shared.functions.pango_layout_set_alignment!
let pango_layout_set_ellipsize = PangoCairoLibrary.shared.functions.pango_layout_set_ellipsize!
let pango_layout_set_font_description = PangoCairoLibrary.shared.functions.pango_layout_set_font_description!
let pango_layout_set_height = PangoCairoLibrary.shared.functions.pango_layout_set_height!
let pango_layout_set_text = PangoCairoLibrary.shared.functions.pango_layout_set_text!
let pango_layout_set_width = PangoCairoLibrary.shared.functions.pango_layout_set_width!
let pango_layout_set_wrap = PangoCairoLibrary.shared.functions.pango_layout_set_wrap!
let pango_layout_xy_to_index = PangoCairoLibrary.shared.functions.pango_layout_xy_to_index!
