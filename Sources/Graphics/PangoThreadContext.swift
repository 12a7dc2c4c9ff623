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
    /// Made once per process (Swift runs a global's initializer exactly once); the destructor releases a
    /// thread's context when the thread ends.
    private static let key = makeKey { context in g_object_unref(context) }

    /// This thread's context (`PangoContext *`), made on first use (after finishing the thread's pending
    /// `FontPreparation`, if it has one). Calls `pango_font_map_create_context`.
    static var current: OpaquePointer {
        if let context = pthread_getspecific(key) { return OpaquePointer(context) }
        if let pending = pthread_getspecific(pendingKey) {
            set(pendingKey, nil)
            FontPreparation.finish(pending: Unmanaged.fromOpaque(pending))
        }
        let context = makeContext()
        set(key, UnsafeRawPointer(context))
        return context
    }

    /// Leaves `preparation` (retained) for this thread's first context to finish first
    /// (`FontPreparation.finishOnFirstText`); a thread that already has its context never takes it.
    static func beforeFirstUse(_ preparation: Unmanaged<FontPreparation>) {
        if let earlier = pthread_getspecific(pendingKey) { Unmanaged<FontPreparation>.fromOpaque(earlier).release() }
        set(pendingKey, preparation.toOpaque())
    }

    /// Made once per process; a thread that ends with a preparation pending releases it (its deinit waits
    /// for its threads).
    private static let pendingKey = makeKey { pending in Unmanaged<FontPreparation>.fromOpaque(pending!).release() }

    /// The family pango uses for `family` in this thread's context: for the system font's generic `Sans`,
    /// the installed family fontconfig's rules pick for it (DejaVu Sans on the kiosk image), found once per
    /// thread; any other family as it is.
    ///
    /// Asked for by the family's real name, a font costs pango one font set where `Sans` costs two: pango
    /// measures each new font (`pango_font_get_metrics`) with a layout in the font's own description, whose
    /// font set, keyed by the family's name, is not `Sans`'s. Qt resolves its default font to a family the
    /// same way. Both font sets hold the fonts in the same order, so text draws the same: the family found
    /// is the one `Sans` puts first, and fontconfig ranks the fonts after it by language, then by the same
    /// list of preferred families (`SystemFamilyTests`).
    static func family(_ family: String) -> String {
        guard family == Font.systemFamily else {
            FontSubstitution.checkOnce(family)
            return family
        }
        if let resolved = pthread_getspecific(systemFamilyKey) {
            return String(cString: resolved.assumingMemoryBound(to: CChar.self))
        }
        let resolved = resolveSystemFamily() ?? family
        set(systemFamilyKey, strdup(resolved))
        return resolved
    }

    /// Made once per process; the destructor frees the family's copy.
    private static let systemFamilyKey = makeKey { family in free(family) }

    /// A new thread-specific key whose `destructor` runs for a thread's non-nil value when the thread ends.
    /// Calls `pthread_key_create`; failing (out of keys) stops the program.
    private static func makeKey(_ destructor: @convention(c) (UnsafeMutableRawPointer?) -> Void) -> pthread_key_t {
        var key = pthread_key_t()
        let result = pthread_key_create(&key, destructor)
        if result != 0 { fatalError("pthread_key_create failed: \(result)") }
        return key
    }

    /// This thread's value for `key`. Calls `pthread_setspecific`; failing (out of memory) stops the program.
    private static func set(_ key: pthread_key_t, _ value: UnsafeRawPointer?) {
        let result = pthread_setspecific(key, value)
        if result != 0 { fatalError("pthread_setspecific failed: \(result)") }
    }

    /// The family of the font pango picks for a space in the system font (at the size `FontPreparation`
    /// warms, so that the thread it hands its font map to finds the font set made): nil without fonts.
    /// Calls `pango_font_map_load_font`, `pango_font_describe` and `pango_font_description_get_family`.
    private static func resolveSystemFamily() -> String? { resolvedFamily(Font.systemFamily) }

    /// The family of the font pango picks for `family` (its first choice for a space, at the size
    /// `FontPreparation` warms): nil without fonts.
    static func resolvedFamily(_ family: String) -> String? {
        let request = Font(family: family, size: FontPreparation.warmSize).makePangoDescription(family: family)
        defer { pango_font_description_free(request) }
        let context = current
        guard let font = pango_font_map_load_font(pango_context_get_font_map(context), context, request) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(font)) }
        let description = pango_font_describe(font)!
        defer { pango_font_description_free(description) }
        guard let family = pango_font_description_get_family(description), family.pointee != 0 else { return nil }
        return String(cString: family)
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
