import Foundation
import Testing

@testable import KioskKit

/// The semantics issue #2 lists, one test (or a few) each, on the in-memory backend.
@MainActor @Suite(.serialized)
struct WindowSemanticsTests {
    // 1. New windows are at .normal; a higher level is always in front, whoever is key.
    @Test func newWindowsAreNormalAndHigherLevelsAreInFront() {
        let bed = TestBed()
        let alert = bed.window("alert", level: .alert)
        let status = bed.window("status", level: .statusBar)
        let plain = Window(screen: Screen.main)
        #expect(plain.windowLevel == .normal)
        #expect(Window.Level.normal.rawValue == 0 && Window.Level.statusBar.rawValue == 1000 && Window.Level.alert.rawValue == 2000)
        #expect((Window.Level.alert + 1).rawValue == 2001 && (Window.Level.statusBar - 1).rawValue == 999)
        plain.identifier = "main"
        plain.makeKeyAndVisible()
        #expect(plain.isKeyWindow)
        #expect(bed.app.windows.map(\.displayName) == ["main", "status", "alert"])
        // The key window at .normal does not come in front of the alert, even after being made key again.
        plain.makeKeyAndVisible()
        #expect(bed.app.windows.last === alert)
        #expect(bed.app.hitTest(Point(x: 10, y: 10), on: Screen.main)?.0 === alert)
        alert.isHidden = true
        #expect(bed.app.hitTest(Point(x: 10, y: 10), on: Screen.main)?.0 === status)
    }

    // 2. Within a level the window shown last is in front; makeKeyAndVisible brings it to the front of its level.
    @Test func lastShownIsInFrontWithinALevel() {
        let bed = TestBed()
        let a = bed.window("a", show: false), b = bed.window("b", show: false), c = bed.window("c", show: false)
        c.isHidden = false
        a.isHidden = false
        b.isHidden = false
        #expect(bed.app.windows.map(\.displayName) == ["c", "a", "b"])
        c.makeKeyAndVisible()
        #expect(bed.app.windows.map(\.displayName) == ["a", "b", "c"])
        // Showing an already visible window changes nothing.
        a.isHidden = false
        #expect(bed.app.windows.map(\.displayName) == ["a", "b", "c"])
        // A status bar window shown before them all still stays in front of the normal level.
        let status = bed.window("status", level: .statusBar)
        a.makeKeyAndVisible()
        #expect(bed.app.windows.map(\.displayName) == ["b", "c", "a", "status"])
        #expect(status.isHidden == false)
    }

    // 3. One key window at most; the resign/become order; makeKeyAndVisible on a hidden window; isHidden = false keeps the key.
    @Test func keyWindowChangesInOrder() {
        let bed = TestBed()
        let a = RecordingWindow(screen: Screen.main), b = RecordingWindow(screen: Screen.main)
        a.identifier = "A"
        b.identifier = "B"
        a.makeKeyAndVisible()
        #expect(bed.takeLog() == ["window.visible A", "window.key A"])
        b.isHidden = false
        #expect(bed.takeLog() == ["window.visible B"])
        #expect(a.isKeyWindow && !b.isKeyWindow)
        b.makeKey()
        #expect(bed.takeLog() == ["window.resign-key A", "window.key B"])
        #expect(a.calls == ["becomeKey", "resignKey"] && b.calls == ["becomeKey"])
        #expect(bed.app.keyWindow === b && !a.isKeyWindow)
        #expect(bed.app.windows.filter(\.isKeyWindow).count == 1)
        // makeKeyAndVisible on a hidden window: visible first, then the key change.
        let c = RecordingWindow(screen: Screen.main)
        c.identifier = "C"
        c.makeKeyAndVisible()
        #expect(bed.takeLog() == ["window.visible C", "window.resign-key B", "window.key C"])
        // Making the key window key again posts nothing.
        c.makeKey()
        #expect(bed.takeLog().isEmpty)
    }

