import CPixmanBaseline
import KioskKit
import KioskTesting

/// The cross-fade benchmark: two full-screen 1920x1080 windows, A under B, each holding one opaque view
/// (`isOpaque`) whose `draw(_:)` paints its content once into the view's cached bitmap. A 30-step fade
/// sets A.alpha = 1 − t and B.alpha = t on the windows directly (no animation block: the frame is what is
/// measured) and composes one frame. Every step shows both windows in part: t = (k + 1) / 31 for step k,
/// so the frames before the first step and after the last (A alone, B alone) are not among them. Each
/// iteration composes the next step (the sequence wraps); ours and raw pixman run the same steps.
public enum CrossFadeAnimation {
    /// Half a second at 60 Hz.
    public static let frameCount = 30

    /// t of step `index` (wrapping), strictly between 0 and 1.
    public static func progress(frame index: Int) -> Double {
        Double(index % frameCount + 1) / Double(frameCount + 1)
    }

    /// Window A, "the screen being left": the background's colour bands, a grid of rounded tiles with
    /// labels, and a title. Opaque everywhere.
    public static func drawWindowA(in context: DrawingContext, bounds: Rect) {
        ScenePainter.drawBackground(in: context, bounds: bounds, dirty: bounds)
        let title = TextLayout(text: "Willkommen · Welcome · 欢迎", font: .boldSystemFont(ofSize: 40), color: .white)
        context.draw(title, at: Point(x: bounds.minX + 96, y: bounds.minY + 72))
        let font = Font.system(size: 24)
        for row in 0..<3 {
            for column in 0..<4 {
                let tile = Rect(
                    x: bounds.minX + 96 + Double(column) * 440, y: bounds.minY + 200 + Double(row) * 280,
                    width: 400, height: 240)
                context.fillRoundedRect(tile, radius: 24, color: Color(white: 0.96, alpha: 0.85))
                context.fillEllipse(
                    in: Rect(x: tile.minX + 32, y: tile.minY + 32, width: 96, height: 96),
                    color: Color(red: 0.2, green: 0.45, blue: 0.9, alpha: 1))
                let label = TextLayout(text: "Service \(row * 4 + column + 1)", font: font, color: .black)
                context.draw(label, at: Point(x: tile.minX + 32, y: tile.maxY - 64))
            }
        }
    }

    /// Window B, "the screen being entered": dark horizontal bands, a translucent panel with a message
    /// and a button, and circles. Opaque everywhere.
    public static func drawWindowB(in context: DrawingContext, bounds: Rect) {
        let bands = 12
        for index in 0..<bands {
            let shade = 0.05 + 0.25 * Double(index) / Double(bands - 1)
            context.fill(
                Rect(
                    x: bounds.minX, y: bounds.minY + Double(index) * bounds.height / Double(bands),
                    width: bounds.width, height: bounds.height / Double(bands)),
                color: Color(red: shade * 0.6, green: shade * 0.8, blue: shade * 1.4, alpha: 1))
        }
        for index in 0..<8 {
            let size = 120 + Double(index) * 40
            context.fillEllipse(
                in: Rect(x: bounds.minX + 80 + Double(index) * 220, y: bounds.maxY - 160 - size, width: size, height: size),
                color: Color(red: 0.9, green: 0.5 + 0.05 * Double(index), blue: 0.2, alpha: 0.6))
        }
        let panel = Rect(x: bounds.midX - 500, y: bounds.minY + 160, width: 1000, height: 420)
        context.fillRoundedRect(panel, radius: 32, color: Color(white: 0.98, alpha: 0.9))
        let title = TextLayout(
            text: "Ihre Nummer: A 042", font: .boldSystemFont(ofSize: 48), color: .black,
            alignment: .center, width: panel.width - 96)
        context.draw(title, at: Point(x: panel.minX + 48, y: panel.minY + 56))
        let message = TextLayout(
            text: "Please wait until your number is called. 请等待叫号。 Bitte warten Sie, bis Ihre Nummer aufgerufen wird.",
            font: .system(size: 28), color: .darkGray, alignment: .center, width: panel.width - 96)
        context.draw(message, at: Point(x: panel.minX + 48, y: panel.minY + 160))
        context.fillRoundedRect(
            Rect(x: panel.minX + 300, y: panel.maxY - 110, width: 400, height: 72), radius: 16,
            color: Color(red: 0.2, green: 0.45, blue: 0.9, alpha: 1))
    }
}

