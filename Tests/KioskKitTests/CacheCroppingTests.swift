import Testing

@testable import KioskKit

/// A view's cache holds only the box around what its `draw(_:)` marked; what the screen shows is the
/// same as with caches of the views' whole size.
@MainActor
@Suite(.serialized)
struct CacheCroppingTests {
    /// A view that draws dots where it is told, redrawing only around a new one (as a signature pad).
    final class Dots: View {
        var dots: [Point] = []
        func add(_ point: Point) {
            dots.append(point)
            setNeedsDisplay(Rect(x: point.x - 3, y: point.y - 3, width: 6, height: 6))
        }
        override func draw(_ rect: Rect) {
            for dot in dots { DrawingContext.current?.fillEllipse(in: Rect(x: dot.x - 3, y: dot.y - 3, width: 6, height: 6), color: .blue) }
        }
    }

    /// The largest difference of a colour channel between two frames of one size.
    func largestDifference(_ a: Bitmap, _ b: Bitmap) -> UInt32 {
        var largest: UInt32 = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let (p, q) = (rgb(a, x, y), rgb(b, x, y))
                for shift: UInt32 in [0, 8, 16] {
                    let (c, d) = ((p >> shift) & 0xFF, (q >> shift) & 0xFF)
                    largest = max(largest, c > d ? c - d : d - c)
                }
            }
        }
        return largest
    }

    static func copy(_ frame: Bitmap) -> Bitmap {
        let copy = Bitmap(width: frame.width, height: frame.height, format: frame.format)
        copy.composite(frame, operation: .source, destination: copy.bounds)
        return copy
    }

    /// The frame as composed now, and as composed again with every cache redrawn at the view's whole size.
    static func framesCroppedAndWhole(_ r: RenderBed, _ windows: [Window]) -> (cropped: Bitmap, whole: Bitmap) {
        let cropped = copy(r.render())
        r.compositor.isCacheCroppingEnabled = false
        func invalidate(_ view: View) {
            view.setNeedsDisplay()
            view.subviews.forEach(invalidate)
        }
        windows.forEach(invalidate)
        r.compositor.setNeedsFullRepaint(r.screen)
        let whole = copy(r.render())
        r.compositor.isCacheCroppingEnabled = true
        windows.forEach(invalidate)
        r.compositor.setNeedsFullRepaint(r.screen)
        return (cropped, whole)
    }

    @Test func aLabelCachesTheBoxAroundItsTextAndShowsTheSame() {
        let r = RenderBed()
        let main = r.bed.window("main")
        main.backgroundColor = .white
        let left = Label(text: "Left", font: .system(size: 20), frame: Rect(x: 10, y: 10, width: 300, height: 40))
        let right = Label(text: "€ 12.50", font: .system(size: 17), frame: Rect(x: 10, y: 60, width: 300, height: 30))
        right.textAlignment = .right
        let wrapped = Label(
            text: "Kiosk 你好 مرحبا, on two lines or more when it is this long", font: .system(size: 15),
            frame: Rect(x: 10, y: 100, width: 200, height: 60))
        wrapped.numberOfLines = 0
        let truncated = Label(
            text: "A line far too long for its label", font: .system(size: 17), frame: Rect(x: 10, y: 170, width: 120, height: 30))
        for label in [left, right, wrapped, truncated] { main.addSubview(label) }
        r.render()
        let cache = left.rendering.cache.map { ($0.width, $0.height) } ?? (0, 0)
        #expect(cache.0 > 0 && cache.0 < 60 && cache.1 < 30, "\(cache)")
        #expect(left.rendering.origin.x <= 2)
        #expect(right.rendering.origin.x > 200)
        let (cropped, whole) = Self.framesCroppedAndWhole(r, [main])
        #expect(samePixels(cropped, whole))
        // A new text is drawn anew, in a box of its own size.
        left.text = "Left, and longer now"
        let (changed, changedWhole) = Self.framesCroppedAndWhole(r, [main])
        #expect(samePixels(changed, changedWhole))
        r.render()
        #expect((left.rendering.cache?.width ?? 0) > cache.0)
    }

    @Test func croppedCachesMoveFadeTurnAndClipAsWholeOnes() {
        let r = RenderBed()
        let main = r.bed.window("main")
        main.backgroundColor = .white
        let clipper = View(frame: Rect(x: 20, y: 20, width: 130, height: 60))
        clipper.clipsToBounds = true
        let clipped = Label(text: "Clipped text", font: .system(size: 22), frame: Rect(x: 60, y: 10, width: 200, height: 40))
        clipper.addSubview(clipped)
        let faded = Label(text: "Faded", font: .system(size: 22), frame: Rect(x: 170, y: 20, width: 140, height: 40))
        faded.alpha = 0.5
        let turned = Label(text: "Turned", font: .system(size: 22), frame: Rect(x: 40, y: 110, width: 200, height: 40))
        turned.transform = AffineTransform(rotationAngle: 0.3).scaledBy(x: 1.2, y: 0.9)
        let stretched = Label(text: "Stretched", font: .system(size: 18), frame: Rect(x: 170, y: 170, width: 140, height: 40))
        stretched.bounds = Rect(x: 0, y: 0, width: 100, height: 30)
        for view in [clipper, faded, turned, stretched] { main.addSubview(view) }
        r.render()
        #expect(turned.rendering.isCropped && stretched.rendering.isCropped && clipped.rendering.isCropped)
        let (cropped, whole) = Self.framesCroppedAndWhole(r, [main])
        // Through a transform pixman samples in 16.16 fixed point: the map from a cropped cache, which
        // starts with the crop's offset, rounds a few samples another way (6 pixels, by 1 or 2 levels).
        #expect(largestDifference(cropped, whole) <= 2)
        // Moved: the cropped caches are not redrawn.
        turned.center.x += 7
        clipped.center.x -= 30
        let (moved, movedWhole) = Self.framesCroppedAndWhole(r, [main])
        #expect(largestDifference(moved, movedWhole) <= 2)
        // Without the turned label, pixel for pixel.
        turned.removeFromSuperview()
        let (rest, restWhole) = Self.framesCroppedAndWhole(r, [main])
        #expect(samePixels(rest, restWhole))
    }

    @Test func aViewThatRedrawsPartsOfItselfKeepsAWholeCache() {
        let r = RenderBed()
        let main = r.bed.window("main")
        main.backgroundColor = .white
        let dots = Dots(frame: Rect(x: 10, y: 10, width: 300, height: 200))
        main.addSubview(dots)
        dots.add(Point(x: 20, y: 20))
        r.render()
        #expect(dots.rendering.isCropped)
        dots.add(Point(x: 200, y: 150))
        var frame = r.render()
        #expect(!dots.rendering.isCropped)
        #expect(dots.rendering.cache.map { ($0.width, $0.height) } ?? (0, 0) == (300, 200))
        #expect(rgb(frame, 30, 30) == 0x0000FF && rgb(frame, 210, 160) == 0x0000FF)
        // The next dot is drawn alone into that cache.
        dots.add(Point(x: 100, y: 100))
        frame = r.render()
        #expect(rgb(frame, 110, 110) == 0x0000FF && rgb(frame, 30, 30) == 0x0000FF)
        let (now, whole) = Self.framesCroppedAndWhole(r, [main])
        #expect(samePixels(now, whole))
    }

    @Test func aTableCellIsFilledWithoutABitmap() {
        let r = RenderBed()
        let main = r.bed.window("main")
        main.backgroundColor = .white
        let cell = TableViewCell(style: .default, reuseIdentifier: nil)
        cell.frame = Rect(x: 0, y: 20, width: 320, height: 44)
        cell.textLabel.text = "Row"
        main.addSubview(cell)
        var frame = r.render()
        #expect(cell.rendering.cache == nil)
        #expect(rgb(frame, 100, 30) == 0xFFFFFF)
        #expect(rgb(frame, 100, 63) == TableViewCell.separatorColor.premultipliedARGB32 & 0xFFFFFF)
        #expect(rgb(frame, 8, 63) == 0xFFFFFF)
        cell.isHighlighted = true
        frame = r.render()
        #expect(cell.rendering.cache == nil)
        #expect(rgb(frame, 100, 30) == TableViewCell.highlightColor.premultipliedARGB32 & 0xFFFFFF)
        #expect(rgb(frame, 100, 63) == TableViewCell.separatorColor.premultipliedARGB32 & 0xFFFFFF)
        cell.selectionStyle = .none
        frame = r.render()
        #expect(rgb(frame, 100, 30) == 0xFFFFFF)
    }
}
