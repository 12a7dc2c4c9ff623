import KioskKit

/// Drives an app of your own in a unit test, as a kiosk would run it but in memory and on a clock the test
/// moves: one screen of the size asked for (an `InMemoryDisplayBackend`), a `ManualClock`, a compositor
/// that draws each frame into memory, touches and keys sent the way the input backend sends them
/// (`Application.sendEvent`, after composing what changed, as the run loop does between events), and the
/// pixels of the screen.
///
/// From `Examples/CafeKioskTests` (the getting-started app's tests; KioskKit's article "Testing your app"):
///
/// ```swift
/// @Test func orderingWithoutADrinkAsksForOne() {
///     let app = CafeApp(configuration: .default)
///     let tester = KioskTester(launching: app)
///     tester.tap(app.orderButton)
///     #expect(app.status.text == "Choose a drink first")
/// }
/// ```
///
/// Each tester starts a fresh `Application.shared` (`Application.reset`): make one per test, on the main
/// actor, and make the app's windows after it (an app's `applicationDidFinishLaunching` does, when the
/// tester launches it).
@MainActor
public final class KioskTester {
    public let application: Application
    /// The in-memory display behind the screens: connect, disconnect and re-mode screens with it.
    public let display = InMemoryDisplayBackend()
    /// The clock animations, display links and timers run on; `advance(by:)` moves it.
    public let clock: ManualClock
    public let compositor: Compositor
    private let output = MemoryFrameOutput()
    /// The app launched, kept as the kiosk keeps its delegate.
    public let delegate: (any ApplicationDelegate)?

    /// A fresh application with one screen named `screenName` showing `mode`; `launching` is told
    /// `applicationDidFinishLaunching` once the screen is there, as the runtime tells it.
    public init(
        screenName: String = "HDMI-A-1", mode: Screen.Mode = Screen.Mode(width: 1280, height: 800, refreshRate: 60),
        launching delegate: (any ApplicationDelegate)? = nil, now: TimeInterval = 100
    ) {
        application = Application.reset()
        clock = ManualClock(now: now)
        application.clock = clock
        display.connect(screenName, modes: [mode])
        compositor = Compositor(output: output, application: application)
        output.compositor = compositor
        self.delegate = delegate
        delegate?.applicationDidFinishLaunching(application)
    }

    /// The main screen.
    public var screen: Screen { Screen.main }

    // MARK: Finding views

    /// The first view with `identifier` in the visible windows, front to back, each window's tree in
    /// order. Throws `KioskTesterError.noView` naming the identifiers there are.
    public func view(withIdentifier identifier: String) throws -> View {
        for window in application.windows.reversed() where !window.isHidden {
            if let found = Self.first(in: window, where: { $0.identifier == identifier }) { return found }
        }
        var known: [String] = []
        for window in application.windows.reversed() where !window.isHidden { Self.identifiers(in: window, into: &known) }
        throw KioskTesterError.noView(identifier: identifier, known: known)
    }

    private static func first(in view: View, where matches: (View) -> Bool) -> View? {
        if matches(view) { return view }
        for subview in view.subviews {
            if let found = first(in: subview, where: matches) { return found }
        }
        return nil
    }

    private static func identifiers(in view: View, into list: inout [String]) {
        if let identifier = view.identifier { list.append(identifier) }
        for subview in view.subviews { identifiers(in: subview, into: &list) }
    }

    /// Where the centre of `view` is on its screen.
    public func center(of view: View) -> Point {
        let inWindow = view.convert(Point(x: view.bounds.midX, y: view.bounds.midY), to: nil)
        guard let window = view.window else { return inWindow }
        return window.convert(inWindow, to: nil as Window?)
    }

    // MARK: Touches

    /// A finger down at `point` (screen coordinates) and up again `hold` seconds later, 0.1 s after what
    /// came before.
    public func tap(at point: Point, hold: TimeInterval = 0.06) {
        let touch = touchDown(at: point)
        clock.advance(by: hold)
        lift(touch)
    }

    /// Taps the centre of `view`.
    public func tap(_ view: View, hold: TimeInterval = 0.06) { tap(at: center(of: view), hold: hold) }

