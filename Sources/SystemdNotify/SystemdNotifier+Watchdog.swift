import Glibc

extension SystemdNotifier {
    /// How often to send `WATCHDOG=1`: half the watchdog interval, as `sd_watchdog_enabled(3)`
    /// recommends, so one late timer tick (a long frame, a slow modeset) does not get the service
    /// killed, while a loop that really stalls misses two pings and is restarted.
    public var watchdogPingInterval: Duration? { watchdogInterval.map { $0 / 2 } }

    /// `WATCHDOG_USEC` as `sd_watchdog_enabled(3)` reads it: a positive number of microseconds, for
    /// this process only when `WATCHDOG_PID` is unset or is our pid. systemd sets `WATCHDOG_PID` when
    /// the variables may reach other processes (`NotifyAccess=all`, a forked child inheriting the
    /// environment); a child that pinged on the strength of its parent's variables would keep a stalled
    /// parent alive.
    ///
    /// Anything malformed (not a decimal number, 0, systemd's "infinity" `UINT64_MAX`, a bad pid)
    /// means no watchdog, where `sd_watchdog_enabled` returns `-EINVAL`: guessing an interval could get
    /// a healthy service killed. systemd itself always writes plain decimal numbers.
    static func watchdogInterval(usec: String?, pid: String?, processID: pid_t) -> Duration? {
        guard let usec, let microseconds = decimal(usec), microseconds > 0, microseconds != .max else {
            return nil
        }
        if let pid {
            guard let owner = decimal(pid), owner > 0, owner == UInt64(processID) else { return nil }
        }
        return .microseconds(microseconds)
    }

    /// A non-empty string of ASCII digits that fits in 64 bits. `UInt64(_:)` alone would also take a
    /// leading `+`.
    private static func decimal(_ text: String) -> UInt64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        return UInt64(text)
    }
}
