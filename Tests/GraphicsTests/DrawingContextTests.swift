import Testing

@testable import Graphics

@Suite struct DrawingContextTests {
    @Test func rectFillLandsOnExpectedPixels() {
        let bitmap = Bitmap(width: 20, height: 20)
        let context = DrawingContext(bitmap: bitmap)
        context.fill(Rect(x: 2, y: 3, width: 10, height: 10), color: .red)
        context.flush()
        for y in 0..<20 {
            for x in 0..<20 {
                let inside = (2..<12).contains(x) && (3..<13).contains(y)
                #expect(bitmap.pixel(x: x, y: y) == (inside ? 0xFFFF_0000 : 0), "(\(x), \(y))")
            }
        }
    }

    /// cairo, pixman and `Color.premultipliedARGB32` agree on the pixel a colour becomes.
    @Test(arguments: [
        Color(red: 0.2, green: 0.4, blue: 0.6, alpha: 0.5), Color(rgb: 0x336699, alpha: 0.3),
        .gray, .orange, Color(white: 1, alpha: 0.999), Color(red: 0.5, green: 0.25, blue: 1, alpha: 0.75),
    ])
    func colourRoundingMatchesCairoAndPixman(color: Color) {
        let drawn = Bitmap(width: 4, height: 4)
        DrawingContext(bitmap: drawn).fill(Rect(x: 0, y: 0, width: 4, height: 4), color: color)
        let filled = Bitmap(width: 4, height: 4)
        filled.fill(color, in: filled.bounds)
        #expect(drawn.pixel(x: 1, y: 1) == color.premultipliedARGB32)
        #expect(filled.pixel(x: 1, y: 1) == color.premultipliedARGB32)
    }

    @Test func premultipliedValues() {
        #expect(Color.red.premultipliedARGB32 == 0xFFFF_0000)
        #expect(Color.clear.premultipliedARGB32 == 0)
        #expect(Color(red: 1, green: 1, blue: 1, alpha: 0.5).premultipliedARGB32 == 0x8080_8080)
        #expect(Color(rgb: 0x102030).premultipliedARGB32 == 0xFF10_2030)
        #expect(Color(red: 2, green: -1, blue: .nan).premultipliedARGB32 == 0xFFFF_0000)
        #expect(Color.white.withAlphaComponent(0).isOpaque == false)
        #expect(Color.black.isOpaque)
    }

    @Test func translateAndRestore() {
        let bitmap = Bitmap(width: 10, height: 10)
        let context = DrawingContext(bitmap: bitmap)
        context.save()
        context.translateBy(x: 5, y: 5)
        context.scaleBy(x: 2, y: 2)
        context.fill(Rect(x: 0, y: 0, width: 1, height: 1), color: .blue)
        context.restore()
        context.fill(Rect(x: 0, y: 0, width: 1, height: 1), color: .green)
        #expect(bitmap.pixel(x: 5, y: 5) == 0xFF00_00FF)
        #expect(bitmap.pixel(x: 6, y: 6) == 0xFF00_00FF)
        #expect(bitmap.pixel(x: 7, y: 7) == 0)
        #expect(bitmap.pixel(x: 0, y: 0) == 0xFF00_FF00)
        #expect(bitmap.inkPixelCount == 5)
    }

    /// A quarter turn takes the x axis to the y axis: clockwise on the screen, as UIKit's `rotate(by:)`; a
    /// deferred context replays it.
    @Test func rotateTurnsClockwise() {
        func draw(_ context: DrawingContext) {
            context.translateBy(x: 5, y: 5)
            context.rotate(by: Double.pi / 2)
            // Right of the origin, along x: after the turn, below it, in column 4 (x from -1 to 0).
            context.fill(Rect(x: 1, y: 0, width: 3, height: 1), color: .red)
        }
        let bitmap = Bitmap(width: 10, height: 10)
        draw(DrawingContext(bitmap: bitmap))
        #expect((6...8).allSatisfy { bitmap.pixel(x: 4, y: $0) == 0xFFFF_0000 })
        #expect(bitmap.pixel(x: 6, y: 5) == 0 && bitmap.inkPixelCount == 3)
        let deferred = DrawingContext(makingBitmapOnFirstDrawing: { Bitmap(width: 10, height: 10) }, prepare: { _ in })
        draw(deferred)
        deferred.flush()
        #expect(deferred.bitmap.allPixels == bitmap.allPixels)
    }

    @Test func clipLimitsDrawing() {
        let bitmap = Bitmap(width: 10, height: 10)
        let context = DrawingContext(bitmap: bitmap)
        context.save()
        context.clip(to: Rect(x: 2, y: 2, width: 3, height: 3))
        context.fill(Rect(x: 0, y: 0, width: 10, height: 10), color: .red)
        context.restore()
        #expect(bitmap.inkBounds! == (minX: 2, maxX: 4, minY: 2, maxY: 4))
        #expect(bitmap.inkPixelCount == 9)
    }

