import Glibc

extension SystemdNotifier {
    /// `READY=1`: start-up is complete. With `Type=notify`, systemd holds units ordered after this one
    /// (and `systemctl start`) until it arrives, and kills the service after `TimeoutStartSec=` if it
    /// never does.
    public func ready() throws(SystemdNotifyError) { try send("READY=1") }

    /// `WATCHDOG=1`: the run loop is alive. Send it every `watchdogPingInterval` from the loop itself
    /// (a timer on the main queue), never from a thread of its own, which would keep pinging while the
    /// loop is stuck.
    public func watchdog() throws(SystemdNotifyError) { try send("WATCHDOG=1") }

    /// `STOPPING=1`: shutdown has begun (SIGTERM received). systemd shows the unit as deactivating and
    /// gives the rest of the shutdown `TimeoutStopSec=` before it kills the service.
    public func stopping() throws(SystemdNotifyError) { try send("STOPPING=1") }

    /// `RELOADING=1` with `MONOTONIC_USEC` (CLOCK_MONOTONIC now): a reload (SIGHUP: re-read the config)
    /// has begun; send `ready()` when it is applied. systemd 253's `Type=notify-reload` requires the
    /// timestamp to match the reload to its request; older versions ignore it.
    public func reloading() throws(SystemdNotifyError) {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let microseconds = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1_000
        try send("RELOADING=1\nMONOTONIC_USEC=\(microseconds)")
    }

    /// `STATUS=text`: one line shown by `systemctl status`, e.g. "HDMI-A-1 1920x1080@60, 1 touchscreen".
    /// Line breaks become spaces: the protocol is line-based, so a newline would end the field and the
    /// rest would be read as another assignment (a status quoting a config line `READY=1` would signal
    /// readiness).
    public func status(_ text: String) throws(SystemdNotifyError) {
        let line = String(text.map { $0.isNewline ? " " : $0 })
        try send("STATUS=\(line)")
    }

    /// Any fields at once, one `KEY=VALUE` line each in key order (a dictionary has none, and a fixed
    /// order keeps messages reproducible), e.g. `["READY": "1", "STATUS": "running"]` in one datagram.
    ///
    /// Throws `invalidField` without sending anything when a key is empty or contains `=` or a line
    /// break, or a value contains a line break: such a message would be read as different fields.
    public func notify(_ fields: [String: String]) throws(SystemdNotifyError) {
        for (key, value) in fields {
            if key.isEmpty || key.contains("=") || key.contains(where: \.isNewline)
                || value.contains(where: \.isNewline)
            {
                throw .invalidField(key, socket: socket)
            }
        }
        try send(fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "\n"))
    }
}
