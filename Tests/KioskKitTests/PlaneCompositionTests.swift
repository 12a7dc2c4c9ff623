import Testing

@_spi(KioskRuntime) @testable import KioskKit

/// Views on planes (`View.planePreference`) through the compositor into a display with planes
/// (`PlaneOutput`): what the display shows is, pixel for pixel, what the same scene composed without
/// planes shows; a cursor that moves composes nothing; what a plane cannot take is composed.
@MainActor
struct PlaneCompositionTests {
    static let cursorPlane = DisplayPlane(
        id: 40, kind: .cursor, formats: [.argb32Premultiplied], zOrder: 2, requiredSize: DisplayPlane.BufferSize(width: 64, height: 64))
    static let overlayPlane = DisplayPlane(id: 35, kind: .overlay, formats: [.argb32Premultiplied, .xrgb8888], zOrder: 1)

    /// A ring with translucent edges, as the runtime's cursor.
    final class Ring: View {
        override func draw(_ rect: Rect) {
            guard let context = DrawingContext.current else { return }
            context.fillEllipse(in: bounds, color: Color(white: 0, alpha: 0.8))
            context.fillEllipse(in: bounds.insetBy(dx: 2, dy: 2), color: .white)
            context.fillEllipse(in: bounds.insetBy(dx: 5, dy: 5), color: Color(red: 1, green: 0, blue: 0, alpha: 0.6))
        }
    }

    /// One scene: a window of stripes, a photo-like overlay view (opaque, redrawn on demand), a cursor window.
    struct Scene {
        let window: Window
        let overlay: CountingView
        let cursor: Window
    }

    static func makeScene(overlay preference: PlanePreference = .overlay) -> Scene {
        let window = Window(screen: Screen.main)
        window.backgroundColor = Color(red: 0.2, green: 0.3, blue: 0.4)
        window.makeKeyAndVisible()
        for index in 0..<6 {
            let stripe = View(frame: Rect(x: Double(index) * 20, y: 0, width: 10, height: 120))
            stripe.backgroundColor = Color(red: 0.9, green: 0.8, blue: 0.1, alpha: 0.7)
            window.addSubview(stripe)
        }
        let overlay = CountingView(frame: Rect(x: 30, y: 40, width: 50, height: 30), color: .green)
        overlay.isOpaque = true
        overlay.planePreference = preference
        window.addSubview(overlay)
        let cursor = Window(frame: Rect(x: 100, y: 60, width: 16, height: 16))
        cursor.isSystemOverlay = true
        cursor.isUserInteractionEnabled = false
        cursor.planePreference = .cursor
        cursor.addSubview(Ring(frame: cursor.bounds))
        cursor.isHidden = false
        return Scene(window: window, overlay: overlay, cursor: cursor)
    }

    /// The scene composed without planes, after `change`: the frame every plane arrangement must show.
    static func reference(rotation: Rotation = .normal, _ change: (Scene) -> Void = { _ in }) -> Bitmap {
        let render = RenderBed(width: 160, height: 120, rotation: rotation)
        let scene = makeScene()
        render.render()
        change(scene)
        let frame = render.render()
        let copy = Bitmap(width: frame.width, height: frame.height, format: .xrgb8888)
        copy.composite(frame, operation: .source, destination: frame.bounds)
        return copy
    }

    final class Bed {
        let bed: TestBed
        let output: PlaneOutput
        let compositor: Compositor
        var painted: [Region] = []
        /// `painted`'s subscription.
        private var paints: InstrumentationToken?

        @MainActor init(planes: [DisplayPlane], rotation: Rotation = .normal) {
            bed = TestBed(screens: [])
            bed.backend.connect("Virtual-1", modes: [Screen.Mode(width: 160, height: 120, refreshRate: 60)])
            Screen.main.rotation = rotation
            output = PlaneOutput(planes: planes)
            compositor = Compositor(output: output, application: bed.app)
            output.compositor = compositor
            paints = bed.app.instrumentation.observe { [unowned self] in
                if case .painted(let region) = $0 { self.painted.append(region) }
            }
        }

        @MainActor func render() -> Bitmap {
            compositor.composePendingFrames()
            return output.scanout(of: Screen.main)
        }
    }

