/// What the compositor keeps of one screen from frame to frame: its shadow, the placements and scroll views
/// of the last frame, the damage ring, and the frame clock's and the pacing's state.
@MainActor
final class ScreenState {
    /// The logical size last composed; a change repaints everything.
    var size = PixelRect.zero
    var shadow: Bitmap?
    /// The output's buffer the last frame was painted into in place (cached memory, no shadow); nil with a shadow.
    var inPlaceBuffer: Bitmap?
    /// The rotation the last frame was composed with.
    var composedRotation = Rotation.normal
    /// The rotation its buffer was painted with: `composedRotation`, or normal where the display turns the
    /// frame in scanout (`FrameOutput.rotatesInScanout`).
    var bufferRotation = Rotation.normal
    var placements: [ObjectIdentifier: Placement] = [:]
    /// The scroll views of the last frame, by view.
    var scrolls: [ObjectIdentifier: ScrollRegion] = [:]
    /// Damage of the frames before, newest first, in physical pixels.
    var damageRing: [Region] = []
    var needsFrame = false
    var fullRepaint = true
    var inFlight = false
    var framesComposed = 0
    /// The frame clock: the time of the last tick, and the timer for the next when no flip will bring it.
    var lastTick: TimeInterval?
    var tickTimer: FrameTimer?
    /// The tick the last frame shown was made for; nil when a change made it.
    var frameTick: TimeInterval?
    /// When the last frame shown was composed (its tick, for a frame the clock made).
    var lastFrameStart: TimeInterval?
    /// Whether the output said when its last frame went on screen (a vblank time): its flips then pace
    /// the frames. Without (virtio-gpu, fbdev, headless) flips complete whenever they do, and the frame
    /// clock keeps frames a refresh period apart.
    var presentsAtVBlank = true
    /// The timer that composes the changes held back to keep a period after the last frame.
    var paceTimer: FrameTimer?
    /// What each plane shows (by the plane's id), as last presented.
    var planeContents: [UInt32: PlaneContent] = [:]
    /// Whether the last frame's walk found views asking for a plane.
    var hadPlaneGroups = false
    /// The output's answer to the last proposal it was asked about.
    var planeTest: PlaneTest?
    /// Whether what is in flight moved planes only: no frame was composed.
    var inFlightMovesPlanesOnly = false
}