    /// A finger from `start` to `end` in `steps` moves over `duration` seconds, then lifted there.
    public func drag(from start: Point, to end: Point, duration: TimeInterval = 0.3, steps: Int = 10) {
        let touch = touchDown(at: start)
        let count = max(steps, 1)
        for step in 1...count {
            clock.advance(by: duration / Double(count))
            let fraction = Double(step) / Double(count)
            let point = Point(x: start.x + (end.x - start.x) * fraction, y: start.y + (end.y - start.y) * fraction)
            touch.update(phase: .moved, location: point, timestamp: clock.now)
            send(Event(touches: [touch], timestamp: clock.now))
        }
        lift(touch)
    }

    /// A finger going down at `point`, 0.1 s after what came before; `lift` ends it.
    public func touchDown(at point: Point) -> Touch {
        clock.advance(by: 0.1)
        let touch = Touch(screen: screen, location: point, timestamp: clock.now)
        send(Event(touches: [touch], timestamp: clock.now))
        return touch
    }

    /// Lifts `touch` where it is.
    public func lift(_ touch: Touch) {
        touch.update(phase: .ended, location: touch.locationOnScreen, timestamp: clock.now)
        send(Event(touches: [touch], timestamp: clock.now))
    }

    /// Delivers `event` as the kiosk's run loop does: what changed since the last event is composed first
    /// (a frame lays its windows out, a table makes its cells), then the event goes to
    /// `Application.sendEvent`.
    public func send(_ event: Event) {
        compositor.composePendingFrames()
        application.sendEvent(event)
    }

    // MARK: Keys

    /// A hardware key pressed and released: its xkbcommon keysym and the text it types.
    public func press(keysym: UInt32, text: String = "") {
        clock.advance(by: 0.05)
        send(Event(presses: [Press(phase: .began, keysym: keysym, text: text, timestamp: clock.now)], timestamp: clock.now))
        send(Event(presses: [Press(phase: .ended, keysym: keysym, text: "", timestamp: clock.now)], timestamp: clock.now))
    }

    /// Types `text` on a hardware keyboard, a key per character (its keysym: the character's Unicode
    /// scalar, as xkbcommon numbers Latin-1 and `0x1000000 +` the scalar beyond).
    public func type(_ text: String) {
        for character in text {
            let scalar = character.unicodeScalars.first!.value
            press(keysym: scalar < 0x100 ? scalar : 0x100_0000 + scalar, text: String(character))
        }
    }

    /// The Return key (`XKB_KEY_Return`).
    public func pressReturn() { press(keysym: 0xFF0D, text: "\r") }

    // MARK: Time and pixels

    /// Moves the clock on by `seconds`, running the timers that come due (animations, display links),
    /// and composes what changed.
    public func advance(by seconds: TimeInterval) {
        clock.advance(by: seconds)
        compositor.composePendingFrames()
    }

    /// What the screen shows now: what changed composed first, as the physical frame (rotation applied).
    /// Throws `KioskTesterError.noFrame` for a screen that shows none (off, disconnected, no window yet).
    public func image(of screen: Screen? = nil) throws -> Bitmap {
        let screen = screen ?? self.screen
        compositor.composePendingFrames()
        guard let image = compositor.scanoutImage(of: screen) else { throw KioskTesterError.noFrame(screen: screen.name) }
        return image
    }
}

/// Why a `KioskTester` query found nothing.
public enum KioskTesterError: Error, CustomStringConvertible {
    case noView(identifier: String, known: [String])
    case noFrame(screen: String)

    public var description: String {
        switch self {
        case let .noView(identifier, known):
            "no view with identifier \"\(identifier)\" in the visible windows (there are: \(known.joined(separator: ", ")))"
        case let .noFrame(screen):
            "\(screen) shows no frame (off or disconnected)"
        }
    }
}

/// Frames into memory, one buffer per screen, each shown at once (a display that does not wait for vblank).
@MainActor
final class MemoryFrameOutput: FrameOutput {
    weak var compositor: Compositor?
    private var buffers: [ObjectIdentifier: Bitmap] = [:]
    let buffersAreCachedMemory = true

    func nextBuffer(for screen: Screen) -> FrameBuffer? {
        guard let mode = screen.currentMode else { return nil }
        let id = ObjectIdentifier(screen)
        if let buffer = buffers[id], buffer.width == mode.width, buffer.height == mode.height {
            return FrameBuffer(bitmap: buffer, age: 1)
        }
        let buffer = Bitmap(width: mode.width, height: mode.height, format: .xrgb8888)
        buffers[id] = buffer
        return FrameBuffer(bitmap: buffer, age: 0)
    }

    func present(_ buffer: FrameBuffer, for screen: Screen, damage: Region) {
        compositor?.framePresented(on: screen)
    }
}
