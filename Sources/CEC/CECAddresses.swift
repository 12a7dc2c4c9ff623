/// A logical address on a CEC bus, 0 to 15: what a device answers to and sends as. Each kind of device
/// has its own addresses (HDMI-CEC 1.4 table 5); 15 is "unregistered" as an initiator and "broadcast" as a
/// destination.
public struct CECLogicalAddress: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    public let rawValue: UInt8

    /// nil above 15 (`CEC_LOG_ADDR_INVALID`, 0xff, is how the kernel writes "none").
    public init?(rawValue: UInt8) {
        guard rawValue <= 15 else { return nil }
        self.rawValue = rawValue
    }

    private init(_ value: UInt8) { rawValue = value }

    public static let tv = CECLogicalAddress(0)
    public static let recordingDevice1 = CECLogicalAddress(1)
    public static let recordingDevice2 = CECLogicalAddress(2)
    public static let tuner1 = CECLogicalAddress(3)
    public static let playbackDevice1 = CECLogicalAddress(4)
    public static let audioSystem = CECLogicalAddress(5)
    public static let tuner2 = CECLogicalAddress(6)
    public static let tuner3 = CECLogicalAddress(7)
    public static let playbackDevice2 = CECLogicalAddress(8)
    public static let recordingDevice3 = CECLogicalAddress(9)
    public static let tuner4 = CECLogicalAddress(10)
    public static let playbackDevice3 = CECLogicalAddress(11)
    public static let backup1 = CECLogicalAddress(12)
    public static let backup2 = CECLogicalAddress(13)
    public static let specific = CECLogicalAddress(14)
    /// As an initiator: a device without an address of its own (it may still wake a TV).
    public static let unregistered = CECLogicalAddress(15)
    /// As a destination: every device.
    public static let broadcast = CECLogicalAddress(15)

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `TV (0)`, `Playback Device 1 (4)`, `Unregistered/Broadcast (15)`.
    public var description: String {
        let names = [
            "TV", "Recording Device 1", "Recording Device 2", "Tuner 1", "Playback Device 1", "Audio System", "Tuner 2",
            "Tuner 3", "Playback Device 2", "Recording Device 3", "Tuner 4", "Playback Device 3", "Backup 1", "Backup 2",
            "Specific", "Unregistered/Broadcast",
        ]
        return "\(names[Int(rawValue)]) (\(rawValue))"
    }
}

/// Where a device sits in the HDMI tree: four nibbles `a.b.c.d`, the TV being `0.0.0.0` and the device on
/// its HDMI input 1 `1.0.0.0` (HDMI 1.4 §8.7). The source reads it from the EDID of the display it is
/// plugged into, so a source whose hotplug detect is low (no display, or a TV that dropped it in standby)
/// has none: `f.f.f.f`.
public struct CECPhysicalAddress: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// `CEC_PHYS_ADDR_INVALID`: not known.
    public static let invalid = CECPhysicalAddress(rawValue: 0xffff)

    public var isValid: Bool { self != .invalid }

    /// `1.0.0.0` (`a.b.c.d`, hexadecimal nibbles); nil for anything else.
    public init?(spelling: String) {
        let parts = spelling.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var value: UInt16 = 0
        for part in parts {
            guard part.count == 1, let nibble = UInt16(part, radix: 16) else { return nil }
            value = value << 4 | nibble
        }
        rawValue = value
    }

    /// `1.0.0.0`; `f.f.f.f` when invalid, as cec-ctl writes it.
    public var description: String {
        [12, 8, 4, 0].map { String((rawValue >> $0) & 0xf, radix: 16) }.joined(separator: ".")
    }

    /// The two bytes messages carry it in (high byte first).
    public var bytes: [UInt8] { [UInt8(rawValue >> 8), UInt8(rawValue & 0xff)] }
}