    @Test func theCursorMovesWithoutComposing() {
        let expected = Self.reference { $0.cursor.frame.origin = Point(x: 140, y: 110) }
        let bed = Bed(planes: [Self.overlayPlane, Self.cursorPlane])
        let scene = Self.makeScene()
        _ = bed.render()
        #expect(bed.output.shown.keys.sorted() == [35, 40])
        let frames = bed.output.framesPresented
        bed.painted.removeAll()
        for step in 1...4 {
            scene.cursor.frame.origin = Point(x: 100 + Double(step) * 10, y: 60 + Double(step) * 12.5)
            _ = bed.render()
        }
        #expect(bed.output.framesPresented == frames, "a cursor move composed a frame")
        #expect(bed.painted.isEmpty, "a cursor move painted \(bed.painted)")
        #expect(bed.output.planeMovesPresented == 4)
        #expect(bed.output.proposalsTested == [[35, 40]], "a move asked the display again")
        #expect(bed.output.shown[40]?.destination == PixelRect(x: 140, y: 110, width: 64, height: 64))
        #expect(sameColours(bed.render(), expected))
    }

    @Test func whatTheDisplayRefusesIsComposedWithTheSamePixels() {
        let expected = Self.reference()
        let bed = Bed(planes: [Self.overlayPlane, Self.cursorPlane])
        bed.output.refuses = { _ in true }
        _ = Self.makeScene()
        #expect(sameColours(bed.render(), expected))
        #expect(bed.output.shown.isEmpty)
        // Weston's order: planes only, then fewer, then the renderer alone (which needs no test).
        #expect(bed.output.proposalsTested == [[35, 40], [40]])
    }

    @Test func aRefusedOverlayFallsBackAndTheCursorStays() {
        let expected = Self.reference()
        let bed = Bed(planes: [Self.overlayPlane, Self.cursorPlane])
        bed.output.refuses = { layers in layers.contains { $0.plane.kind == .overlay } }
        _ = Self.makeScene()
        #expect(sameColours(bed.render(), expected))
        #expect(bed.output.shown.keys.sorted() == [40])
    }

    @Test func anOverlaysNewContentPaintsOnlyItsBuffer() {
        let expected = Self.reference {
            $0.overlay.color = .blue
            $0.overlay.setNeedsDisplay()
        }
        let bed = Bed(planes: [Self.overlayPlane, Self.cursorPlane])
        let scene = Self.makeScene()
        _ = bed.render()
        let frames = bed.output.framesPresented
        bed.painted.removeAll()
        scene.overlay.color = .blue
        scene.overlay.setNeedsDisplay()
        #expect(sameColours(bed.render(), expected))
        #expect(bed.output.framesPresented == frames && bed.painted.isEmpty, "the overlay's redraw composed the frame")
        #expect(scene.overlay.draws == 2)
    }

    @Test func anOverlayUnderComposedContentIsComposedUntilUncovered() {
        let expectedCovered = Self.reference { scene in
            let cover = View(frame: Rect(x: 70, y: 50, width: 20, height: 20))
            cover.backgroundColor = .white
            scene.window.addSubview(cover)
        }
        let bed = Bed(planes: [Self.overlayPlane, Self.cursorPlane])
        let scene = Self.makeScene()
        let cover = View(frame: Rect(x: 70, y: 50, width: 20, height: 20))
        cover.backgroundColor = .white
        scene.window.addSubview(cover)
        #expect(sameColours(bed.render(), expectedCovered))
        #expect(bed.output.shown.keys.sorted() == [40])
        cover.frame.origin.x = 120
        _ = bed.render()
        #expect(bed.output.shown.keys.sorted() == [35, 40])
        #expect(bed.output.proposalsTested == [[40], [35, 40]])
    }

    @Test func aHiddenCursorLeavesItsPlane() {
        let expected = Self.reference { $0.cursor.isHidden = true }
        let bed = Bed(planes: [Self.overlayPlane, Self.cursorPlane])
        let scene = Self.makeScene()
        _ = bed.render()
        scene.cursor.isHidden = true
        #expect(sameColours(bed.render(), expected))
        #expect(bed.output.shown.keys.sorted() == [35])
        #expect(bed.compositor.scanoutImage(of: Screen.main).map { sameColours($0, expected) } == true)
    }

    @Test(arguments: Rotation.allCases)
    func planesOnATurnedScreenShowTheComposedPixels(rotation: Rotation) throws {
        let expected = Self.reference(rotation: rotation) { $0.cursor.frame.origin = Point(x: 20, y: 90) }
        let bed = Bed(planes: [Self.overlayPlane, Self.cursorPlane], rotation: rotation)
        let scene = Self.makeScene()
        _ = bed.render()
        scene.cursor.frame.origin = Point(x: 20, y: 90)
        #expect(sameColours(bed.render(), expected))
        #expect(bed.output.shown.keys.sorted() == [35, 40])
        // The screenshot is what the display shows, the planes included.
        let screenshot = try #require(bed.compositor.scanoutImage(of: Screen.main))
        #expect(sameColours(screenshot, expected))
    }
}