    @Test func resignKeyIsCalledWhileNoWindowIsKey() {
        final class Probe: Window {
            var keyDuringResign: [Window?] = []
            override func resignKey() { keyDuringResign.append(Application.shared.keyWindow) }
        }
        let bed = TestBed()
        let a = Probe(screen: Screen.main)
        a.makeKeyAndVisible()
        bed.window("b")
        #expect(a.keyDuringResign.count == 1 && a.keyDuringResign[0] == nil)
    }

    // 4. Hiding the key window: it resigns, the key goes back to the previous key window if visible, else
    //    the frontmost visible; then the hidden notification. Only real changes post notifications.
    @Test func hidingTheKeyWindowReturnsKeyToThePreviousOne() {
        let bed = TestBed()
        let main = bed.window("main")
        let other = bed.window("other")
        let sheet = bed.window("sheet", level: .alert)
        other.isHidden = true
        main.makeKey()
        sheet.makeKey()
        _ = bed.takeLog()
        // The reference's action-sheet order: sheet resigns, main becomes key, sheet hidden.
        sheet.isHidden = true
        #expect(bed.takeLog() == ["window.resign-key sheet", "window.key main", "window.hidden sheet"])
        #expect(main.isKeyWindow)
        sheet.isHidden = true
        main.isHidden = false
        #expect(bed.takeLog().isEmpty)
    }

