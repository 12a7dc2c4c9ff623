/// One device of the kernel's backlight class: `/sys/class/backlight/NAME`, the panel's light whose
/// level (`brightness`, 0 to `max_brightness`) userspace sets.
public struct BacklightDevice: Sendable, Hashable {
    /// The kernel's `type`: how the level reaches the panel. The kernel's documentation
    /// (Documentation/ABI/stable/sysfs-class-backlight) asks userspace to prefer firmware over platform
    /// over raw, as systemd-backlight does: the three can be ways to the same light.
    public enum Kind: String, Sendable, CaseIterable {
        /// Through the firmware (ACPI's video extension: `acpi_video0`).
        case firmware
        /// Through a platform interface (a laptop's embedded controller: `thinkpad_screen`).
        case platform
        /// The hardware's own register or PWM, from the GPU's driver (`intel_backlight`, `amdgpu_bl0`) or a
        /// board's PWM (`backlight`). A type the kernel may add later is read as raw, the least preferred.
        case raw

        /// The kernel's order of preference: firmware 0, platform 1, raw 2.
        public var preference: Int {
            switch self {
            case .firmware: 0
            case .platform: 1
            case .raw: 2
            }
        }
    }

    /// The device a backlight belongs to, as its `device` link names it: a GPU driver registers a panel's
    /// backlight under the DRM connector's device (subsystem `drm`, name `card0-eDP-1`), ACPI under the
    /// graphics card's PCI device, a board's PWM backlight under its platform device.
    public struct Parent: Sendable, Hashable {
        /// `drm`, `pci`, `platform`; nil when the device has no subsystem link.
        public var subsystem: String?
        /// The device's name in sysfs (the last component of its path): `card0-eDP-1`, `0000:00:02.0`.
        public var name: String

        public init(subsystem: String?, name: String) {
            self.subsystem = subsystem
            self.name = name
        }
    }

    /// `intel_backlight`: the name in `/sys/class/backlight`.
    public var name: String
    public var type: Kind
    /// The highest level; the lowest is 0. A device whose maximum is 0 drives no light (systemd-backlight
    /// ignores those too).
    public var maxBrightness: Int
    /// nil: a device of its own (`/sys/devices/virtual/backlight`).
    public var parent: Parent?

    public init(name: String, type: Kind, maxBrightness: Int, parent: Parent? = nil) {
        self.name = name
        self.type = type
        self.maxBrightness = maxBrightness
        self.parent = parent
    }

    /// Whether `name` can be a device of the class: one path component (what a configuration may name).
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains("/") && !name.unicodeScalars.contains("\0")
    }
}
