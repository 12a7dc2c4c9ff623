import KioskKit
import KioskTesting

/// An overlay window that lets touches through wherever none of its subviews takes them (the usual
/// UIKit "pass-through window" for HUDs and toasts): its hit test returns nil instead of itself.
@MainActor
final class PassThroughWindow: Window {
    override func hitTest(_ point: Point, with event: Event?) -> View? {
        let hit = super.hitTest(point, with: event)
        return hit === self ? nil : hit
    }
}

/// 100 full-screen windows of 100 views each on a 1920x1080 screen, for hit testing.
///
/// Each window's views tile it in a 10x10 grid of 192x108 cells, added row by row, so subview 0 (the
/// back-most) covers the top-left cell. The touch is at (50, 50), in that cell: a walk of the subviews front
/// to back visits all 100 before it finds the one that contains the point. `View.hitTest` goes through a
/// grid of its subviews' frames instead (KioskKit's `HitTestIndex`, for 32 subviews or more), which asks
/// subview 0 alone: the scenes measure that, as an app's would run. What varies is how many windows the
/// search goes through:
@MainActor
public final class HitTestScene {
    public enum Kind: String, CaseIterable, Sendable {
        /// Stock windows: the frontmost window takes the touch. The search asks the screen's window list,
        /// one window's frame and that window's grid.
        case frontmostWindow
        /// The 99 windows in front are not interactive (`isUserInteractionEnabled = false`): stock windows
        /// that take no touch are left out of the screen's list, so the search goes straight to the bottom
        /// window (before the list, it checked each one's frame and flag).
        case throughNonInteractiveWindows
        /// The worst case: the 99 windows in front are pass-through overlays whose view under the touch is
        /// not interactive (as a `Label`). A window of a class of its own is asked whatever its flags, so
        /// each one's hit test runs, asks its view under the touch, finds nothing and lets the touch
        /// through; the bottom window's subview 0 takes it. Walked one by one, every one of the 10,000
        /// views was visited; through the grids, one view a window.
        case throughPassThroughWindows
    }

    public static let windowCount = 100
    public static let columns = 10, rows = 10
    public static let point = Point(x: 50, y: 50)

    public let kind: Kind
    public let backend = InMemoryDisplayBackend()
    public let screen: Screen
    /// Back to front.
    public let windows: [Window]
    /// The view the touch must land on.
    public let expectedView: View

    public init(kind: Kind) {
        self.kind = kind
        screen = SceneGeometry.connectScreen(on: backend)
        var windows: [Window] = []
        let cellWidth = Double(SceneGeometry.width / Self.columns), cellHeight = Double(SceneGeometry.height / Self.rows)
        for index in 0..<Self.windowCount {
            let isBottom = index == 0
            let window: Window
            switch kind {
            case .frontmostWindow, .throughNonInteractiveWindows:
                window = Window(screen: screen)
                if kind == .throughNonInteractiveWindows, !isBottom { window.isUserInteractionEnabled = false }
            case .throughPassThroughWindows:
                window = isBottom ? Window(screen: screen) : PassThroughWindow(screen: screen)
            }
            window.identifier = "window-\(index)"
            for row in 0..<Self.rows {
                for column in 0..<Self.columns {
                    let view = View(
                        frame: Rect(
                            x: Double(column) * cellWidth, y: Double(row) * cellHeight,
                            width: cellWidth, height: cellHeight))
                    view.identifier = "view-\(index)-\(row * Self.columns + column)"
                    if kind == .throughPassThroughWindows, !isBottom, row == 0, column == 0 {
                        view.isUserInteractionEnabled = false
                    }
                    window.addSubview(view)
                }
            }
            window.makeKeyAndVisible()
            windows.append(window)
        }
        self.windows = windows
        expectedView = kind == .frontmostWindow ? windows.last!.subviews[0] : windows.first!.subviews[0]
        precondition(hitTest()?.1 === expectedView, "hit test scene \(kind): the touch does not land where expected")
    }

    /// `Application.hitTest` on the screen: windows front to back, then the view tree.
    public func hitTest() -> (Window, View)? {
        Application.shared.hitTest(Self.point, on: screen)
    }

    /// `Window.hitTest` of the frontmost window alone (its 100 subviews), without the window list.
    public func hitTestFrontmostWindow() -> View? {
        windows.last!.hitTest(Self.point, with: nil)
    }
}

