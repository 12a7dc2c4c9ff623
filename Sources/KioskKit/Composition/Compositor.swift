import Dispatch

/// Composes the visible windows of each screen into frames: level order, then order shown (the runtime's
/// overlays, the mouse cursor, over them all), then each window's views in tree order, with alpha and
/// `clipsToBounds`, redrawing only damaged regions.
///
/// Every view has a cached rendering (its background and `draw(_:)` output); `draw(_:)` runs only after
/// `setNeedsDisplay`. Each frame records where every view was placed; a view that moved, changed alpha,
/// was hidden, re-stacked or removed damages where it was and where it is, so moving things never redraws
/// them. A frame paints only the damage: front to back, regions under opaque views (declared with
/// `isOpaque` or an opaque background) are skipped, then the layers are composited back to front with
/// pixman into a RAM shadow of the screen's logical size. The damaged part of the shadow (grown by the
/// output buffer's age) is copied through the screen's rotation into the output's buffer.
///
/// Views are placed by their presentation values (what animations show) and transforms: a view whose
/// place on screen is not a whole-pixel translation of its cache is composited through its transform
/// with bilinear filtering, and damages the box around where it was and where it is.
///
/// It is also each screen's frame clock: while an animation runs on a screen's windows or a display link
/// of the screen is active, every frame that lands at a vblank (`framePresented(on:at:)` with the vblank
/// time, on DRM CRTCs with vblank interrupts) starts the next one at once. Otherwise (no change to show,
/// an output without vblank times, whose flips may complete at once) a timer a refresh period after the
/// last tick does; on such outputs frames that changes make keep a period apart too. When nothing
/// animates and nothing changes, nothing is scheduled.
///
/// Its parts are files of their own (docs/ARCHITECTURE.md, "A frame's journey"): the frame scheduler
/// (`Compositor+Scheduling`), the scene's walk into layers (`Compositor+Scene`, `Layer`), the views' caches
/// (`Compositor+ViewCaches`), a frame's composition (`Compositor+Frame`, `ScreenState`), the scroll copies
/// (`Compositor+ScrollCopies`) and the pixman renderer (`Compositor+Painting`).
@MainActor
public final class Compositor: WindowChangeObserver {
    public let application: Application
    public let output: any FrameOutput
    /// Skip what opaque views cover. Off only to prove in tests and benchmarks that it changes nothing.
    public var isOpaqueCullingEnabled = true

    var states: [ObjectIdentifier: ScreenState] = [:]
    var frameScheduled = false
    /// The scroll views found by the walk of the frame being composed.
    var scrollRegions: [ScrollRegion] = []
    /// The views that asked for a plane, found by the walk of the frame being composed.
    var planeGroups: [PlaneGroup] = []
    var isWalkingPlaneGroup = false
    /// The screen of the frame being composed, in its logical pixels (what `View.willBeComposed` is told of).
    var composedScreenRect = PixelRect(x: 0, y: 0, width: 0, height: 0)
    /// While a view's renderings are taken for a transition (`Compositor+Transitions`): the view whose
    /// subtree is walked as it is now, even though its transition runs (its new rendering), and whether the
    /// caches are read as the screen shows them, without drawing (its old rendering).
    var liveSnapshotRoot: ObjectIdentifier?
    var readsCachesOnly = false
    /// Whether a scroll moves what stays in view instead of painting it again. Off only to prove in tests
    /// that it changes nothing.
    public var isScrollCopyEnabled = true
    /// Whether a view's cache holds only the box around what its `draw(_:)` marked. Off only to prove in
    /// tests that it changes nothing.
    public var isCacheCroppingEnabled = true
    /// How many buffers' worth of damage to remember; an older buffer is repainted whole.
    static let damageRingLength = 4

    public init(output: any FrameOutput, application: Application = .shared) {
        self.output = output
        self.application = application
        application.changeObserver = self
        for screen in application.connectedScreens { scheduleFrame(for: screen) }
    }

    // MARK: Queries (tests, snapshots, benchmarks)

    /// Frames composed for `screen` so far.
    public func framesComposed(on screen: Screen) -> Int { states[ObjectIdentifier(screen)]?.framesComposed ?? 0 }

    /// The logical-size shadow of `screen` (what apps see, before rotation).
    public func shadow(of screen: Screen) -> Bitmap? { states[ObjectIdentifier(screen)]?.shadow }

