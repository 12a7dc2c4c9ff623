import Glibc
import Testing

@testable import DRMDisplay

/// A card's number is its node's minor: glibc's `major()` and `minor()` split a device number so, also for
/// numbers above 8 bits (the kernel puts the minor's high bits above the major's).
@Suite struct DeviceNumberTests {
    @Test(arguments: [
        (UInt32(226), UInt32(0)), (226, 1), (226, 128), (226, 255), (226, 256), (226, 1_048_575), (4095, 12345), (4096, 7),
        (0xffff_ffff, 0xffff_ffff),
    ])
    func majorAndMinor(major: UInt32, minor: UInt32) {
        let device = Self.makedev(major, minor)
        #expect(majorNumber(device) == UInt64(major))
        #expect(minorNumber(device) == UInt64(minor))
    }

    /// What the kernel says of real nodes (mem's minors: null 3, zero 5, urandom 9).
    @Test(arguments: [("/dev/null", UInt64(3)), ("/dev/zero", 5), ("/dev/urandom", 9)])
    func realNodes(path: String, minor: UInt64) {
        var status = stat()
        #expect(stat(path, &status) == 0)
        #expect(majorNumber(status.st_rdev) == 1 && minorNumber(status.st_rdev) == minor)
    }

    /// glibc's `makedev` (a macro over an inline function Swift does not see), as `sys/sysmacros.h` has it.
    static func makedev(_ major: UInt32, _ minor: UInt32) -> dev_t {
        let (major, minor) = (UInt64(major), UInt64(minor))
        return dev_t((major & 0x0000_0fff) << 8 | (major & 0xffff_f000) << 32 | (minor & 0x0000_00ff) | (minor & 0xffff_ff00) << 12)
    }
}
