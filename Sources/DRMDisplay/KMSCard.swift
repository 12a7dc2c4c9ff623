import DRM

/// The KMS calls `DRMDisplay` makes on its card once it is open, and no others: reading the connectors,
/// CRTCs, planes and their properties, atomic commits (TEST_ONLY, ALLOW_MODESET, PAGE_FLIP_EVENT), legacy
/// `SetCrtc`, `DPMS` and page flips, mode blobs, dumb buffers with their framebuffers, vblanks and flip events,
/// and the capabilities it asks about. `DRMDevice` is the kernel's card; the unit tests' in-memory card
/// (`Tests/DRMDisplayTests/InMemoryCard.swift`) is its twin, so that hotplug, lighting and plane proposals
/// are tested without a VM. Finding the card (udev), opening it through the seat, checking it
/// (`DRMCards.rejection`) and watching its file descriptor stay with `DRMDevice` (`DRMDisplay.init(context:)`,
/// `start()`).
///
/// Each call is `DRMDevice`'s, with its typed values and its `DRMError`s (the C function and errno).
protocol KMSCard: AnyObject {
    // MARK: Capabilities

    /// The kernel driver's name (`virtio_gpu`), for the log.
    var driverName: String? { get }
    /// Whether frames should be drawn in a shadow in RAM (`DRM_CAP_DUMB_PREFER_SHADOW`).
    var prefersShadowBuffer: Bool { get }
    /// The size a cursor plane's buffer must have (`DRM_CAP_CURSOR_WIDTH`, `_HEIGHT`).
    var cursorSize: (width: Int, height: Int) { get }
    /// Asks for universal planes and atomic modesetting; false when the driver has no atomic support.
    func enableAtomic() -> Bool

    // MARK: Reading the KMS state

    func resources() throws(DRMError) -> (crtcs: [DRMCRTCID], connectors: [DRMConnectorID])
    /// Reads (probes) a connector; `crtcs` is the card's CRTC list, which its possible-CRTC mask indexes.
    func connector(_ id: DRMConnectorID, crtcs: [DRMCRTCID]?) throws(DRMError) -> DRMConnector
    func crtc(ofEncoder id: DRMEncoderID) -> DRMCRTCID?
    func crtcState(_ id: DRMCRTCID) throws(DRMError) -> DRMCRTCState
    func planes() throws(DRMError) -> [DRMPlane]
    func crtcProperties(_ id: DRMCRTCID) throws(DRMError) -> [DRMProperty]
    func edid(of connector: DRMConnector) -> EDID?

    // MARK: Modesetting

    func setCRTC(
        _ crtc: DRMCRTCID, framebuffer: DRMFramebufferID?, x: UInt32, y: UInt32, connectors: [DRMConnectorID], mode: DRMModeInfo?
    ) throws(DRMError)
    func setConnectorProperty(_ connector: DRMConnectorID, _ property: DRMPropertyID, to value: UInt64) throws(DRMError)
    func pageFlip(_ crtc: DRMCRTCID, to framebuffer: DRMFramebufferID) throws(DRMError)
    func createModeBlob(_ mode: DRMModeInfo) throws(DRMError) -> DRMBlobID
    func destroyBlob(_ id: DRMBlobID)
    /// Commits `request` (its `changes`); `.testOnly` only asks whether it would pass.
    func commit(_ request: DRMAtomicRequest, flags: DRMAtomicRequest.Flags) throws(DRMError)

    // MARK: Buffers and events

    /// A dumb buffer of 32-bit pixels with a framebuffer of `format` on it, mapped and zeroed.
    func dumbBuffer(width: Int, height: Int, format: UInt32) throws(DRMError) -> any KMSDumbBuffer
    func vblank(of crtc: DRMCRTCID) throws(DRMError) -> (sequence: UInt64, timestamp: Double)
    /// Reads the events waiting (when the card's fd is readable) and reports each completed flip.
    func handleEvents(pageFlip: (DRMPageFlipEvent) -> Void) throws(DRMError)
}

/// A dumb buffer as `DRMDisplay` uses it: mapped pixels the compositor writes, and the framebuffer a
/// plane shows. `DRMDumbBuffer` is the kernel's; the in-memory card's are heap memory.
protocol KMSDumbBuffer: AnyObject {
    var width: Int { get }
    var height: Int { get }
    /// Bytes per row.
    var pitch: Int { get }
    var framebuffer: DRMFramebufferID { get }
    /// Write it, never read it: scanout memory may be write-combined.
    var pixels: UnsafeMutableRawPointer { get }
    /// Removes the framebuffer and frees the memory; safe to call twice.
    func release()
}

extension DRMDevice: KMSCard {
    func dumbBuffer(width: Int, height: Int, format: UInt32) throws(DRMError) -> any KMSDumbBuffer {
        try createDumbBuffer(width: width, height: height, format: format)
    }
}

extension DRMDumbBuffer: KMSDumbBuffer {}
