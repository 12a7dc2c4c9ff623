import CStopSignals
import Dispatch
import Glibc

/// SIGTERM, SIGINT and SIGHUP, blocked from the program's first instruction (a constructor of
/// `CStopSignals`, before `main`) and read on the main queue from a signalfd.
///
/// A signal handler installed while the process starts leaves windows: before it exists the default action
/// kills the kiosk (exit 143, no display put back), and between `SIG_IGN` and libdispatch's own signal
/// source a signal was discarded, so a `systemctl stop` during a start waited 10 s for SIGKILL. Blocked in
/// every thread from the start, a signal stays pending until the runtime reads it, then stops the kiosk
/// the normal way (exit 0, the displays restored) or reloads it.
@MainActor
public final class StopSignals {
    private let descriptor: Int32
    private var source: DispatchSourceRead?
    private let handle: @MainActor (Int32) -> Void

    /// Blocks the signals in this thread if the constructor could not (the errno, else nil): a program
    /// linked without constructors still gets them blocked from its `main` on.
    nonisolated static func blockIfNeeded() -> Int32? {
        guard kiosk_stop_signals_block_error() != 0 else { return nil }
        let error = kiosk_stop_signals_block()
        return error == 0 ? nil : error
    }

    /// Gives this thread the signal mask the process was started with: for a command that is no kiosk
    /// (`kiosk status`, `screens`, ...), which Ctrl-C must end at once.
    public nonisolated static func restore() {
        _ = kiosk_stop_signals_restore()
    }

    /// Starts reading the signals on the main queue (those already pending first); throws the errno of
    /// `signalfd`.
    init(handle: @escaping @MainActor (Int32) -> Void) throws(StopSignalsError) {
        let fd = kiosk_stop_signals_open()
        guard fd >= 0 else { throw StopSignalsError(errno: errno) }
        descriptor = fd
        self.handle = handle
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: .main)
        source.setEventHandler { [weak self] in MainActor.assumeIsolated { self?.readable() } }
        source.setCancelHandler { close(fd) }
        source.resume()
        self.source = source
    }

    private func readable() {
        while true {
            let number = kiosk_stop_signals_read(descriptor)
            if number > 0 {
                handle(number)
            } else {
                return
            }
        }
    }
}

/// `signalfd` failed: the errno.
struct StopSignalsError: Error, CustomStringConvertible {
    let errno: Int32
    var description: String { "signalfd: \(String(cString: strerror(errno)))" }
}
