import CDRM
import Glibc

extension DRMDevice {
    // MARK: Legacy modesetting

    /// Shows `framebuffer` on `crtc` with `mode`, driving `connectors`; with no framebuffer and no mode,
    /// turns the CRTC off. Blocks until the mode is set. Calls `drmModeSetCrtc`.
    public func setCRTC(
        _ crtc: DRMCRTCID, framebuffer: DRMFramebufferID?, x: UInt32 = 0, y: UInt32 = 0,
        connectors: [DRMConnectorID], mode: DRMModeInfo?
    ) throws(DRMError) {
        var ids = connectors.map(\.rawValue)
        var cMode = mode?.cValue ?? drmModeModeInfo()
        let result = ids.withUnsafeMutableBufferPointer { idPointer in
            withUnsafeMutablePointer(to: &cMode) { modePointer in
                drmModeSetCrtc(
                    fileDescriptor, crtc.rawValue, framebuffer?.rawValue ?? 0, x, y,
                    idPointer.baseAddress, Int32(idPointer.count), mode == nil ? nil : modePointer)
            }
        }
        try drmCheck(result, "drmModeSetCrtc", "\(crtc)")
    }

    /// Sets a property of a connector outside atomic (the legacy `DPMS`: 0 on, 3 off). Calls
    /// `drmModeConnectorSetProperty`.
    public func setConnectorProperty(_ connector: DRMConnectorID, _ property: DRMPropertyID, to value: UInt64) throws(DRMError) {
        try drmCheck(
            drmModeConnectorSetProperty(fileDescriptor, connector.rawValue, property.rawValue, value), "drmModeConnectorSetProperty",
            "\(connector) property \(property.rawValue)")
    }

    /// Queues `framebuffer` for the next vblank on `crtc`; `handleEvents` reports the completion.
    /// Calls `drmModePageFlip` with `DRM_MODE_PAGE_FLIP_EVENT`.
    public func pageFlip(_ crtc: DRMCRTCID, to framebuffer: DRMFramebufferID) throws(DRMError) {
        try drmCheck(
            drmModePageFlip(fileDescriptor, crtc.rawValue, framebuffer.rawValue, kiosk_drm_mode_page_flip_event(), eventUserData),
            "drmModePageFlip", "\(crtc)")
    }

    // MARK: Atomic modesetting

    /// Makes a mode blob for an atomic `MODE_ID`. Calls `drmModeCreatePropertyBlob`.
    public func createModeBlob(_ mode: DRMModeInfo) throws(DRMError) -> DRMBlobID {
        var cMode = mode.cValue
        var id: UInt32 = 0
        try drmCheck(
            drmModeCreatePropertyBlob(fileDescriptor, &cMode, MemoryLayout<drmModeModeInfo>.size, &id),
            "drmModeCreatePropertyBlob", "\(mode)")
        return DRMBlobID(rawValue: id)
    }

    /// Calls `drmModeDestroyPropertyBlob`.
    public func destroyBlob(_ id: DRMBlobID) {
        drmModeDestroyPropertyBlob(fileDescriptor, id.rawValue)
    }

    /// Commits `request`. Calls `drmModeAtomicCommit`.
    public func commit(_ request: DRMAtomicRequest, flags: DRMAtomicRequest.Flags) throws(DRMError) {
        var raw: UInt32 = 0
        if flags.contains(.testOnly) { raw |= kiosk_drm_mode_atomic_test_only() }
        if flags.contains(.nonblocking) { raw |= kiosk_drm_mode_atomic_nonblock() }
        if flags.contains(.allowModeset) { raw |= kiosk_drm_mode_atomic_allow_modeset() }
        if flags.contains(.pageFlipEvent) { raw |= kiosk_drm_mode_page_flip_event() }
        try drmCheck(
            drmModeAtomicCommit(fileDescriptor, request.pointer, raw, eventUserData),
            flags.contains(.testOnly) ? "drmModeAtomicCommit(TEST_ONLY)" : "drmModeAtomicCommit", path)
    }
}

/// The property changes of one atomic commit (`drmModeAtomicReq`).
public final class DRMAtomicRequest {
    public struct Flags: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// Check only: the driver says whether it would work, nothing changes.
        public static let testOnly = Flags(rawValue: 1 << 0)
        public static let nonblocking = Flags(rawValue: 1 << 1)
        public static let allowModeset = Flags(rawValue: 1 << 2)
        public static let pageFlipEvent = Flags(rawValue: 1 << 3)
    }

    /// One property change: `property` of KMS object `object` set to `value`.
    public struct Change: Equatable, Sendable {
        public let object: UInt32
        public let property: DRMPropertyID
        public let value: UInt64

        public init(object: UInt32, property: DRMPropertyID, value: UInt64) {
            self.object = object
            self.property = property
            self.value = value
        }
    }

    let pointer: OpaquePointer
    /// The changes set, in order (the kernel takes the last of a property set twice). libdrm's request
    /// cannot be read back, so it is kept here too: for a card other than the kernel's to commit (a
    /// twin of it in tests), and for whoever wants to say what a refused commit asked for.
    public private(set) var changes: [Change] = []

    /// Calls `drmModeAtomicAlloc`; running out of memory is not recoverable here.
    public init() {
        guard let pointer = drmModeAtomicAlloc() else { fatalError("drmModeAtomicAlloc: out of memory") }
        self.pointer = pointer
    }

    deinit { drmModeAtomicFree(pointer) }

    /// Sets `property` of KMS object `object` to `value`. Calls `drmModeAtomicAddProperty`.
    public func set(object: UInt32, property: DRMPropertyID, value: UInt64) throws(DRMError) {
        let result = drmModeAtomicAddProperty(pointer, object, property.rawValue, value)
        guard result >= 0 else { throw DRMError(operation: "drmModeAtomicAddProperty", errno: -result, detail: "object \(object)") }
        changes.append(Change(object: object, property: property, value: value))
    }
}
