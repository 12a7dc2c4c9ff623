import CLazyPangoCairo

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The `PangoContext` text is laid out with, one per thread.
///
/// pango's cairo font map is per thread (`pango_cairo_font_map_get_default`, since pango 1.32.6), and a
/// context must not cross threads, so each thread makes its context once, on first use, and a pthread
/// key's destructor releases it when the thread ends. Creating a context per layout would also work but
/// costs a context (and its font-options merge) for every label.
enum PangoThreadContext {
    /// Calls `pthread_key_create` once per process (Swift runs a global's initializer exactly once).
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let result = pthread_key_create(&key) { context in g_object_unref(context) }
        if result != 0 { fatalError("pthread_key_create failed: \(result)") }
        return key
    }()

    /// This thread's context (`PangoContext *`), made on first use. Calls `pango_font_map_create_context`.
    static var current: OpaquePointer {
        if let context = pthread_getspecific(key) { return OpaquePointer(context) }
        let context = makeContext()
        let result = pthread_setspecific(key, UnsafeRawPointer(context))
        if result != 0 { fatalError("pthread_setspecific failed: \(result)") }
        return context
    }

    /// A context with explicit font options, so text does not depend on fontconfig's or a desktop's
    /// rendering settings: greyscale antialiasing (subpixel order is meaningless on a rotated panel),
    /// slight hinting, metrics hinted to whole pixels, positions rounded, left-to-right base direction
    /// (paragraphs still resolve their own direction: layouts keep `auto_dir`).
    /// Calls `pango_cairo_context_set_font_options`.
    private static func makeContext() -> OpaquePointer {
        let fontMap = pango_cairo_font_map_get_default()!  // owned by pango, per thread
        let context = pango_font_map_create_context(fontMap)!
        let options = cairo_font_options_create()!
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_SLIGHT)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_ON)
        pango_cairo_context_set_font_options(context, options)  // copies the options
        cairo_font_options_destroy(options)
        pango_context_set_round_glyph_positions(context, 1)
        pango_context_set_base_dir(context, PANGO_DIRECTION_WEAK_LTR)
        return context
    }
}
