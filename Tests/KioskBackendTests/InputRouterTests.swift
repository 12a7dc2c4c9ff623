import Foundation
import KioskConfig
@_spi(KioskRuntime) import KioskKit
import KioskTesting
import Testing

@testable import KioskBackend

/// A window whose root view records each touch call with the touches' locations, on a 1280x800 screen.
@MainActor
final class InputBed {
    let center = NotificationHub()
    let app: Application
    let display = InMemoryDisplayBackend()
    let clock = ManualClock()
    let router: InputRouter
    let input: InMemoryInputBackend
    let window: Window
    let view = TouchLog()
    /// The names the router asked the display for, in order.
    let lookups = Lookups()

    init(configuration: KioskConfiguration = .default, rotation: Rotation = .normal, screens: [String] = ["DSI-1"]) {
        app = Application.reset(notificationCenter: center)
        for name in screens {
            display.connect(
                name, modes: [Screen.Mode(width: 1280, height: 800, refreshRate: 60)],
                physicalSize: Size(width: 256, height: 160))
        }
        display.screen(named: screens[0]).rotation = rotation
        window = Window(screen: display.screen(named: screens[0]))
        view.frame = window.bounds
        window.addSubview(view)
        window.makeKeyAndVisible()
        let display = self.display, lookups = self.lookups
        router = InputRouter(
            application: app, configuration: configuration,
            cursor: Cursor(mode: configuration.cursor, schedule: clock.schedule)
        ) { name in
            lookups.names.append(name)
            return lookups.labels[name].flatMap { display.screensByName[$0] } ?? display.screensByName[name]
        }
        input = InMemoryInputBackend(router: router)
    }

    /// A shown window filling `screen` whose one view records its touches.
    func touchLog(on screen: Screen) -> TouchLog {
        let window = Window(screen: screen)
        let log = TouchLog()
        log.frame = window.bounds
        window.addSubview(log)
        window.isHidden = false
        return log
    }
}

/// What `InputBed`'s screen lookup was asked, and labels it resolves as the runtime resolves a label of the
/// configuration (to the connector whose display matches it).
@MainActor
final class Lookups {
    var names: [String] = []
    var labels: [String: String] = [:]
}

/// Records `"<phase> <x>,<y> ..."` per call, touches sorted by x.
@MainActor
final class TouchLog: View {
    var calls: [String] = []
    var presses: [String] = []

    private func record(_ phase: String, _ touches: Set<Touch>) {
        let points = touches.map { $0.location(in: self) }.sorted { $0.x < $1.x }.map { "\(Int($0.x.rounded())),\(Int($0.y.rounded()))" }
        calls.append("\(phase) " + points.joined(separator: " "))
    }

    override func touchesBegan(_ touches: Set<Touch>, with event: Event) { record("began", touches) }
    override func touchesMoved(_ touches: Set<Touch>, with event: Event) { record("moved", touches) }
    override func touchesEnded(_ touches: Set<Touch>, with event: Event) { record("ended", touches) }
    override func touchesCancelled(_ touches: Set<Touch>, with event: Event) { record("cancelled", touches) }
    override func pressesBegan(_ presses: Set<Press>, with event: Event) {
        self.presses += presses.map { "down \($0.keysym) \($0.text.debugDescription)" }
    }
    override func pressesEnded(_ presses: Set<Press>, with event: Event) { self.presses += presses.map { "up \($0.keysym)" } }
    override var canBecomeFirstResponder: Bool { true }
}

@MainActor @Suite struct InputRouterTests {
    /// Two fingers by slot: each frame is one event with every contact; a contact that did not change in a
    /// frame is stationary (not delivered as moved); a lifted one ends while the other stays.
    @Test func slotsMakeOneEventPerFrame() {
        let bed = InputBed()
        let screen = bed.input.plugTouchscreen()
        bed.input.frame(screen, down: [(0, 0.25, 0.5)], time: 1_000_000)
        bed.input.frame(screen, down: [(1, 0.75, 0.5)], time: 1_010_000)
        bed.input.frame(screen, moved: [(1, 0.75, 0.25)], time: 1_020_000)
        bed.input.frame(screen, up: [0], time: 1_030_000)
        bed.input.frame(screen, moved: [(1, 0.5, 0.25)], time: 1_040_000)
        bed.input.frame(screen, up: [1], time: 1_050_000)
        #expect(bed.view.calls == ["began 320,400", "began 960,400", "moved 960,200", "ended 320,400", "moved 640,200", "ended 640,200"])
    }

