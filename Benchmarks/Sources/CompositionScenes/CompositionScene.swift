import KioskKit
import KioskTesting

/// A frame output with one XRGB 1920x1080 buffer: the first frame gets age 0, every later one age 1 (the
/// buffer holds the frame before), and a presented frame is "on screen" at once (`framePresented` is
/// called from `present`), so the next frame may start straight away.
///
/// It checks each presented frame against `expectedDamage` (when set): a frame whose damage or age
/// differs counts in `unexpectedFrames`, so a benchmark can prove that what it timed was the update it
/// meant (no full repaint sneaking in).
@MainActor
public final class SingleBufferOutput: FrameOutput {
    public let buffer: Bitmap
    public weak var compositor: Compositor?
    /// When false, `nextBuffer` returns nil: the compositor then composes into its shadow only (and
    /// remembers to repaint everything when the output takes frames again).
    public var acceptsFrames = true
    /// Plain memory, as the headless backend's: the compositor paints unrotated frames in place. False
    /// stands for scanout memory (DRM, fbdev): a shadow is composed and the damage copied in.
    public var buffersAreCachedMemory = true
    public var expectedDamage: Region?
    /// A cursor plane to offer (as virtio-gpu's, 64x64 ARGB), which this output accepts: nil offers none.
    public var cursorPlane: DisplayPlane?
    /// Presents that moved planes only, with no frame composed.
    public private(set) var planeMoves = 0
    public private(set) var presentedFrames = 0
    public private(set) var unexpectedFrames = 0
    public private(set) var lastDamage = Region()
    public private(set) var lastAge = -1
    private var buffersHandedOut = 0

    public init(width: Int, height: Int) {
        buffer = Bitmap(width: width, height: height, format: .xrgb8888)
    }

    public func nextBuffer(for screen: Screen) -> FrameBuffer? {
        guard acceptsFrames else { return nil }
        defer { buffersHandedOut += 1 }
        return FrameBuffer(bitmap: buffer, age: buffersHandedOut == 0 ? 0 : 1)
    }

    public func present(_ frame: FrameBuffer, for screen: Screen, damage: Region) {
        presentedFrames += 1
        lastDamage = damage
        lastAge = frame.age
        if let expectedDamage, frame.age != 1 || damage != expectedDamage { unexpectedFrames += 1 }
        compositor?.framePresented(on: screen)
    }

    public func planes(for screen: Screen) -> [DisplayPlane] { cursorPlane.map { [$0] } ?? [] }
    public func accepts(_ layers: [PlaneLayer], for screen: Screen) -> Bool { true }

    public func present(_ frame: FrameBuffer?, for screen: Screen, damage: Region, planes: [PlaneLayer]) {
        guard let frame else {
            planeMoves += 1
            compositor?.framePresented(on: screen)
            return
        }
        present(frame, for: screen, damage: damage)
    }
}

/// The issue-4 scene on a 1920x1080@60 in-memory screen: an opaque full-screen window (a cached bitmap
/// drawn by `BackgroundView`), a 1920x40 status bar window at `.statusBar` with alpha, and a 600x300 alert
/// window at `.alert` with alpha, centred. Each window holds one view that draws its content, so the
/// compositor has exactly three bitmap layers, the same three the raw-pixman baseline composites:
/// the background with SRC (opaque, declared), the status bar and the alert with OVER.
@MainActor
public final class CompositionScene {
    public let backend = InMemoryDisplayBackend()
    public let screen: Screen
    public let output: SingleBufferOutput
    public let compositor: Compositor
    public let backgroundWindow: Window
    public let backgroundView: View
    public let statusBarWindow: Window
    public let alertWindow: Window
    /// Only with `withMovingView`: a 200x200 opaque view in the background window.
    public let movingView: View?

