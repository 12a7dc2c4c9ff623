import KioskTesting
import Testing

@testable import KioskKit

/// Each screen keeps the windows a touch may reach (`Screen.hitTestWindows`), front to back, until they
/// change: every change that decides where a touch goes must make it again.
@MainActor @Suite(.serialized)
struct HitTestWindowsTests {
    /// A window that is not interactive, or almost transparent, is left out; changing either back brings it in.
    @Test func interactionAndAlphaOfAWindowAreFollowed() {
        let bed = TestBed()
        let back = bed.window("back")
        let front = bed.window("front")
        let point = Point(x: 10, y: 10)
        // Each list is made while the front window is left out, so a stale one would go on leaving it out.
        front.isUserInteractionEnabled = false
        #expect(bed.app.hitTest(point, on: Screen.main)?.0 === back)
        front.isUserInteractionEnabled = true
        #expect(bed.app.hitTest(point, on: Screen.main)?.0 === front)
        front.alpha = 0.005
        #expect(bed.app.hitTest(point, on: Screen.main)?.0 === back)
        front.alpha = 0.01
        #expect(bed.app.hitTest(point, on: Screen.main)?.0 === front)
    }

    /// A window of a class of its own is asked whatever its flags say: its `hitTest` may take the touch.
    @Test func aWindowThatOverridesHitTestIsAskedAnyway() {
        final class Insistent: Window {
            let catcher = View(frame: Rect(x: 0, y: 0, width: 50, height: 50))
            override func hitTest(_ point: Point, with event: Event?) -> View? {
                catcher.frame.contains(point) ? catcher : super.hitTest(point, with: event)
            }
        }
        let bed = TestBed()
        bed.window("back")
        let insistent = Insistent(screen: Screen.main)
        insistent.makeKeyAndVisible()
        insistent.isUserInteractionEnabled = false
        insistent.alpha = 0
        #expect(bed.app.hitTest(Point(x: 10, y: 10), on: Screen.main)?.1 === insistent.catcher)
        #expect(bed.app.hitTest(Point(x: 100, y: 100), on: Screen.main)?.0 !== insistent)
    }

    /// Moving a window to another screen moves its touches with it; levels and showing restack it.
    @Test func screensLevelsAndShowingAreFollowed() {
        let bed = TestBed(screens: ["HDMI-A-1", "HDMI-A-2"])
        let first = bed.screen("HDMI-A-1"), second = bed.screen("HDMI-A-2")
        let back = bed.window("back", on: first)
        let mover = bed.window("mover", on: first)
        let point = Point(x: 10, y: 10)
        #expect(bed.app.hitTest(point, on: first)?.0 === mover && bed.app.hitTest(point, on: second) == nil)
        mover.screen = second
        #expect(bed.app.hitTest(point, on: first)?.0 === back && bed.app.hitTest(point, on: second)?.0 === mover)
        mover.screen = first
        back.windowLevel = .alert
        #expect(bed.app.hitTest(point, on: first)?.0 === back)
        back.isHidden = true
        #expect(bed.app.hitTest(point, on: first)?.0 === mover)
        back.makeKeyAndVisible()
        mover.windowLevel = .alert
        mover.makeKeyAndVisible()
        #expect(bed.app.hitTest(point, on: first)?.0 === mover)
    }

    /// The lists hold their windows strongly, but only while they are shown: a hidden window goes when its
    /// owner lets it go, as before, though a touch had put it in its screen's list.
    @Test func aHiddenWindowIsNotKeptAlive() {
        let bed = TestBed()
        bed.window("back")
        weak var gone: Window?
        do {
            let window = bed.window("passing")
            gone = window
            #expect(bed.app.hitTest(Point(x: 10, y: 10), on: Screen.main)?.0 === window)
            window.isHidden = true
        }
        #expect(gone == nil)
        #expect(bed.app.hitTest(Point(x: 10, y: 10), on: Screen.main)?.0.identifier == "back")
    }

    /// Nor does the screen keep its windows, which keep their screen: a window shown on it goes with its
    /// application, though the display backend keeps the screen.
    @Test func theScreenDoesNotKeepItsWindows() {
        let backend = InMemoryDisplayBackend()
        weak var gone: Window?
        do {
            let app = Application.reset()
            backend.connect("HDMI-A-1", modes: Modes.standard)
            let window = Window(screen: Screen.main)
            window.makeKeyAndVisible()
            gone = window
            #expect(app.hitTest(Point(x: 10, y: 10), on: Screen.main)?.0 === window)
        }
        Application.reset()
        #expect(gone == nil && backend.screensByName["HDMI-A-1"] != nil)
    }
}
