import KioskKit
import KioskTesting

/// The size of the benchmark screen and where its windows go (issue 4: a 1920x1080 scene with an opaque
/// full-screen window, a status bar with alpha and an alert with alpha).
public enum SceneGeometry {
    public static let width = 1920
    public static let height = 1080
    public static let screenRect = Rect(x: 0, y: 0, width: 1920, height: 1080)
    public static let statusBarRect = Rect(x: 0, y: 0, width: 1920, height: 40)
    /// 600x300, centred.
    public static let alertRect = Rect(x: 660, y: 390, width: 600, height: 300)
    /// The 200x200 area of the background redrawn by the damage benchmark: clear of the status bar and
    /// the alert, so the update is the background's pixels only.
    public static let damagedRect = Rect(x: 100, y: 500, width: 200, height: 200)
    /// Where the 200x200 view of the "moved by a pixel" benchmark sits (clear of the other windows).
    public static let movingViewRect = Rect(x: 1400, y: 760, width: 200, height: 200)
}

/// What the scene's views draw. The raw-pixman baseline draws its layers with the same functions, so both
/// composite the same pixels (pixman's OVER fast paths skip fully transparent and copy fully opaque
/// pixels, so the content matters for the timing).
public enum ScenePainter {
    static let bandColors: [Color] = [
        Color(rgb: 0x1F3A5F), Color(rgb: 0x2E5C8A), Color(rgb: 0x3D7AB8), Color(rgb: 0x4C98E6),
        Color(rgb: 0x2A6F4F), Color(rgb: 0x3F8F67), Color(rgb: 0x8A5C2E), Color(rgb: 0x5F1F3A),
    ]

    /// Opaque vertical bands, 240 px wide; only the bands that meet `dirty` are drawn (as a well-behaved
    /// `draw(_:)` does), and the context is clipped to `dirty` anyway.
    public static func drawBackground(in context: DrawingContext, bounds: Rect, dirty: Rect) {
        let bandWidth = bounds.width / Double(bandColors.count)
        for (index, color) in bandColors.enumerated() {
            let band = Rect(x: bounds.minX + Double(index) * bandWidth, y: bounds.minY, width: bandWidth, height: bounds.height)
            if band.intersects(dirty) { context.fill(band, color: color) }
        }
    }

    /// A translucent dark bar with a title on the left and a clock on the right.
    public static func drawStatusBar(in context: DrawingContext, bounds: Rect) {
        context.fill(bounds, color: Color(white: 0.08, alpha: 0.6))
        let font = Font.system(size: 20)
        let title = TextLayout(text: "Kiosk · Ausgang 3 · 出口 3", font: font, color: .white)
        context.draw(title, at: Point(x: bounds.minX + 16, y: bounds.minY + ((bounds.height - title.size.height) / 2).rounded()))
        let clock = TextLayout(text: "12:34", font: font, color: .white)
        context.draw(
            clock,
            at: Point(
                x: bounds.maxX - 16 - clock.size.width.rounded(.up),
                y: bounds.minY + ((bounds.height - clock.size.height) / 2).rounded()))
    }

    /// A translucent light panel with rounded corners (transparent pixels in the corners), a title and a
    /// message.
    public static func drawAlert(in context: DrawingContext, bounds: Rect) {
        context.fillRoundedRect(bounds, radius: 16, color: Color(white: 0.96, alpha: 0.92))
        let title = TextLayout(
            text: "Session ending", font: .boldSystemFont(ofSize: 26), color: .black,
            alignment: .center, width: bounds.width - 48)
        context.draw(title, at: Point(x: bounds.minX + 24, y: bounds.minY + 40))
        let message = TextLayout(
            text: "Touch the screen within 30 seconds to keep using the kiosk.",
            font: .system(size: 20), color: .darkGray, alignment: .center, width: bounds.width - 48)
        context.draw(message, at: Point(x: bounds.minX + 24, y: bounds.minY + 110))
        context.fill(
            Rect(x: bounds.minX + 24, y: bounds.maxY - 84, width: bounds.width - 48, height: 60),
            color: Color(red: 0.2, green: 0.45, blue: 0.9, alpha: 1))
    }
}

/// The full-screen background: opaque (declared), drawn into a cached bitmap.
@MainActor
final class BackgroundView: View {
    override init(frame: Rect) {
        super.init(frame: frame)
        isOpaque = true
    }

    override func draw(_ rect: Rect) {
        guard let context = DrawingContext.current else { return }
        ScenePainter.drawBackground(in: context, bounds: bounds, dirty: rect)
    }
}

@MainActor
final class StatusBarView: View {
    override func draw(_ rect: Rect) {
        guard let context = DrawingContext.current else { return }
        ScenePainter.drawStatusBar(in: context, bounds: bounds)
    }
}

@MainActor
final class AlertView: View {
    override func draw(_ rect: Rect) {
        guard let context = DrawingContext.current else { return }
        ScenePainter.drawAlert(in: context, bounds: bounds)
    }
}

extension SceneGeometry {
    /// A fresh application with the scenes' one screen, HDMI-A-1 at 1920x1080@60, on `backend`.
    @MainActor
    public static func connectScreen(on backend: InMemoryDisplayBackend) -> Screen {
        Application.reset()
        return backend.connect("HDMI-A-1", modes: [Screen.Mode(width: width, height: height, refreshRate: 60)])
    }

    /// An output of the scenes' size and its compositor: painted in place as headless, or through a shadow
    /// and a copy as DRM (`scanoutOutput`).
    @MainActor
    public static func makeOutput(scanoutOutput: Bool) -> (SingleBufferOutput, Compositor) {
        let output = SingleBufferOutput(width: width, height: height)
        output.buffersAreCachedMemory = !scanoutOutput
        let compositor = Compositor(output: output)
        output.compositor = compositor
        return (output, compositor)
    }
}
