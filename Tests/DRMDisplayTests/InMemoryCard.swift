import DRM
import Glibc

@testable import DRMDisplay

/// A KMS card in memory, the kernel's twin for `DRMDisplay`'s unit tests (`KMSCard`): connectors with
/// modes and properties, CRTCs, planes (primary, overlay, cursor, with formats), mode blobs and dumb
/// buffers on the heap. It keeps each object's property values as the kernel does, checks atomic commits
/// as the kernel's atomic ioctl does for what the kiosk asks (`InMemoryCard+Commits.swift`), records every
/// commit and legacy call, and can be told to refuse commits (`refuse(_:when:)`). Connectors are plugged
/// and unplugged between probes; the kernel keeps a CRTC on an unplugged connector until userspace changes it.
final class InMemoryCard: KMSCard {
    struct Connector {
        var id: DRMConnectorID
        /// `DRM_MODE_CONNECTOR_*`: 11 HDMI-A, 10 DisplayPort, 14 eDP.
        var type: UInt32
        var typeIndex: UInt32
        var connected: Bool
        var modes: [DRMModeInfo]
        var possibleCRTCs: [DRMCRTCID]
        var name: String { "\(DRMConnector.typeName(type))-\(typeIndex)" }
    }

    struct Plane {
        var id: DRMPlaneID
        var kind: DRMPlane.Kind
        var formats: [UInt32]
        var possibleCRTCs: [DRMCRTCID]
    }

    /// Every atomic commit, in order, and the refusals a test set (`InMemoryCard+Commits.swift`).
    var commits: [Commit] = []
    var refusals: [(reason: String, predicate: (Commit) -> Bool)] = []
    /// A legacy call (`SetCrtc`, `DPMS`, a page flip), as a line: what a test expects it to have done.
    private(set) var legacyCalls: [String] = []
    private(set) var connectors: [Connector] = []
    private(set) var crtcs: [DRMCRTCID] = []
    private(set) var planeList: [Plane] = []
    /// Every object's properties: their ids by name, and their values now (what commits changed).
    var propertyNames: [UInt32: [String]] = [:]
    var values: [UInt32: [String: UInt64]] = [:]
    /// The ids of the properties, one per name across objects, as the kernel's are per object type.
    private(set) var propertyIDs: [String: DRMPropertyID] = [:]
    /// Mode blobs alive, by id.
    var blobs: [UInt32: DRMModeInfo] = [:]
    /// Framebuffers alive (dumb buffers not released, and what something else showed at start) and their format.
    var framebuffers: [UInt32: UInt32] = [:]
    private var nextID: UInt32 = 500
    /// Flips completed and not yet read (`handleEvents`).
    var pendingFlips: [DRMCRTCID] = []

    /// Whether `enableAtomic()` succeeds (a driver with atomic modesetting).
    var supportsAtomic = true
    /// Whether the CRTCs have vblank interrupts (`vblank(of:)` answers while a CRTC is active).
    var hasVBlankInterrupts = true
    var driverName: String? { "in-memory" }
    var prefersShadowBuffer = false
    var cursorSize = (width: 64, height: 64)

    /// A card with `crtcs` and, for each, a primary plane (ids 101, 102, ...).
    init(crtcs ids: [UInt32]) {
        for (index, id) in ids.enumerated() {
            let crtc = DRMCRTCID(rawValue: id)
            crtcs.append(crtc)
            define(object: id, ["ACTIVE": 0, "MODE_ID": 0])
            addPlane(100 + UInt32(index) + 1, .primary, formats: [DRMFormat.xrgb8888, DRMFormat.argb8888], crtcs: [id])
        }
    }

    // MARK: Making the card

    /// Adds a connector that `crtcs` can drive, connected with `modes` when `connected`.
    func addConnector(_ id: UInt32, type: UInt32, index: UInt32, modes: [DRMModeInfo], crtcs: [UInt32], connected: Bool = true) {
        connectors.append(
            Connector(
                id: DRMConnectorID(rawValue: id), type: type, typeIndex: index, connected: connected, modes: modes,
                possibleCRTCs: crtcs.map(DRMCRTCID.init(rawValue:))))
        // DPMS 0 is on; link-status 0 is Good.
        define(object: id, ["CRTC_ID": 0, "DPMS": 0, "link-status": 0])
    }

