import Backlight
import Foundation
import Glibc
import Testing

/// The sysfs reader and writer against a tree laid out as the kernel's (links and all) in a temporary
/// folder, and the in-memory twin against the same expectations.
@Suite struct BacklightTests {
    /// A sysfs-like tree: an eDP panel's raw backlight under its connector (as i915 registers
    /// intel_backlight), ACPI's firmware one under the graphics card's PCI device, and a virtual one.
    final class Tree {
        let root: String

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("backlight-\(UUID().uuidString)").path
            let pci = "devices/pci0000:00/0000:00:02.0"
            try folder("class/backlight")
            try folder("class/drm")
            try folder("bus/pci")
            try link("\(pci)/subsystem", to: "../../../bus/pci")
            try link("\(pci)/drm/card0/card0-eDP-1/subsystem", to: "../../../../../../class/drm")
            try device("intel_backlight", at: "\(pci)/drm/card0/card0-eDP-1/intel_backlight", type: "raw", max: 96000, level: 48000)
            try link("\(pci)/drm/card0/card0-eDP-1/intel_backlight/device", to: "../../card0-eDP-1")
            try device("acpi_video0", at: "\(pci)/backlight/acpi_video0", type: "firmware\n", max: 15, level: 7)
            try link("\(pci)/backlight/acpi_video0/device", to: "../../../0000:00:02.0")
            try device("lonely", at: "devices/virtual/backlight/lonely", type: "something-new", max: 255, level: 255)
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }

        func folder(_ path: String) throws {
            try FileManager.default.createDirectory(atPath: "\(root)/\(path)", withIntermediateDirectories: true)
        }

        func link(_ path: String, to target: String) throws {
            try folder((path as NSString).deletingLastPathComponent)
            try FileManager.default.createSymbolicLink(atPath: "\(root)/\(path)", withDestinationPath: target)
        }

        func write(_ path: String, _ text: String) throws {
            try text.write(toFile: "\(root)/\(path)", atomically: false, encoding: .utf8)
        }

        func read(_ path: String) throws -> String { try String(contentsOfFile: "\(root)/\(path)", encoding: .utf8) }

        /// A class device at `path` with its attributes, linked from class/backlight as the kernel links it.
        func device(_ name: String, at path: String, type: String, max: Int, level: Int) throws {
            try folder(path)
            try write("\(path)/type", type)
            try write("\(path)/max_brightness", "\(max)\n")
            try write("\(path)/actual_brightness", "\(level)\n")
            try write("\(path)/brightness", "\(level)\n")
            try link("class/backlight/\(name)", to: "../../\(path)")
        }
    }

    @Test func listsTheDevicesWithTypeMaximumAndParent() throws {
        let tree = try Tree()
        let devices = try SysfsBacklightClass(root: tree.root).devices()
        #expect(
            devices == [
                BacklightDevice(
                    name: "acpi_video0", type: .firmware, maxBrightness: 15, parent: .init(subsystem: "pci", name: "0000:00:02.0")),
                BacklightDevice(
                    name: "intel_backlight", type: .raw, maxBrightness: 96000, parent: .init(subsystem: "drm", name: "card0-eDP-1")),
                // A type the kernel may add later reads as raw; a device of its own has no parent.
                BacklightDevice(name: "lonely", type: .raw, maxBrightness: 255, parent: nil),
            ])
    }

    @Test func readsTheActualLevelAndWritesTheRequestedOne() throws {
        let tree = try Tree()
        let backlights = SysfsBacklightClass(root: tree.root)
        #expect(try backlights.brightness(of: "intel_backlight") == 48000)
        try backlights.setBrightness(5, of: "intel_backlight")
        // The whole value, nothing of the longer one before it.
        #expect(try tree.read("class/backlight/intel_backlight/brightness") == "5")
    }

    @Test func failuresNameTheCallThePathAndTheErrno() throws {
        let tree = try Tree()
        let backlights = SysfsBacklightClass(root: tree.root)
        let missing = #expect(throws: BacklightError.self) { try backlights.brightness(of: "gone") }
        #expect(missing == BacklightError(operation: "open", path: "\(tree.root)/class/backlight/gone/actual_brightness", errno: ENOENT))
        #expect(missing?.isMissing == true)
        #expect(
            missing?.description == "open(\(tree.root)/class/backlight/gone/actual_brightness): No such file or directory (errno 2)")
        try tree.write("class/backlight/lonely/max_brightness", "lots\n")
        let parse = #expect(throws: BacklightError.self) { try backlights.devices() }
        #expect(parse == BacklightError(operation: "parse", path: "\(tree.root)/class/backlight/lonely/max_brightness", errno: EINVAL))
        // Root writes any file: a folder in the attribute's place is what refuses here (EISDIR).
        try FileManager.default.removeItem(atPath: "\(tree.root)/class/backlight/acpi_video0/brightness")
        try tree.folder("devices/pci0000:00/0000:00:02.0/backlight/acpi_video0/brightness")
        let write = #expect(throws: BacklightError.self) { try backlights.setBrightness(3, of: "acpi_video0") }
        #expect(write?.operation == "open" && write?.errno == EISDIR)
    }

    @Test func noClassFolderIsNoDevices() throws {
        #expect(try SysfsBacklightClass(root: "/nonexistent-sysfs").devices() == [])
    }

    @Test func theTwinKeepsLevelsAndRefusesAsTheKernelDoes() throws {
        let twin = InMemoryBacklightClass()
        twin.add(BacklightDevice(name: "panel", type: .raw, maxBrightness: 255), level: 200)
        #expect(try twin.brightness(of: "panel") == 200)
        try twin.setBrightness(61, of: "panel")
        #expect(try twin.brightness(of: "panel") == 61 && twin.writes == ["panel 61"])
        #expect(throws: BacklightError(operation: "write", path: "/sys/class/backlight/panel/brightness", errno: EINVAL)) {
            try twin.setBrightness(256, of: "panel")
        }
        twin.remove("panel")
        #expect(throws: BacklightError.self) { try twin.setBrightness(1, of: "panel") }
        #expect(try twin.devices().isEmpty)
    }

    @Test func onlyOneFileNameNamesADevice() {
        #expect(BacklightDevice.isValidName("intel_backlight"))
        for bad in ["", ".", "..", "a/b", "../x"] { #expect(!BacklightDevice.isValidName(bad), "\(bad)") }
    }
}
