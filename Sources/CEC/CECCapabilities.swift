import CCEC

/// What an adapter is and can do (`CEC_ADAP_G_CAPS`).
public struct CECCapabilities: Sendable, Equatable {
    /// The kernel driver (`vivid`, `vc4_hdmi`, `dw_hdmi`, `pulse8-cec`).
    public var driver: String
    /// The adapter's name; unique together with `driver` (`vivid-000-vid-out0`, `fef00700.hdmi`).
    public var name: String
    /// How many logical addresses it can claim at once.
    public var availableLogicalAddresses: Int
    public var flags: Flags
    /// The kernel's CEC framework version, `major.minor.patch`.
    public var version: String

    public init(driver: String, name: String, availableLogicalAddresses: Int, flags: Flags, version: String) {
        self.driver = driver
        self.name = name
        self.availableLogicalAddresses = availableLogicalAddresses
        self.flags = flags
        self.version = version
    }

    /// The `CEC_CAP_*` bits.
    public struct Flags: OptionSet, Sendable, Hashable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// `CEC_CAP_PHYS_ADDR`: userspace sets the physical address (else the HDMI driver does, from the EDID).
        public static let physicalAddress = Flags(rawValue: UInt32(CEC_CAP_PHYS_ADDR))
        /// `CEC_CAP_LOG_ADDRS`: userspace claims the logical addresses (else the driver or firmware does).
        public static let logicalAddresses = Flags(rawValue: UInt32(CEC_CAP_LOG_ADDRS))
        /// `CEC_CAP_TRANSMIT`: userspace may transmit.
        public static let transmit = Flags(rawValue: UInt32(CEC_CAP_TRANSMIT))
        /// `CEC_CAP_PASSTHROUGH`: messages the framework would answer can be passed to userspace.
        public static let passthrough = Flags(rawValue: UInt32(CEC_CAP_PASSTHROUGH))
        /// `CEC_CAP_RC`: remote control keys become input events.
        public static let remoteControl = Flags(rawValue: UInt32(CEC_CAP_RC))
        /// `CEC_CAP_MONITOR_ALL`: can see every message on the bus.
        public static let monitorAll = Flags(rawValue: UInt32(CEC_CAP_MONITOR_ALL))
        /// `CEC_CAP_NEEDS_HPD`: works only while hotplug detect is high.
        public static let needsHotplugDetect = Flags(rawValue: UInt32(CEC_CAP_NEEDS_HPD))
        /// `CEC_CAP_MONITOR_PIN`: can monitor the CEC pin's level.
        public static let monitorPin = Flags(rawValue: UInt32(CEC_CAP_MONITOR_PIN))
        /// `CEC_CAP_CONNECTOR_INFO`: `CEC_ADAP_G_CONNECTOR_INFO` says which connector it belongs to.
        public static let connectorInfo = Flags(rawValue: UInt32(CEC_CAP_CONNECTOR_INFO))
    }
}

/// The connector an adapter belongs to (`CEC_ADAP_G_CONNECTOR_INFO`, kernel 5.5 and later): for an HDMI
/// output's own adapter, its DRM card and connector.
public enum CECConnector: Sendable, Hashable, CustomStringConvertible {
    /// Not tied to a connector (a USB adapter, an emulated one), or the connector is not known yet.
    case none
    /// The DRM connector: `card` is the N of `/dev/dri/cardN`, `connector` its KMS object id.
    case drm(card: UInt32, connector: UInt32)
    /// A connector type this code does not know.
    case other(type: UInt32)

    /// `card 0 connector 34`, `none`.
    public var description: String {
        switch self {
        case .none: "none"
        case let .drm(card, connector): "card \(card) connector \(connector)"
        case let .other(type): "connector type \(type)"
        }
    }
}