    /// Adds a plane of `kind` on `crtcs`; `extra` are properties beyond the ones every plane has (`zpos`,
    /// `rotation`, `pixel blend mode`), with their values.
    func addPlane(_ id: UInt32, _ kind: DRMPlane.Kind, formats: [UInt32], crtcs: [UInt32], extra: [String: UInt64] = [:]) {
        planeList.append(
            Plane(id: DRMPlaneID(rawValue: id), kind: kind, formats: formats, possibleCRTCs: crtcs.map(DRMCRTCID.init(rawValue:))))
        let type: UInt64 = kind == .primary ? 1 : kind == .cursor ? 2 : 0
        var properties: [String: UInt64] = ["type": type, "FB_ID": 0, "CRTC_ID": 0]
        for name in ["SRC_X", "SRC_Y", "SRC_W", "SRC_H", "CRTC_X", "CRTC_Y", "CRTC_W", "CRTC_H"] { properties[name] = 0 }
        properties.merge(extra) { _, new in new }
        define(object: id, properties)
    }

    /// The display is plugged in (again), offering `modes`.
    func plug(_ id: UInt32, modes: [DRMModeInfo]) {
        guard let index = connectors.firstIndex(where: { $0.id.rawValue == id }) else { return }
        connectors[index].connected = true
        connectors[index].modes = modes
    }

    /// The display is unplugged: disconnected, no modes. Its CRTC stays on it, as in the kernel.
    func unplug(_ id: UInt32) {
        guard let index = connectors.firstIndex(where: { $0.id.rawValue == id }) else { return }
        connectors[index].connected = false
        connectors[index].modes = []
    }

    /// Something else (the firmware, the console) shows `mode` on `crtc` for `connector`, on its primary plane.
    func showAtStart(connector: UInt32, crtc: UInt32, mode: DRMModeInfo) {
        let blob = newID(), framebuffer = newID()
        blobs[blob] = mode
        framebuffers[framebuffer] = DRMFormat.xrgb8888
        values[connector]?["CRTC_ID"] = UInt64(crtc)
        values[crtc]?["MODE_ID"] = UInt64(blob)
        values[crtc]?["ACTIVE"] = 1
        if let plane = primaryPlane(of: DRMCRTCID(rawValue: crtc)) {
            values[plane.rawValue]?["FB_ID"] = UInt64(framebuffer)
            values[plane.rawValue]?["CRTC_ID"] = UInt64(crtc)
        }
    }

    // MARK: What the card shows now

    /// The mode `crtc` shows, when it is active.
    func shownMode(_ crtc: UInt32) -> DRMModeInfo? {
        guard values[crtc]?["ACTIVE"] == 1, let blob = values[crtc]?["MODE_ID"] else { return nil }
        return blobs[UInt32(blob)]
    }

    /// The CRTC driving `connector` (its `CRTC_ID`), if any.
    func crtc(driving connector: UInt32) -> DRMCRTCID? {
        values[connector]?["CRTC_ID"].flatMap { $0 == 0 ? nil : DRMCRTCID(rawValue: UInt32($0)) }
    }

    func primaryPlane(of crtc: DRMCRTCID) -> DRMPlaneID? {
        planeList.first { $0.kind == .primary && $0.possibleCRTCs == [crtc] }?.id
    }

    func isPlane(_ object: UInt32) -> Bool { planeList.contains { $0.id.rawValue == object } }

    func newID() -> UInt32 {
        nextID += 1
        return nextID
    }

    private func define(object: UInt32, _ properties: [String: UInt64]) {
        for name in properties.keys.sorted() where propertyIDs[name] == nil {
            propertyIDs[name] = DRMPropertyID(rawValue: 1000 + UInt32(propertyIDs.count))
        }
        propertyNames[object] = properties.keys.sorted()
        values[object] = properties
    }

    func propertyName(_ id: DRMPropertyID) -> String? { propertyIDs.first { $0.value == id }?.key }

