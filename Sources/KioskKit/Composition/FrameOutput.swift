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
}

extension FrameOutput {
    public var buffersAreCachedMemory: Bool { false }
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
