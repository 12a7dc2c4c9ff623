/// Where composed frames go: a display backend's buffers for one screen (DRM dumb buffers, an fbdev
/// mapping, the headless backend's memory).
@MainActor
public protocol FrameOutput: AnyObject {
    /// The buffer to put the next frame of `screen` in, sized to the screen's current mode (physical,
    /// unrotated pixels), or nil when the screen cannot show frames now. The compositor writes every
    /// pixel of the region it was told about and nothing else.
    func nextBuffer(for screen: Screen) -> FrameBuffer?
    /// Shows `buffer`; `damage` (physical pixels) is what changed since the frame before. The output calls
    /// `Compositor.framePresented(on:at:)` when the frame is on screen (after the page flip, with the
    /// flip's vblank time when the display has vblank interrupts, nil otherwise), which allows the next
    /// one: at most one frame is in flight per screen.
    func present(_ buffer: FrameBuffer, for screen: Screen, damage: Region)
    /// True when the buffers are ordinary cached memory (headless, tests): the compositor may then paint an
    /// unrotated screen straight into them instead of into a shadow it copies from. Scanout memory (DRM
    /// dumb buffers, fbdev) is write-combined and slow to read, so those outputs say false (the default).
    var buffersAreCachedMemory: Bool { get }
    /// The planes `screen`'s display can show layers on besides the composed frame (DRM's overlay and cursor
    /// planes of its CRTC); none by default (fbdev, headless): everything is composed.
    /// Whether the display turns `screen`'s frames by `rotation` as it scans them out (DRM's `rotation`
    /// property of the primary plane: vc4 offers 180 and the reflections), so the compositor gives it the
    /// frame upright and copies nothing through a rotation. Never for a rotation that swaps the axes (the
    /// buffer keeps the mode's size). False by default.
    func rotatesInScanout(_ rotation: Rotation, for screen: Screen) -> Bool
    func planes(for screen: Screen) -> [DisplayPlane]
    /// Whether the display can show `layers` on their planes with the next frame (DRM: an atomic TEST_ONLY
    /// commit with the frame's buffer on the primary plane). The compositor asks again, with fewer layers,
    /// until one is accepted or none is left (`PlaneAssignment`).
    func accepts(_ layers: [PlaneLayer], for screen: Screen) -> Bool
    /// Shows `buffer` (nil: the composed frame stays as it is) with `planes` on their planes; a plane that
    /// showed a layer and is not among them is turned off. Else as `present(_:for:damage:)`, and it calls
    /// `Compositor.framePresented(on:at:)` the same way.
    func present(_ buffer: FrameBuffer?, for screen: Screen, damage: Region, planes: [PlaneLayer])
}

extension FrameOutput {
    public var buffersAreCachedMemory: Bool { false }
    public func rotatesInScanout(_ rotation: Rotation, for screen: Screen) -> Bool { false }
    public func planes(for screen: Screen) -> [DisplayPlane] { [] }
    public func accepts(_ layers: [PlaneLayer], for screen: Screen) -> Bool { false }
    /// Without planes of its own an output gets none (`planes(for:)` offered none) and always a buffer.
    public func present(_ buffer: FrameBuffer?, for screen: Screen, damage: Region, planes: [PlaneLayer]) {
        if let buffer { present(buffer, for: screen, damage: damage) }
    }
}

/// A buffer to draw a frame into, and its age: 0 when its contents are unknown, n when it holds the
/// frame presented n frames ago (1 for the previous frame, as EGL's buffer age).
public struct FrameBuffer {
    public let bitmap: Bitmap
    public let age: Int

    public init(bitmap: Bitmap, age: Int) {
        self.bitmap = bitmap
        self.age = age
    }
}