    @Test func hidingTheKeyWindowFallsBackToTheFrontmostVisibleWindow() {
        let bed = TestBed()
        let back = bed.window("back")
        let front = bed.window("front", show: false)
        front.isHidden = false
        let previous = bed.window("previous")
        let key = bed.window("key")
        previous.isHidden = true
        _ = bed.takeLog()
        key.isHidden = true
        #expect(bed.takeLog() == ["window.resign-key key", "window.key front", "window.hidden key"])
        #expect(back.isKeyWindow == false && front.isKeyWindow)
        // Hiding the last visible window leaves no key window.
        front.isHidden = true
        back.isHidden = true
        #expect(bed.app.keyWindow == nil)
        #expect(
            bed.takeLog() == [
                "window.resign-key front", "window.key back", "window.hidden front",
                "window.resign-key back", "window.hidden back",
            ])
    }

    @Test func visibleWindowsAreKeptAliveHiddenOnesAreNot() {
        let bed = TestBed()
        weak var shown: Window?
        weak var hidden: Window?
        do {
            let a = Window(screen: Screen.main)
            a.isHidden = false
            shown = a
            let b = Window(screen: Screen.main)
            hidden = b
        }
        #expect(shown != nil)
        #expect(hidden == nil)
        shown?.isHidden = true
        #expect(shown == nil)
        #expect(bed.app.windows.isEmpty)
    }

    // 5. Touches go to the frontmost visible window containing the point, then down its views; they stay
    //    with their view; points outside a window never reach it; keys go to the key window.
    @Test func touchGoesToTheFrontmostWindowUnderTheFinger() {
        let bed = TestBed()
        let back = bed.window("back")
        let backView = RecordingView(frame: Rect(x: 0, y: 0, width: 1920, height: 1080))
        back.addSubview(backView)
        let alert = bed.window("alert", frame: Rect(x: 100, y: 100, width: 200, height: 100), level: .alert)
        let button = RecordingView(frame: Rect(x: 10, y: 10, width: 50, height: 50))
        button.identifier = "button"
        alert.addSubview(button)
        // The back window is key: touches still go where the finger is.
        back.makeKey()

        let inside = bed.touchDown(at: Point(x: 120, y: 120))
        #expect(inside.window === alert && inside.view === button)
        #expect(inside.location(in: button) == Point(x: 10, y: 10))
        #expect(inside.location(in: nil) == Point(x: 20, y: 20))
        let outside = bed.touchDown(at: Point(x: 400, y: 400))
        #expect(outside.window === back && outside.view === backView)
        // Inside the alert window but on no subview: the window itself.
        let onWindow = bed.touchDown(at: Point(x: 250, y: 180))
        #expect(onWindow.view === alert)

        // The touch stays with its view even when it moves out of it, and out of the window.
        bed.touch(inside, .moved, at: Point(x: 900, y: 900))
        bed.touch(inside, .ended, at: Point(x: 900, y: 900))
        #expect(button.calls == ["began 1", "moved 1", "ended 1"])
        #expect(inside.previousLocation(in: nil) == Point(x: 800, y: 800))
    }

    @Test func subviewsOutsideTheirWindowNeverGetTouches() {
        let bed = TestBed()
        let back = bed.window("back")
        let small = bed.window("small", frame: Rect(x: 100, y: 100, width: 100, height: 100), level: .statusBar)
        // Draws outside its window (not clipped), but the window's bounds decide.
        let overhang = RecordingView(frame: Rect(x: 50, y: 50, width: 200, height: 200))
        small.addSubview(overhang)
        let touch = bed.touchDown(at: Point(x: 260, y: 260))
        #expect(touch.window === back && touch.view === back)
        let within = bed.touchDown(at: Point(x: 160, y: 160))
        #expect(within.view === overhang)
        // A subview outside its superview's bounds is not reached either (hit testing checks the parent first).
        let parent = View(frame: Rect(x: 0, y: 0, width: 20, height: 20))
        let child = RecordingView(frame: Rect(x: 30, y: 30, width: 10, height: 10))
        parent.addSubview(child)
        back.addSubview(parent)
        #expect(bed.touchDown(at: Point(x: 35, y: 35)).view === back)
    }

    @Test func hitTestingSkipsHiddenNonInteractiveAndTransparentViews() {
        let bed = TestBed()
        let window = bed.window("w")
        let bottom = RecordingView(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        bottom.identifier = "bottom"
        let hidden = View(frame: bottom.frame), inert = View(frame: bottom.frame), faint = View(frame: bottom.frame)
        hidden.isHidden = true
        inert.isUserInteractionEnabled = false
        faint.alpha = 0.005
        for view in [bottom, hidden, inert, faint] { window.addSubview(view) }
        #expect(window.hitTest(Point(x: 50, y: 50), with: nil) === bottom)
        faint.alpha = 0.02
        #expect(window.hitTest(Point(x: 50, y: 50), with: nil) === faint)
        // A window that is not interactive lets touches through to the one behind.
        let glass = bed.window("glass", level: .alert)
        glass.isUserInteractionEnabled = false
        #expect(bed.touchDown(at: Point(x: 50, y: 50)).window === window)
        #expect(glass.isHidden == false)
    }

    @Test func hitTestingFollowsScrolledBounds() {
        let bed = TestBed()
        let window = bed.window("w")
        let scroller = View(frame: Rect(x: 100, y: 100, width: 200, height: 200))
        scroller.bounds.origin = Point(x: 0, y: 300)  // scrolled down by 300 points
        let item = RecordingView(frame: Rect(x: 10, y: 320, width: 50, height: 50))
        item.bounds.origin = Point(x: 5, y: 5)
        scroller.addSubview(item)
        window.addSubview(scroller)
        // The item shows at (110, 120)-(160, 170) on screen.
        let touch = bed.touchDown(at: Point(x: 115, y: 125))
        #expect(touch.view === item)
        #expect(touch.location(in: item) == Point(x: 10, y: 10))
        #expect(bed.touchDown(at: Point(x: 165, y: 125)).view === scroller)
        for p in [Point(x: 111, y: 121), Point(x: 159, y: 169), Point(x: 200, y: 250)] {
            let hit = window.hitTest(p, with: nil)
            #expect(hit === window.hitTest(p, with: nil))
            if let hit, hit !== window { #expect(hit.bounds.contains(window.convert(p, to: hit))) }
        }
    }

    @Test func unhandledTouchesTravelUpTheResponderChain() {
        final class Catcher: ViewController {
            var caught = 0
            override func touchesBegan(_ touches: Set<Touch>, with event: Event) { caught += touches.count }
        }
        let bed = TestBed()
        let window = bed.window("w")
        let controller = Catcher()
        window.rootViewController = controller
        let inner = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        controller.view.addSubview(inner)
        #expect(inner.next === controller.view)
        #expect(controller.view.next === controller)
        #expect(controller.next === window)
        #expect(window.next === bed.app)
        #expect(bed.app.next == nil)
        bed.touchDown(at: Point(x: 5, y: 5))
        #expect(controller.caught == 1)
    }

    @Test func twoFingersInOneEventReachTheirOwnViews() {
        let bed = TestBed()
        let window = bed.window("w")
        let left = RecordingView(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let right = RecordingView(frame: Rect(x: 100, y: 0, width: 100, height: 100))
        window.addSubview(left)
        window.addSubview(right)
        let one = Touch(screen: Screen.main, location: Point(x: 10, y: 10), timestamp: 1)
        let two = Touch(screen: Screen.main, location: Point(x: 110, y: 10), timestamp: 1)
        let three = Touch(screen: Screen.main, location: Point(x: 20, y: 20), timestamp: 1)
        let event = Event(touches: [one, two, three], timestamp: 1)
        bed.app.sendEvent(event)
        #expect(left.calls == ["began 2"] && right.calls == ["began 1"])
        #expect(event.touches(for: left).count == 2 && event.touches(for: window).count == 3)
        one.update(phase: .ended, location: Point(x: 10, y: 10), timestamp: 2)
        two.update(phase: .moved, location: Point(x: 120, y: 10), timestamp: 2)
        three.update(phase: .stationary, location: Point(x: 20, y: 20), timestamp: 2)
        bed.app.sendEvent(Event(touches: [one, two, three], timestamp: 2))
        #expect(left.calls == ["began 2", "ended 1"] && right.calls == ["began 1", "moved 1"])
    }

    @Test func tapCountCountsQuickTapsAtOnePlace() {
        let bed = TestBed()
        bed.window("w")
        let first = bed.touchDown(at: Point(x: 50, y: 50), time: 10)
        bed.touch(first, .ended, time: 10.1)
        let second = bed.touchDown(at: Point(x: 55, y: 52), time: 10.3)
        bed.touch(second, .ended, time: 10.35)
        let far = bed.touchDown(at: Point(x: 500, y: 500), time: 10.5)
        bed.touch(far, .ended, time: 10.55)
        let late = bed.touchDown(at: Point(x: 500, y: 500), time: 12)
        let counts: [Int] = [first.tapCount, second.tapCount, far.tapCount, late.tapCount]
        #expect(counts == [1, 2, 1, 1])
    }

    @Test func eventsWithoutAPositionGoToTheKeyWindow() {
        final class Field: View {
            var typed = ""
            override var canBecomeFirstResponder: Bool { true }
            override func pressesBegan(_ presses: Set<Press>, with event: Event) { typed += presses.map(\.text).joined() }
        }
        final class KeyCatcher: Window {
            var keys: [UInt32] = []
            var others: [String] = []
            override func pressesBegan(_ presses: Set<Press>, with event: Event) { keys += presses.map(\.keysym) }
            override func handleOther(_ event: Event) { if case let .other(name) = event.kind { others.append(name) } }
        }
        let bed = TestBed()
        // With no key window the event is dropped (with a log line), not crashed on.
        bed.app.sendEvent(Event(presses: [Press(phase: .began, keysym: 0x61, text: "a", timestamp: 1)], timestamp: 1))
        let a = KeyCatcher(screen: Screen.main), b = KeyCatcher(screen: Screen.main)
        a.makeKeyAndVisible()
        b.isHidden = false
        bed.app.sendEvent(Event(presses: [Press(phase: .began, keysym: 0xff0d, text: "\r", timestamp: 1)], timestamp: 1))
        bed.app.sendEvent(Event(other: "power-button", timestamp: 1))
        #expect(a.keys == [0xff0d] && b.keys.isEmpty && a.others == ["power-button"])
        // The key window's first responder gets keys first.
        let field = Field(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        a.addSubview(field)
        #expect(field.becomeFirstResponder() && field.isFirstResponder)
        bed.app.sendEvent(Event(presses: [Press(phase: .began, keysym: 0x68, text: "h", timestamp: 2)], timestamp: 2))
        #expect(field.typed == "h" && a.keys == [0xff0d])
        // Leaving the window resigns it.
        field.removeFromSuperview()
        #expect(!field.isFirstResponder)
        #expect(View().becomeFirstResponder() == false)
    }

    /// A view controller whose view is in a window may become first responder; keys then reach it first
    /// (a root controller reading a barcode scanner's keys).
    @Test func aViewControllerTakesKeysAsFirstResponder() {
        final class KeyController: ViewController {
            var keys: [UInt32] = []
            override var canBecomeFirstResponder: Bool { true }
            override func pressesBegan(_ presses: Set<Press>, with event: Event) { keys += presses.map(\.keysym) }
        }
        let bed = TestBed()
        let controller = KeyController()
        #expect(!controller.becomeFirstResponder())
        let other = bed.window("other")
        let window = bed.window("main", show: false)
        window.rootViewController = controller
        window.isHidden = false
        other.makeKeyAndVisible()
        #expect(controller.becomeFirstResponder() && controller.isFirstResponder)
        bed.app.sendEvent(Event(presses: [Press(phase: .began, keysym: 0x61, text: "a", timestamp: 1)], timestamp: 1))
        #expect(controller.keys == [0x61])
        // Its window hidden, it lets the status go.
        window.isHidden = true
        #expect(!controller.isFirstResponder)
        // So it does when its view leaves the window, or is hidden, even if it would rather keep it.
        final class Clinging: ViewController {
            override var canBecomeFirstResponder: Bool { true }
            override var canResignFirstResponder: Bool { false }
        }
        window.isHidden = false
        let clinging = Clinging()
        window.rootViewController = clinging
        #expect(clinging.becomeFirstResponder())
        window.rootViewController = ViewController()
        #expect(!clinging.isFirstResponder && bed.app.firstResponder == nil)
        #expect(controller.becomeFirstResponder() == false)  // its view is in no window
        let child = Clinging()
        window.rootViewController!.view.addSubview(child.view)
        #expect(child.becomeFirstResponder())
        window.rootViewController!.view.isHidden = true
        #expect(!child.isFirstResponder)
    }

    /// A key's release reaches the responder its press went to, whoever is first responder by then
    /// (UIKit's `UIPress.responder`); a responder that leaves its window while a key is held hears
    /// `pressesCancelled`, and the release then goes nowhere.
    @Test func aKeysReleaseGoesWhereItsPressWent() {
        final class KeyView: View {
            var heard: [String] = []
            override var canBecomeFirstResponder: Bool { true }
            override func pressesBegan(_ presses: Set<Press>, with event: Event) { heard += presses.map { "began \($0.keyCode)" } }
            override func pressesEnded(_ presses: Set<Press>, with event: Event) { heard += presses.map { "ended \($0.keyCode)" } }
            override func pressesCancelled(_ presses: Set<Press>, with event: Event) { heard += presses.map { "cancelled \($0.keyCode)" } }
        }
        let bed = TestBed()
        let window = bed.window("main")
        let a = KeyView(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        let b = KeyView(frame: Rect(x: 20, y: 0, width: 10, height: 10))
        window.addSubview(a)
        window.addSubview(b)
        func key(_ phase: Press.Phase, _ code: UInt32, at time: TimeInterval) {
            bed.app.sendEvent(
                Event(presses: [Press(phase: phase, keysym: 0x61, text: "", timestamp: time, keyCode: code)], timestamp: time))
        }
        #expect(a.becomeFirstResponder())
        key(.began, 30, at: 1)
        #expect(b.becomeFirstResponder())
        key(.ended, 30, at: 2)
        #expect(a.heard == ["began 30", "ended 30"] && b.heard.isEmpty)
        key(.began, 31, at: 3)
        b.removeFromSuperview()
        key(.ended, 31, at: 4)
        #expect(b.heard == ["began 31", "cancelled 31"])
        #expect(a.heard == ["began 30", "ended 30"])
        // The next press of that key is paired again.
        #expect(a.becomeFirstResponder())
        key(.began, 31, at: 5)
        key(.ended, 31, at: 6)
        #expect(a.heard.suffix(2) == ["began 31", "ended 31"])
    }

    /// `Window(frame: Screen.main.bounds)`, UIKit's idiom, made before any display is connected: the window
    /// gets the first display's size (it stayed 0x0, never drawn, never touched).
    @Test func aWindowMadeWithTheMainScreensBoundsBeforeAnyDisplay() {
        let bed = TestBed(screens: [])
        let window = Window(frame: Screen.main.bounds)
        window.makeKeyAndVisible()
        let hdmi = bed.backend.connect("HDMI-A-1", modes: [Modes.hd])
        #expect(window.screen === hdmi && window.frame == Rect(x: 0, y: 0, width: 1280, height: 720))
        // A frame of its own stays as it is.
        let small = Window(frame: Rect(x: 10, y: 10, width: 100, height: 100))
        #expect(!small.fillsScreen && window.fillsScreen)
    }

    /// Any level prints, the largest too (it trapped converting to `Int`).
    @Test func levelsPrint() {
        #expect("\(Window.Level.alert + 1)" == "2001")
        #expect("\(Window.Level(rawValue: .greatestFiniteMagnitude))" == "\(Double.greatestFiniteMagnitude)")
        #expect("\(Window.Level(rawValue: 1.5))" == "1.5")
    }

    @Test func touchesAreCancelledWhenTheirWindowHides() {
        let bed = TestBed()
        let window = bed.window("w")
        let view = RecordingView(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        window.addSubview(view)
        let touch = bed.touchDown(at: Point(x: 10, y: 10))
        window.isHidden = true
        #expect(view.calls == ["began 1", "cancelled 1"])
        #expect(touch.phase == .cancelled)
        // Later frames of that touch go nowhere.
        bed.touch(touch, .moved, at: Point(x: 20, y: 20))
        #expect(view.calls == ["began 1", "cancelled 1"])
        // An input backend cancels the touches of a removed device the same way.
        window.isHidden = false
        let other = bed.touchDown(at: Point(x: 10, y: 10))
        #expect(bed.app.cancelTouches(reason: "device removed") { $0 === other } == 1)
        #expect(view.calls.suffix(2) == ["began 1", "cancelled 1"])
    }

    // 6. A view whose window is nil is not visible; view.window is the containing window at any depth.
    @Test func viewWindowIsTheContainingWindowAtAnyDepth() {
        let bed = TestBed()
        let window = bed.window("w")
        let a = View(), b = View(), c = View()
        a.addSubview(b)
        b.addSubview(c)
        #expect(c.window == nil)
        window.addSubview(a)
        #expect(c.window === window && a.window === window && window.window === window)
        b.removeFromSuperview()
        #expect(c.window == nil && b.superview == nil && a.subviews.isEmpty)
        #expect(bed.app.hitTest(Point(x: 1, y: 1), on: Screen.main)?.1 !== c)
    }

    // 7. Conversion is exact between views of one window, between windows of one screen, and through the screen.
    @Test func conversionBetweenViewsAndWindows() {
        let bed = TestBed()
        let w1 = bed.window("w1", frame: Rect(x: 100, y: 50, width: 800, height: 600))
        let w2 = bed.window("w2", frame: Rect(x: 300, y: 400, width: 400, height: 300))
        let a = View(frame: Rect(x: 10, y: 20, width: 300, height: 300))
        let b = View(frame: Rect(x: 5, y: 7, width: 100, height: 100))
        a.addSubview(b)
        w1.addSubview(a)
        let c = View(frame: Rect(x: 33, y: 44, width: 50, height: 50))
        w2.addSubview(c)
        // b's origin sits at (15, 27) in w1 and at (115, 77) on the screen.
        #expect(b.convert(Point.zero, to: nil) == Point(x: 15, y: 27))
        #expect(b.convert(Point(x: 1, y: 2), to: a) == Point(x: 6, y: 9))
        #expect(a.convert(Point(x: 6, y: 9), to: b) == Point(x: 1, y: 2))
        #expect(w1.convert(Point(x: 15, y: 27), to: nil) == Point(x: 115, y: 77))
        #expect(w2.convert(Point(x: 0, y: 0), from: nil) == Point(x: -300, y: -400))
        #expect(w1.convert(Point(x: 0, y: 0), to: w2) == Point(x: -200, y: -350))
        #expect(w2.convert(Point(x: -200, y: -350), to: w1) == Point.zero)
        // Across windows through views: b (115,77 on screen) in c's coordinates.
        #expect(b.convert(Point.zero, to: c) == Point(x: 115 - 333, y: 77 - 444))
        #expect(c.convert(Point(x: 115 - 333, y: 77 - 444), to: b) == Point.zero)
        #expect(c.convert(Point.zero, from: b) == Point(x: 115 - 333, y: 77 - 444))
        let rect = Rect(x: 1, y: 2, width: 30, height: 40)
        #expect(b.convert(rect, to: c).size == rect.size)
        #expect(c.convert(b.convert(rect, to: c), to: b) == rect)
        #expect(w1.convert(w1.convert(rect, to: w2), from: w2) == rect)
        // Bounds origins (scrolling) shift the subviews.
        a.bounds.origin = Point(x: 5, y: 5)
        #expect(b.convert(Point.zero, to: nil) == Point(x: 10, y: 22))
        #expect(b.frame == Rect(x: 5, y: 7, width: 100, height: 100))
        // Round trips for every pair.
        let views: [View] = [w1, w2, a, b, c]
        for from in views {
            for to in views {
                let p = Point(x: 12.5, y: -3.25)
                #expect(to.convert(from.convert(p, to: to), to: from) == p)
            }
        }
    }

    // 8. A window whose screen is disconnected is not shown and gets no touches but keeps its views, and
    //    comes back with the screen; app code making its window on Screen.main works with no display yet.
    @Test func windowsOfADisconnectedScreenComeBackWithIt() {
        let bed = TestBed(screens: ["HDMI-A-1", "HDMI-A-2"])
        let second = bed.screen("HDMI-A-2")
        let window = bed.window("external", on: second)
        let label = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        window.addSubview(label)
        let touch = bed.touchDown(at: Point(x: 5, y: 5), on: second)
        #expect(touch.view === label)
        let sameScreen = bed.backend.screen(named: "HDMI-A-2")
        _ = bed.takeLog()
        bed.backend.disconnect("HDMI-A-2")
        #expect(bed.takeLog() == ["screen.disconnect HDMI-A-2"])
        #expect(touch.phase == .cancelled)
        #expect(!window.isOnDisplay && window.isHidden == false)
        #expect(bed.touchDown(at: Point(x: 5, y: 5), on: second).window == nil)
        #expect(window.subviews.first === label)
        bed.backend.connect("HDMI-A-2", modes: Modes.standard)
        #expect(bed.takeLog() == ["screen.connect HDMI-A-2"])
        #expect(bed.screen("HDMI-A-2") === sameScreen && window.screen === sameScreen)
        #expect(window.isOnDisplay && window.frame == Rect(x: 0, y: 0, width: 1920, height: 1080))
        #expect(bed.touchDown(at: Point(x: 5, y: 5), on: second).view === label)
    }

    @Test func appWindowMadeBeforeAnyDisplayAppearsOnTheFirstOne() {
        let bed = TestBed(screens: [])
        #expect(Screen.screens.count == 1 && Screen.screens[0] === Screen.main)
        #expect(Screen.main.isPlaceholder && Screen.main.bounds == .zero && !Screen.main.isConnected)
        let window = Window(screen: Screen.main)
        window.identifier = "app"
        window.makeKeyAndVisible()
        #expect(!window.isOnDisplay)
        #expect(bed.touchDown(at: Point(x: 1, y: 1)).window == nil)
        let hdmi = bed.backend.connect("HDMI-A-1", modes: [Modes.hd])
        #expect(Screen.main === hdmi && window.screen === hdmi)
        #expect(window.frame == Rect(x: 0, y: 0, width: 1280, height: 720) && window.isOnDisplay)
        #expect(bed.touchDown(at: Point(x: 1, y: 1), on: hdmi).window === window)
        #expect(bed.takeLog() == ["window.visible app", "window.key app", "screen.connect HDMI-A-1"])
    }
}
