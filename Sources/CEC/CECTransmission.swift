import CCEC

/// How a transmission ended (`CEC_TX_STATUS_*`); empty while it has not.
public struct CECTransmitStatus: OptionSet, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// `CEC_TX_STATUS_OK`: sent, and acknowledged (a broadcast is never acknowledged, only sent).
    public static let ok = CECTransmitStatus(rawValue: UInt8(CEC_TX_STATUS_OK))
    /// `CEC_TX_STATUS_ARB_LOST`: another device won the bus.
    public static let arbitrationLost = CECTransmitStatus(rawValue: UInt8(CEC_TX_STATUS_ARB_LOST))
    /// `CEC_TX_STATUS_NACK`: nobody acknowledged it: no device at the destination, or one that is off.
    public static let notAcknowledged = CECTransmitStatus(rawValue: UInt8(CEC_TX_STATUS_NACK))
    /// `CEC_TX_STATUS_LOW_DRIVE`: a device pulled the line low (an error on the bus).
    public static let lowDrive = CECTransmitStatus(rawValue: UInt8(CEC_TX_STATUS_LOW_DRIVE))
    /// `CEC_TX_STATUS_ERROR`.
    public static let error = CECTransmitStatus(rawValue: UInt8(CEC_TX_STATUS_ERROR))
    /// `CEC_TX_STATUS_MAX_RETRIES`: the kernel gave up after retrying.
    public static let maximumRetries = CECTransmitStatus(rawValue: UInt8(CEC_TX_STATUS_MAX_RETRIES))
    /// `CEC_TX_STATUS_ABORTED`: the adapter was unconfigured meanwhile (hotplug detect went low).
    public static let aborted = CECTransmitStatus(rawValue: UInt8(CEC_TX_STATUS_ABORTED))
    /// `CEC_TX_STATUS_TIMEOUT`: the adapter never finished it.
    public static let timeout = CECTransmitStatus(rawValue: UInt8(CEC_TX_STATUS_TIMEOUT))

    /// Sent (and, unless broadcast, acknowledged).
    public var isOK: Bool { contains(.ok) }

    /// `NACK, max retries`.
    public var description: String {
        let names: [(CECTransmitStatus, String)] = [
            (.ok, "OK"), (.arbitrationLost, "arbitration lost"), (.notAcknowledged, "NACK"), (.lowDrive, "low drive"),
            (.error, "error"), (.maximumRetries, "max retries"), (.aborted, "aborted"), (.timeout, "timeout"),
        ]
        let set = names.filter { contains($0.0) }.map(\.1)
        return set.isEmpty ? "pending" : set.joined(separator: ", ")
    }
}

/// A transmission the kernel took (`CEC_TRANSMIT`): its sequence number, by which its result is found
/// among what `CECDevice.receive()` returns, and its status when the descriptor is blocking.
public struct CECTransmission: Sendable, Equatable {
    public var sequence: UInt32
    /// Empty on a non-blocking descriptor: the result comes later through `receive()`.
    public var status: CECTransmitStatus
}

/// What `CEC_RECEIVE` gives: a message another device sent, or the result of one of ours.
public struct CECReceived: Sendable, Equatable {
    public var message: CECMessage?
    /// Non-zero for the result of a transmission of ours (its `CECTransmission.sequence`).
    public var sequence: UInt32
    public var transmitStatus: CECTransmitStatus
    /// `CEC_RX_STATUS_*` of a received message (0 for a transmission's result).
    public var receiveStatus: UInt8

    /// The result of a transmission of ours, not a message from the bus (`cec_msg_recv_is_tx_result`).
    public var isTransmitResult: Bool { sequence != 0 && !transmitStatus.isEmpty && receiveStatus == 0 }
}

/// An event of the adapter (`CEC_DQEVENT`).
public enum CECEvent: Sendable, Equatable {
    /// `CEC_EVENT_STATE_CHANGE`: the physical address or the logical addresses changed (hotplug detect,
    /// a claim finished). The first event of every descriptor is the state at open.
    case stateChange(physicalAddress: CECPhysicalAddress, logicalAddresses: [CECLogicalAddress])
    /// `CEC_EVENT_LOST_MSGS`: the descriptor's queue overflowed and this many messages were dropped.
    case lostMessages(Int)
    /// Another event (the pin events of `CEC_CAP_MONITOR_PIN`).
    case other(UInt32)
}
