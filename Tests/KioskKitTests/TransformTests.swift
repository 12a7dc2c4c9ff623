import Testing

@testable import KioskKit

@MainActor
@Suite(.serialized)
struct TransformTests {
    @Test func theFrameIsTheBoxAroundTheTransformedBounds() {
        _ = TestBed()
        let view = View(frame: Rect(x: 100, y: 100, width: 100, height: 50))
        view.transform = AffineTransform(scaleX: 2, y: 2)
        #expect(view.frame == Rect(x: 50, y: 75, width: 200, height: 100))
        #expect(view.bounds == Rect(x: 0, y: 0, width: 100, height: 50))
        #expect(view.center == Point(x: 150, y: 125))
        view.transform = AffineTransform(rotationAngle: .pi / 2)
        #expect(view.frame == Rect(x: 125, y: 75, width: 50, height: 100))
        // Setting the frame under a scale keeps the scale and sizes the bounds to fit.
        view.transform = AffineTransform(scaleX: 2, y: 0.5)
        view.frame = Rect(x: 0, y: 0, width: 100, height: 100)
        #expect(view.bounds.size == Size(width: 50, height: 200))
        #expect(view.frame == Rect(x: 0, y: 0, width: 100, height: 100))
    }

    @Test func hitTestingFollowsTheTransform() {
        let bed = TestBed()
        let window = bed.window("w")
        let view = View(frame: Rect(x: 100, y: 100, width: 100, height: 20))
        view.identifier = "bar"
        window.addSubview(view)
        let app = bed.app
        #expect(app.hitTest(Point(x: 150, y: 150), on: Screen.main)?.1 === window)
        // A quarter turn about its centre (150, 110): now 20 wide and 100 tall.
        view.transform = AffineTransform(rotationAngle: .pi / 2)
        #expect(app.hitTest(Point(x: 150, y: 150), on: Screen.main)?.1 === view)
        #expect(app.hitTest(Point(x: 190, y: 110), on: Screen.main)?.1 === window)
        // Scaled down to half: the ends no longer catch touches.
        view.transform = AffineTransform(scaleX: 0.5, y: 0.5)
        #expect(app.hitTest(Point(x: 105, y: 110), on: Screen.main)?.1 === window)
        #expect(app.hitTest(Point(x: 130, y: 110), on: Screen.main)?.1 === view)
    }

    @Test func convertGoesThroughTransforms() {
        let bed = TestBed()
        let window = bed.window("w")
        let outer = View(frame: Rect(x: 100, y: 100, width: 200, height: 100))
        let inner = View(frame: Rect(x: 10, y: 10, width: 20, height: 20))
        window.addSubview(outer)
        outer.addSubview(inner)
        outer.transform = AffineTransform(scaleX: 2, y: 2)
        // outer's centre (200, 150) stays; its point (0, 0) is 200 left and 100 up of it when doubled.
        #expect(outer.convert(Point(x: 0, y: 0), to: window) == Point(x: 0, y: 50))
        #expect(inner.convert(Point(x: 0, y: 0), to: nil) == Point(x: 20, y: 70))
        #expect(window.convert(Point(x: 20, y: 70), to: inner) == Point(x: 0, y: 0))
        #expect(inner.convert(Rect(x: 0, y: 0, width: 20, height: 20), to: window) == Rect(x: 20, y: 70, width: 40, height: 40))
        // Round trips are exact for any transform that can be inverted.
        outer.transform = AffineTransform(rotationAngle: 0.3).scaledBy(x: 1.5, y: 0.75)
        let point = Point(x: 7, y: 3)
        let back = window.convert(inner.convert(point, to: window), to: inner)
        #expect(abs(back.x - point.x) < 1e-9 && abs(back.y - point.y) < 1e-9)
    }

    @Test func aTransformedWindowConvertsThroughTheScreen() {
        let bed = TestBed()
        let a = bed.window("a", frame: Rect(x: 0, y: 0, width: 200, height: 100))
        let b = bed.window("b", frame: Rect(x: 300, y: 0, width: 200, height: 100))
        b.transform = AffineTransform(scaleX: 0.5, y: 0.5)
        // b's centre is (400, 50); its origin shows at (350, 25) on the screen.
        #expect(b.convert(Point.zero, to: nil) == Point(x: 350, y: 25))
        #expect(a.convert(Point(x: 350, y: 25), to: b) == Point.zero)
        #expect(bed.app.hitTest(Point(x: 320, y: 10), on: Screen.main) == nil)
        #expect(bed.app.hitTest(Point(x: 360, y: 30), on: Screen.main)?.0 === b)
    }

