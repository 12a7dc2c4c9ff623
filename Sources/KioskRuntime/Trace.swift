import CECControl
import Glibc
import KioskKit
import LibInputBackend
import Logging

/// `--trace FILE`: one JSON line per screen and window notification and per touch and key press delivered,
/// for tests and for diagnosing a kiosk in the field. Lines are written as they happen (no buffering), so a crash
/// loses nothing.
@MainActor
final class Trace {
    private let descriptor: Int32
    private let path: String
    private let application: Application
    private var observations: [NotificationObservation] = []
    /// The application's instrumentation: deliveries, animations, gestures, edits, scrolls.
    private var instrumentation: InstrumentationToken?
    /// A write failed: said once, loudly; later failures are counted.
    private var lostLines = 0
    private let log = Logger(label: "kiosk.trace")

    /// Opens `path` for writing the way a log is opened: a regular file is created or appended to (never
    /// truncated: it may be the trace of the run that crashed, which a restart must not wipe, or a file the
    /// path named by mistake), a FIFO or a character device is written through, a symlink is followed;
    /// nothing is ever renamed over it. A FIFO without a reader is refused (opening it would wait for one,
    /// and the kiosk would not start), and so is a file the kiosk reads (`readFiles`) or a regular file that
    /// holds no trace (`TraceTarget`). Each run starts with its `startup` lines.
    init(path: String, readFiles: [(path: String, what: String)], application: Application) throws(RuntimeError) {
        if let problem = TraceTarget.problemBeforeOpening(path, readFiles: readFiles) {
            throw .cannotWrite(path: path, what: "trace file", reason: problem)
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NONBLOCK, 0o644)
        guard fd >= 0 else {
            let code = errno
            let reason =
                code == ENXIO ? "a FIFO with no reader; start the reader first" : "\(String(cString: strerror(code))) (errno \(code))"
            throw .cannotWrite(path: path, what: "trace file", reason: reason)
        }
        var status = stat()
        if fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG {
            if let problem = TraceTarget.problemWithContent(of: fd) {
                close(fd)
                throw .cannotWrite(path: path, what: "trace file", reason: problem)
            }
            // A file never blocks; clear O_NONBLOCK so nothing reads it as a pipe.
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        }
        descriptor = fd
        self.path = path
        self.application = application
        let center = application.notificationCenter
        for (name, event) in Application.modelNotifications {
            observations.append(center.addObserver(forName: name) { [weak self] note in self?.record(event, object: note.object) })
        }
        instrumentation = application.instrumentation.observe { [weak self] event in self?.record(event) }
        observations.append(
            center.addObserver(forName: Screen.powerStateDidChangeNotification) { [weak self] note in
                self?.recordPower(note)
            })
        observations.append(
            center.addObserver(forName: Screen.brightnessDidChangeNotification) { [weak self] note in
                guard let screen = note.object as? Screen else { return }
                self?.write(
                    JSONLine([
                        ("event", .string("screen.brightness")), ("screen", .string(screen.name)),
                        ("brightness", .number(screen.brightness)),
                    ]))
            })
        for (name, event) in [
            (Responder.keyboardWillShowNotification, "keyboard.show"), (Responder.keyboardWillHideNotification, "keyboard.hide"),
        ] {
            observations.append(center.addObserver(forName: name) { [weak self] note in self?.recordKeyboard(event, note) })
        }
    }

    func stop() {
        observations = []
        instrumentation?.cancel()
        instrumentation = nil
        if lostLines > 0 { log.error("trace \(path): \(lostLines) line(s) could not be written") }
        close(descriptor)
    }

    /// The instrumentation's events a trace writes (frames and planes come through the runtime, which
    /// knows their numbers; paints, activity and the runtime's own events are not written).
    private func record(_ event: InstrumentationEvent) {
        switch event {
        case .touchDelivered(let touch): record(touch)
        case .pressDelivered(let press, let window): record(press, in: window)
        case .animationBegan(let views, let properties, let duration):
            animationDidBegin(views: views, properties: properties, duration: duration)
        case .animationEnded(let views, let properties, let duration, let finished):
            animationDidEnd(views: views, properties: properties, duration: duration, finished: finished)
        case .gestureChanged(let recognizer): record(recognizer)
        case .textEdited(let field): recordEdit(field)
        case .scrolled(let scrollView): scrolled(scrollView)
        case .valueChanged(let view, let value):
            // `control.value`: the user changed a control's value or a picker's row (what a system test
            // renders headless to compare with a display's).
            write(
                JSONLine([
                    ("event", .string("control.value")), ("view", .string(view.displayName)), ("value", .string(value)),
                    ("at", .raw(application.clock.now.formatted(places: 6))),
                ]))
        case .layoutProblem(let message): write(JSONLine([("event", .string("layout.problem")), ("message", .string(message))]))
        case .sessionDidBecomeIdle(let timeout): sessionBecameIdle(timeout: timeout)
        case .appearanceChanged(let controller, let appeared, let animated): record(controller, appeared: appeared, animated: animated)
        case .frameComposed, .presented, .planesPresented, .painted, .activity, .runtime: break
        }
    }