    /// Two contacts in one frame arrive in one call.
    @Test func twoFingersInOneFrame() {
        let bed = InputBed()
        let screen = bed.input.plugTouchscreen()
        bed.input.frame(screen, down: [(0, 0.25, 0.5), (1, 0.75, 0.5)], time: 1_000_000)
        bed.input.frame(screen, up: [0, 1], time: 1_100_000)
        #expect(bed.view.calls == ["began 320,400 960,400", "ended 320,400 960,400"])
    }

    /// The kernel's timestamps, in seconds, reach the touches.
    @Test func kernelTimestamps() {
        let bed = InputBed()
        var stamps: [TimeInterval] = []
        let token = bed.app.instrumentation.observe { if case .touchDelivered(let touch) = $0 { stamps.append(touch.timestamp) } }
        defer { token.cancel() }
        let screen = bed.input.plugTouchscreen()
        bed.input.frame(screen, down: [(0, 0.5, 0.5)], time: 12_345_678)
        #expect(stamps == [12.345678])
    }

    /// A device unplugged with a finger down: the touch is cancelled, not left hanging; a later device's
    /// slot 0 is a new touch.
    @Test func removalCancelsWhatIsDown() {
        let bed = InputBed()
        let screen = bed.input.plugTouchscreen()
        bed.input.frame(screen, down: [(0, 0.5, 0.5)], time: 1_000_000)
        bed.input.unplug(screen)
        #expect(bed.view.calls == ["began 640,400", "cancelled 640,400"])
        let again = bed.input.plugTouchscreen()
        bed.input.frame(again, down: [(0, 0.25, 0.25)], time: 2_000_000)
        #expect(bed.view.calls.last == "began 320,200")
    }

    /// A session switch cancels every touch of every device.
    @Test func pauseCancelsEverything() {
        let bed = InputBed()
        let first = bed.input.plugTouchscreen("One")
        let second = bed.input.plugTouchscreen("Two")
        bed.input.frame(first, down: [(0, 0.25, 0.5)], time: 1_000_000)
        bed.input.frame(second, down: [(0, 0.75, 0.5)], time: 1_000_000)
        bed.input.pause()
        #expect(bed.view.calls.filter { $0.hasPrefix("cancelled") } == ["cancelled 320,400 960,400"])
    }

    /// Touches follow the screen's rotation: on a 90-degree screen the panel's top-right is the logical top-left.
    @Test func rotationAppliesToTouches() {
        let bed = InputBed(rotation: .rotated90)
        let screen = bed.input.plugTouchscreen()
        bed.input.frame(screen, down: [(0, 0.9, 0.1)], time: 1_000_000)
        // Panel (1152, 80) of 1280x800; logical 800x1280: x = 80, y = 1280 - 1152 = 128.
        #expect(bed.view.calls == ["began 80,128"])
    }

    /// The configuration's rule picks the screen; its calibration is handed to the backend, and a reload
    /// without it puts the device's own back (nil).
    @Test func rulesAndCalibration() throws {
        var configuration = KioskConfiguration()
        configuration.touch = [
            TouchConfiguration(
                match: try TouchConfiguration.Match.parse("Panel*").get(), screen: "DSI-1",
                calibration: [0, 1, 0, -1, 0, 1])
        ]
        let bed = InputBed(configuration: configuration, screens: ["DSI-1", "HDMI-A-1"])
        let panel = bed.input.plugTouchscreen("Panel Touch")
        #expect(bed.router.decision(for: panel) == TouchMapping.Decision(screen: "DSI-1", reason: "config [[touch]] #1 (name \"Panel*\")"))
        #expect(bed.input.calibrations.map(\.matrix) == [[0, 1, 0, -1, 0, 1]])
        bed.router.reconfigure(.default)
        #expect(bed.input.calibrations.map(\.matrix) == [[0, 1, 0, -1, 0, 1], nil])
        // Without a rule, two screens and a size matching neither exactly: the main screen.
        #expect(bed.router.decision(for: panel)?.reason == "physical size within 5% (256x160 mm)")
    }

