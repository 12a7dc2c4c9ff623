import CLazyPangoCairo
import Dispatch
import LazyLink

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Text's start-up work, done on two threads of its own while the caller does something else (a kiosk
/// reads its configuration, opens its seat and lights its displays meanwhile): fontconfig reading its
/// configuration and cache on one; loading pango and cairo (with the 35 libraries they link), then opening
/// the system font's faces, shaping and drawing its ASCII characters, regular and bold, on the other.
/// On the test bed fontconfig's start and pango's load take 0.3 to 0.4 s each, side by side. (With the
/// linked text stack, `scripts/release-build --text-stack linked`, its load is nothing, and the rest the
/// same.)
///
/// The work goes into a font map of its own. `finish()` waits for it and makes that font map the calling
/// thread's default, so the first text laid out there starts warm. Pango's font maps belong to one thread
/// at a time (`PangoThreadContext`), and this one changes hands only after its thread has ended.
///
/// A caller with work of its own before any text (a kiosk's app making its windows) waits only for the
/// libraries and fontconfig (`waitUntilLoaded()`), then lets its thread's first text finish the rest
/// (`finishOnFirstText()`): the app's launch runs while the system font is drawn.
///
/// Call `finish()` on the thread that will draw, before it lays out any text: a thread that already has
/// its pango context keeps the font map it was made with (still correct, only cold).
public final class FontPreparation: Sendable {
    private let work: Worker<Result<OpaquePointer, LazyLinkError>>
    /// Pango and cairo loaded and fontconfig's configuration read, or why not: set before the drawing.
    private let loaded = Handoff<Result<Void, LazyLinkError>>()
    /// When pango's load may start (`release()`).
    private let pangoMayLoad = Handoff<Void>()

