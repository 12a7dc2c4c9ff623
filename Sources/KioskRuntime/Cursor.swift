import Dispatch
import Foundation
import KioskKit

/// The mouse cursor: a small window above everything (it never takes touches or the key status), shown
/// per the config's `cursor`: `always` while a pointer device exists, `auto` while a pointer moved in the
/// last few seconds, `hidden` never. A touch kiosk with no mouse never shows one.
@MainActor
final class Cursor {
    enum Mode: String, CaseIterable, Sendable {
        case auto, hidden, always
    }

    /// A window for the cursor: above every app level, transparent to touches, never key.
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
    static let idleTimeout: TimeInterval = 3
    /// Far above `.alert`: nothing an app shows covers the cursor.
    static let level = Window.Level.alert + 100_000

    var mode: Mode {
        didSet { update() }
    }
    /// Whether any pointer device is plugged in (for `always`).
    var hasPointerDevice = false {
        didSet { update() }
    }
    private var window: CursorWindow?
    private var lastMotion: Date?
    private var hideTimer: DispatchWorkItem?

    init(mode: Mode) {
        self.mode = mode
    }

    /// The pointer is at `point` on `screen`.
    func moved(to point: Point, on screen: Screen) {
        lastMotion = Date()
        let window = self.window ?? makeWindow()
        if window.screen !== screen { window.screen = screen }
        window.frame = Rect(x: point.x - Self.size / 2, y: point.y - Self.size / 2, width: Self.size, height: Self.size)
        update()
        guard mode == .auto else { return }
        hideTimer?.cancel()
        let timer = DispatchWorkItem { [weak self] in MainActor.assumeIsolated { self?.update() } }
        hideTimer = timer
        DispatchQueue.main.asyncAfter(deadline: .now() + Self.idleTimeout, execute: timer)
    }

    private func makeWindow() -> CursorWindow {
        let window = CursorWindow(frame: Rect(x: 0, y: 0, width: Self.size, height: Self.size))
        window.identifier = "cursor"
        window.windowLevel = Self.level
        window.isUserInteractionEnabled = false
        let ring = RingView(frame: window.bounds)
        ring.isUserInteractionEnabled = false
        window.addSubview(ring)
        self.window = window
        return window
    }

    private func update() {
        guard let window else { return }
        let recent = lastMotion.map { Date().timeIntervalSince($0) < Self.idleTimeout - 0.05 } ?? false
        let visible: Bool
        switch mode {
        case .hidden: visible = false
        case .always: visible = hasPointerDevice
        case .auto: visible = hasPointerDevice && recent
        }
        if window.isHidden == visible { window.isHidden = !visible }
    }
}