    private func record(_ event: String, object: AnyObject?) {
        var line = JSONLine([("event", .string(event))])
        if let screen = object as? Screen {
            line.append("screen", .string(screen.name))
            if let mode = screen.currentMode {
                line.append("mode", .string(mode.description))
                line.append("width", .integer(Int(screen.bounds.width)))
                line.append("height", .integer(Int(screen.bounds.height)))
            }
            line.append("rotation", .string(screen.rotation.name))
        } else if let window = object as? Window {
            line.append("window", .string(window.displayName))
            line.append("level", .number(window.windowLevel.rawValue))
            line.append("screen", .string(window.screen.name))
        }
        write(line)
    }

    private func record(_ touch: Touch) {
        var line = JSONLine([
            ("event", .string("touch")), ("phase", .string(touch.phase.rawValue)),
            ("screen", .string(touch.screen.name)),
        ])
        line.append("window", touch.window.map { .string($0.displayName) } ?? .null)
        // On the on-screen keyboard (or an app's PIN pad) the key and the place spell what is typed.
        if touch.isSecret || touch.view?.touchesAreSecret == true {
            line.append("secret", .bool(true))
        } else {
            line.append("view", touch.view.map { .string($0.displayName) } ?? .null)
            line.append("x", .number(touch.locationOnScreen.x))
            line.append("y", .number(touch.locationOnScreen.y))
        }
        // The kernel's event time and the delivery time, both CLOCK_MONOTONIC seconds: their difference is
        // the touch latency.
        line.append("timestamp", .number(touch.timestamp))
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        line.append("delivered", .number(Double(now.tv_sec) + Double(now.tv_nsec) / 1e9))
        write(line)
    }

    /// `key`: a press delivered to a window: its phase, the keysym's name, whether it typed text, the
    /// window. Never the text, nor the name of a keysym that stands for a character (`a`, `1`, `eacute`:
    /// `keysym` is null), since those names spell the text: what is typed on a kiosk can be a PIN, and a
    /// trace is read by whoever diagnoses the kiosk. `Return`, `BackSpace`, `Shift_L` are named.
    private func record(_ press: Press, in window: Window) {
        var line = JSONLine([("event", .string("key")), ("phase", .string(press.phase == .began ? "began" : "ended"))])
        line.append("keysym", LibInputBackend.loggableKeysymName(press.keysym).map { .string($0) } ?? .null)
        line.append("text", .bool(!press.text.isEmpty))
        line.append("window", .string(window.displayName))
        // As a touch's: the kernel's event time and the delivery time (CLOCK_MONOTONIC seconds).
        line.append("timestamp", .number(press.timestamp))
        line.append("delivered", .raw(application.clock.now.formatted(places: 6)))
        write(line)
    }

    /// `gesture`: a recognizer changed state (kind, its name if it has one, its view, the new state).
    private func record(_ recognizer: GestureRecognizer) {
        var line = JSONLine([("event", .string("gesture")), ("kind", .string(recognizer.kind))])
        if let name = recognizer.name { line.append("name", .string(name)) }
        line.append("view", recognizer.view.map { .string($0.displayName) } ?? .null)
        line.append("state", .string(recognizer.state.rawValue))
        write(line)
    }

    /// `screen.power`: a screen was turned off or on, and why (`idle for 300 s`, `input`, `control`, `app`).
    private func recordPower(_ note: PostedNotification) {
        guard let screen = note.object as? Screen else { return }
        var line = JSONLine([
            ("event", .string("screen.power")), ("screen", .string(screen.name)), ("power", .string(screen.powerState.rawValue)),
        ])
        if let reason = note.userInfo["reason"] as? String { line.append("reason", .string(reason)) }
        write(line)
    }

    /// `text.edit`: a text field's text changed: its identifier and its length in characters, never the text
    /// (a PIN typed on a kiosk must not reach a trace); `at`, when (CLOCK_MONOTONIC seconds).
    private func recordEdit(_ field: TextField) {
        write(
            JSONLine([
                ("event", .string("text.edit")), ("view", .string(field.displayName)), ("length", .integer(field.text.count)),
                ("secure", .bool(field.isSecureTextEntry)), ("at", .raw(application.clock.now.formatted(places: 6))),
            ]))
    }