/// The in-process cost of one touch: what the input manager does for a libinput TOUCH_DOWN/UP pair (a
/// `Touch` made on the screen, one event per frame through `Application.sendEvent`) down to the view's
/// `touchesBegan` and `touchesEnded`, on the 100 x 100 scene with the touch landing on the frontmost window.
/// libinput's own part is left out: it cannot make events without a real device.
///
/// Where the touch lands: on a 100x100 recording view added in front of the frontmost window's 100 views,
/// or, `throughAllViews`, on the frontmost window's back-most view, subview 0, as in `HitTestScene` (no
/// recording view is added), where a walk of the subviews visits all 100 views (the grid of their frames
/// asks subview 0 alone, as in the frontmostWindow hit test; the name stays for the figures before it).
///
/// `withGestureRecognizers` attaches a `TapGestureRecognizer` to every view (the 10,000 and the recording
/// view) and a `PanGestureRecognizer` to every window, so a new touch collects two recognizers (its view's
/// tap and its window's pan, `Application.route`), which see it before the view does: the tap recognizes
/// when it lifts, the pan fails, and the view gets `touchesCancelled` instead of `touchesEnded` (the tap
/// cancels touches in its view, as UIKit's).
@MainActor
public final class TouchDispatchScene {
    public let scene = HitTestScene(kind: .frontmostWindow)
    /// Where the touches go down, and the view they must land on.
    public let point: Point
    public let landingView: View
    /// Touch phases the recording view saw (began and ended; not the cancel a recognizer sends instead of
    /// the end); 0 with `throughAllViews`.
    public private(set) var delivered = 0
    /// Touches put down by `touchDown` that landed on `landingView` (checked when they lift).
    public private(set) var landed = 0
    /// Taps the landing view's tap recognizer recognized (0 without recognizers).
    public private(set) var recognized = 0
    /// The touch `touchDown` put down, until `lift` ends it.
    private var touch: Touch?

    final class RecordingView: View {
        var onTouch: () -> Void = {}
        override func touchesBegan(_ touches: Set<Touch>, with event: Event) { onTouch() }
        override func touchesEnded(_ touches: Set<Touch>, with event: Event) { onTouch() }
    }

    public init(withGestureRecognizers: Bool = false, throughAllViews: Bool = false) {
        point = HitTestScene.point
        if throughAllViews {
            landingView = scene.expectedView
        } else {
            let recorder = RecordingView(frame: Rect(x: 0, y: 0, width: 100, height: 100))
            // In front of everything else in the frontmost window, at the scene's point.
            scene.windows.last!.addSubview(recorder)
            landingView = recorder
            recorder.onTouch = { [unowned self] in self.delivered += 1 }
        }
        precondition(Application.shared.hitTest(point, on: scene.screen)?.1 === landingView, "the touch does not land where expected")
        guard withGestureRecognizers else { return }
        for window in scene.windows {
            window.addGestureRecognizer(PanGestureRecognizer())
            for view in window.subviews where view !== landingView { view.addGestureRecognizer(TapGestureRecognizer()) }
        }
        landingView.addGestureRecognizer(TapGestureRecognizer { [unowned self] _ in self.recognized += 1 })
    }

    /// One tap: down and up, each its own event, as two libinput frames.
    public func tap(timestamp: Double) {
        let touch = Touch(screen: scene.screen, location: point, timestamp: timestamp)
        Application.shared.sendEvent(Event(touches: [touch], timestamp: timestamp))
        touch.update(phase: .ended, location: point, timestamp: timestamp + 0.05)
        Application.shared.sendEvent(Event(touches: [touch], timestamp: timestamp + 0.05))
    }

    /// The down half of a tap: a new `Touch` through `Application.sendEvent` (routing: the hit test and,
    /// with recognizers, collecting the touch's recognizers; then delivery to them and to the view).
    public func touchDown(timestamp: Double) {
        precondition(touch == nil, "touchDown: the last touch was not lifted")
        let touch = Touch(screen: scene.screen, location: point, timestamp: timestamp)
        self.touch = touch
        Application.shared.sendEvent(Event(touches: [touch], timestamp: timestamp))
    }

    /// The up half: the touch `touchDown` put down ends (the tap recognizes), so the next one starts afresh.
    public func lift() {
        guard let touch else { preconditionFailure("lift: no touch is down") }
        self.touch = nil
        if touch.view === landingView { landed += 1 }
        touch.update(phase: .ended, location: point, timestamp: touch.timestamp + 0.05)
        Application.shared.sendEvent(Event(touches: [touch], timestamp: touch.timestamp))
    }
}
