import Glibc

/// The kernel's backlight class: its devices, and each device's level. `SysfsBacklightClass` reads and
/// writes sysfs; `InMemoryBacklightClass` is its twin for tests.
public protocol BacklightClass: AnyObject {
    /// Every device of the class, by name. None when the class has no folder (a kernel without it).
    func devices() throws(BacklightError) -> [BacklightDevice]

    /// The level the hardware has now (`actual_brightness`: `brightness` is only what was last asked for).
    func brightness(of device: String) throws(BacklightError) -> Int

    /// Asks for `level` (0 to the device's `maxBrightness`; the kernel refuses others with EINVAL).
    func setBrightness(_ level: Int, of device: String) throws(BacklightError)
}

/// The backlight class in memory: tests list devices, set levels and see what was written.
public final class InMemoryBacklightClass: BacklightClass {
    /// The devices, in the order `devices()` lists them.
    public var listed: [BacklightDevice]
    /// Each device's level now, by name.
    public private(set) var levels: [String: Int]
    /// Every level written, as `"<device> <level>"`.
    public private(set) var writes: [String] = []
    /// When set, `setBrightness` throws it (a device that went away, a permission missing).
    public var failure: BacklightError?

    public init(_ devices: [BacklightDevice] = [], levels: [String: Int] = [:]) {
        listed = devices
        self.levels = levels
    }

    /// Plugs in `device` at `level`.
    public func add(_ device: BacklightDevice, level: Int) {
        listed.append(device)
        levels[device.name] = level
    }

    /// Unplugs the device called `name`.
    public func remove(_ name: String) {
        listed.removeAll { $0.name == name }
        levels[name] = nil
    }

    public func devices() throws(BacklightError) -> [BacklightDevice] { listed }

    public func brightness(of device: String) throws(BacklightError) -> Int {
        guard let level = levels[device] else { throw Self.missing(device, "actual_brightness", operation: "open") }
        return level
    }

    public func setBrightness(_ level: Int, of device: String) throws(BacklightError) {
        if let failure { throw failure }
        guard let found = listed.first(where: { $0.name == device }) else {
            throw Self.missing(device, "brightness", operation: "open")
        }
        // As the kernel's brightness_store: a level above the maximum is refused.
        guard (0...found.maxBrightness).contains(level) else {
            throw BacklightError(operation: "write", path: Self.path(device, "brightness"), errno: EINVAL)
        }
        levels[device] = level
        writes.append("\(device) \(level)")
    }

    private static func missing(_ device: String, _ attribute: String, operation: String) -> BacklightError {
        BacklightError(operation: operation, path: path(device, attribute), errno: ENOENT)
    }

    private static func path(_ device: String, _ attribute: String) -> String {
        "/sys/class/backlight/\(device)/\(attribute)"
    }
}
