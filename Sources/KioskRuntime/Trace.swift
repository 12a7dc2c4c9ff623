import Foundation
import KioskKit

/// `--trace FILE`: one JSON line per screen and window notification and per touch delivered, for tests
/// and for diagnosing a kiosk in the field. Lines are written as they happen (no buffering), so a crash
/// loses nothing.
@MainActor
final class Trace {
    private let handle: FileHandle
    private let application: Application
    private var tokens: [NSObjectProtocol] = []

    /// Opens (creates or truncates) `path`.
    init(path: String, application: Application) throws(RuntimeError) {
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw .cannotWrite(path: path, what: "trace file", reason: String(cString: strerror(errno)))
        }
        self.handle = handle
        self.application = application
        let center = application.notificationCenter
        for (name, event) in Application.modelNotifications {
            tokens.append(
                center.addObserver(forName: name, object: nil, queue: nil) { [weak self] note in
                    nonisolated(unsafe) let object = note.object
                    // The window model posts on the main actor, synchronously.
                    MainActor.assumeIsolated { self?.record(event, object: object) }
                })
        }
        application.touchDeliveryObserver = { [weak self] touch in self?.record(touch) }
    }

    func stop() {
        for token in tokens { application.notificationCenter.removeObserver(token) }
        tokens = []
        application.touchDeliveryObserver = nil
        try? handle.close()
    }

    private func record(_ event: String, object: Any?) {
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
        line.append("view", touch.view.map { .string($0.displayName) } ?? .null)
        line.append("x", .number(touch.locationOnScreen.x))
        line.append("y", .number(touch.locationOnScreen.y))
        // The kernel's event time and the delivery time, both CLOCK_MONOTONIC seconds: their difference is
        // the touch latency.
        line.append("timestamp", .number(touch.timestamp))
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        line.append("delivered", .number(Double(now.tv_sec) + Double(now.tv_nsec) / 1e9))
        write(line)
    }

    /// A frame of `screen` was composed (its number counts from 1).
    func recordFrame(on screen: Screen, number: Int) {
        write(JSONLine([("event", .string("frame")), ("screen", .string(screen.name)), ("number", .integer(number))]))
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

    private func write(_ line: JSONLine) {
        handle.write(Data((line.text + "\n").utf8))
    }
}
