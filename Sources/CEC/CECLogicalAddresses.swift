import CCEC

/// The kind of device an adapter claims to be, which decides the logical addresses it may take (a
/// playback device 4, 8 or 11; a tuner 3, 6, 7 or 10) and how TVs list it.
public enum CECDeviceType: String, CaseIterable, Sendable {
    case tv, recordingDevice, tuner, playbackDevice, audioSystem, specific, unregistered

    /// `CEC_LOG_ADDR_TYPE_*`: what `CEC_ADAP_S_LOG_ADDRS` claims.
    var logicalAddressType: UInt8 {
        switch self {
        case .tv: UInt8(CEC_LOG_ADDR_TYPE_TV)
        case .recordingDevice: UInt8(CEC_LOG_ADDR_TYPE_RECORD)
        case .tuner: UInt8(CEC_LOG_ADDR_TYPE_TUNER)
        case .playbackDevice: UInt8(CEC_LOG_ADDR_TYPE_PLAYBACK)
        case .audioSystem: UInt8(CEC_LOG_ADDR_TYPE_AUDIOSYSTEM)
        case .specific: UInt8(CEC_LOG_ADDR_TYPE_SPECIFIC)
        case .unregistered: UInt8(CEC_LOG_ADDR_TYPE_UNREGISTERED)
        }
    }

    /// `CEC_OP_PRIM_DEVTYPE_*`: what `<Report Physical Address>` tells the other devices.
    var primaryDeviceType: UInt8 {
        switch self {
        case .tv: UInt8(CEC_OP_PRIM_DEVTYPE_TV)
        case .recordingDevice: UInt8(CEC_OP_PRIM_DEVTYPE_RECORD)
        case .tuner: UInt8(CEC_OP_PRIM_DEVTYPE_TUNER)
        case .playbackDevice, .unregistered: UInt8(CEC_OP_PRIM_DEVTYPE_PLAYBACK)
        case .audioSystem: UInt8(CEC_OP_PRIM_DEVTYPE_AUDIOSYSTEM)
        case .specific: UInt8(CEC_OP_PRIM_DEVTYPE_PROCESSOR)
        }
    }

    init?(logicalAddressType: UInt8) {
        guard let type = Self.allCases.first(where: { $0.logicalAddressType == logicalAddressType }) else { return nil }
        self = type
    }
}

/// The CEC version an adapter says it implements (`CEC_OP_CEC_VERSION_*`).
public enum CECVersion: UInt8, Sendable {
    /// HDMI-CEC 1.3a.
    case hdmi13a = 4
    /// HDMI-CEC 1.4: what the kiosk claims with (2.0's features fields mean nothing for three messages).
    case hdmi14 = 5
    /// HDMI-CEC 2.0.
    case hdmi20 = 6
}

/// What an adapter has claimed (`CEC_ADAP_G_LOG_ADDRS`): the logical addresses it holds and what it was
/// asked to claim. The kernel keeps both after the descriptor that set them is closed, until someone sets
/// others: an adapter claimed by an earlier run (or by `cec-ctl`) is still claimed.
public struct CECLogicalAddressState: Sendable, Equatable {
    /// The addresses it holds now; empty while it claims none (nothing asked, no physical address yet, or
    /// still claiming).
    public var addresses: [CECLogicalAddress]
    /// The kinds of device it was asked to be, one per address; empty when it was never configured.
    public var requested: [CECDeviceType]
    /// The name it gives TVs (`<Set OSD Name>`).
    public var osdName: String
    public var version: CECVersion?

    public init(addresses: [CECLogicalAddress], requested: [CECDeviceType], osdName: String = "", version: CECVersion? = nil) {
        self.addresses = addresses
        self.requested = requested
        self.osdName = osdName
        self.version = version
    }

    /// Whether anyone configured it (it may still be waiting for a physical address to claim with).
    public var isConfigured: Bool { !requested.isEmpty }
}

/// A request for one logical address (`CEC_ADAP_S_LOG_ADDRS`): the kind of device and the name TVs show.
public struct CECLogicalAddressRequest: Sendable, Equatable {
    public var deviceType: CECDeviceType
    /// At most 14 ASCII characters (longer is cut).
    public var osdName: String
    public var version: CECVersion
    /// The IEEE OUI TVs see in `<Device Vendor ID>`; nil: none (`CEC_VENDOR_ID_NONE`).
    public var vendorID: UInt32?
    /// When every address of the kind is taken, take `unregistered` (15) instead of failing
    /// (`CEC_LOG_ADDRS_FL_ALLOW_UNREG_FALLBACK`).
    public var fallsBackToUnregistered: Bool

    public init(
        deviceType: CECDeviceType, osdName: String, version: CECVersion = .hdmi14, vendorID: UInt32? = nil,
        fallsBackToUnregistered: Bool = true
    ) {
        self.deviceType = deviceType
        self.osdName = osdName
        self.version = version
        self.vendorID = vendorID
        self.fallsBackToUnregistered = fallsBackToUnregistered
    }

    /// The kernel's structure for it.
    var raw: cec_log_addrs {
        var raw = cec_log_addrs()
        raw.cec_version = version.rawValue
        raw.num_log_addrs = 1
        raw.vendor_id = vendorID ?? UInt32(CEC_VENDOR_ID_NONE)
        raw.flags = fallsBackToUnregistered ? UInt32(CEC_LOG_ADDRS_FL_ALLOW_UNREG_FALLBACK) : 0
        withUnsafeMutableBytes(of: &raw.osd_name) { buffer in
            // NUL-terminated within 15 bytes: 14 characters at most.
            for (index, byte) in osdName.utf8.prefix(buffer.count - 1).enumerated() { buffer[index] = byte }
        }
        raw.primary_device_type.0 = deviceType.primaryDeviceType
        raw.log_addr_type.0 = deviceType.logicalAddressType
        // CEC 2.0's fields: the one device type this address stands for; no features (all zero is valid).
        raw.all_device_types.0 = Self.allDeviceTypes(deviceType)
        return raw
    }

    /// `CEC_OP_ALL_DEVTYPE_*`, which only CEC 2.0 reads.
    private static func allDeviceTypes(_ type: CECDeviceType) -> UInt8 {
        switch type {
        case .tv: UInt8(CEC_OP_ALL_DEVTYPE_TV)
        case .recordingDevice: UInt8(CEC_OP_ALL_DEVTYPE_RECORD)
        case .tuner: UInt8(CEC_OP_ALL_DEVTYPE_TUNER)
        case .playbackDevice, .unregistered, .specific: UInt8(CEC_OP_ALL_DEVTYPE_PLAYBACK)
        case .audioSystem: UInt8(CEC_OP_ALL_DEVTYPE_AUDIOSYSTEM)
        }
    }
}

extension CECLogicalAddressState {
    init(_ raw: cec_log_addrs) {
        let count = Int(min(raw.num_log_addrs, UInt8(CEC_MAX_LOG_ADDRS)))
        let claimed = withUnsafeBytes(of: raw.log_addr) { Array($0.prefix(count)) }
        let types = withUnsafeBytes(of: raw.log_addr_type) { Array($0.prefix(count)) }
        var name = raw.osd_name
        let osdName = withUnsafeBytes(of: &name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        self.init(
            addresses: claimed.compactMap(CECLogicalAddress.init(rawValue:)),
            requested: types.compactMap(CECDeviceType.init(logicalAddressType:)), osdName: osdName,
            version: CECVersion(rawValue: raw.cec_version))
    }
}
