import CLazyLibSeat
import Foundation
import Glibc
import Synchronization
import Testing

@testable import Seat

/// libseat reads `LIBSEAT_BACKEND` (and `SEATD_SOCK`) from the process environment, which every test in
/// the process shares, so every test that opens a seat lives in this one serialized suite and sets the
/// variables it needs for its own duration.
///
/// No test here opens a seat without `LIBSEAT_BACKEND`: these machines run tests as root, where libseat
/// falls back to `builtin`, which takes over the machine's current VT (observed: KD_GRAPHICS on tty1).
/// No test waits: the noop backend's fd never becomes readable, and every dispatch uses timeout 0.
@MainActor @Suite(.serialized)
struct SeatTests {
    /// Counts callbacks; the closures given to `Seat` capture it.
    final class Events {
        var enabled = 0
        var disabled = 0
    }

    /// Runs `body` with the environment variables set (nil unsets), then restores them.
    func withEnvironment<T>(_ variables: [String: String?], _ body: () throws -> T) rethrows -> T {
        let saved = variables.keys.map { ($0, getenv($0).map { String(cString: $0) }) }
        func apply(_ name: String, _ value: String?) {
            if let value { setenv(name, value, 1) } else { unsetenv(name) }
        }
        for (name, value) in variables { apply(name, value) }
        defer { for (name, value) in saved { apply(name, value) } }
        return try body()
    }

    func openNoopSeat(_ events: Events) throws -> Seat {
        try withEnvironment(["LIBSEAT_BACKEND": "noop"]) {
            try Seat(onEnable: { events.enabled += 1 }, onDisable: { events.disabled += 1 })
        }
    }

