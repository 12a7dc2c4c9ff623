import KioskTesting
import Testing

@testable import KioskKit

/// One log of what the controllers of a navigation test and the navigation controller's delegate hear, in
/// order: `"B willAppear true"`, `"B willMove nav"`, `"willShow B true"`. `"|"` marks where a test let the
/// clock run (the slide), so a table says which calls come with the change and which after it.
@MainActor
final class NavigationLog: NavigationControllerDelegate {
    var lines: [String] = []

    func take() -> [String] {
        defer { lines = [] }
        return lines
    }

    func navigationController(_ navigationController: NavigationController, willShow viewController: ViewController, animated: Bool) {
        lines.append("willShow \(viewController.title ?? "?") \(animated)")
    }

    func navigationController(_ navigationController: NavigationController, didShow viewController: ViewController, animated: Bool) {
        lines.append("didShow \(viewController.title ?? "?") \(animated)")
    }
}

/// A view controller that logs its loading, appearance and containment calls under its title, with a
/// background of its own so that a golden image shows whose view is where.
@MainActor
final class LoggingController: ViewController {
    let log: NavigationLog
    let color: Color

    init(_ name: String, log: NavigationLog, color: Color = .white) {
        self.log = log
        self.color = color
        super.init()
        title = name
    }

    private var name: String { title ?? "?" }

    override func viewDidLoad() {
        view.backgroundColor = color
        let label = Label(text: "Screen \(name)", font: .system(size: 20))
        label.frame = Rect(x: 16, y: 16, width: 200, height: 30)
        view.addSubview(label)
        log.lines.append("\(name) didLoad")
    }
    override func viewWillAppear(_ animated: Bool) { log.lines.append("\(name) willAppear \(animated)") }
    override func viewDidAppear(_ animated: Bool) { log.lines.append("\(name) didAppear \(animated)") }
    override func viewWillDisappear(_ animated: Bool) { log.lines.append("\(name) willDisappear \(animated)") }
    override func viewDidDisappear(_ animated: Bool) { log.lines.append("\(name) didDisappear \(animated)") }
    override func willMove(toParent parent: ViewController?) {
        log.lines.append("\(name) willMove \(parent is NavigationController ? "nav" : "nil")")
    }
    override func didMove(toParent parent: ViewController?) {
        log.lines.append("\(name) didMove \(parent is NavigationController ? "nav" : "nil")")
    }
}

/// A navigation controller as a visible window's root on an animation bed (a manual clock at 60 Hz, a
/// compositor whose output shows each frame at once), with logging controllers A to D and the log.
@MainActor
final class NavigationBed {
    let animation: AnimationBed
    let log = NavigationLog()
    let navigation: NavigationController
    let controllers: [String: LoggingController]

    /// `stack` names the controllers on the stack at the start, root first; the log starts empty.
    init(stack: [String] = ["A"], width: Int = 320, height: Int = 240) {
        animation = AnimationBed(width: width, height: height)
        let colors: [String: Color] = ["A": .white, "B": Color(rgb: 0xE0F0FF), "C": Color(rgb: 0xFFF0E0), "D": Color(rgb: 0xE8FFE8)]
        var made: [String: LoggingController] = [:]
        for name in ["A", "B", "C", "D"] { made[name] = LoggingController(name, log: log, color: colors[name]!) }
        controllers = made
        navigation = NavigationController()
        navigation.setViewControllers(stack.map { made[$0]! }, animated: false)
        navigation.delegate = log
        animation.window.rootViewController = navigation
        animation.render.render()
        _ = log.take()
    }

    subscript(name: String) -> LoggingController { controllers[name]! }

    var app: Application { animation.render.bed.app }
    var clock: ManualClock { animation.clock }

    /// The stack's titles, root first.
    var stack: [String] { navigation.viewControllers.map { $0.title ?? "?" } }

    /// Lets the slide (and anything else on the clock) run to its end, composing its frames.
    func settle() { animation.advance(by: 1) }

    /// The screen as composed now.
    func frame() -> Bitmap {
        animation.render.render()
        return animation.frame()
    }

    // MARK: Touches, as the input backend sends them

    private var touch: Touch?

    func down(_ x: Double, _ y: Double) {
        let touch = Touch(screen: Screen.main, location: Point(x: x, y: y), timestamp: clock.now)
        self.touch = touch
        app.sendEvent(Event(touches: [touch], timestamp: clock.now))
    }

    /// The finger moves to (x, y) after `after` seconds; the clock runs meanwhile.
    func move(_ x: Double, _ y: Double, after: TimeInterval = 0.05) {
        guard let touch else { return }
        clock.advance(by: after)
        touch.update(phase: .moved, location: Point(x: x, y: y), timestamp: clock.now)
        app.sendEvent(Event(touches: [touch], timestamp: clock.now))
    }

    func up(after: TimeInterval = 0.05) {
        guard let touch else { return }
        clock.advance(by: after)
        touch.update(phase: .ended, location: touch.locationOnScreen, timestamp: clock.now)
        app.sendEvent(Event(touches: [touch], timestamp: clock.now))
        self.touch = nil
    }

    /// A finger down at (`x`, `y`) that moves along `moves` at that height, each after its delay, and lifts
    /// `lift` seconds after the last.
    func swipe(at y: Double, from x: Double, _ moves: [(x: Double, after: TimeInterval)], lift: TimeInterval) {
        down(x, y)
        for step in moves { move(step.x, y, after: step.after) }
        up(after: lift)
    }

    /// Taps the centre of `view`.
    func tap(_ view: View) {
        let center = view.convert(Point(x: view.bounds.midX, y: view.bounds.midY), to: nil)
        down(center.x, center.y)
        up()
    }
}

/// Whether the two lists hold the same objects in the same order.
func same(_ a: [AnyObject], _ b: [AnyObject]) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { $0 === $1 }
}