    /// `withMovingView` adds a fourth layer, a 200x200 opaque view, for the "moved by a pixel" benchmark.
    /// `scanoutOutput` makes the output behave as DRM's (shadow + copy) instead of headless (in place).
    public init(withMovingView: Bool = false, scanoutOutput: Bool = false) {
        screen = SceneGeometry.connectScreen(on: backend)
        (output, compositor) = SceneGeometry.makeOutput(scanoutOutput: scanoutOutput)

        backgroundWindow = Window(screen: screen)
        backgroundWindow.identifier = "background"
        backgroundView = BackgroundView(frame: SceneGeometry.screenRect)
        backgroundWindow.addSubview(backgroundView)
        if withMovingView {
            let view = BackgroundView(frame: SceneGeometry.movingViewRect)
            backgroundWindow.addSubview(view)
            movingView = view
        } else {
            movingView = nil
        }
        backgroundWindow.makeKeyAndVisible()

        statusBarWindow = Window(frame: SceneGeometry.statusBarRect)
        statusBarWindow.identifier = "status-bar"
        statusBarWindow.windowLevel = .statusBar
        statusBarWindow.addSubview(StatusBarView(frame: Rect(size: SceneGeometry.statusBarRect.size)))
        statusBarWindow.isHidden = false

        alertWindow = Window(frame: SceneGeometry.alertRect)
        alertWindow.identifier = "alert"
        alertWindow.windowLevel = .alert
        alertWindow.addSubview(AlertView(frame: Rect(size: SceneGeometry.alertRect.size)))
        alertWindow.makeKeyAndVisible()

        // The first frame draws every view's cache and copies the whole frame (buffer age 0).
        compositor.composePendingFrames()
        precondition(output.presentedFrames == 1 && output.lastAge == 0, "the scene's first frame was not presented")
        precondition(output.lastDamage == Region(fullScreen), "the scene's first frame was not a full frame")
    }

    public var fullScreen: PixelRect { PixelRect(x: 0, y: 0, width: Int32(SceneGeometry.width), height: Int32(SceneGeometry.height)) }

    // MARK: The measured operations

    /// A full repaint as the compositor does it: every layer into the RAM shadow, then the whole shadow
    /// copied into the output's buffer. With `output.acceptsFrames` false the output hands out no buffer
    /// and the compositor skips the copy: the compose-into-shadow part alone (layer collection,
    /// placements, culling and the pixman composites).
    public func composeFullFrame() {
        compositor.setNeedsFullRepaint(screen)
        compositor.composePendingFrames()
    }

    /// The copy part of a full frame alone: the whole shadow into the output's buffer, as the compositor
    /// does it (`Bitmap.copy(from:rotation:region:)`, pixman SRC, identity rotation).
    public func copyShadowToOutput() {
        guard let shadow = compositor.shadow(of: screen) else { fatalError("no shadow") }
        output.buffer.copy(from: shadow, rotation: screen.rotation, region: Region(fullScreen))
    }

    /// 200x200 of the background view redrawn (`setNeedsDisplay(rect)`), composited and copied.
    public func composeDamagedUpdate() {
        backgroundView.setNeedsDisplay(SceneGeometry.damagedRect)
        compositor.composePendingFrames()
    }

    private var movedRight = false

    /// The 200x200 view moved by one pixel (right, then back), composited and copied: the damage is the
    /// old and the new place, 201x200, and nothing is redrawn.
    public func composeMovedView() {
        guard let movingView else { fatalError("scene made without the moving view") }
        movedRight.toggle()
        movingView.center.x += movedRight ? 1 : -1
        compositor.composePendingFrames()
    }

    // MARK: What the benchmarks check

    public var damagedRegion: Region { Region(PixelRect(enclosing: SceneGeometry.damagedRect)) }

    public var movedViewRegion: Region {
        var rect = PixelRect(enclosing: SceneGeometry.movingViewRect)
        rect.width += 1
        return Region(rect)
    }

    /// Prepares the output to check every following frame against `damage` (age 1).
    public func expectFrames(damage: Region?) {
        output.expectedDamage = damage
    }
}
