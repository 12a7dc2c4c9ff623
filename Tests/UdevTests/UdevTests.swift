import Glibc
import Testing

@testable import Udev

/// Device lookup and sysfs attributes against this machine's real sysfs. `/dev/null` (`mem` 1:3) exists
/// on every Linux machine, with or without udevd, so it is the fixture.
@Suite struct UdevTests {
    static let nullSyspath = "/sys/devices/virtual/mem/null"

    @Test func deviceAtSyspathIsASnapshotOfItsProperties() throws {
        let udev = try Udev()
        let null = try udev.device(syspath: Self.nullSyspath)
        #expect(null.syspath == Self.nullSyspath)
        #expect(null.sysname == "null")
        #expect(null.devnode == "/dev/null")
        #expect(null.subsystem == "mem")
        #expect(null.devtype == nil)
        #expect(null.action == nil, "only monitor events carry an action")
        // The kernel's own uevent variables are there even without udevd.
        #expect(null.properties["MAJOR"] == "1")
        #expect(null.properties["MINOR"] == "3")
        #expect(null.properties["DEVNAME"] == "/dev/null")
        #expect(null.properties["SUBSYSTEM"] == "mem")
        // Virtual devices sit at the top of the device tree.
        #expect(null.parentSyspath == nil)
        #expect(null.parentSubsystem == nil)
    }

    @Test func missingSyspathThrowsNamingTheFunctionAndThePath() throws {
        let udev = try Udev()
        let error = #expect(throws: UdevError.self) {
            try udev.device(syspath: "/sys/devices/kiosk-no-such-device")
        }
        #expect(error?.operation == "udev_device_new_from_syspath")
        #expect(error?.errno == ENODEV)
        #expect(error?.detail == "/sys/devices/kiosk-no-such-device")
        #expect(
            error?.description
                == "udev_device_new_from_syspath(\"/sys/devices/kiosk-no-such-device\"): No such device (errno 19)")
    }

    @Test func sysattrReadsSysfsNow() throws {
        let udev = try Udev()
        #expect(udev.sysattr("dev", ofSyspath: Self.nullSyspath) == "1:3", "libudev strips the trailing newline")
        #expect(udev.sysattr("kiosk-no-such-attribute", ofSyspath: Self.nullSyspath) == nil)
        #expect(udev.sysattr("dev", ofSyspath: "/sys/devices/kiosk-no-such-device") == nil)
    }

    /// Any machine has some device below another (a NIC, a PCI function); a parent is a device whose
    /// syspath is a proper prefix of the child's.
    @Test(.enabled("needs a PCI or network device with a parent device") { try !Self.devicesWithParents().isEmpty })
    func parentIsTheNearestDeviceAbove() throws {
        for device in try Self.devicesWithParents() {
            let parent = try #require(device.parentSyspath)
            #expect(device.syspath.hasPrefix(parent + "/"), "\(device.syspath) under \(parent)")
            // Not always set: a PCI function's parent `/sys/devices/pci0000:00` has no subsystem.
            #expect(try Udev().device(syspath: parent).subsystem == device.parentSubsystem)
        }
    }

    static func devicesWithParents() throws -> [UdevDevice] {
        let udev = try Udev()
        return try (udev.devices(subsystem: "net") + udev.devices(subsystem: "pci")).filter { $0.parentSyspath != nil }
    }
}
