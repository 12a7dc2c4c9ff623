import Glibc
import Logging

/// When each phase of the start was reached, in milliseconds since the process was started (exec), so that
/// every phase of a slow start has a number: logged at debug level and written to the trace as `startup`
/// lines. The clock is `CLOCK_BOOTTIME`, the one the kernel's process start time is counted in.
public struct StartupTimeline: Sendable {
    /// A phase, in the order a start normally reaches them.
    public enum Phase: String, Sendable, CaseIterable {
        /// The program's `KioskRuntime.main` began: what came before is the kernel's exec, the dynamic
        /// loader's and the Swift runtime's start, and the program's own `main` up to the call.
        case main
        /// The configuration (file, variables, command line) is read.
        case configuration
        /// The seat is open (libseat loaded, the session enabled), if the backend needs one.
        case seat
        /// The display backend has its hardware (seat, card), nothing lit yet.
        case backend
        /// The screens found are lit (the modeset) and connected.
        case displays
        /// Text's libraries are ready: pango and cairo loaded and fontconfig's configuration read, on
        /// threads of their own since the start (`FontPreparation`); this is when the main thread had them,
        /// having waited if they came later than the displays. The system font's drawing, which goes on
        /// meanwhile, is waited for by the first text laid out.
        case fonts
        /// The app's `applicationDidFinishLaunching` returned: its windows exist.
        case launched
        /// The first frame is composed.
        case firstFrame = "first-frame"
        /// The first frame is on the display (its page flip completed).
        case firstFlip = "first-flip"
        /// Input devices are open (after the first frame: a kiosk shows something first).
        case input
    }

    /// When the process was started (its exec), in seconds of `CLOCK_BOOTTIME`.
    public let exec: Double
    public private(set) var reached: [(phase: Phase, seconds: Double)] = []

    public init(exec: Double = StartupTimeline.processStart()) {
        self.exec = exec
    }

    /// Records `phase` now (once; later calls for it are ignored) and returns its time since exec, in ms.
    @discardableResult
    public mutating func record(_ phase: Phase, at seconds: Double = StartupTimeline.now()) -> Double? {
        guard !reached.contains(where: { $0.phase == phase }) else { return nil }
        reached.append((phase, seconds))
        let milliseconds = (seconds - exec) * 1000
        Logger(label: "kiosk.startup").debug("\(phase.rawValue) at \(milliseconds.formatted(places: 1)) ms after exec")
        return milliseconds
    }

    public func milliseconds(_ phase: Phase) -> Double? {
        reached.first { $0.phase == phase }.map { ($0.seconds - exec) * 1000 }
    }

    /// Seconds of `CLOCK_BOOTTIME` now.
    public static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_BOOTTIME, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// The process's start time (`/proc/self/stat` field 22, in clock ticks since boot); now when unreadable.
    public static func processStart() -> Double {
        let fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return now() }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return now() }
        // The command name (field 2) is in parentheses and may hold spaces: count fields after its ')'.
        guard let close = buffer[..<count].lastIndex(of: UInt8(ascii: ")")) else { return now() }
        let fields = buffer[(close + 1)..<count].split(separator: UInt8(ascii: " "))
        // Field 3 is the first after ')': field 22 is the 20th.
        guard fields.count > 19, let ticks = Double(String(decoding: fields[19], as: UTF8.self)) else { return now() }
        return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
