import Glibc
import Testing

@testable import SystemdNotify

@Suite struct SystemdNotifierTests {
    /// What a `Type=notify` unit with `WatchdogSec=` sees over a service's life, byte for byte, on both
    /// kinds of address systemd uses (a path: `/run/systemd/notify`; abstract: containers, user managers).
    @Test(arguments: [false, true])
    func lifeCycleMessagesArriveExactly(abstract: Bool) throws {
        let listener = try NotifyListener(abstract: abstract)
        let notifier = try #require(SystemdNotifier.fromEnvironment(["NOTIFY_SOCKET": listener.socket]))

        try notifier.ready()
        try notifier.watchdog()
        try notifier.status("HDMI-A-1 1920x1080@60")
        try notifier.stopping()

        #expect(listener.received() == ["READY=1", "WATCHDOG=1", "STATUS=HDMI-A-1 1920x1080@60", "STOPPING=1"])
    }

    @Test func fieldsGoInOneDatagramInKeyOrder() throws {
        let listener = try NotifyListener(abstract: false)
        let notifier = SystemdNotifier(socket: listener.socket)
        try notifier.notify(["STATUS": "running", "READY": "1"])
        #expect(listener.received() == ["READY=1\nSTATUS=running"])
    }

    @Test func reloadingCarriesTheMonotonicClock() throws {
        let listener = try NotifyListener(abstract: true)
        var before = timespec()
        clock_gettime(CLOCK_MONOTONIC, &before)
        try SystemdNotifier(socket: listener.socket).reloading()

        let lines = try #require(listener.received().first).split(separator: "\n")
        #expect(lines.first == "RELOADING=1")
        let stamp = try #require(lines.last.flatMap { UInt64($0.dropFirst("MONOTONIC_USEC=".count)) })
        #expect(lines.last?.hasPrefix("MONOTONIC_USEC=") == true)
        #expect(stamp >= UInt64(before.tv_sec) * 1_000_000)
    }

    /// A line break would end the field and start another: a status quoting a config line `READY=1`
    /// must not signal readiness.
    @Test func statusLineBreaksBecomeSpaces() throws {
        let listener = try NotifyListener(abstract: false)
        try SystemdNotifier(socket: listener.socket).status("bad config\nREADY=1")
        #expect(listener.received() == ["STATUS=bad config READY=1"])
    }

    @Test(arguments: [["": "1"], ["A=B": "1"], ["READY\n": "1"], ["STATUS": "two\nlines"]])
    func malformedFieldsAreRefusedAndNothingIsSent(fields: [String: String]) throws {
        let listener = try NotifyListener(abstract: false)
        let error = #expect(throws: SystemdNotifyError.self) {
            try SystemdNotifier(socket: listener.socket).notify(fields)
        }
        #expect(error?.description.hasPrefix("sd_notify to \"\(listener.socket)\": invalid field") == true)
        #expect(listener.received().isEmpty)
    }

    @Test func noNotifySocketMeansNotUnderSystemd() {
        #expect(SystemdNotifier.fromEnvironment([:]) == nil)
        #expect(SystemdNotifier.fromEnvironment(["NOTIFY_SOCKET": ""]) == nil)
        #expect(SystemdNotifier.fromEnvironment(["WATCHDOG_USEC": "10000000"]) == nil)
    }

    // MARK: - Failures are returned, never fatal

    @Test func aMissingSocketIsAnErrorNamingIt() {
        let error = #expect(throws: SystemdNotifyError.self) {
            try SystemdNotifier(socket: "/nonexistent/kiosk/notify").ready()
        }
        #expect(error?.errno == ENOENT)
        #expect(
            error?.description
                == "sd_notify to \"/nonexistent/kiosk/notify\": sendto: No such file or directory (errno 2)")
    }

    /// systemd 254 can pass `vsock:CID:PORT`; the notifier still exists so the failure gets logged.
    @Test func unsupportedAddressesAreReportedWhenSending() throws {
        let notifier = try #require(SystemdNotifier.fromEnvironment(["NOTIFY_SOCKET": "vsock:2:1234"]))
        let error = #expect(throws: SystemdNotifyError.self) { try notifier.watchdog() }
        #expect(
            error?.description
                == "sd_notify to \"vsock:2:1234\": unsupported address (only an absolute path or @name)")
    }

    @Test(arguments: ["/" + String(repeating: "x", count: 107), "@", "/"])
    func addressesThatDoNotFitAreReported(socket: String) {
        let error = #expect(throws: SystemdNotifyError.self) { try SystemdNotifier(socket: socket).stopping() }
        #expect(error?.description.contains("address too long or empty") == true)
    }

    /// 107 bytes plus the NUL fill `sun_path` exactly: the longest path that works.
    @Test func theLongestPathFits() throws {
        let listener = try NotifyListener(abstract: false)
        // Point a 107-byte path at the listener through a symlink in its directory.
        let directory = String(listener.socket.dropLast("/notify".count))
        let padding = 107 - directory.count - 1
        let link = directory + "/" + String(repeating: "l", count: padding)
        #expect(link.utf8.count == 107)
        #expect(symlink(listener.socket, link) == 0)
        defer { unlink(link) }
        try SystemdNotifier(socket: link).ready()
        #expect(listener.received() == ["READY=1"])
    }
}
