import Glibc
import KioskConfig
@_spi(KioskRuntime) import KioskKit

/// The mouse cursor: a small window over everything, the on-screen keyboard too (it never takes touches or
/// the key status), shown per the configuration's `cursor`: `always` while a pointer device exists, `auto`
/// while a pointer moved in the last few seconds, `hidden` never. A touch kiosk with no mouse never shows one.
/// It asks for the display's cursor plane (`PlanePreference.cursor`), and is composed where there is none.
@MainActor
public final class Cursor {
    public typealias Mode = KioskConfiguration.Cursor

    /// A window for the cursor: a system overlay (`Window.isSystemOverlay`), so drawn over every window,
    /// the keyboard's too, and none of `Application.windows`; transparent to touches, never key.
    final class CursorWindow: Window {
        override var canBecomeKey: Bool { false }
    }

    /// Draws a ring: visible on dark and light content alike.
    final class RingView: View {
        override func draw(_ rect: Rect) {
            guard let context = DrawingContext.current else { return }
            context.fillEllipse(in: bounds, color: Color(white: 0, alpha: 0.8))
            context.fillEllipse(in: bounds.insetBy(dx: 2, dy: 2), color: .white)
            context.fillEllipse(in: bounds.insetBy(dx: 5, dy: 5), color: Color(white: 0, alpha: 0.8))
        }
    }

    static let size = 16.0
    /// How long `auto` keeps the cursor after the pointer stops.
    public static let idleTimeout: TimeInterval = 3
    public var mode: Mode {
        didSet { update() }
    }
    /// Whether any pointer device is plugged in (for `always` and `auto`).
    public var hasPointerDevice = false {
        didSet { update() }
    }
    /// The cursor's window, made when a pointer first moves.
    public private(set) var window: Window?
    /// Whether the pointer moved within `idleTimeout`: a motion starts the wait, its end clears it.
    private var recentlyMoved = false
    private var idle: Debouncer!

    /// `schedule` runs the idle timeout: the main queue in the kiosk, a hand-turned clock in tests.
    public init(mode: Mode, schedule: @escaping Debouncer.Schedule = Debouncer.onMainQueue) {
        self.mode = mode
        idle = Debouncer(delay: Self.idleTimeout, schedule: schedule) { [weak self] in
            self?.recentlyMoved = false
            self?.update()
        }
    }

    /// The pointer is at `point` on `screen`.
    public func moved(to point: Point, on screen: Screen) {
        let window = self.window ?? makeWindow()
        if window.screen !== screen { window.screen = screen }
        window.frame = Rect(x: point.x - Self.size / 2, y: point.y - Self.size / 2, width: Self.size, height: Self.size)
        recentlyMoved = true
        update()
        // Only `auto` hides on its own; the other modes need no timer.
        if mode == .auto { idle.signal() }
    }

    /// Whether the cursor shows now.
    public var isVisible: Bool { window.map { !$0.isHidden } ?? false }

    private func makeWindow() -> CursorWindow {
        let window = CursorWindow(frame: Rect(x: 0, y: 0, width: Self.size, height: Self.size))
        window.identifier = "cursor"
        // Over every window, the on-screen keyboard's too, and not one of the app's windows.
        window.isSystemOverlay = true
        window.isUserInteractionEnabled = false
        // On the display's cursor plane where it has one: moving the pointer then composes nothing.
        window.planePreference = .cursor
        let ring = RingView(frame: window.bounds)
        ring.isUserInteractionEnabled = false
        window.addSubview(ring)
        self.window = window
        return window
    }

    private func update() {
        guard let window else { return }
        let visible: Bool
        switch mode {
        case .hidden: visible = false
        case .always: visible = hasPointerDevice
        case .auto: visible = hasPointerDevice && recentlyMoved
        }
        if window.isHidden == visible { window.isHidden = !visible }
    }
}
