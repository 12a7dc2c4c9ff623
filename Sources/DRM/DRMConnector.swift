import CDRM

/// What a connector looked like when it was read (`drmModeGetConnector`): name, state, modes, size, and
/// the CRTCs it can be driven by.
public struct DRMConnector: Sendable, Identifiable {
    public enum Status: String, Sendable {
        case connected, disconnected, unknown
    }

    public let id: DRMConnectorID
    /// `DRM_MODE_CONNECTOR_*`.
    public let type: UInt32
    /// The number after the type in the name; the kernel counts it per type across all cards.
    public let typeIndex: UInt32
    public let status: Status
    public let modes: [DRMModeInfo]
    public let physicalWidthMillimeters: Int
    public let physicalHeightMillimeters: Int
    /// The encoder driving it now, if any.
    public let encoderID: DRMEncoderID?
    /// The CRTCs that can drive it (`drmModeConnectorGetPossibleCrtcs`).
    public let possibleCRTCs: [DRMCRTCID]
    public let properties: [DRMProperty]

    /// The kernel's name, as in `/sys/class/drm/card0-HDMI-A-1`: `HDMI-A-1`, `eDP-1`, `Virtual-2`.
    public var name: String { "\(Self.typeName(type))-\(typeIndex)" }

    /// `HDMI-A` for `DRM_MODE_CONNECTOR_HDMIA` (`drmModeGetConnectorTypeName`), `Unknown<n>` for a type
    /// this libdrm does not know.
    public static func typeName(_ type: UInt32) -> String {
        drmModeGetConnectorTypeName(type).map { String(cString: $0) } ?? "Unknown\(type)"
    }

    public func property(named name: String) -> DRMProperty? { properties.first { $0.name == name } }

    /// The index in `modes` of the mode the display prefers (`DRM_MODE_TYPE_PREFERRED`), if it names one.
    public var preferredModeIndex: Int? { modes.firstIndex { $0.isPreferred } }

    /// The `link-status` property is `Bad`: the kernel asks for a new modeset (a DisplayPort link that
    /// failed training).
    public var isLinkStatusBad: Bool { property(named: "link-status")?.enumName == "Bad" }

    /// The `panel orientation` property's value name (`Normal`, `Upside Down`, `Left Side Up`,
    /// `Right Side Up`), when the kernel sets one for a built-in panel.
    public var panelOrientation: String? { property(named: "panel orientation")?.enumName }

    /// The connector's types that are a panel built into the device (eDP, DSI, LVDS, DPI).
    public var isBuiltInPanel: Bool {
        ["eDP", "DSI", "LVDS", "DPI"].contains(Self.typeName(type))
    }

    public init(
        id: DRMConnectorID, type: UInt32, typeIndex: UInt32, status: Status, modes: [DRMModeInfo],
        physicalWidthMillimeters: Int, physicalHeightMillimeters: Int, encoderID: DRMEncoderID?,
        possibleCRTCs: [DRMCRTCID], properties: [DRMProperty]
    ) {
        self.id = id
        self.type = type
        self.typeIndex = typeIndex
        self.status = status
        self.modes = modes
        self.physicalWidthMillimeters = physicalWidthMillimeters
        self.physicalHeightMillimeters = physicalHeightMillimeters
        self.encoderID = encoderID
        self.possibleCRTCs = possibleCRTCs
        self.properties = properties
    }
}

/// A KMS property of an object and its current value (`drmModeObjectGetProperties` + `drmModeGetProperty`).
public struct DRMProperty: Sendable {
    public enum Kind: Sendable {
        case range
        case enumeration([(name: String, value: UInt64)])
        /// A set of named bits (`DRM_MODE_PROP_BITMASK`: a plane's `rotation`); each case's bit number.
        case bitmask([(name: String, bit: UInt64)])
        case blob
        case object
        case other
    }

    public let id: DRMPropertyID
    public let name: String
    public let value: UInt64
    public let kind: Kind

    public init(id: DRMPropertyID, name: String, value: UInt64, kind: Kind) {
        self.id = id
        self.name = name
        self.value = value
        self.kind = kind
    }

    /// For an enum property, the name of its current value (`"Bad"` for `link-status`).
    public var enumName: String? {
        guard case .enumeration(let cases) = kind else { return nil }
        return cases.first { $0.value == value }?.name
    }
}

/// A CRTC's state (`drmModeGetCrtc`): what it scans out now, kept to restore it on exit.
public struct DRMCRTCState: Sendable {
    public let id: DRMCRTCID
    public let framebuffer: DRMFramebufferID?
    public let x: UInt32
    public let y: UInt32
    public let mode: DRMModeInfo?

    public init(id: DRMCRTCID, framebuffer: DRMFramebufferID?, x: UInt32 = 0, y: UInt32 = 0, mode: DRMModeInfo?) {
        self.id = id
        self.framebuffer = framebuffer
        self.x = x
        self.y = y
        self.mode = mode
    }
}

/// A plane (`drmModeGetPlane`): its type, the CRTCs it can be on, the pixel formats it scans out.
public struct DRMPlane: Sendable {
    /// The `type` property (`DRM_PLANE_TYPE_*`).
    public enum Kind: String, Sendable {
        case overlay, primary, cursor
    }

    public let id: DRMPlaneID
    public let possibleCRTCs: [DRMCRTCID]
    public let currentCRTC: DRMCRTCID?
    public let kind: Kind
    /// The fourcc codes of the formats it scans out (`DRM_FORMAT_*`, drm_fourcc.h).
    public let formats: [UInt32]
    public let properties: [DRMProperty]

    public var isPrimary: Bool { kind == .primary }

    public func property(named name: String) -> DRMProperty? { properties.first { $0.name == name } }

    /// Its `zpos` (the kernel's stacking of the CRTC's planes, higher in front), when the driver has one.
    public var zpos: UInt64? { property(named: "zpos")?.value }

    public init(
        id: DRMPlaneID, possibleCRTCs: [DRMCRTCID], currentCRTC: DRMCRTCID?, kind: Kind, formats: [UInt32],
        properties: [DRMProperty]
    ) {
        self.id = id
        self.possibleCRTCs = possibleCRTCs
        self.currentCRTC = currentCRTC
        self.kind = kind
        self.formats = formats
        self.properties = properties
    }
}

/// The two formats the kiosk draws (drm_fourcc.h; little-endian words, as `shim.h` asserts).
public enum DRMFormat {
    /// `DRM_FORMAT_XRGB8888`: opaque.
    public static let xrgb8888 = kiosk_drm_format_xrgb8888()
    /// `DRM_FORMAT_ARGB8888`: with alpha, premultiplied under the plane's default `pixel blend mode`.
    public static let argb8888 = kiosk_drm_format_argb8888()
}
