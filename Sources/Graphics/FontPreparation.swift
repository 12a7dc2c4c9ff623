import CLazyPangoCairo
import LazyLink

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Text's start-up work, done on a thread of its own while the caller does something else (a kiosk opens
/// its seat and lights its displays meanwhile): loading pango and cairo (with the 35 libraries they link),
/// fontconfig reading its configuration and cache, opening the system font's faces, shaping and drawing
/// its ASCII characters, regular and bold.
///
/// The work goes into a font map of its own. `finish()` waits for it and makes that font map the calling
/// thread's default, so the first text laid out there starts warm. Pango's font maps belong to one thread
/// at a time (`PangoThreadContext`), and this one changes hands only after its thread has ended.
///
/// Call `finish()` on the thread that will draw, before it lays out any text: a thread that already has
/// its pango context keeps the font map it was made with (still correct, only cold).
public final class FontPreparation: @unchecked Sendable {
    // @unchecked: `outcome` is written by the preparing thread before it ends and read only after
    // `pthread_join`, which orders the two.

    /// What the preparing thread leaves: its font map (`PangoFontMap *`, one reference), or why there is none.
    private final class Outcome {
        var result: Result<OpaquePointer, LazyLinkError>?
    }

    private let outcome = Outcome()
    private var thread: pthread_t?

    /// Starts the preparation on a new thread. Calls `pthread_create`.
    public init() {
        let box = Unmanaged.passRetained(outcome).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(
            &thread, nil,
            { box in
                let outcome = Unmanaged<Outcome>.fromOpaque(box!).takeRetainedValue()
                outcome.result = FontPreparation.prepare()
                return nil
            }, box)
        if status == 0 {
            self.thread = thread
        } else {
            // No thread (resource limits): the same work, here and now.
            Unmanaged<Outcome>.fromOpaque(box).release()
            outcome.result = Self.prepare()
        }
    }

    /// A preparation never finished (the caller failed first) is still waited for, so that the process
    /// does not exit while the thread is inside fontconfig.
    deinit {
        if let thread { pthread_join(thread, nil) }
        if case let .success(fontMap)? = outcome.result { g_object_unref(UnsafeMutableRawPointer(fontMap)) }
    }

    /// Waits for the preparation and gives its font map to this thread (`pango_cairo_font_map_set_default`).
    /// Throws if pango and cairo could not be loaded; a second call does nothing.
    public func finish() throws(LazyLinkError) {
        if let thread {
            pthread_join(thread, nil)
            self.thread = nil
        }
        guard let result = outcome.result else { return }
        outcome.result = nil
        let fontMap = try result.get()
        pango_cairo_font_map_set_default(fontMap)  // takes its own reference
        g_object_unref(UnsafeMutableRawPointer(fontMap))
        Self.lastPreparedFontMap = fontMap
    }

    /// The font map the last `finish()` handed over, for tests to see it is the one in use.
    nonisolated(unsafe) static var lastPreparedFontMap: OpaquePointer?

    /// Every printable ASCII character: the glyphs nearly every label needs.
    static let printableASCII = String((0x20...0x7E).map { Character(Unicode.Scalar($0)) })

    /// The work, on the preparing thread: its own font map as this thread's default, then text drawn in
    /// the system font.
    private static func prepare() -> Result<OpaquePointer, LazyLinkError> {
        do {
            try PangoCairoLibrary.shared.load()
        } catch {
            return .failure(error)
        }
        let fontMap = OpaquePointer(pango_cairo_font_map_new()!)
        pango_cairo_font_map_set_default(fontMap)
        let bitmap = Bitmap(width: 64, height: 32)
        let drawing = DrawingContext(bitmap: bitmap)
        for font in [Font.system(size: 17), .boldSystemFont(ofSize: 17)] {
            drawing.draw(TextLayout(text: printableASCII, font: font), at: .zero)
        }
        drawing.flush()
        // The thread's default goes with the thread (pango's thread-private data); the reference from
        // pango_cairo_font_map_new goes to `finish()`.
        return .success(fontMap)
    }
}