    /// `keyboard.show` / `keyboard.hide`: the on-screen keyboard starts sliding in or out; `frame` is where
    /// it ends (below the screen when hiding), in screen coordinates.
    private func recordKeyboard(_ event: String, _ note: PostedNotification) {
        var line = JSONLine([("event", .string(event))])
        line.append("screen", (note.object as? Screen).map { .string($0.name) } ?? .null)
        if let frame = note.userInfo[Responder.keyboardFrameEndUserInfoKey] as? Rect {
            line.append("x", .number(frame.minX))
            line.append("y", .number(frame.minY))
            line.append("width", .number(frame.width))
            line.append("height", .number(frame.height))
        }
        write(line)
    }

    /// Scroll views whose offset changed since their screen's last frame line, with the offset to write.
    private var pendingScrolls: [(view: ScrollView, offset: Point)] = []

    private func scrolled(_ scrollView: ScrollView) {
        if let index = pendingScrolls.firstIndex(where: { $0.view === scrollView }) {
            pendingScrolls[index].offset = scrollView.contentOffset
        } else {
            pendingScrolls.append((scrollView, scrollView.contentOffset))
        }
    }

    /// A frame of `screen` is on the display (its number counts from 1): `flip` is the vblank it was shown
    /// at (DRM's page-flip event, CLOCK_MONOTONIC seconds), or when the output said it was shown when it
    /// has no vblank events (`vblankKnown` false: fbdev, headless); `tick` is the frame-clock tick it was
    /// composed for (the same clock; nil, written null, when a change made it); `composed` is when it was
    /// composed (its tick, or the time a change made it; null if unknown). Before it, one `scroll` line for each
    /// scroll view on that screen whose offset changed (the offset that frame shows): at most one per frame
    /// however many times the offset changed in between.
    func recordFrame(
        on screen: Screen, number: Int, flip: TimeInterval, vblankKnown: Bool, tick: TimeInterval? = nil, composed: TimeInterval? = nil
    ) {
        pendingScrolls.removeAll { entry in
            guard entry.view.window?.screen === screen else { return entry.view.window == nil }
            write(
                JSONLine([
                    ("event", .string("scroll")), ("view", .string(entry.view.displayName)),
                    ("x", .number(entry.offset.x)), ("y", .number(entry.offset.y)), ("frame", .integer(number)),
                ]))
            return true
        }
        write(
            JSONLine([
                ("event", .string("frame")), ("screen", .string(screen.name)), ("number", .integer(number)),
                ("flip", .raw(flip.formatted(places: 6))), ("vblank", .bool(vblankKnown)),
                ("tick", tick.map { .raw($0.formatted(places: 6)) } ?? .null),
                ("composed", composed.map { .raw($0.formatted(places: 6)) } ?? .null),
            ]))
    }

    /// `planes`: only what planes show changed (a cursor on its plane moved), with no frame composed: the
    /// planes in use after it, by id and kind (not where: a pointer's place over a PIN pad would spell the PIN).
    func recordPlanes(on screen: Screen, planes: [DisplayPlane], flip: TimeInterval) {
        write(
            JSONLine([
                ("event", .string("planes")), ("screen", .string(screen.name)), ("flip", .raw(flip.formatted(places: 6))),
                ("planes", .raw("[" + planes.map { JSONLine.quote("\($0.kind.rawValue) \($0.id)") }.joined(separator: ",") + "]")),
            ]))
    }

    /// `animation.begin`: an animation block started; `properties` as `view: property` pairs; `at`, when (the
    /// animation clock, CLOCK_MONOTONIC seconds: the frames' `flip` and `tick` are on the same clock).
    private func animationDidBegin(views: [View], properties: [String], duration: TimeInterval) {
        write(animationLine("animation.begin", views: views, properties: properties, duration: duration))
    }

    /// `animation.end`: it ended, `finished` false when one of its animations was replaced first.
    private func animationDidEnd(views: [View], properties: [String], duration: TimeInterval, finished: Bool) {
        var line = animationLine("animation.end", views: views, properties: properties, duration: duration)
        line.append("finished", .bool(finished))
        write(line)
    }