    /// An object's properties as the wrapper reads them, with their kinds.
    private func properties(of object: UInt32) -> [DRMProperty] {
        (propertyNames[object] ?? []).map { name in
            let kind: DRMProperty.Kind
            switch name {
            case "DPMS": kind = .enumeration([("On", 0), ("Standby", 1), ("Suspend", 2), ("Off", 3)])
            case "link-status": kind = .enumeration([("Good", 0), ("Bad", 1)])
            case "type": kind = .enumeration([("Overlay", 0), ("Primary", 1), ("Cursor", 2)])
            case "pixel blend mode": kind = .enumeration([("None", 0), ("Pre-multiplied", 1), ("Coverage", 2)])
            case "rotation":
                kind = .bitmask([
                    ("rotate-0", 0), ("rotate-90", 1), ("rotate-180", 2), ("rotate-270", 3), ("reflect-x", 4), ("reflect-y", 5),
                ])
            case "CRTC_ID", "FB_ID": kind = .object
            case "MODE_ID": kind = .blob
            default: kind = .range
            }
            return DRMProperty(id: propertyIDs[name]!, name: name, value: values[object]?[name] ?? 0, kind: kind)
        }
    }

    // MARK: KMSCard: reading

    func enableAtomic() -> Bool { supportsAtomic }

    func resources() throws(DRMError) -> (crtcs: [DRMCRTCID], connectors: [DRMConnectorID]) { (crtcs, connectors.map(\.id)) }

    func connector(_ id: DRMConnectorID, crtcs: [DRMCRTCID]?) throws(DRMError) -> DRMConnector {
        guard let connector = connectors.first(where: { $0.id == id }) else {
            throw DRMError(operation: "drmModeGetConnector", errno: ENOENT, detail: "\(id)")
        }
        // The encoder id of a driven connector is its CRTC's id + 1000 here (`crtc(ofEncoder:)`).
        return DRMConnector(
            id: id, type: connector.type, typeIndex: connector.typeIndex, status: connector.connected ? .connected : .disconnected,
            modes: connector.modes, physicalWidthMillimeters: 0, physicalHeightMillimeters: 0,
            encoderID: crtc(driving: id.rawValue).map { DRMEncoderID(rawValue: $0.rawValue + 1000) },
            possibleCRTCs: connector.possibleCRTCs, properties: properties(of: id.rawValue))
    }

    func crtc(ofEncoder id: DRMEncoderID) -> DRMCRTCID? {
        let crtc = DRMCRTCID(rawValue: id.rawValue - 1000)
        return crtcs.contains(crtc) ? crtc : nil
    }

    func crtcState(_ id: DRMCRTCID) throws(DRMError) -> DRMCRTCState {
        guard crtcs.contains(id) else { throw DRMError(operation: "drmModeGetCrtc", errno: ENOENT, detail: "\(id)") }
        let framebuffer = primaryPlane(of: id).flatMap { values[$0.rawValue]?["FB_ID"] }.flatMap { $0 == 0 ? nil : $0 }
        return DRMCRTCState(
            id: id, framebuffer: framebuffer.map { DRMFramebufferID(rawValue: UInt32($0)) }, mode: shownMode(id.rawValue))
    }

    func planes() throws(DRMError) -> [DRMPlane] {
        planeList.map { plane in
            let crtc = values[plane.id.rawValue]?["CRTC_ID"].flatMap { $0 == 0 ? nil : DRMCRTCID(rawValue: UInt32($0)) }
            return DRMPlane(
                id: plane.id, possibleCRTCs: plane.possibleCRTCs, currentCRTC: crtc, kind: plane.kind, formats: plane.formats,
                properties: properties(of: plane.id.rawValue))
        }
    }

    func crtcProperties(_ id: DRMCRTCID) throws(DRMError) -> [DRMProperty] { properties(of: id.rawValue) }

    func edid(of connector: DRMConnector) -> EDID? { nil }

    // MARK: KMSCard: buffers, blobs, events

    func dumbBuffer(width: Int, height: Int, format: UInt32) throws(DRMError) -> any KMSDumbBuffer {
        guard width > 0, height > 0 else {
            throw DRMError(operation: "drmModeCreateDumbBuffer", errno: EINVAL, detail: "\(width)x\(height)")
        }
        let framebuffer = newID()
        framebuffers[framebuffer] = format
        return HeapDumbBuffer(width: width, height: height, framebuffer: DRMFramebufferID(rawValue: framebuffer)) { [weak self] in
            self?.framebuffers[framebuffer] = nil
        }
    }

    func createModeBlob(_ mode: DRMModeInfo) throws(DRMError) -> DRMBlobID {
        let id = newID()
        blobs[id] = mode
        return DRMBlobID(rawValue: id)
    }

    func destroyBlob(_ id: DRMBlobID) { blobs[id.rawValue] = nil }