    @Test func roundedRectCornersAreTransparent() {
        let bitmap = Bitmap(width: 40, height: 30)
        DrawingContext(bitmap: bitmap).fillRoundedRect(Rect(x: 0, y: 0, width: 40, height: 30), radius: 10, color: .red)
        for (x, y) in [(0, 0), (39, 0), (0, 29), (39, 29), (1, 1), (2, 1)] {
            #expect(bitmap.pixel(x: x, y: y) == 0, "corner (\(x), \(y))")
        }
        for (x, y) in [(20, 15), (20, 0), (0, 15), (39, 15), (20, 29), (10, 10)] {
            #expect(bitmap.pixel(x: x, y: y) == 0xFFFF_0000, "inside (\(x), \(y))")
        }
    }

    @Test func roundedClipCutsCorners() {
        let bitmap = Bitmap(width: 20, height: 20)
        let context = DrawingContext(bitmap: bitmap)
        context.clip(toRoundedRect: Rect(x: 0, y: 0, width: 20, height: 20), radius: 8)
        context.fill(Rect(x: 0, y: 0, width: 20, height: 20), color: .blue)
        #expect(bitmap.pixel(x: 0, y: 0) == 0)
        #expect(bitmap.pixel(x: 10, y: 10) == 0xFF00_00FF)
    }

    @Test func borderIsDrawnInsideTheRect() {
        let bitmap = Bitmap(width: 30, height: 30)
        DrawingContext(bitmap: bitmap).strokeRoundedRect(
            Rect(x: 5, y: 5, width: 20, height: 20), radius: 0,
            lineWidth: 3, color: .black)
        #expect(bitmap.inkBounds! == (minX: 5, maxX: 24, minY: 5, maxY: 24))
        #expect(bitmap.pixel(x: 5, y: 5) == 0xFF00_0000)  // square corner
        #expect(bitmap.pixel(x: 7, y: 15) == 0xFF00_0000)
        #expect(bitmap.pixel(x: 8, y: 15) == 0)  // inside the 3-pixel border
        #expect(bitmap.pixel(x: 22, y: 15) == 0xFF00_0000)
        #expect(bitmap.pixel(x: 21, y: 15) == 0)
        #expect(bitmap.inkPixelCount == 20 * 20 - 14 * 14)

        let rounded = Bitmap(width: 30, height: 30)
        DrawingContext(bitmap: rounded).strokeRoundedRect(
            Rect(x: 5, y: 5, width: 20, height: 20), radius: 8,
            lineWidth: 2, color: .black)
        #expect(rounded.pixel(x: 5, y: 5) == 0)  // the corner is cut
        #expect(rounded.pixel(x: 5, y: 15) == 0xFF00_0000)
        #expect(rounded.pixel(x: 15, y: 15) == 0)
    }

    @Test func ellipse() {
        let bitmap = Bitmap(width: 20, height: 10)
        DrawingContext(bitmap: bitmap).fillEllipse(in: Rect(x: 0, y: 0, width: 20, height: 10), color: .green)
        #expect(bitmap.pixel(x: 10, y: 5) == 0xFF00_FF00)
        #expect(bitmap.pixel(x: 0, y: 0) == 0)
        #expect(bitmap.pixel(x: 19, y: 9) == 0)
        #expect(bitmap.inkBounds! == (minX: 0, maxX: 19, minY: 0, maxY: 9))
        DrawingContext(bitmap: bitmap).fillEllipse(in: Rect(x: 3, y: 3, width: 0, height: 5), color: .red)  // no-op
    }

    /// A context that makes its bitmap on first drawing makes none while only the state changes.
    @Test func aDeferredContextMakesNoBitmapUntilSomethingIsDrawn() {
        var made = 0
        let context = DrawingContext(
            makingBitmapOnFirstDrawing: {
                made += 1
                return Bitmap(width: 10, height: 10)
            }, prepare: { _ in })
        context.save()
        context.translateBy(x: 2, y: 2)
        context.clip(to: Rect(x: 0, y: 0, width: 3, height: 3))
        context.restore()
        context.fillEllipse(in: Rect(x: 1, y: 1, width: 0, height: 4), color: .red)  // empty: draws nothing
        context.flush()
        #expect(made == 0)
        #expect(!context.hasBitmap)
    }