    /// `kiosk calibrate`: identity on every touch device, whatever the configuration says.
    @Test func calibrationOff() throws {
        var configuration = KioskConfiguration()
        configuration.touch = [TouchConfiguration(match: .name("*"), screen: "DSI-1", calibration: [0, 1, 0, -1, 0, 1])]
        let bed = InputBed(configuration: configuration)
        bed.router.calibrationOff = true
        bed.input.plugTouchscreen()
        #expect(bed.input.calibrations.map(\.matrix) == [[1, 0, 0, 0, 1, 0]])
    }

    /// Keys go to the key window's first responder with their text; control characters are not text.
    @Test func keysReachTheFirstResponder() {
        let bed = InputBed()
        bed.view.becomeFirstResponder()
        let keyboard = bed.input.plug(InputDeviceInfo(id: 0, name: "Keyboard", sysname: "event0", capabilities: .keyboard))
        bed.router.key(keyboard, keysym: 0x61, text: "a", pressed: true, time: 1)
        bed.router.key(keyboard, keysym: 0x61, text: "", pressed: false, time: 2)
        bed.router.key(keyboard, keysym: 0xff0d, text: "\r", pressed: true, time: 3)
        #expect(bed.view.presses == ["down 97 \"a\"", "up 97", "down 65293 \"\""])
    }

    /// A typing keyboard (udev's ID_INPUT_KEYBOARD) keeps the on-screen keyboard away in `auto`; a device
    /// with only a few keys (a power button) does not.
    @Test func typingKeyboardsAreTold() {
        let bed = InputBed()
        let power = bed.input.plug(
            InputDeviceInfo(
                id: 0, name: "Power Button", sysname: "event1", capabilities: .keyboard, udevProperties: ["ID_INPUT_KEY": "1"]))
        #expect(!bed.app.keyboard.hasHardwareKeyboard)
        let keyboard = bed.input.plug(
            InputDeviceInfo(
                id: 0, name: "AT Translated Set 2 keyboard", sysname: "event2", capabilities: .keyboard,
                udevProperties: ["ID_INPUT_KEY": "1", "ID_INPUT_KEYBOARD": "1"]))
        #expect(bed.app.keyboard.hasHardwareKeyboard)
        bed.input.unplug(keyboard)
        #expect(!bed.app.keyboard.hasHardwareKeyboard)
        bed.input.unplug(power)
    }

    /// The primary button is a touch under the pointer; other buttons do nothing.
    @Test func mouseButtonIsATouch() {
        let bed = InputBed()
        let mouse = bed.input.plug(InputDeviceInfo(id: 0, name: "Mouse", sysname: "event3", capabilities: .pointer))
        bed.router.pointerMotionAbsolute(mouse, x: 0.5, y: 0.25, time: 1)
        bed.router.pointerButton(InputRouter.primaryButton, pressed: true, time: 2)
        bed.router.pointerMotion(dx: 10, dy: 0, time: 3)
        bed.router.pointerButton(0x111, pressed: true, time: 4)
        bed.router.pointerButton(InputRouter.primaryButton, pressed: false, time: 5)
        #expect(bed.view.calls == ["began 640,200", "moved 650,200", "ended 650,200"])
    }

    /// Two devices press the primary button (a mouse and a touch panel that is also a mouse): one touch, from
    /// the first press to the last release, as a seat's button count; it was begun twice and one never ended.
    @Test func twoDevicesPressingThePrimaryButtonMakeOneTouch() {
        let bed = InputBed()
        let mouse = bed.input.plug(InputDeviceInfo(id: 0, name: "Mouse", sysname: "event3", capabilities: .pointer))
        bed.router.pointerMotionAbsolute(mouse, x: 0.5, y: 0.25, time: 1)
        bed.router.pointerButton(InputRouter.primaryButton, pressed: true, time: 2)
        bed.router.pointerButton(InputRouter.primaryButton, pressed: true, time: 3)
        bed.router.pointerButton(InputRouter.primaryButton, pressed: false, time: 4)
        #expect(bed.view.calls == ["began 640,200"])
        bed.router.pointerButton(InputRouter.primaryButton, pressed: false, time: 5)
        #expect(bed.view.calls == ["began 640,200", "ended 640,200"])
        // A session switch in between forgets the count.
        bed.router.pointerButton(InputRouter.primaryButton, pressed: true, time: 6)
        bed.input.pause()
        bed.router.pointerButton(InputRouter.primaryButton, pressed: true, time: 7)
        #expect(bed.view.calls.suffix(3) == ["began 640,200", "cancelled 640,200", "began 640,200"])
    }