/// An opaque full-screen view that draws its content with `painter` and counts its draws: the fade must
/// move cached content only, never redraw it.
@MainActor
final class CrossFadeView: View {
    private let painter: (DrawingContext, Rect) -> Void
    private(set) var drawCount = 0

    init(frame: Rect, painter: @escaping (DrawingContext, Rect) -> Void) {
        self.painter = painter
        super.init(frame: frame)
        isOpaque = true
    }

    override func draw(_ rect: Rect) {
        drawCount += 1
        guard let context = DrawingContext.current else { return }
        painter(context, bounds)
    }
}

/// Ours: the two windows through the real `Compositor` on the scene's 1920x1080@60 in-memory screen and
/// `SingleBufferOutput` (as `CompositionScene`). At 0 < t < 1 neither window is opaque, so each frame is
/// the black background, A with OVER and opacity 1 − t, B with OVER and opacity t, into the output's
/// buffer (in place) or into the shadow and then copied (`scanoutOutput`, as DRM).
@MainActor
public final class CrossFadeScene {
    public let backend = InMemoryDisplayBackend()
    public let screen: Screen
    public let output: SingleBufferOutput
    public let compositor: Compositor
    public let windowA: Window
    public let windowB: Window
    private let viewA: CrossFadeView
    private let viewB: CrossFadeView
    private var frame: Int

    /// `frame`: the step the first `composeNextFrame` shows. The scene's own first frame (not measured)
    /// shows the step before it, so both caches are drawn there.
    public init(scanoutOutput: Bool = false, frame: Int = 0) {
        screen = SceneGeometry.connectScreen(on: backend)
        (output, compositor) = SceneGeometry.makeOutput(scanoutOutput: scanoutOutput)

        windowA = Window(screen: screen)
        windowA.identifier = "cross-fade-a"
        viewA = CrossFadeView(frame: SceneGeometry.screenRect, painter: CrossFadeAnimation.drawWindowA)
        windowA.addSubview(viewA)
        windowA.makeKeyAndVisible()
        windowB = Window(screen: screen)
        windowB.identifier = "cross-fade-b"
        viewB = CrossFadeView(frame: SceneGeometry.screenRect, painter: CrossFadeAnimation.drawWindowB)
        windowB.addSubview(viewB)
        windowB.makeKeyAndVisible()  // in front of A

        self.frame = frame
        setAlphas(frame: frame + CrossFadeAnimation.frameCount - 1)
        compositor.composePendingFrames()
        precondition(output.presentedFrames == 1 && output.lastAge == 0, "the scene's first frame was not presented")
        precondition(output.lastDamage == Region(fullScreen), "the scene's first frame was not a full frame")
        precondition(viewA.drawCount == 1 && viewB.drawCount == 1, "the first frame did not draw both windows once")
    }

    public var fullScreen: PixelRect {
        PixelRect(x: 0, y: 0, width: Int32(SceneGeometry.width), height: Int32(SceneGeometry.height))
    }

    private func setAlphas(frame: Int) {
        let t = CrossFadeAnimation.progress(frame: frame)
        windowA.alpha = 1 - t
        windowB.alpha = t
    }

    // MARK: The measured operation

    /// The next step: the windows' alphas set, `composePendingFrames()` (the output presents the frame and
    /// calls `framePresented` at once, as a flip that lands).
    public func composeNextFrame() {
        setAlphas(frame: frame)
        frame += 1
        compositor.composePendingFrames()
    }

    // MARK: What the benchmarks check

    /// Prepares the output to check every following frame against `damage` (age 1); every step changes
    /// both windows' alphas, so each frame's damage is the whole screen.
    public func expectFrames(damage: Region?) {
        output.expectedDamage = damage
    }

    /// Whether either window's content was drawn again after the scene's first frame (it must not be: the
    /// fade composites the cached bitmaps).
    public var contentWasRedrawn: Bool { viewA.drawCount != 1 || viewB.drawCount != 1 }
}