    func vblank(of crtc: DRMCRTCID) throws(DRMError) -> (sequence: UInt64, timestamp: Double) {
        guard hasVBlankInterrupts else { throw DRMError(operation: "drmCrtcGetSequence", errno: EOPNOTSUPP, detail: "\(crtc)") }
        guard values[crtc.rawValue]?["ACTIVE"] == 1 else {
            throw DRMError(operation: "drmCrtcGetSequence", errno: EINVAL, detail: "\(crtc)")
        }
        return (1, 0)
    }

    func handleEvents(pageFlip: (DRMPageFlipEvent) -> Void) throws(DRMError) {
        let flips = pendingFlips
        pendingFlips.removeAll()
        for crtc in flips { pageFlip(DRMPageFlipEvent(crtc: crtc, sequence: 1, timestamp: 0)) }
    }

    // MARK: KMSCard: legacy modesetting

    func setCRTC(
        _ crtc: DRMCRTCID, framebuffer: DRMFramebufferID?, x: UInt32, y: UInt32, connectors: [DRMConnectorID], mode: DRMModeInfo?
    ) throws(DRMError) {
        if let framebuffer, framebuffers[framebuffer.rawValue] == nil {
            throw DRMError(operation: "drmModeSetCrtc", errno: ENOENT, detail: "\(crtc)")
        }
        legacyCalls.append("SetCrtc \(crtc.rawValue) \(mode.map { "\($0)" } ?? "off") \(connectors.map(\.rawValue))")
        let blob = mode.map { mode in
            let id = newID()
            blobs[id] = mode
            return id
        }
        values[crtc.rawValue]?["MODE_ID"] = UInt64(blob ?? 0)
        values[crtc.rawValue]?["ACTIVE"] = mode == nil ? 0 : 1
        for connector in self.connectors.map(\.id) where self.crtc(driving: connector.rawValue) == crtc || connectors.contains(connector) {
            values[connector.rawValue]?["CRTC_ID"] = connectors.contains(connector) ? UInt64(crtc.rawValue) : 0
        }
        if let plane = primaryPlane(of: crtc) {
            values[plane.rawValue]?["FB_ID"] = UInt64(framebuffer?.rawValue ?? 0)
            values[plane.rawValue]?["CRTC_ID"] = framebuffer == nil ? 0 : UInt64(crtc.rawValue)
        }
    }

    func setConnectorProperty(_ connector: DRMConnectorID, _ property: DRMPropertyID, to value: UInt64) throws(DRMError) {
        guard let name = propertyName(property), propertyNames[connector.rawValue]?.contains(name) == true else {
            throw DRMError(operation: "drmModeConnectorSetProperty", errno: EINVAL, detail: "\(connector)")
        }
        legacyCalls.append("\(name) \(connector.rawValue) \(value)")
        values[connector.rawValue]?[name] = value
    }

    func pageFlip(_ crtc: DRMCRTCID, to framebuffer: DRMFramebufferID) throws(DRMError) {
        guard framebuffers[framebuffer.rawValue] != nil, let plane = primaryPlane(of: crtc) else {
            throw DRMError(operation: "drmModePageFlip", errno: ENOENT, detail: "\(crtc)")
        }
        legacyCalls.append("PageFlip \(crtc.rawValue)")
        values[plane.rawValue]?["FB_ID"] = UInt64(framebuffer.rawValue)
        pendingFlips.append(crtc)
    }
}

/// A dumb buffer on the heap: 32-bit pixels, rows of `width * 4` bytes; releasing it removes its framebuffer.
final class HeapDumbBuffer: KMSDumbBuffer {
    let width: Int
    let height: Int
    let pitch: Int
    let framebuffer: DRMFramebufferID
    let pixels: UnsafeMutableRawPointer
    private var onRelease: (() -> Void)?

    init(width: Int, height: Int, framebuffer: DRMFramebufferID, onRelease: @escaping () -> Void) {
        self.width = width
        self.height = height
        pitch = width * 4
        self.framebuffer = framebuffer
        pixels = .allocate(byteCount: pitch * height, alignment: 16)
        pixels.initializeMemory(as: UInt8.self, repeating: 0, count: pitch * height)
        self.onRelease = onRelease
    }

    func release() {
        guard let onRelease else { return }
        self.onRelease = nil
        onRelease()
    }

    deinit {
        release()
        pixels.deallocate()
    }
}