    /// The first drawing makes the bitmap, draws `prepare`'s under it and replays the state changes made
    /// before: the pixels are those of a context that had its bitmap all along.
    @Test func aDeferredContextDrawsAsAnEagerOneWould() {
        func draw(_ context: DrawingContext) {
            context.save()
            context.translateBy(x: 3, y: 2)
            context.scaleBy(x: 2, y: 2)
            context.save()
            context.clip(to: Rect(x: 0, y: 0, width: 2, height: 3))
            context.restore()
            context.clip(toRoundedRect: Rect(x: 0, y: 0, width: 4, height: 4), radius: 1)
            context.fill(Rect(x: -1, y: -1, width: 8, height: 8), color: .red)
            context.restore()
            context.fill(Rect(x: 0, y: 0, width: 2, height: 2), color: .green)
        }
        let under = { (context: DrawingContext) in
            context.clip(to: Rect(x: 0, y: 0, width: 16, height: 12))
            context.fill(Rect(x: 0, y: 0, width: 20, height: 20), color: .blue)
        }
        let eager = Bitmap(width: 20, height: 20)
        let eagerContext = DrawingContext(bitmap: eager)
        under(eagerContext)
        draw(eagerContext)
        eagerContext.flush()
        let deferred = DrawingContext(makingBitmapOnFirstDrawing: { Bitmap(width: 20, height: 20) }, prepare: under)
        draw(deferred)
        deferred.flush()
        #expect(deferred.hasBitmap)
        #expect(deferred.bitmap.allPixels == eager.allPixels)
        #expect(eager.pixel(x: 0, y: 0) == 0xFF00_FF00)
        #expect(eager.pixel(x: 15, y: 11) == 0xFF00_00FF)
        #expect(eager.pixel(x: 16, y: 12) == 0)
    }

    @Test func clearMakesPixelsTransparent() {
        let bitmap = Bitmap(width: 10, height: 10)
        let context = DrawingContext(bitmap: bitmap)
        context.fill(Rect(x: 0, y: 0, width: 10, height: 10), color: .red)
        context.clear(Rect(x: 0, y: 0, width: 5, height: 10))
        #expect(bitmap.pixel(x: 4, y: 4) == 0)
        #expect(bitmap.pixel(x: 5, y: 4) == 0xFFFF_0000)
        context.fill(Rect(x: 0, y: 0, width: 1, height: 1), color: .blue)  // operator is OVER again
        #expect(bitmap.pixel(x: 0, y: 0) == 0xFF00_00FF)
    }

    @Test func bitmapDrawnScaledIntoRect() {
        let image = Bitmap(width: 2, height: 2)
        image.fill(.orange, in: image.bounds)
        let bitmap = Bitmap(width: 20, height: 20)
        let context = DrawingContext(bitmap: bitmap)
        context.draw(image, in: Rect(x: 4, y: 6, width: 8, height: 8))
        // A uniform image keeps its exact colour when scaled, up to the edges (EXTEND_PAD).
        #expect(bitmap.inkBounds! == (minX: 4, maxX: 11, minY: 6, maxY: 13))
        #expect(bitmap.pixel(x: 4, y: 6) == Color.orange.premultipliedARGB32)
        #expect(bitmap.pixel(x: 11, y: 13) == Color.orange.premultipliedARGB32)
        #expect(bitmap.inkPixelCount == 64)

        context.draw(image, in: Rect(x: 14, y: 0, width: 4, height: 4), opacity: 0.5)
        let alpha = bitmap.pixel(x: 15, y: 1) >> 24
        #expect((127...128).contains(alpha))
    }

    @Test func bitmapDrawnOneToOneIsExact() {
        let image = BitmapTests.sampleBitmap()
        let bitmap = Bitmap(width: image.width, height: image.height)
        DrawingContext(bitmap: bitmap).draw(image, in: Rect(size: image.size))
        #expect(bitmap.allPixels == image.allPixels)
    }

    /// A pixman write after cairo drawing, and cairo drawing after a pixman write, both see each other.
    @Test func cairoAndPixmanShareThePixels() {
        let bitmap = Bitmap(width: 8, height: 8)
        let context = DrawingContext(bitmap: bitmap)
        context.fill(Rect(x: 0, y: 0, width: 8, height: 8), color: .red)
        bitmap.fill(.blue, in: PixelRect(x: 0, y: 0, width: 4, height: 8))
        context.fill(Rect(x: 0, y: 0, width: 8, height: 2), color: .green.withAlphaComponent(0.5))
        #expect(bitmap.pixel(x: 1, y: 5) == 0xFF00_00FF)
        #expect(bitmap.pixel(x: 6, y: 5) == 0xFFFF_0000)
        #expect(bitmap.pixel(x: 1, y: 0) == referenceOver(Color.green.withAlphaComponent(0.5).premultipliedARGB32, 0xFF00_00FF))
    }
}
