import CDRM
import Glibc

/// An open DRM card (`/dev/dri/cardN`) and the KMS calls on it. The file descriptor usually comes from
/// libseat, which opens the device for us and makes us DRM master.
///
/// Not `Sendable`: one owner (the main actor) makes every call.
public final class DRMDevice {
    public let fileDescriptor: Int32
    public let path: String
    private let ownsDescriptor: Bool
    /// Set while `handleEvents` runs, for the C callback to reach.
    fileprivate var pageFlipHandler: ((DRMPageFlipEvent) -> Void)?

    /// Wraps an fd opened elsewhere (by libseat); `closesDescriptor` says whether deinit closes it.
    public init(fileDescriptor: Int32, path: String, closesDescriptor: Bool = false) {
        self.fileDescriptor = fileDescriptor
        self.path = path
        ownsDescriptor = closesDescriptor
    }

    /// Opens `path` read-write directly (for listing tools that run as a user with access; the kiosk
    /// opens cards through libseat). Calls `open(2)` with `O_RDWR | O_CLOEXEC`.
    public static func open(path: String) throws(DRMError) -> DRMDevice {
        let fd = Glibc.open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw DRMError(operation: "open", errno: Glibc.errno, detail: path) }
        return DRMDevice(fileDescriptor: fd, path: path, closesDescriptor: true)
    }

    deinit {
        if ownsDescriptor { close(fileDescriptor) }
    }

    // MARK: Capabilities

    /// Whether the device does modesetting (a card node, not a render-only node). Calls `drmIsKMS`.
    public var isKMS: Bool { drmIsKMS(fileDescriptor) != 0 }

    /// The kernel driver's name (`virtio_gpu`, `i915`, `vc4`). Calls `drmGetVersion`.
    public var driverName: String? {
        guard let version = drmGetVersion(fileDescriptor) else { return nil }
        defer { drmFreeVersion(version) }
        return version.pointee.name.map { String(cString: $0) }
    }

    /// Whether the driver can allocate dumb buffers (`drmGetCap(DRM_CAP_DUMB_BUFFER)`).
    public var supportsDumbBuffers: Bool {
        var value: UInt64 = 0
        return drmGetCap(fileDescriptor, kiosk_drm_cap_dumb_buffer(), &value) == 0 && value != 0
    }

    /// Whether the driver asks for frames to be drawn in a shadow buffer in RAM and copied into dumb
    /// buffers, because reading its dumb buffers is slow (VRAM behind a PCI bar: bochs, cirrus, ast,
    /// mgag200): `drmGetCap(DRM_CAP_DUMB_PREFER_SHADOW)`. A driver that cannot say is taken to prefer one,
    /// as X's modesetting driver does.
    public var prefersShadowBuffer: Bool {
        var value: UInt64 = 0
        return drmGetCap(fileDescriptor, kiosk_drm_cap_dumb_prefer_shadow(), &value) != 0 || value != 0
    }

    /// The size a cursor plane's buffer must have (`drmGetCap(DRM_CAP_CURSOR_WIDTH)` and `_HEIGHT`); 64x64,
    /// the kernel's default, when the driver does not say.
    public var cursorSize: (width: Int, height: Int) {
        var width: UInt64 = 0, height: UInt64 = 0
        let known =
            drmGetCap(fileDescriptor, kiosk_drm_cap_cursor_width(), &width) == 0
            && drmGetCap(fileDescriptor, kiosk_drm_cap_cursor_height(), &height) == 0 && width > 0 && height > 0
        return known ? (Int(width), Int(height)) : (64, 64)
    }

    /// Asks for universal planes and atomic modesetting; false when the driver has no atomic support.
    /// Calls `drmSetClientCap(DRM_CLIENT_CAP_UNIVERSAL_PLANES)` and `(DRM_CLIENT_CAP_ATOMIC)`.
    public func enableAtomic() -> Bool {
        guard drmSetClientCap(fileDescriptor, kiosk_drm_client_cap_universal_planes(), 1) == 0 else { return false }
        return drmSetClientCap(fileDescriptor, kiosk_drm_client_cap_atomic(), 1) == 0
    }

    // MARK: Master

    /// Calls `drmSetMaster`.
    public func becomeMaster() throws(DRMError) { try drmCheck(drmSetMaster(fileDescriptor), "drmSetMaster", path) }

    /// Calls `drmDropMaster`.
    public func dropMaster() throws(DRMError) { try drmCheck(drmDropMaster(fileDescriptor), "drmDropMaster", path) }

    // MARK: Reading the KMS state

    /// The card's CRTC and connector IDs in the kernel's order. Calls `drmModeGetResources`.
    public func resources() throws(DRMError) -> (crtcs: [DRMCRTCID], connectors: [DRMConnectorID]) {
        let resources = try drmRequire(drmModeGetResources(fileDescriptor), "drmModeGetResources", path)
        defer { drmModeFreeResources(resources) }
        let res = resources.pointee
        let crtcs = (0..<Int(res.count_crtcs)).map { DRMCRTCID(rawValue: res.crtcs[$0]) }
        let connectors = (0..<Int(res.count_connectors)).map { DRMConnectorID(rawValue: res.connectors[$0]) }
        return (crtcs, connectors)
    }

    /// Reads a connector, probing it (`drmModeGetConnector`: the kernel asks the display again, which is
    /// what makes a hotplug visible; sysfs `status` stays stale until someone does this).
    /// `crtcs` is the card's CRTC list in the kernel's order (from `resources()`), which the possible-CRTC
    /// bitmask indexes; pass it when reading several connectors, nil reads it again.
    public func connector(_ id: DRMConnectorID, crtcs: [DRMCRTCID]? = nil) throws(DRMError) -> DRMConnector {
        let pointer = try drmRequire(drmModeGetConnector(fileDescriptor, id.rawValue), "drmModeGetConnector", "\(id)")
        defer { drmModeFreeConnector(pointer) }
        let c = pointer.pointee
        let status: DRMConnector.Status
        switch c.connection {
        case DRM_MODE_CONNECTED: status = .connected
        case DRM_MODE_DISCONNECTED: status = .disconnected
        default: status = .unknown
        }
        let modes = (0..<Int(c.count_modes)).map { DRMModeInfo(c.modes[$0]) }
        let crtcMask = drmModeConnectorGetPossibleCrtcs(fileDescriptor, pointer)
        let allCRTCs = crtcs ?? (try? resources().crtcs) ?? []
        let possible = allCRTCs.enumerated().filter { crtcMask & (1 << UInt32($0.offset)) != 0 }.map(\.element)
        return DRMConnector(
            id: id, type: c.connector_type, typeIndex: c.connector_type_id, status: status, modes: modes,
            physicalWidthMillimeters: Int(c.mmWidth), physicalHeightMillimeters: Int(c.mmHeight),
            encoderID: c.encoder_id == 0 ? nil : DRMEncoderID(rawValue: c.encoder_id),
            possibleCRTCs: possible,
            properties: (try? properties(ofObject: id.rawValue, type: kiosk_drm_object_connector())) ?? [])
    }

    /// The CRTC an encoder drives now (`drmModeGetEncoder`).
    public func crtc(ofEncoder id: DRMEncoderID) -> DRMCRTCID? {
        guard let encoder = drmModeGetEncoder(fileDescriptor, id.rawValue) else { return nil }
        defer { drmModeFreeEncoder(encoder) }
        return encoder.pointee.crtc_id == 0 ? nil : DRMCRTCID(rawValue: encoder.pointee.crtc_id)
    }

    /// A CRTC's current state. Calls `drmModeGetCrtc`.
    public func crtcState(_ id: DRMCRTCID) throws(DRMError) -> DRMCRTCState {
        let pointer = try drmRequire(drmModeGetCrtc(fileDescriptor, id.rawValue), "drmModeGetCrtc", "\(id)")
        defer { drmModeFreeCrtc(pointer) }
        let c = pointer.pointee
        return DRMCRTCState(
            id: id, framebuffer: c.buffer_id == 0 ? nil : DRMFramebufferID(rawValue: c.buffer_id),
            x: c.x, y: c.y, mode: c.mode_valid != 0 ? DRMModeInfo(c.mode) : nil)
    }

    /// The planes (needs `enableAtomic()` or universal planes to list primary planes). Calls
    /// `drmModeGetPlaneResources` and `drmModeGetPlane`.
    public func planes() throws(DRMError) -> [DRMPlane] {
        let resources = try drmRequire(drmModeGetPlaneResources(fileDescriptor), "drmModeGetPlaneResources", path)
        defer { drmModeFreePlaneResources(resources) }
        let crtcs = try self.resources().crtcs
        var planes: [DRMPlane] = []
        for index in 0..<Int(resources.pointee.count_planes) {
            let id = resources.pointee.planes[index]
            guard let plane = drmModeGetPlane(fileDescriptor, id) else { continue }
            defer { drmModeFreePlane(plane) }
            let mask = plane.pointee.possible_crtcs
            let properties = (try? self.properties(ofObject: id, type: kiosk_drm_object_plane())) ?? []
            let type = properties.first { $0.name == "type" }?.value
            planes.append(
                DRMPlane(
                    id: DRMPlaneID(rawValue: id),
                    possibleCRTCs: crtcs.enumerated().filter { mask & (1 << UInt32($0.offset)) != 0 }.map(\.element),
                    currentCRTC: plane.pointee.crtc_id == 0 ? nil : DRMCRTCID(rawValue: plane.pointee.crtc_id),
                    kind: type == UInt64(kiosk_drm_plane_type_primary())
                        ? .primary : type == UInt64(kiosk_drm_plane_type_cursor()) ? .cursor : .overlay,
                    formats: Array(UnsafeBufferPointer(start: plane.pointee.formats, count: Int(plane.pointee.count_formats))),
                    properties: properties))
        }
        return planes
    }

    /// The properties of a CRTC, for atomic commits.
    public func crtcProperties(_ id: DRMCRTCID) throws(DRMError) -> [DRMProperty] {
        try properties(ofObject: id.rawValue, type: kiosk_drm_object_crtc())
    }

    /// Calls `drmModeObjectGetProperties` and `drmModeGetProperty`.
    func properties(ofObject id: UInt32, type: UInt32) throws(DRMError) -> [DRMProperty] {
        let list = try drmRequire(drmModeObjectGetProperties(fileDescriptor, id, type), "drmModeObjectGetProperties", "object \(id)")
        defer { drmModeFreeObjectProperties(list) }
        var result: [DRMProperty] = []
        for index in 0..<Int(list.pointee.count_props) {
            guard let property = drmModeGetProperty(fileDescriptor, list.pointee.props[index]) else { continue }
            defer { drmModeFreeProperty(property) }
            let p = property.pointee
            var nameBytes = p.name
            let name = withUnsafeBytes(of: &nameBytes) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            let kind: DRMProperty.Kind
            let cases = (0..<Int(p.count_enums)).map { i in
                var e = p.enums[i]
                let caseName = withUnsafeBytes(of: &e.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                return (caseName, e.value)
            }
            if p.flags & kiosk_drm_prop_enum() != 0 {
                kind = .enumeration(cases)
            } else if p.flags & kiosk_drm_prop_bitmask() != 0 {
                kind = .bitmask(cases)
            } else if p.flags & kiosk_drm_prop_blob() != 0 {
                kind = .blob
            } else if p.flags & kiosk_drm_prop_range() != 0 {
                kind = .range
            } else if p.flags & kiosk_drm_prop_object() != 0 {
                kind = .object
            } else {
                kind = .other
            }
            result.append(
                DRMProperty(id: DRMPropertyID(rawValue: p.prop_id), name: name, value: list.pointee.prop_values[index], kind: kind))
        }
        return result
    }

    /// A property blob's bytes (an EDID, a mode). Calls `drmModeGetPropertyBlob`.
    public func blob(_ id: DRMBlobID) throws(DRMError) -> [UInt8] {
        let blob = try drmRequire(drmModeGetPropertyBlob(fileDescriptor, id.rawValue), "drmModeGetPropertyBlob", "blob \(id.rawValue)")
        defer { drmModeFreePropertyBlob(blob) }
        guard let data = blob.pointee.data else { return [] }
        return Array(UnsafeRawBufferPointer(start: data, count: Int(blob.pointee.length)))
    }

    /// The connector's EDID, parsed, when it has one.
    public func edid(of connector: DRMConnector) -> EDID? {
        guard let property = connector.property(named: "EDID"), property.value != 0,
            let bytes = try? blob(DRMBlobID(rawValue: UInt32(truncatingIfNeeded: property.value)))
        else { return nil }
        return EDID(bytes: bytes)
    }

    // MARK: Events

    /// The vblank counter of `crtc` and the time of its latest vblank (CLOCK_MONOTONIC seconds). Fails on
    /// a driver without vblank interrupts (virtio-gpu, bochs, simpledrm: EOPNOTSUPP, EINVAL on older
    /// kernels), whose page flips complete at once with the time of completion, and on a CRTC that is off.
    /// Calls `drmCrtcGetSequence`.
    public func vblank(of crtc: DRMCRTCID) throws(DRMError) -> (sequence: UInt64, timestamp: Double) {
        var sequence: UInt64 = 0
        var nanoseconds: UInt64 = 0
        try drmCheck(drmCrtcGetSequence(fileDescriptor, crtc.rawValue, &sequence, &nanoseconds), "drmCrtcGetSequence", "\(crtc)")
        return (sequence, Double(nanoseconds) / 1_000_000_000)
    }

    /// Reads the events waiting on the fd and calls `pageFlip` for each completed flip. Call it when the fd
    /// is readable. Calls `drmHandleEvent` with a `page_flip_handler2` (which reports the CRTC).
    public func handleEvents(pageFlip: (DRMPageFlipEvent) -> Void) throws(DRMError) {
        var context = drmEventContext()
        context.version = Int32(kiosk_drm_event_context_version())
        context.page_flip_handler2 = { _, sequence, seconds, microseconds, crtc, userData in
            guard let userData else { return }
            let device = Unmanaged<DRMDevice>.fromOpaque(userData).takeUnretainedValue()
            device.pageFlipHandler?(
                DRMPageFlipEvent(
                    crtc: DRMCRTCID(rawValue: crtc), sequence: sequence,
                    timestamp: Double(seconds) + Double(microseconds) / 1_000_000))
        }
        try withoutActuallyEscaping(pageFlip) { (handler) throws(DRMError) in
            pageFlipHandler = handler
            defer { pageFlipHandler = nil }
            try drmCheck(drmHandleEvent(fileDescriptor, &context), "drmHandleEvent", path)
        }
    }

    /// What flip events carry back to `handleEvents`: this device.
    var eventUserData: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }
}

/// A page flip completed (the new buffer is on screen from this vblank).
public struct DRMPageFlipEvent: Sendable {
    public let crtc: DRMCRTCID
    public let sequence: UInt32
    /// CLOCK_MONOTONIC seconds of the vblank.
    public let timestamp: Double

    public init(crtc: DRMCRTCID, sequence: UInt32, timestamp: Double) {
        self.crtc = crtc
        self.sequence = sequence
        self.timestamp = timestamp
    }
}