/// Raw pixman doing the same frame: A's and B's pixels (drawn by the same painters) in two a8r8g8b8
/// images, composited with `PIXMAN_OP_OVER` through a solid mask of alpha 1 − t and t (converted as
/// `pixman_color_t` components, as `Bitmap.composite` does), over the whole of an x8r8g8b8 1920x1080 image
/// that starts out black (cleared once, when made: OVER costs pixman the same whatever the destination
/// holds, so the frames after the first are the same work, though not a clean cross-fade). The scanout
/// variant adds one SRC copy of the image into a second one, as `PixmanBaseline.compositeLayersAndCopy`.
public final class CrossFadeBaseline {
    private let windowA: PixelBuffer
    private let windowB: PixelBuffer
    private let shadow = PixelBuffer(width: SceneGeometry.width, height: SceneGeometry.height)
    private let output = PixelBuffer(width: SceneGeometry.width, height: SceneGeometry.height)
    private let windowAImage: OpaquePointer
    private let windowBImage: OpaquePointer
    private let shadowImage: OpaquePointer
    private let outputImage: OpaquePointer
    private var frame: Int

    /// `frame`: the step the first `composeNextFrame` shows.
    public init(frame: Int = 0) {
        self.frame = frame
        let w = SceneGeometry.width, h = SceneGeometry.height
        windowA = PixelBuffer(width: w, height: h) { CrossFadeAnimation.drawWindowA(in: $0, bounds: $1) }
        windowB = PixelBuffer(width: w, height: h) { CrossFadeAnimation.drawWindowB(in: $0, bounds: $1) }
        windowAImage = windowA.makeImage(PIXMAN_a8r8g8b8)
        windowBImage = windowB.makeImage(PIXMAN_a8r8g8b8)
        shadowImage = shadow.makeImage(PIXMAN_x8r8g8b8)
        outputImage = output.makeImage(PIXMAN_x8r8g8b8)
    }

    deinit {
        for image in [windowAImage, windowBImage, shadowImage, outputImage] { pixman_image_unref(image) }
    }

    /// Step `frame`: A OVER with opacity 1 − t, then B OVER with opacity t. Calls
    /// `pixman_image_create_solid_fill` and `pixman_image_composite32` (twice each).
    public func composeNextFrame() {
        let t = CrossFadeAnimation.progress(frame: frame)
        frame += 1
        composite(windowAImage, opacity: 1 - t)
        composite(windowBImage, opacity: t)
    }

    /// The same step as a correct frame: the screen behind the windows cleared to black first (as the
    /// compositor must, since neither window is opaque at partial alpha and black shows through), then the
    /// two composites. Calls `pixman_image_fill_boxes` (SRC, as `Bitmap.fill`) and the two composites.
    public func composeNextFrameOnBlack() {
        var black = pixman_color_t(red: 0, green: 0, blue: 0, alpha: 0xFFFF)
        var box = pixman_box32_t(x1: 0, y1: 0, x2: Int32(SceneGeometry.width), y2: Int32(SceneGeometry.height))
        _ = pixman_image_fill_boxes(PIXMAN_OP_SRC, shadowImage, &black, 1, &box)
        composeNextFrame()
    }

    /// The step, then the whole image copied (pixman SRC) into a second x8r8g8b8 image: the pixman work
    /// of the frame on a scanout output, shadow plus copy.
    public func composeNextFrameAndCopy() {
        composeNextFrame()
        pixman_image_composite32(
            PIXMAN_OP_SRC, shadowImage, nil, outputImage, 0, 0, 0, 0, 0, 0,
            Int32(SceneGeometry.width), Int32(SceneGeometry.height))
    }

    private func composite(_ image: OpaquePointer, opacity: Double) {
        var color = pixman_color_t(red: 0, green: 0, blue: 0, alpha: UInt16(opacity * 65535 + 0.5))
        guard let mask = pixman_image_create_solid_fill(&color) else { fatalError("pixman_image_create_solid_fill failed") }
        defer { pixman_image_unref(mask) }
        pixman_image_composite32(
            PIXMAN_OP_OVER, image, mask, shadowImage, 0, 0, 0, 0, 0, 0,
            Int32(SceneGeometry.width), Int32(SceneGeometry.height))
    }

    /// Black again (not measured): for the pixel check, which composes one step onto black.
    public func clear() {
        shadow.data.initializeMemory(as: UInt8.self, repeating: 0, count: shadow.stride * shadow.height)
    }

    /// How many pixels of the composited image differ in colour from `frame` (XRGB, the same size).
    public func differingPixels(from frame: Bitmap) -> Int { shadow.differingPixels(from: frame) }
}