    /// What `screen` shows as scanned out: its last composed frame in physical pixels, turned by the
    /// rotation it was composed with, with what its planes show over it, made from the compositor's own RAM (the shadow through the rotation,
    /// or the cached-memory buffer an unrotated frame was painted into), never read back from scanout
    /// memory, which is slow to read and may already hold a frame in flight. nil before the first frame and
    /// while the screen is off or disconnected.
    public func scanoutImage(of screen: Screen) -> Bitmap? {
        guard screen.isConnected, screen.powerState == .on, let state = states[ObjectIdentifier(screen)], state.framesComposed > 0
        else { return nil }
        let rotation = state.composedRotation
        if let shadow = state.shadow {
            let (width, height) = rotation.swapsAxes ? (shadow.height, shadow.width) : (shadow.width, shadow.height)
            let image = Bitmap(width: width, height: height, format: .xrgb8888)
            image.copy(from: shadow, rotation: rotation, region: Region(image.bounds))
            composePlanes(of: state, over: image)
            return image
        }
        // A buffer painted in place is upright; the display turns it, if at all, without swapping its axes.
        guard let buffer = state.inPlaceBuffer, state.bufferRotation == .normal, !rotation.swapsAxes else { return nil }
        let image = Bitmap(width: buffer.width, height: buffer.height, format: .xrgb8888)
        image.copy(from: buffer, rotation: rotation, region: Region(image.bounds))
        composePlanes(of: state, over: image)
        return image
    }

    /// The frame-clock tick the last frame shown on `screen` was made for (the time its animations
    /// were advanced from), or nil when a change made it (no animation, no display link). The trace
    /// writes it with the frame's flip: the gap from one flip to the next frame's tick is the clock's own,
    /// the rest of a frame's interval is composing and flipping.
    public func tick(ofLastFrameOn screen: Screen) -> TimeInterval? { states[ObjectIdentifier(screen)]?.frameTick }

    /// When the last frame shown on `screen` was composed (its tick, for a frame the clock made; the
    /// application clock's time otherwise): on outputs without vblank times two of these are at least a
    /// refresh period apart (the trace writes it with the frame's flip).
    public func compositionTime(ofLastFrameOn screen: Screen) -> TimeInterval? {
        states[ObjectIdentifier(screen)]?.lastFrameStart
    }

    /// The planes showing a layer on `screen` (`View.planePreference`), back to front.
    public func planesInUse(on screen: Screen) -> [DisplayPlane] {
        (states[ObjectIdentifier(screen)]?.planeContents.values.map(\.plane) ?? []).sorted { ($0.zOrder, $0.id) < ($1.zOrder, $1.id) }
    }

    /// Whether a frame is waiting for `framePresented(on:)`.
    public func isFrameInFlight(on screen: Screen) -> Bool { states[ObjectIdentifier(screen)]?.inFlight ?? false }

    /// Whether `screen` has changes not yet composed.
    public func needsFrame(on screen: Screen) -> Bool { states[ObjectIdentifier(screen)]?.needsFrame ?? false }

    func state(for screen: Screen) -> ScreenState {
        if let state = states[ObjectIdentifier(screen)] { return state }
        let state = ScreenState()
        states[ObjectIdentifier(screen)] = state
        return state
    }

    // MARK: WindowChangeObserver

    func subtreeDidChange(_ view: View, in window: Window) { scheduleFrame(for: window.screen) }
    func subtreeWillLeave(_ view: View, in window: Window) { scheduleFrame(for: window.screen) }
    func contentDidChange(in view: View, rect: Rect, window: Window) { scheduleFrame(for: window.screen) }
    func frameRequested(by window: Window) { scheduleFrame(for: window.screen) }
    func framesRequested() { for screen in application.connectedScreens { ensureTicking(screen) } }

    func screenDidChange(_ screen: Screen) {
        guard screen.isConnected else {
            // Its buffers belong to the backend; the shadow and placements go. Nothing is scheduled.
            states[ObjectIdentifier(screen)]?.tickTimer?.cancel()
            states[ObjectIdentifier(screen)]?.paceTimer?.cancel()
            states[ObjectIdentifier(screen)] = nil
            return
        }
        setNeedsFullRepaint(screen)
    }
}