    @Test func interpolatingATurnTurnsInsteadOfShrinking() {
        let quarter = AffineTransform(rotationAngle: .pi / 2)
        let half = AffineTransform.identity.interpolated(to: quarter, fraction: 0.5)
        let expected = AffineTransform(rotationAngle: .pi / 4)
        for (a, b) in [(half.a, expected.a), (half.b, expected.b), (half.c, expected.c), (half.d, expected.d)] {
            #expect(abs(a - b) < 1e-12)
        }
        let scaled = AffineTransform(scaleX: 0.5, y: 0.5).interpolated(to: .identity, fraction: 0.5)
        #expect(abs(scaled.a - 0.75) < 1e-12 && abs(scaled.d - 0.75) < 1e-12 && abs(scaled.b) < 1e-12)
    }
}

@MainActor
@Suite(.serialized)
struct TransformedCompositionTests {
    /// A card turned by 30° with a label and a plain square scaled by 1.5 inside a clipping view.
    private func scene(_ r: RenderBed) -> (card: CountingView, square: View) {
        let main = r.bed.window("main")
        main.backgroundColor = .white
        main.isOpaque = true
        let card = CountingView(frame: Rect(x: 20, y: 30, width: 70, height: 40), color: Color(rgb: 0x3366CC))
        card.transform = AffineTransform(rotationAngle: .pi / 6)
        let label = Label(text: "Tilt", font: .system(size: 14, weight: .bold), frame: Rect(x: 5, y: 10, width: 60, height: 20))
        label.textColor = .white
        card.addSubview(label)
        main.addSubview(card)
        let clip = View(frame: Rect(x: 100, y: 20, width: 50, height: 50))
        clip.clipsToBounds = true
        clip.backgroundColor = Color(white: 0.9)
        let square = View(frame: Rect(x: 15, y: 15, width: 30, height: 30))
        square.backgroundColor = Color(rgb: 0xFF8000)
        square.transform = AffineTransform(scaleX: 1.5, y: 1.5)
        clip.addSubview(square)
        main.addSubview(clip)
        return (card, square)
    }

    @Test(arguments: Rotation.allCases)
    func transformedViews(_ rotation: Rotation) throws {
        let r = RenderBed(width: 160, height: 120, rotation: rotation)
        _ = scene(r)
        try expectGolden(r.render(), named: "transform-\(rotation.name)")
    }

    @Test func theLogicalPictureIsTheSameAtEveryRotation() {
        var shadows: [Bitmap] = []
        for rotation in [Rotation.normal, .rotated90] {
            let r = RenderBed(width: 160, height: 160, rotation: rotation)
            _ = scene(r)
            r.render()
            shadows.append(r.compositor.shadow(of: r.screen)!)
        }
        #expect(samePixels(shadows[0], shadows[1]))
    }

    @Test func aScaledViewInAClippingViewStopsAtItsEdges() {
        let r = RenderBed(width: 160, height: 120)
        _ = scene(r)
        let frame = r.render()
        // The square grows to 45x45 about (130, 50): past the clip (100...150, 20...70) on the right and below.
        #expect(rgb(frame, 148, 50) == 0xFF8000)
        #expect(rgb(frame, 151, 50) == 0xFFFFFF)
        #expect(rgb(frame, 130, 71) == 0xFFFFFF)
        #expect(rgb(frame, 102, 22) == 0xE6E6E6)  // the clip view's own grey outside the square
    }

    @Test func turningAndFadingNeverRedraws() {
        let r = RenderBed(width: 160, height: 120)
        let (card, _) = scene(r)
        r.render()
        #expect(card.draws == 1)
        card.transform = AffineTransform(rotationAngle: -.pi / 5).scaledBy(x: 0.8, y: 0.8)
        card.alpha = 0.5
        r.render()
        card.transform = .identity
        r.render()
        #expect(card.draws == 1)
    }

    @Test func aTransformDamagesTheBoxesWhereItWasAndWhereItIs() {
        let r = RenderBed(width: 160, height: 120)
        let main = r.bed.window("main")
        main.backgroundColor = .white
        let view = View(frame: Rect(x: 40, y: 40, width: 20, height: 20))
        view.backgroundColor = .red
        main.addSubview(view)
        r.render()
        let before = r.output.presented.count
        view.transform = AffineTransform(scaleX: 2, y: 2)
        r.render()
        let damage = r.output.presented[before].damage
        #expect(damage.extents == PixelRect(x: 30, y: 30, width: 40, height: 40))
        #expect(damage.area == 40 * 40)
    }
}