    /// A finger that moves after its device was mapped to another screen (a reload's rule for a screen that
    /// connected meanwhile) moves on the screen it went down on, in that screen's coordinates.
    @Test func aMovingFingerStaysOnItsScreenWhenTheMappingChanges() throws {
        var configuration = KioskConfiguration()
        configuration.touch = [
            TouchConfiguration(match: try TouchConfiguration.Match.parse("Panel*").get(), screen: "HDMI-A-1", calibration: nil)
        ]
        let bed = InputBed()
        let panel = bed.input.plugTouchscreen("Panel Touch")
        bed.input.frame(panel, down: [(0, 0.25, 0.5)], time: 1_000_000)
        let hdmi = bed.display.connect(
            "HDMI-A-1", modes: [Screen.Mode(width: 1920, height: 1080, refreshRate: 60)], physicalSize: Size(width: 520, height: 290))
        hdmi.rotation = .rotated90
        bed.router.reconfigure(configuration)
        #expect(bed.router.decision(for: panel)?.screen == "HDMI-A-1")
        bed.input.frame(panel, moved: [(0, 0.5, 0.5)], time: 1_010_000)
        bed.input.frame(panel, up: [0], time: 1_020_000)
        #expect(bed.view.calls == ["began 320,400", "moved 640,400", "ended 640,400"])
    }
}

/// Where relative motion takes the pointer among screens with positions (`PointerLayout`), as a table.
@Suite struct PointerLayoutTests {
    static let left = PointerLayout.Screen(name: "HDMI-A-1", position: Point(x: 0, y: 0), size: Size(width: 1280, height: 800))
    static let right = PointerLayout.Screen(name: "HDMI-A-2", position: Point(x: 1280, y: 100), size: Size(width: 1024, height: 768))
    static let alone = PointerLayout.Screen(name: "DSI-1", position: nil, size: Size(width: 800, height: 480))

    @Test func crossesOntoTheScreenTheMotionReaches() {
        let screens = [Self.left, Self.right, Self.alone]
        let rows: [(from: Point, on: String, by: Point, to: String, at: Point)] = [
            // Within a screen.
            (Point(x: 100, y: 100), "HDMI-A-1", Point(x: 10, y: -5), "HDMI-A-1", Point(x: 110, y: 95)),
            // Across the shared edge, into the right screen's coordinates (it sits 100 lower).
            (Point(x: 1270, y: 400), "HDMI-A-1", Point(x: 20, y: 0), "HDMI-A-2", Point(x: 10, y: 300)),
            // And back.
            (Point(x: 5, y: 300), "HDMI-A-2", Point(x: -10, y: 0), "HDMI-A-1", Point(x: 1275, y: 400)),
            // Beside the right screen but above its top (nothing there): stops at its own edge.
            (Point(x: 1270, y: 50), "HDMI-A-1", Point(x: 20, y: 0), "HDMI-A-1", Point(x: 1279, y: 50)),
            // Off every screen: clamped to the one it is on.
            (Point(x: 10, y: 10), "HDMI-A-1", Point(x: -50, y: -50), "HDMI-A-1", Point(x: 0, y: 0)),
            (Point(x: 1000, y: 700), "HDMI-A-2", Point(x: 100, y: 100), "HDMI-A-2", Point(x: 1023, y: 767)),
            // A screen without a position stands alone.
            (Point(x: 790, y: 240), "DSI-1", Point(x: 500, y: 0), "DSI-1", Point(x: 799, y: 240)),
        ]
        for row in rows {
            let moved = PointerLayout.move(from: row.from, on: row.on, by: row.by, among: screens)
            #expect(moved.screen == row.to && moved.location == row.at, "\(row)")
        }
        // A screen that is gone leaves the pointer where it was.
        #expect(
            PointerLayout.move(from: Point(x: 1, y: 2), on: "DP-9", by: Point(x: 5, y: 5), among: screens) == ("DP-9", Point(x: 1, y: 2)))
    }
}

