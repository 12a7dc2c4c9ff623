/// A CEC opcode: what a message asks or says (HDMI-CEC 1.4 table 8; `CEC_MSG_*` in `linux/cec.h`).
public struct CECOpcode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// `CEC_MSG_FEATURE_ABORT`: the reply of a device that will not or cannot do what was asked.
    public static let featureAbort = CECOpcode(rawValue: 0x00)
    /// `CEC_MSG_IMAGE_VIEW_ON`: to the TV, which leaves standby and shows its active source.
    public static let imageViewOn = CECOpcode(rawValue: 0x04)
    /// `CEC_MSG_TEXT_VIEW_ON`: as Image View On, and the TV also closes its menus.
    public static let textViewOn = CECOpcode(rawValue: 0x0d)
    /// `CEC_MSG_STANDBY`: the destination (or every device, broadcast) goes to standby.
    public static let standby = CECOpcode(rawValue: 0x36)
    /// `CEC_MSG_GIVE_DEVICE_POWER_STATUS`.
    public static let giveDevicePowerStatus = CECOpcode(rawValue: 0x8f)
    /// `CEC_MSG_REPORT_POWER_STATUS`.
    public static let reportPowerStatus = CECOpcode(rawValue: 0x90)
    /// `CEC_MSG_ACTIVE_SOURCE`: broadcast with the sender's physical address; the TV switches to that input.
    public static let activeSource = CECOpcode(rawValue: 0x82)

    /// `Standby (0x36)`; unnamed opcodes as their number.
    public var description: String {
        let hex = "0x" + (rawValue < 0x10 ? "0" : "") + String(rawValue, radix: 16)
        let names: [UInt8: String] = [
            0x00: "Feature Abort", 0x04: "Image View On", 0x0d: "Text View On", 0x36: "Standby", 0x82: "Active Source",
            0x8f: "Give Device Power Status", 0x90: "Report Power Status",
        ]
        return names[rawValue].map { "\($0) (\(hex))" } ?? hex
    }
}

/// One CEC message: a header block naming the initiator and the destination, then an opcode and its
/// operands (HDMI-CEC 1.4 §6.1), at most 16 bytes in all (`CEC_MAX_MSG_SIZE`). A header alone is a poll.
public struct CECMessage: Hashable, Sendable, CustomStringConvertible {
    public var initiator: CECLogicalAddress
    public var destination: CECLogicalAddress
    /// nil: a poll message (the header block alone), which asks whether an address is taken.
    public var opcode: CECOpcode?
    /// At most 14 bytes.
    public var operands: [UInt8]

    /// The longest message the bus carries (`CEC_MAX_MSG_SIZE`).
    public static let maximumLength = 16

    /// Operands without an opcode, or more than 14 of them, are a programming error and trap.
    public init(initiator: CECLogicalAddress, destination: CECLogicalAddress, opcode: CECOpcode?, operands: [UInt8] = []) {
        precondition(opcode != nil || operands.isEmpty, "a CEC message with operands needs an opcode")
        precondition(operands.count <= Self.maximumLength - 2, "a CEC message carries at most 14 operand bytes")
        self.initiator = initiator
        self.destination = destination
        self.opcode = opcode
        self.operands = operands
    }

    /// The message as the bus carries it: header (initiator << 4 | destination), opcode, operands.
    public var bytes: [UInt8] {
        [initiator.rawValue << 4 | destination.rawValue] + (opcode.map { [$0.rawValue] } ?? []) + operands
    }

    /// The message of `bytes` as the bus carried it; nil for none or more than 16.
    public init?(bytes: [UInt8]) {
        guard let header = bytes.first, bytes.count <= Self.maximumLength,
            let initiator = CECLogicalAddress(rawValue: header >> 4), let destination = CECLogicalAddress(rawValue: header & 0xf)
        else { return nil }
        self.initiator = initiator
        self.destination = destination
        opcode = bytes.count > 1 ? CECOpcode(rawValue: bytes[1]) : nil
        operands = Array(bytes.dropFirst(2))
    }

    /// Whether every device gets it (destination 15).
    public var isBroadcast: Bool { destination == .broadcast }

    /// `Standby (0x36) from 4 to 0 [40:36]`.
    public var description: String {
        let hex = bytes.map { ($0 < 0x10 ? "0" : "") + String($0, radix: 16) }.joined(separator: ":")
        let to = isBroadcast ? "all" : String(destination.rawValue)
        return "\(opcode.map(\.description) ?? "Poll") from \(initiator.rawValue) to \(to) [\(hex)]"
    }

    // MARK: The messages a source sends to put a TV to sleep and wake it

    /// `<Standby>` (0x36) to `destination`: the TV (0, the default), or every device (broadcast), which
    /// also sends an audio system and the other sources to standby.
    public static func standby(from initiator: CECLogicalAddress, to destination: CECLogicalAddress = .tv) -> CECMessage {
        CECMessage(initiator: initiator, destination: destination, opcode: .standby)
    }

    /// `<Image View On>` (0x04) to the TV: it leaves standby. The kernel lets an adapter without a logical
    /// address send this one from `unregistered` (15), so a TV that dropped hotplug detect can be woken.
    public static func imageViewOn(from initiator: CECLogicalAddress) -> CECMessage {
        CECMessage(initiator: initiator, destination: .tv, opcode: .imageViewOn)
    }

    /// `<Active Source>` (0x82), broadcast with the sender's physical address: the TV switches to the
    /// input at that address. Sent after Image View On, as a source does at one-touch play.
    public static func activeSource(from initiator: CECLogicalAddress, physicalAddress: CECPhysicalAddress) -> CECMessage {
        CECMessage(initiator: initiator, destination: .broadcast, opcode: .activeSource, operands: physicalAddress.bytes)
    }
}
