import CTimerFD
import Dispatch
import Glibc
import Logging

/// Says when the wall clock is set: NTP's first correction on a board without a real-time clock (which
/// boots believing it is whatever time it last saved), `date`, a GPS fix. The power schedule's timer runs
/// on the monotonic clock toward a moment the old time gave, so without this a board that booted at
/// "23:00", turned its screens off and was then set to 12:00 would stay dark until the old 07:00.
///
/// A CLOCK_REALTIME timerfd armed at the end of time with TFD_TIMER_CANCEL_ON_SET: the kernel cancels it,
/// and its read fails with ECANCELED, whenever the clock is set (not as it runs, nor when NTP slews it).
/// It never wakes the kiosk otherwise.
@MainActor
final class WallClockWatch {
    private let descriptor: Int32
    private var source: DispatchSourceRead?
    private let onSet: @MainActor () -> Void
    /// Far enough (year 2255) and under the kernel's limit for an absolute time (year 2262).
    private static let endOfTime = 9_000_000_000

    /// Starts watching; throws the errno of the call that failed (`timerfd_create`, `timerfd_settime`).
    init(onSet: @escaping @MainActor () -> Void) throws(WallClockWatchError) {
        let fd = timerfd_create(CLOCK_REALTIME, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
        guard fd >= 0 else { throw WallClockWatchError(call: "timerfd_create", errno: errno) }
        descriptor = fd
        self.onSet = onSet
        if let error = arm() {
            close(fd)
            throw error
        }
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: .main)
        source.setEventHandler { [weak self] in MainActor.assumeIsolated { self?.readable() } }
        source.setCancelHandler { close(fd) }
        source.resume()
        self.source = source
    }

    func stop() {
        source?.cancel()
        source = nil
    }

    /// Arms the timer at the end of time, cancelled when the clock is set (`timerfd_settime`).
    private func arm() -> WallClockWatchError? {
        var spec = itimerspec()
        spec.it_value.tv_sec = Self.endOfTime
        let flags = Int32(TFD_TIMER_ABSTIME) | Int32(TFD_TIMER_CANCEL_ON_SET)
        return timerfd_settime(descriptor, flags, &spec, nil) == 0 ? nil : WallClockWatchError(call: "timerfd_settime", errno: errno)
    }

    private func readable() {
        var expirations: UInt64 = 0
        let count = read(descriptor, &expirations, MemoryLayout<UInt64>.size)
        let code = errno
        guard count < 0, code == ECANCELED else { return }
        // Cancelled: the clock was set. The timer stays cancelled until it is armed again.
        if let error = arm() {
            Logger(label: "kiosk.power").error("\(error): a wall clock set again reaches the power schedule only at its next change")
            stop()
        }
        onSet()
    }
}

/// A timerfd call that failed, with its errno.
struct WallClockWatchError: Error, CustomStringConvertible {
    let call: String
    let errno: Int32
    var description: String { "\(call): \(String(cString: strerror(errno))) (errno \(errno))" }
}