    private func animationLine(_ event: String, views: [View], properties: [String], duration: TimeInterval) -> JSONLine {
        func list(_ items: [String]) -> JSONLine.Value { .raw("[" + items.map(JSONLine.quote).joined(separator: ",") + "]") }
        var names: [String] = []
        for view in views where !names.contains(view.displayName) { names.append(view.displayName) }
        let pairs = zip(views, properties).map { "\($0.displayName).\($1)" }
        return JSONLine([
            ("event", .string(event)), ("views", list(names)), ("properties", list(pairs)),
            ("duration", .raw(duration.formatted(places: 3))), ("at", .raw(application.clock.now.formatted(places: 6))),
        ])
    }

    /// `controller.appear` / `controller.disappear`: a view controller's view came on screen or went (its
    /// `viewDidAppear` or `viewDidDisappear`): the controller's type, its view's name, the window it is in
    /// (null once gone from any), whether it was animated, and when (CLOCK_MONOTONIC seconds).
    private func record(_ controller: ViewController, appeared: Bool, animated: Bool) {
        let view = controller.isViewLoaded ? controller.view : nil
        var line = JSONLine([
            ("event", .string(appeared ? "controller.appear" : "controller.disappear")),
            ("controller", .string(String(describing: type(of: controller)))),
        ])
        line.append("view", view.map { .string($0.displayName) } ?? .null)
        line.append("window", view?.window.map { .string($0.displayName) } ?? .null)
        line.append("animated", .bool(animated))
        line.append("at", .raw(application.clock.now.formatted(places: 6)))
        write(line)
    }

    /// `session.idle`: `timeout` seconds passed without input (`Application.sessionIdleTimeout`); `at`, when
    /// (CLOCK_MONOTONIC seconds, as the animations' and frames' times).
    private func sessionBecameIdle(timeout: TimeInterval) {
        write(
            JSONLine([
                ("event", .string("session.idle")), ("timeout", .number(timeout)),
                ("at", .raw(application.clock.now.formatted(places: 6))),
            ]))
    }

    /// A phase of the start reached, in milliseconds since exec.
    func recordStartup(_ phase: StartupTimeline.Phase, milliseconds: Double) {
        write(
            JSONLine([("event", .string("startup")), ("phase", .string(phase.rawValue)), ("ms", .raw(milliseconds.formatted(places: 1)))]))
    }

    /// `cec`: a message for a screen's TV, once when it was queued or refused and again when the bus
    /// finished it: the adapter, the opcode, the destination (`all` for a broadcast), the power change's
    /// reason and the outcome (`queued`, `sent`, `failed` with the kernel's status, `refused` with why).
    func recordCEC(_ transmission: CECController.Transmission) {
        var line = JSONLine([
            ("event", .string("cec")), ("screen", .string(transmission.screen)), ("adapter", .string(transmission.adapter)),
            ("opcode", .integer(Int(transmission.message.opcode?.rawValue ?? 0))),
            ("to", transmission.message.isBroadcast ? .string("all") : .integer(Int(transmission.message.destination.rawValue))),
            ("reason", .string(transmission.reason)),
        ])
        switch transmission.outcome {
        case .queued: line.append("outcome", .string("queued"))
        case .sent: line.append("outcome", .string("sent"))
        case .failed(let status):
            line.append("outcome", .string("failed"))
            line.append("status", .string(status.description))
        case .refused(let why):
            line.append("outcome", .string("refused"))
            line.append("why", .string(why))
        }
        write(line)
    }

    /// A reload: the keys applied, those that need a restart, and the problems of a rejected file.
    func recordReload(applied: [String], needsRestart: [String], problems: Int) {
        func list(_ keys: [String]) -> JSONLine.Value { .raw("[" + keys.map(JSONLine.quote).joined(separator: ",") + "]") }
        write(
            JSONLine([
                ("event", .string("config.reload")), ("applied", list(applied)), ("restart", list(needsRestart)),
                ("problems", .integer(problems)),
            ]))
    }

    /// `control`: a request the control socket answered: the command (`unknown` for a name that is none:
    /// a client's text never reaches the trace) and whether it succeeded. Never what it carried.
    func recordControl(command: String, ok: Bool) {
        write(JSONLine([("event", .string("control")), ("command", .string(command)), ("ok", .bool(ok))]))
    }

    /// One whole line with one `write(2)` (a FIFO keeps lines of up to PIPE_BUF bytes whole); a failure
    /// (a full disk, a reader that stopped reading) is logged the first time and counted after that.
    private func write(_ line: JSONLine) {
        let bytes = Array((line.text + "\n").utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                if lostLines == 0 {
                    log.error("trace \(path): writing failed: \(String(cString: strerror(errno))); the trace misses lines from here")
                }
                lostLines += 1
                return
            }
            written += count
        }
    }
}
