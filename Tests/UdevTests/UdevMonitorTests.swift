import Foundation
import Glibc
import Testing

@testable import Udev

@Suite struct UdevMonitorTests {
    /// A udev-source monitor needs no running udevd: libudev 252 creates and binds the netlink socket
    /// anyway (verified in this project's containers, which have no udevd); it just stays silent.
    @Test func udevMonitorHasANonBlockingDescriptorAndReturnsNothingAtOnce() throws {
        let udev = try Udev()
        // A subsystem no kernel has, so nothing can be queued whatever runs on the machine.
        let monitor = try UdevMonitor(udev: udev, subsystems: ["kiosk-no-such-subsystem"])
        let flags = fcntl(monitor.fileDescriptor, F_GETFL)
        #expect(flags >= 0, "a valid descriptor")
        #expect(flags & O_NONBLOCK != 0)
        #expect(fcntl(monitor.fileDescriptor, F_GETFD) & FD_CLOEXEC != 0)

        let clock = ContinuousClock()
        let start = clock.now
        #expect(try monitor.receive() == nil)
        #expect(try monitor.receiveAll().isEmpty)
        #expect(clock.now - start < .seconds(1), "receive() must not wait")
    }

    @Test func monitorForEverySubsystemCanBeCreated() throws {
        let monitor = try UdevMonitor(udev: Udev(), subsystems: [])
        #expect(monitor.fileDescriptor >= 0)
    }

    /// End to end through the kernel: writing `change UUID` to a device's `uevent` file makes the kernel
    /// emit a synthetic uevent carrying `SYNTH_UUID=UUID`; a kernel-source monitor filtered to `mem`
    /// must report it. The UUID makes the event ours even if something else triggers `mem` meanwhile.
    /// (Without udevd a udev-source monitor would never see it, hence the kernel source. Where udevd runs,
    /// it re-applies its rules to /dev/null, as `udevadm trigger` would: harmless.)
    @Test(
        .enabled("needs root and a writable sysfs to synthesize a uevent") {
            geteuid() == 0 && access("/sys/devices/virtual/mem/null/uevent", W_OK) == 0
        })
    func kernelMonitorReceivesASynthesizedUevent() throws {
        let udev = try Udev()
        let monitor = try UdevMonitor(udev: udev, subsystems: ["mem"], source: .kernel)
        #expect(try monitor.receiveAll().isEmpty)

        let uuid = UUID().uuidString.lowercased()
        try "change \(uuid)".write(toFile: "/sys/devices/virtual/mem/null/uevent", atomically: false, encoding: .utf8)

        var events: [UdevDevice] = []
        let deadline = ContinuousClock.now + .seconds(5)
        while !events.contains(where: { $0.properties["SYNTH_UUID"] == uuid }) && ContinuousClock.now < deadline {
            var descriptor = pollfd(fd: monitor.fileDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, 500)
            events += try monitor.receiveAll()
        }
        let event = try #require(
            events.first { $0.properties["SYNTH_UUID"] == uuid },
            "no uevent within 5 s; got \(events)")
        #expect(event.action == "change")
        #expect(event.sysname == "null")
        #expect(event.syspath == "/sys/devices/virtual/mem/null")
        #expect(event.subsystem == "mem")
        #expect(event.properties["ACTION"] == "change")
    }
}