    /// A file only this test knows, so checks on "is our fd still open" cannot be fooled by another test
    /// reusing the same fd number in parallel.
    func makeScratchFile() throws -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("seat-test-\(UUID().uuidString)").path
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        return path
    }

    /// What `fd` refers to now, or nil if it is closed.
    func target(ofDescriptor fd: Int32) -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)")
    }

    // MARK: noop

    @Test func noopOpensWithoutAnyDaemon() throws {
        let events = Events()
        let seat = try openNoopSeat(events)
        // libseat 0.7.0 (Debian 12) names it "noop"; later libseat says "seat0".
        #expect(["noop", "seat0"].contains(seat.name))
        #expect(fcntl(seat.fileDescriptor, F_GETFD) >= 0, "a valid descriptor (one end of a socketpair)")
        #expect(!seat.isEnabled)
        #expect(events.enabled == 0, "no callback during init")
    }

    /// libseat 0.7.0's noop never calls enable_seat (its `initial_setup` flag is never set; later
    /// versions set it and enable from the first dispatch). The wrapper gives the same behavior on both.
    @Test func noopEnablesOnTheFirstDispatchOnly() throws {
        let events = Events()
        let seat = try openNoopSeat(events)
        try seat.dispatch()
        #expect(events.enabled == 1)
        #expect(seat.isEnabled)
        try seat.dispatch()
        try seat.dispatch(timeout: 10)  // noop polls a socket nobody writes to: returns after 10 ms
        #expect(events.enabled == 1)
        #expect(events.disabled == 0)
    }

    /// noop's libseat_open_device is a plain open(2) of any path, /dev/null included.
    @Test func noopOpensDevNull() throws {
        let seat = try openNoopSeat(Events())
        try seat.dispatch()
        let device = try seat.openDevice(path: "/dev/null")
        #expect(device.path == "/dev/null")
        #expect(device.id >= 0)
        #expect(target(ofDescriptor: device.fileDescriptor) == "/dev/null")
        #expect(fcntl(device.fileDescriptor, F_GETFL) & O_ACCMODE == O_RDWR)
        #expect(fcntl(device.fileDescriptor, F_GETFL) & O_NONBLOCK != 0, "made non-blocking by the wrapper")
        #expect(write(device.fileDescriptor, "kiosk", 5) == 5)
        try seat.closeDevice(device)
    }

    /// libseat_close_device leaves the fd open (noop does nothing at all); closeDevice closes it.
    @Test func closeDeviceClosesTheDescriptor() throws {
        let path = try makeScratchFile()
        defer { unlink(path) }
        let seat = try openNoopSeat(Events())
        try seat.dispatch()
        let device = try seat.openDevice(path: path)
        #expect(target(ofDescriptor: device.fileDescriptor) == path)
        try seat.closeDevice(device)
        #expect(target(ofDescriptor: device.fileDescriptor) != path)
    }

    @Test func releasingTheSeatClosesItsDevices() throws {
        let path = try makeScratchFile()
        defer { unlink(path) }
        var seat: Seat? = try openNoopSeat(Events())
        try seat?.dispatch()
        let device = try #require(try seat?.openDevice(path: path))
        #expect(target(ofDescriptor: device.fileDescriptor) == path)
        seat = nil
        #expect(target(ofDescriptor: device.fileDescriptor) != path)
    }

    /// Closing twice is a programmer error: it traps (in a child process, as an exit test).
    @Test func closingADeviceTwiceTraps() async {
        await #expect(processExitsWith: .failure) {
            await MainActor.run {
                setenv("LIBSEAT_BACKEND", "noop", 1)
                let seat = try! Seat(onEnable: {}, onDisable: {})
                try! seat.dispatch()
                let device = try! seat.openDevice(path: "/dev/null")
                try! seat.closeDevice(device)
                // `try?`: only the precondition may end the process, not an error.
                try? seat.closeDevice(device)
            }
        }
    }

    @Test func openingAMissingDeviceThrowsWithThePath() throws {
        let seat = try openNoopSeat(Events())
        try seat.dispatch()
        let error = #expect(throws: SeatError.self) { try seat.openDevice(path: "/dev/kiosk-no-such-device") }
        #expect(error?.operation == "libseat_open_device")
        #expect(error?.errno == ENOENT)
        #expect(error?.path == "/dev/kiosk-no-such-device")
        #expect(
            error?.description
                == "libseat_open_device(\"/dev/kiosk-no-such-device\"): No such file or directory (errno 2)")
    }

    /// noop cannot switch sessions and says so without setting errno (libseat 0.7.0).
    @Test func noopCannotSwitchSessions() throws {
        let seat = try openNoopSeat(Events())
        let error = #expect(throws: SeatError.self) { try seat.switchSession(2) }
        #expect(error?.operation == "libseat_switch_session")
        #expect(error?.errno == 0)
        #expect(error?.description == "libseat_switch_session: failed without setting errno")
    }

    @Test func noopAcceptsADisableAcknowledgement() throws {
        let seat = try openNoopSeat(Events())
        try seat.dispatch()
        try seat.acknowledgeDisable()
    }

    // MARK: Backends that are not there

    /// seatd is not running on these machines; `SEATD_SOCK` points at a path that cannot exist, so the
    /// test also holds on a machine where seatd runs.
    @Test func seatdWithoutADaemonThrowsNamingOpenSeat() throws {
        let error = #expect(throws: SeatError.self) {
            try withEnvironment(["LIBSEAT_BACKEND": "seatd", "SEATD_SOCK": "/nonexistent/kiosk-seatd.sock"]) {
                try Seat(onEnable: {}, onDisable: {})
            }
        }
        #expect(error?.operation == "libseat_open_seat")
        #expect(error?.errno == ENOENT)
        #expect(error?.backend == "seatd")
        #expect(error?.path == nil)
        #expect(
            error?.description
                == "libseat_open_seat(LIBSEAT_BACKEND=seatd): No such file or directory (errno 2)")
    }

    @Test func unknownBackendNameThrowsEINVAL() throws {
        let error = #expect(throws: SeatError.self) {
            try withEnvironment(["LIBSEAT_BACKEND": "kiosk-no-such-backend"]) {
                try Seat(onEnable: {}, onDisable: {})
            }
        }
        #expect(error?.operation == "libseat_open_seat")
        #expect(error?.errno == EINVAL)
        #expect(error?.backend == "kiosk-no-such-backend")
    }

    // MARK: Log

    @Test func logHandlerReceivesLibseatsLines() throws {
        let lines = Mutex<[String]>([])
        Seat.setLogHandler(level: .info) { _, line in lines.withLock { $0.append(line) } }
        defer { Seat.setLogHandler(level: .silent, nil) }
        _ = try openNoopSeat(Events())
        #expect(throws: SeatError.self) {
            try withEnvironment(["LIBSEAT_BACKEND": "seatd", "SEATD_SOCK": "/nonexistent/kiosk-seatd.sock"]) {
                try Seat(onEnable: {}, onDisable: {})
            }
        }
        let logged = lines.withLock { $0 }
        #expect(logged.contains { $0.hasSuffix("Seat opened with backend 'noop'") }, "\(logged)")
        #expect(
            logged.contains { $0.contains("Backend 'seatd' failed to open seat: No such file or directory") },
            "\(logged)")
    }

    /// In a process libseat forked (the builtin backend's embedded seatd), a line is not given to the
    /// handler, whose Swift work could wait there forever on a lock another thread held at the fork: C
    /// writes it to standard error in the log's format, at the levels that have a word.
    @Test func linesLoggedInAForkedProcessAreWrittenByC() async {
        await #expect(processExitsWith: .success) {
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else { exit(10) }
            let heard = Mutex<[String]>([])
            let words = Seat.ForkedLogFormat(label: "test.seat", error: "error", info: "notice", debug: "")
            Seat.setLogHandler(level: .info, forked: words) { _, line in heard.withLock { $0.append(line) } }
            let child = fork()
            if child == 0 {
                dup2(ends[1], STDERR_FILENO)
                setenv("LIBSEAT_BACKEND", "noop", 1)
                // libseat itself, not `Seat` (main actor): a forked child runs no Swift concurrency.
                var listener = libseat_seat_listener(enable_seat: { _, _ in }, disable_seat: { _, _ in })
                _ = libseat_open_seat(&listener, nil)
                _exit(heard.withLock { $0.isEmpty } ? 0 : 11)
            }
            close(ends[1])
            var written = [UInt8]()
            var chunk = [UInt8](repeating: 0, count: 4096)
            while case let count = read(ends[0], &chunk, chunk.count), count > 0 { written += chunk[..<count] }
            var status: Int32 = 0
            waitpid(child, &status, 0)
            guard status == 0 else { exit(12) }
            let text = String(decoding: written, as: UTF8.self)
            let pattern = #/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+0000 notice test\.seat: \[libseat/[^\]]+\] Seat opened with backend 'noop'\n/#
            guard text.contains(pattern) else { exit(13) }
            // In the process that set it, the handler gets the lines.
            setenv("LIBSEAT_BACKEND", "noop", 1)
            var listener = libseat_seat_listener(enable_seat: { _, _ in }, disable_seat: { _, _ in })
            _ = libseat_open_seat(&listener, nil)
            exit(heard.withLock { $0.contains { $0.hasSuffix("Seat opened with backend 'noop'") } } ? 0 : 14)
        }
    }
}
