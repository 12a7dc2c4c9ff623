import Glibc
import Testing

@testable import SystemdNotify

/// `WATCHDOG_USEC` / `WATCHDOG_PID` read as `sd_watchdog_enabled(3)` does.
@Suite struct SystemdNotifierWatchdogTests {
    private func makeNotifier(_ environment: [String: String], processID: Int32 = 4242) -> SystemdNotifier? {
        SystemdNotifier.fromEnvironment(
            environment.merging(["NOTIFY_SOCKET": "/run/systemd/notify"]) { a, _ in a },
            processID: processID)
    }

    @Test func intervalWithoutPidIsOurs() throws {
        let notifier = try #require(makeNotifier(["WATCHDOG_USEC": "10000000"]))
        #expect(notifier.watchdogInterval == .seconds(10))
        #expect(notifier.watchdogPingInterval == .seconds(5))
    }

    @Test func intervalForOurPid() {
        #expect(
            makeNotifier(["WATCHDOG_USEC": "2500000", "WATCHDOG_PID": "4242"])?.watchdogInterval
                == .milliseconds(2500))
    }

    /// A child that inherited its parent's variables must not ping for it.
    @Test func intervalForAnotherPidIsNotOurs() throws {
        let notifier = try #require(makeNotifier(["WATCHDOG_USEC": "10000000", "WATCHDOG_PID": "4241"]))
        #expect(notifier.watchdogInterval == nil)
        #expect(notifier.watchdogPingInterval == nil)
    }

    @Test func defaultProcessIDIsOurOwn() {
        let pid = String(getpid())
        let environment = ["NOTIFY_SOCKET": "@n", "WATCHDOG_USEC": "1000000", "WATCHDOG_PID": pid]
        #expect(SystemdNotifier.fromEnvironment(environment)?.watchdogInterval == .seconds(1))
    }

    @Test func noWatchdogWithoutUsec() {
        #expect(makeNotifier([:])?.watchdogInterval == nil)
        #expect(makeNotifier(["WATCHDOG_PID": "4242"])?.watchdogInterval == nil)
    }

    /// `sd_watchdog_enabled` returns -EINVAL for these: no watchdog rather than a guessed interval.
    @Test(arguments: [
        ["WATCHDOG_USEC": ""], ["WATCHDOG_USEC": "0"], ["WATCHDOG_USEC": "-5"], ["WATCHDOG_USEC": "+5"],
        ["WATCHDOG_USEC": "10s"], ["WATCHDOG_USEC": " 10"], ["WATCHDOG_USEC": "18446744073709551615"],
        ["WATCHDOG_USEC": "18446744073709551616"],
        ["WATCHDOG_USEC": "1000", "WATCHDOG_PID": ""], ["WATCHDOG_USEC": "1000", "WATCHDOG_PID": "0"],
        ["WATCHDOG_USEC": "1000", "WATCHDOG_PID": "abc"],
    ])
    func malformedValuesMeanNoWatchdog(environment: [String: String]) {
        #expect(makeNotifier(environment)?.watchdogInterval == nil)
    }
}
