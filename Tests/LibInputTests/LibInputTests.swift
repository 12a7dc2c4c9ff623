import Foundation
import Glibc
import Testing

@testable import LibInput

/// Contexts without input devices: what every machine can run, including these containers (no
/// `/dev/input`, no udevd, no uinput). Event conversion with real kernel events is in
/// `VirtualDeviceTests`, which runs where uinput exists (the QEMU guest of Tests/System).
@MainActor @Suite struct LibInputTests {
    /// Counts the open/close callbacks; the closures given to `LibInput` capture it.
    final class Calls {
        var opened: [String] = []
        var closed: [Int32] = []
    }

    func context(seat: String, _ calls: Calls) throws -> LibInput {
        try LibInput(
            seat: seat,
            openDevice: { path, flags in
                calls.opened.append(path)
                return LibInput.openDirectly(path: path, flags: flags)
            },
            closeDevice: { fd in
                calls.closed.append(fd)
                LibInput.closeDirectly(fd)
            })
    }

    /// What `fd` refers to, e.g. `anon_inode:[eventpoll]`.
    func target(ofDescriptor fd: Int32) -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)")
    }

    // MARK: udev contexts

    @Test func unknownSeatHasNoDevices() throws {
        let calls = Calls()
        let input = try context(seat: "kiosk-no-such-seat", calls)
        #expect(input.seat == "kiosk-no-such-seat")
        try input.dispatch()
        #expect(input.events().isEmpty)
        #expect(calls.opened.isEmpty, "no device belongs to that seat: \(calls.opened)")
    }

    /// seat0 on this machine: a container without /dev/input reports nothing; a machine with devices
    /// reports only additions at start (whatever it may have).
    @Test func defaultSeatReportsOnlyAdditionsAtStart() throws {
        let input = try LibInput()
        #expect(input.seat == "seat0")
        try input.dispatch()
        for event in input.events() {
            guard case .deviceAdded = event else {
                Issue.record("unexpected \(event)")
                continue
            }
        }
    }

    /// libinput's fd is an epoll fd: close-on-exec, never read directly, so O_NONBLOCK is irrelevant
    /// (libinput_dispatch waits on it with timeout 0). Nothing is readable on a seat without devices.
    @Test func fileDescriptorIsAnEpollDescriptor() throws {
        let input = try context(seat: "kiosk-no-such-seat", Calls())
        #expect(target(ofDescriptor: input.fileDescriptor) == "anon_inode:[eventpoll]")
        #expect(fcntl(input.fileDescriptor, F_GETFD) & FD_CLOEXEC != 0)
        var entry = pollfd(fd: input.fileDescriptor, events: Int16(POLLIN), revents: 0)
        #expect(poll(&entry, 1, 0) == 0)
    }

    /// Dispatch never waits: with nothing to read it returns at once, as often as it is called.
    @Test func dispatchWithNothingToReadReturns() throws {
        let input = try context(seat: "kiosk-no-such-seat", Calls())
        for _ in 0..<100 { try input.dispatch() }
        #expect(input.events().isEmpty)
    }

    @Test func suspendAndResumeWithoutDevices() throws {
        let calls = Calls()
        let input = try context(seat: "kiosk-no-such-seat", calls)
        input.suspend()
        try input.resume()
        try input.resume()  // not suspended: nothing happens
        try input.dispatch()
        #expect(input.events().isEmpty)
        #expect(calls.opened.isEmpty && calls.closed.isEmpty)
    }

    @Test func addDeviceOnAUdevContextTraps() async {
        await #expect(processExitsWith: .failure) {
            await MainActor.run {
                let input = try! LibInput(seat: "kiosk-no-such-seat")
                _ = try? input.addDevice(path: "/dev/null")
            }
        }
    }

    // MARK: path contexts

    @Test func addingAMissingPathThrowsNamingThePath() throws {
        let input = try LibInput.path()
        input.setLogHandler(priority: .error) { _, _ in }  // keep libinput's "client bug" line off stderr
        let error = #expect(throws: LibInputError.self) { try input.addDevice(path: "/dev/input/kiosk-no-such-event") }
        #expect(error?.operation == "libinput_path_add_device")
        #expect(error?.errno == ENOENT)
        #expect(error?.detail == "/dev/input/kiosk-no-such-event")
        #expect(
            error?.description
                == "libinput_path_add_device(\"/dev/input/kiosk-no-such-event\"): No such file or directory (errno 2)")
        #expect(input.events().isEmpty)
    }

    /// A regular file has no device number udev knows: libudev's lookup of char device 0:0 says ENODEV
    /// (observed on Debian 12, libinput 1.22, libudev 252).
    @Test func addingARegularFileThrowsENODEV() throws {
        let input = try LibInput.path()
        input.setLogHandler(priority: .error) { _, _ in }
        let error = #expect(throws: LibInputError.self) { try input.addDevice(path: "/proc/self/status") }
        #expect(error?.errno == ENODEV)
        #expect(error?.detail == "/proc/self/status")
    }

    @Test func logHandlerReceivesLibinputsLines() throws {
        let input = try LibInput.path()
        var lines: [(LibInput.LogPriority, String)] = []
        input.setLogHandler(priority: .info) { lines.append(($0, $1)) }
        _ = try? input.addDevice(path: "/dev/input/kiosk-no-such-event")
        // libinput 1.22 calls a missing path a client bug, at error priority, ending in a newline (removed).
        #expect(
            lines.contains { $0.0 == .error && $0.1 == "client bug: Invalid path /dev/input/kiosk-no-such-event" },
            "\(lines)")
    }

    // MARK: direct opening

    @Test func openDirectlyReturnsMinusErrno() {
        #expect(LibInput.openDirectly(path: "/dev/input/kiosk-no-such-event", flags: O_RDWR) == -ENOENT)
        let fd = LibInput.openDirectly(path: "/dev/null", flags: O_RDWR | O_NONBLOCK)
        #expect(fd >= 0)
        #expect(fcntl(fd, F_GETFD) & FD_CLOEXEC != 0, "O_CLOEXEC is added")
        #expect(fcntl(fd, F_GETFL) & O_NONBLOCK != 0, "libinput's flags are kept")
        LibInput.closeDirectly(fd)
        #expect(fcntl(fd, F_GETFD) == -1)
    }
}
