import Testing

@testable import Graphics

/// A cropping context records the drawing and makes a bitmap of the box around the pixels it marked,
/// with the pixels the same drawing makes in a bitmap of the whole size.
@Suite struct CroppingContextTests {
    /// The same drawing, into a whole bitmap and into a cropping context.
    static func drawBoth(width: Int, height: Int, _ draw: (DrawingContext) -> Void) -> (
        whole: Bitmap, cropped: (bitmap: Bitmap, x: Int, y: Int)?
    ) {
        let whole = Bitmap(width: width, height: height)
        let eager = DrawingContext(bitmap: whole)
        draw(eager)
        eager.flush()
        let cropping = DrawingContext(croppingTo: width, height: height, make: { Bitmap(width: $0, height: $1) }, prepare: { _ in })
        draw(cropping)
        return (whole, cropping.finishCropping())
    }

    /// Every pixel of `whole` is the cropped bitmap's at its place (within `tolerance` in each channel),
    /// and transparent outside it.
    static func expectSame(
        _ whole: Bitmap, _ cropped: (bitmap: Bitmap, x: Int, y: Int), tolerance: UInt32 = 0,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var differing = 0
        var largest: UInt32 = 0
        for y in 0..<whole.height {
            for x in 0..<whole.width {
                let inside =
                    (cropped.x..<cropped.x + cropped.bitmap.width).contains(x)
                    && (cropped.y..<cropped.y + cropped.bitmap.height).contains(y)
                let expected = inside ? cropped.bitmap.pixel(x: x - cropped.x, y: y - cropped.y) : 0
                let actual = whole.pixel(x: x, y: y)
                guard actual != expected else { continue }
                differing += 1
                for shift: UInt32 in [0, 8, 16, 24] {
                    let a = (actual >> shift) & 0xFF, b = (expected >> shift) & 0xFF
                    largest = max(largest, a > b ? a - b : b - a)
                }
            }
        }
        #expect(largest <= tolerance, "\(differing) pixels differ, by up to \(largest)", sourceLocation: sourceLocation)
    }

    @Test func textIsCroppedToItsBoxWithTheSamePixels() {
        let (whole, cropped) = Self.drawBoth(width: 600, height: 60) { context in
            context.translateBy(x: 3, y: 0)
            context.draw(TextLayout(text: "Kiosk 你好 مرحبا", font: .system(size: 24), color: .black), at: Point(x: 200.5, y: 12))
        }
        guard let cropped else {
            Issue.record("nothing recorded")
            return
        }
        #expect(cropped.x >= 200 && cropped.bitmap.width < 300 && cropped.bitmap.height <= 40)
        Self.expectSame(whole, cropped)
    }

    /// Under a rounded clip, a translucent shape's antialiased edge may come out 1 apart in a channel:
    /// cairo replays a recording through an image of its own, which rounds the clip's coverage and the
    /// shape's in another order (4 pixels of this drawing).
    @Test func shapesWithAntialiasedEdgesAndClipsKeepEveryPixel() {
        let (whole, cropped) = Self.drawBoth(width: 200, height: 120) { context in
            context.save()
            context.clip(toRoundedRect: Rect(x: 20.5, y: 10.25, width: 90, height: 70), radius: 12)
            context.fillEllipse(
                in: Rect(x: 10.3, y: 5.7, width: 80.4, height: 60.2), color: Color(red: 0.2, green: 0.5, blue: 0.9, alpha: 0.7))
            context.restore()
            context.strokeRoundedRect(Rect(x: 120.5, y: 60.5, width: 50, height: 30), radius: 8, lineWidth: 1.5, color: .red)
        }
        guard let cropped else {
            Issue.record("nothing recorded")
            return
        }
        #expect(cropped.bitmap.width < 200 && cropped.bitmap.height < 120)
        Self.expectSame(whole, cropped, tolerance: 1)
    }

    @Test func anImageScaledBetweenPixels() {
        let image = Bitmap(width: 8, height: 8)
        image.fill(.green, in: image.bounds)
        image.fill(.blue, in: PixelRect(x: 2, y: 2, width: 4, height: 4))
        let (whole, cropped) = Self.drawBoth(width: 100, height: 100) { context in
            context.draw(image, in: Rect(x: 30.5, y: 40.25, width: 21, height: 13), opacity: 0.8)
        }
        guard let cropped else {
            Issue.record("nothing recorded")
            return
        }
        Self.expectSame(whole, cropped)
    }

    @Test func nothingDrawnOrNothingMarkedMakesNoBitmap() {
        let onlyState = DrawingContext(croppingTo: 50, height: 50, make: { Bitmap(width: $0, height: $1) }, prepare: { _ in })
        onlyState.save()
        onlyState.translateBy(x: 5, y: 5)
        onlyState.clip(to: Rect(x: 0, y: 0, width: 10, height: 10))
        onlyState.restore()
        #expect(onlyState.finishCropping() == nil)
        // Drawn entirely outside the bounds.
        let outside = DrawingContext(croppingTo: 50, height: 50, make: { Bitmap(width: $0, height: $1) }, prepare: { _ in })
        outside.fill(Rect(x: 60, y: 60, width: 10, height: 10), color: .red)
        #expect(outside.finishCropping() == nil)
    }

    @Test func whatPrepareDrawsCountsAndStateChangesComeAfterIt() {
        // A background from `prepare` covers the whole size: the bitmap is the whole size.
        var calls: [String] = []
        let context = DrawingContext(
            croppingTo: 40, height: 30, make: { Bitmap(width: $0, height: $1) },
            prepare: { context in
                calls.append("prepare")
                context.fill(Rect(x: 0, y: 0, width: 40, height: 30), color: .white)
            })
        context.translateBy(x: 10, y: 10)
        #expect(calls.isEmpty)
        context.fill(Rect(x: 0, y: 0, width: 5, height: 5), color: .red)
        #expect(calls == ["prepare"])
        let cropped = context.finishCropping()
        #expect(cropped.map { ($0.x, $0.y, $0.bitmap.width, $0.bitmap.height) } ?? (-1, -1, -1, -1) == (0, 0, 40, 30))
        #expect(cropped?.bitmap.pixel(x: 12, y: 12) == 0xFFFF_0000)
        #expect(cropped?.bitmap.pixel(x: 2, y: 2) == 0xFFFF_FFFF)
    }
}
