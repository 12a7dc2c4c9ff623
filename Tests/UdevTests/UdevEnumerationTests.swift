import Glibc
import Testing

@testable import Udev

@Suite struct UdevEnumerationTests {
    @Test func enumeratesASubsystemSortedByName() throws {
        let devices = try Udev().devices(subsystem: "mem")
        let names = devices.map(\.sysname)
        // mem always has these (drivers/char/mem.c); others (port, kmem) depend on the kernel config.
        for name in ["full", "null", "random", "urandom", "zero"] {
            #expect(names.contains(name), "mem devices: \(names)")
        }
        #expect(names == names.sorted(by: Udev.naturalOrder))
        #expect(devices.allSatisfy { $0.subsystem == "mem" && $0.action == nil })
        let null = try #require(devices.first { $0.sysname == "null" })
        #expect(null.syspath == "/sys/devices/virtual/mem/null")
        #expect(null.devnode == "/dev/null")
        #expect(null.properties["MINOR"] == "3")
    }

    @Test func unknownSubsystemGivesNoDevices() throws {
        #expect(try Udev().devices(subsystem: "kiosk-no-such-subsystem").isEmpty)
    }

    /// Virtual consoles `tty0`...`tty63` exist wherever the kernel has CONFIG_VT (these machines do);
    /// libudev lists them in directory order (`tty1`, `tty10`, `tty11`, ..., `tty2`).
    @Test(.enabled("needs virtual consoles up to tty10 (CONFIG_VT)") { access("/sys/class/tty/tty10", F_OK) == 0 })
    func sysnameGlobAndNaturalNumberOrder() throws {
        let devices = try Udev().devices(subsystem: "tty", sysname: "tty[0-9]*")
        let numbers = devices.map { Int($0.sysname.dropFirst(3)) }
        #expect(numbers.allSatisfy { $0 != nil }, "only ttyN: \(devices.map(\.sysname))")
        let values = numbers.compactMap { $0 }
        #expect(values == values.sorted())
        #expect(values.starts(with: [0, 1, 2, 3]))
        #expect(values.firstIndex(of: 2)! < values.firstIndex(of: 10)!)
    }

    /// libudev ORs several property matches (observed with libudev 252: these two give all five mem
    /// devices with mode 0666); `devices` ANDs them.
    @Test func severalPropertiesMustAllMatch() throws {
        let udev = try Udev()
        let both = try udev.devices(subsystem: "mem", properties: ["DEVMODE": "0666", "MINOR": "3"])
        #expect(both.map(\.sysname) == ["null"])
        let worldWritable = try udev.devices(subsystem: "mem", properties: ["DEVMODE": "0666"])
        #expect(worldWritable.count > 1)
        #expect(worldWritable.allSatisfy { $0.properties["DEVMODE"] == "0666" })
    }

    @Test func propertyValuesAreGlobs() throws {
        let devices = try Udev().devices(subsystem: "mem", properties: ["DEVNAME": "/dev/*random"])
        #expect(devices.map(\.sysname) == ["random", "urandom"])
    }
}