    /// Starts the preparation: fontconfig's start (`FcInit`, the longest part) on one new thread, pango and
    /// cairo's load and the drawing on another, which waits for the first before it draws.
    ///
    /// `released: false` holds pango's load until `release()` (see there); any other call releases it too.
    public init(released: Bool = true) {
        // Pango's thread starts loading only once fontconfig is loaded and FcInit found: the dynamic
        // loader's lock, which dlopen holds throughout and dlsym takes, made fontconfig's start wait for
        // all of pango's load on the test bed (1.4 s under strace), where the two were meant side by side.
        let fontconfigLoaded = DispatchSemaphore(value: 0)
        let fontconfig = Worker { () -> Result<Void, LazyLinkError> in
            do throws(LazyLinkError) {
                do {
                    // Pango's thread goes on whether or not fontconfig loaded (it then fails to load too).
                    defer { fontconfigLoaded.signal() }
                    try LazyLinkError.check(soname: KIOSK_LAZY_FONTCONFIG_SONAME) { kiosk_lazy_fontconfig_load($0, $1) == 0 }
                }
                try LazyLinkError.check(soname: KIOSK_LAZY_FONTCONFIG_SONAME) { kiosk_lazy_fontconfig_init($0, $1) == 0 }
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        let loaded = loaded
        let pangoMayLoad = pangoMayLoad
        work = Worker {
            fontconfigLoaded.wait()
            pangoMayLoad.value()
            return Self.prepare(after: fontconfig, loaded: loaded)
        }
        if released { pangoMayLoad.put(()) }
    }

    /// A preparation never finished (the caller failed first) is still waited for, so that the process
    /// does not exit while a thread is inside fontconfig.
    deinit {
        pangoMayLoad.put(())
        if case let .success(fontMap)? = work.take() { g_object_unref(UnsafeMutableRawPointer(fontMap)) }
    }

    /// Lets pango's load start (a preparation made with `released: false`). The dynamic loader's lock is
    /// held through a whole `dlopen`, and pango's loads 35 libraries: what the caller does that takes the
    /// lock (a `dlopen`, or a new thread, whose TLS setup takes it) waits for all of them meanwhile, so the
    /// caller does that first. Only the first call counts.
    public func release() {
        pangoMayLoad.put(())
    }

    /// Waits until pango and cairo are loaded and fontconfig has read its configuration (not for the
    /// drawing after that); throws if either could not be loaded.
    public func waitUntilLoaded() throws(LazyLinkError) {
        pangoMayLoad.put(())
        try loaded.value().get()
    }

    /// Waits for the preparation and gives its font map to this thread (`pango_cairo_font_map_set_default`).
    /// Throws if pango and cairo could not be loaded; a second call does nothing.
    public func finish() throws(LazyLinkError) {
        pangoMayLoad.put(())
        guard let result = work.take() else { return }
        let fontMap = try result.get()
        pango_cairo_font_map_set_default(fontMap)  // takes its own reference
        g_object_unref(UnsafeMutableRawPointer(fontMap))
        handedOver = fontMap
    }

    /// Makes the calling thread's first text (its pango context's making, `PangoThreadContext`) wait for the
    /// preparation and take its font map, as `finish()`, so the thread can go on with work that lays out no
    /// text meanwhile. Call `waitUntilLoaded()` first: what is left then cannot fail.
    public func finishOnFirstText() {
        PangoThreadContext.beforeFirstUse(Unmanaged.passRetained(self))
    }

    /// The preparation `finishOnFirstText()` left for this thread, finished now: called by
    /// `PangoThreadContext` before it makes the thread's context.
    static func finish(pending: Unmanaged<FontPreparation>) {
        // Only pango's load or fontconfig's can fail, and `waitUntilLoaded()` has said they did not.
        try? pending.takeRetainedValue().finish()
    }

    /// Whether pango and cairo are loaded and fontconfig's configuration read (for tests).
    var isLoaded: Bool { loaded.isSet }

    /// The font map `finish()` handed over (for tests: it is the one in use on the finishing thread).
    nonisolated(unsafe) private(set) var handedOver: OpaquePointer?

    /// The size the system font is drawn at here, in pixels (UIKit's body text size).
    static let warmSize = 17.0

    /// Every printable ASCII character: the glyphs nearly every label needs.
    static let printableASCII = String((0x20...0x7E).map { Character(Unicode.Scalar($0)) })

    /// The work, on the preparing thread: pango and cairo loaded while fontconfig starts on its own
    /// thread, then a font map of this thread's own as its default, and text drawn in the system font.
    private static func prepare(
        after fontconfig: Worker<Result<Void, LazyLinkError>>, loaded: Handoff<Result<Void, LazyLinkError>>
    ) -> Result<OpaquePointer, LazyLinkError> {
        do {
            try PangoCairoLibrary.shared.load()
            try fontconfig.take()?.get()
        } catch {
            loaded.put(.failure(error))
            return .failure(error)
        }
        loaded.put(.success(()))
        let fontMap = OpaquePointer(pango_cairo_font_map_new()!)
        pango_cairo_font_map_set_default(fontMap)
        let bitmap = Bitmap(width: 64, height: 32)
        let drawing = DrawingContext(bitmap: bitmap)
        for font in [Font.system(size: warmSize), .boldSystemFont(ofSize: warmSize)] {
            drawing.draw(TextLayout(text: printableASCII, font: font), at: .zero)
        }
        drawing.flush()
        // The thread's default goes with the thread (pango's thread-private data); the reference from
        // pango_cairo_font_map_new goes to `finish()`.
        return .success(fontMap)
    }
}

/// A value one thread puts once (later puts are ignored) and others wait for.
final class Handoff<Value>: @unchecked Sendable {
    // @unchecked: `stored` is written once, under `lock`, before `ready` is signalled; `value()` reads it
    // only after waiting for `ready`, which orders the two.
    private var stored: Value?
    private var hasValue = false
    private let lock = DispatchSemaphore(value: 1)
    private let ready = DispatchSemaphore(value: 0)

    /// Sets the value and wakes every waiter, the first time; nothing after.
    func put(_ value: Value) {
        lock.wait()
        defer { lock.signal() }
        guard !hasValue else { return }
        hasValue = true
        stored = value
        ready.signal()
    }

    /// Whether the value is set, without waiting.
    var isSet: Bool {
        lock.wait()
        defer { lock.signal() }
        return hasValue
    }

    /// Waits until the value is set, and returns it.
    func value() -> Value {
        ready.wait()
        ready.signal()  // for the next waiter
        return stored!
    }
}

/// A closure run on a thread of its own, its result taken once (`take` waits for it).
final class Worker<Value>: @unchecked Sendable {
    // @unchecked: `value` is written by the thread before it ends and read only after `pthread_join`,
    // which orders the two; `take` is called from one thread.
    /// Where the thread leaves its value (the thread holds it, not the worker, which may go first).
    private final class Slot: @unchecked Sendable {
        var value: Value?
    }

    private let slot = Slot()
    private var thread: pthread_t?
    private var taken = false

    /// Starts `body` on a new thread (`pthread_create`); if no thread can be made, runs it here and now.
    init(_ body: @escaping @Sendable () -> Value) {
        let slot = slot
        let run = ThreadEntry { slot.value = body() }
        thread = run.start()
        if thread == nil { run.body() }
    }

    /// Waits for the thread and returns its value, the first time; nil after.
    func take() -> Value? {
        guard !taken else { return nil }
        taken = true
        if let thread { pthread_join(thread, nil) }
        defer { slot.value = nil }
        return slot.value
    }

    deinit {
        if !taken, let thread { pthread_join(thread, nil) }
    }
}