@MainActor @Suite struct PointerAcrossScreensTests {
    /// A mouse's pointer crosses onto the screen beside (the cursor goes with it) and its click is a touch
    /// there; while the button is down it stays on its screen.
    @Test func theMouseCrossesToTheNextScreenAndClicksThere() {
        let bed = InputBed(screens: ["HDMI-A-1", "HDMI-A-2"])
        bed.router.screenPosition = { screen in screen.name == "HDMI-A-1" ? Point(x: 0, y: 0) : Point(x: 1280, y: 0) }
        let second = bed.display.screen(named: "HDMI-A-2")
        let log = bed.touchLog(on: second)
        bed.input.plug(InputDeviceInfo(id: 0, name: "Mouse", sysname: "event3", capabilities: .pointer))
        bed.router.pointerMotion(dx: 700, dy: 0, time: 1)  // from the first screen's centre (640, 400)
        #expect(bed.router.cursor.window?.screen === second)
        bed.router.pointerButton(InputRouter.primaryButton, pressed: true, time: 2)
        bed.router.pointerMotion(dx: -200, dy: 0, time: 3)  // held: stops at the edge
        bed.router.pointerButton(InputRouter.primaryButton, pressed: false, time: 4)
        #expect(log.calls == ["began 60,400", "moved 0,400", "ended 0,400"] && bed.view.calls.isEmpty)
    }
}

@MainActor @Suite struct CursorTests {
    static func bed(_ mode: KioskConfiguration.Cursor) -> InputBed {
        var configuration = KioskConfiguration()
        configuration.cursor = mode
        return InputBed(configuration: configuration)
    }

    static let mouse = InputDeviceInfo(id: 0, name: "Mouse", sysname: "event3", capabilities: .pointer)

    /// `auto`: shown while the pointer moves, hidden after the idle timeout, shown again by the next motion.
    @Test func autoHidesAfterTheTimeout() {
        let bed = Self.bed(.auto)
        let mouse = bed.input.plug(Self.mouse)
        bed.router.pointerMotion(dx: 5, dy: 5, time: 1)
        #expect(bed.router.cursor.isVisible)
        bed.clock.advance(by: Cursor.idleTimeout - 0.5)
        bed.router.pointerMotion(dx: 5, dy: 5, time: 2)
        bed.clock.advance(by: Cursor.idleTimeout - 0.5)
        #expect(bed.router.cursor.isVisible, "a motion restarts the wait")
        bed.clock.advance(by: 1)
        #expect(!bed.router.cursor.isVisible)
        bed.router.pointerMotion(dx: 5, dy: 5, time: 3)
        #expect(bed.router.cursor.isVisible)
        bed.input.unplug(mouse)
        #expect(!bed.router.cursor.isVisible, "no pointer device, no cursor")
    }

    /// `always` stays while a pointer device exists; `hidden` never shows.
    @Test func alwaysAndHidden() {
        let always = Self.bed(.always)
        always.input.plug(Self.mouse)
        always.router.pointerMotion(dx: 1, dy: 1, time: 1)
        always.clock.advance(by: 60)
        #expect(always.router.cursor.isVisible)
        let hidden = Self.bed(.hidden)
        hidden.input.plug(Self.mouse)
        hidden.router.pointerMotion(dx: 1, dy: 1, time: 1)
        #expect(!hidden.router.cursor.isVisible)
        // A reload changes the mode of the running cursor.
        var configuration = KioskConfiguration()
        configuration.cursor = .always
        hidden.router.reconfigure(configuration)
        #expect(hidden.router.cursor.isVisible)
    }

    /// The cursor's window is a system overlay, drawn over every window, the keyboard's too, and none of
    /// the app's `windows` (whose last stays the keyboard's); never key and never takes touches.
    @Test func theCursorNeverTakesTouchesOrTheKey() {
        let bed = Self.bed(.always)
        bed.input.plug(Self.mouse)
        bed.router.pointerMotion(dx: 0, dy: 0, time: 1)
        let cursor = bed.router.cursor.window!
        #expect(cursor.isSystemOverlay && !bed.app.windows.contains { $0 === cursor })
        #expect(!cursor.canBecomeKey && !cursor.isKeyWindow)
        // A touch right under the cursor reaches the app's view.
        let point = cursor.frame.center
        let screen = bed.input.plugTouchscreen()
        bed.input.frame(screen, down: [(0, point.x / 1280, point.y / 800)], time: 1_000_000)
        #expect(bed.view.calls.count == 1)
    }
}
