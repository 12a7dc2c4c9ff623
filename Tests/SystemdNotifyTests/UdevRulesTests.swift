import Foundation
import Testing

/// udev-rules/: `udev-rules/check` parses the rules with the real udev (udevadm test, in a private mount
/// namespace) and applies them to the devices present. A CI container has no DRM or input devices, so
/// here that is the parsing; the QEMU system test `udev_rules` runs the same script against real ones.
@Suite struct UdevRulesTests {
    /// `UDEVADM` may name a udevadm that is not on PATH (an unpacked udev package), as for the script.
    @Test(
        .enabled(
            if: Deployment.tool("udevadm") != nil || ProcessInfo.processInfo.environment["UDEVADM"] != nil
                || Deployment.isCI,
            "udevadm not found (apt-get install udev)"))
    func rulesParseWithTheRealUdev() throws {
        let check = Deployment.root.appendingPathComponent("udev-rules/check").path
        let result = try Deployment.run(check, [])
        // 77: the script could not run here (no udevadm, no mount namespace): a skip, except in CI.
        if result.status == 77 && !Deployment.isCI { return }
        #expect(result.status == 0, "udev-rules/check:\n\(result.all)")
    }
}
