import Foundation
import Testing

@testable import KioskKit

@MainActor @Suite(.serialized)
struct CompositorTests {
    // MARK: Level order, alpha, clipping (golden images)

    /// A full-screen window, a translucent status bar at .statusBar and an alert at .alert: the alert is in
    /// front of both and the status bar in front of the main window, whichever window is key.
    @Test func levelsAndAlpha() throws {
        let r = RenderBed()
        let main = r.bed.window("main")
        main.backgroundColor = Color(rgb: 0x3366CC)
        let status = r.bed.window("status", frame: Rect(x: 0, y: 0, width: 320, height: 30), level: .statusBar)
        status.backgroundColor = Color(white: 1, alpha: 0.8)
        let alert = r.bed.window("alert", frame: Rect(x: 60, y: 20, width: 200, height: 120), level: .alert)
        alert.backgroundColor = Color(rgb: 0xCC3333)
        alert.alpha = 0.9
        let inner = View(frame: Rect(x: 20, y: 20, width: 60, height: 60))
        inner.backgroundColor = Color(rgb: 0x33CC33, alpha: 0.5)
        alert.addSubview(inner)
        main.makeKey()
        let frame = r.render()
        try expectGolden(frame, named: "levels-and-alpha")
        // Spot checks that do not depend on the golden: the alert covers the status bar.
        #expect(rgb(frame, 100, 25) != rgb(frame, 10, 25))
        #expect(rgb(frame, 10, 200) == 0x3366CC)
        #expect(rgb(frame, 319, 239) == 0x3366CC)
    }

    /// A view parked far off the screen (past the `Int32` pixels pixman uses), or given a non-finite
    /// frame, is not painted, and the frame around it is: the conversion to pixels trapped before.
    @Test func viewsFarOffTheScreenOrWithoutAFiniteFrameAreNotPainted() {
        let r = RenderBed()
        let main = r.bed.window("main")
        main.backgroundColor = .white
        for frame in [
            Rect(x: 3e9, y: 0, width: 10, height: 10), Rect(x: -3e9, y: -3e9, width: 10, height: 10),
            Rect(x: 0, y: 5e9, width: 10, height: 10), Rect(x: .nan, y: 0, width: 10, height: 10),
            Rect(x: 0, y: .infinity, width: 10, height: 10), Rect(x: 0, y: 0, width: 10, height: .nan),
        ] {
            let view = View(frame: frame)
            view.backgroundColor = .black
            main.addSubview(view)
        }
        let wide = View(frame: Rect(x: -3e9, y: 100, width: 6e9, height: 10))
        wide.backgroundColor = Color(rgb: 0xFF0000)
        main.addSubview(wide)
        let frame = r.render()
        #expect(rgb(frame, 5, 5) == 0xFFFFFF)
        #expect(rgb(frame, 160, 105) == 0xFF0000)  // the part of a view 6e9 wide that is on the screen
        #expect(rgb(frame, 160, 120) == 0xFFFFFF)
    }

    /// Subviews outside their superview show unless the superview clips; a view drawing outside its
    /// window's bounds shows too (windows do not clip by default), as UIKit shows it.
    @Test func clippingAndOverhang() throws {
        let r = RenderBed()
        let main = r.bed.window("main")
        main.backgroundColor = .white
        let clipping = View(frame: Rect(x: 20, y: 20, width: 80, height: 80))
        clipping.backgroundColor = .lightGray
        clipping.clipsToBounds = true
        let clipped = View(frame: Rect(x: 40, y: 40, width: 80, height: 80))
        clipped.backgroundColor = .red
        clipping.addSubview(clipped)
        let open = View(frame: Rect(x: 180, y: 20, width: 80, height: 80))
        open.backgroundColor = .lightGray
        let overflowing = View(frame: Rect(x: 40, y: 40, width: 80, height: 80))
        overflowing.backgroundColor = .blue
        open.addSubview(overflowing)
        main.addSubview(clipping)
        main.addSubview(open)
        let small = r.bed.window("small", frame: Rect(x: 40, y: 150, width: 60, height: 60), level: .statusBar)
        small.backgroundColor = .green
        let outside = View(frame: Rect(x: 40, y: 40, width: 60, height: 40))
        outside.backgroundColor = .orange
        small.addSubview(outside)
        let frame = r.render()
        try expectGolden(frame, named: "clipping")
        #expect(rgb(frame, 110, 110) == 0xFFFFFF)  // the clipped red stops at x = 100
        #expect(rgb(frame, 250, 110) == 0x0000FF)  // the unclipped blue goes past
        #expect(rgb(frame, 130, 200) == 0xFF8000)  // orange drawn outside the small window
        // ...but a touch there goes to the main window behind, not to the small one.
        #expect(r.bed.touchDown(at: Point(x: 130, y: 200)).window === main)
    }

    @Test(arguments: Rotation.allCases)
    func rotation(_ rotation: Rotation) throws {
        let r = RenderBed(width: 160, height: 120, rotation: rotation)
        let main = r.bed.window("main")
        main.backgroundColor = .white
        #expect(main.frame.size == (rotation.swapsAxes ? Size(width: 120, height: 160) : Size(width: 160, height: 120)))
        let marker = View(frame: Rect(x: 0, y: 0, width: 30, height: 20))
        marker.backgroundColor = .red
        main.addSubview(marker)
        let label = Label(text: "Up", font: .system(size: 14, weight: .bold), frame: Rect(x: 30, y: 0, width: 40, height: 20))
        main.addSubview(label)
        let frame = r.render()
        try expectGolden(frame, named: "rotation-\(rotation.name)")
        // The logical top-left corner's pixel is red wherever the rotation puts it on the panel.
        let corner = rotation.physicalRect(fromLogical: Rect(x: 0, y: 0, width: 1, height: 1), logicalSize: Screen.main.bounds.size)
        #expect(rgb(frame, Int(corner.minX), Int(corner.minY)) == 0xFF0000)
    }

    // MARK: Standard views

    /// A label shows the lines that fit in its bounds, the last of them truncated, as UIKit's: a label of
    /// any number of lines that is one line tall draws what a one-line label draws (it drew the middle of
    /// its text, cut at the top and bottom).
    @Test func aLabelShowsTheLinesThatFitItsBounds() {
        func drawn(lines: Int) -> Bitmap {
            let r = RenderBed(width: 200, height: 60)
            let window = r.bed.window("main")
            window.backgroundColor = .white
            let label = Label(
                text: "A long message that needs several lines in this label", font: .system(size: 16),
                frame: Rect(x: 10, y: 10, width: 150, height: 30))
            label.numberOfLines = lines
            window.addSubview(label)
            return r.render()
        }
        let one = drawn(lines: 1)
        for lines in [0, 3] {
            let many = drawn(lines: lines)
            #expect(samePixels(many, one), "numberOfLines \(lines)")
        }
    }

    @Test func standardViews() throws {
        let r = RenderBed(width: 480, height: 320)
        let main = r.bed.window("main")
        main.backgroundColor = Color(white: 0.95)
        let card = View(frame: Rect(x: 10, y: 10, width: 140, height: 80))
        card.backgroundColor = .white
        card.cornerRadius = 16
        card.borderWidth = 3
        card.borderColor = Color(rgb: 0x3366CC)
        main.addSubview(card)
        let latin = Label(text: "Hello, kiosk", font: .system(size: 18), frame: Rect(x: 160, y: 10, width: 150, height: 30))
        let chinese = Label(text: "你好，世界", font: .system(size: 18), frame: Rect(x: 160, y: 40, width: 150, height: 30))
        let arabic = Label(text: "مرحبا بالعالم", font: .system(size: 18), frame: Rect(x: 160, y: 70, width: 150, height: 30))
        let wrapped = Label(
            text: "A longer sentence that wraps onto several lines inside the label.",
            font: .system(size: 14), frame: Rect(x: 320, y: 10, width: 150, height: 90))
        wrapped.numberOfLines = 0
        wrapped.textAlignment = .center
        wrapped.textColor = Color(rgb: 0x993333)
        for label in [latin, chinese, arabic, wrapped] { main.addSubview(label) }
        for label in [latin, chinese, arabic] { #expect(label.textLayout(width: 150).unknownGlyphCount == 0) }
        #expect(wrapped.textLayout(width: 150).lineCount > 1)

        let picture = Self.testImage()
        let modes: [ImageView.ContentMode] = [.scaleToFill, .scaleAspectFit, .scaleAspectFill, .center]
        for (index, mode) in modes.enumerated() {
            let view = ImageView(image: Image(bitmap: picture))
            view.frame = Rect(x: 10 + Double(index) * 115, y: 120, width: 100, height: 60)
            view.contentMode = mode
            view.backgroundColor = .darkGray
            main.addSubview(view)
        }
        let button = Button(title: "Buy", frame: Rect(x: 10, y: 220, width: 140, height: 50))
        button.backgroundColor = .white
        button.cornerRadius = 10
        let pressed = Button(title: "Pressed", frame: Rect(x: 170, y: 220, width: 140, height: 50))
        pressed.backgroundColor = .white
        pressed.cornerRadius = 10
        pressed.image = picture
        pressed.isHighlighted = true
        main.addSubview(button)
        main.addSubview(pressed)
        try expectGolden(r.render(), named: "standard-views")
    }

    /// A 40x20 image: left half red, right half blue, with a green top row, made through PNG on purpose.
    static func testImage() -> Bitmap {
        let bitmap = Bitmap(width: 40, height: 20)
        let context = DrawingContext(bitmap: bitmap)
        context.fill(Rect(x: 0, y: 0, width: 20, height: 20), color: .red)
        context.fill(Rect(x: 20, y: 0, width: 20, height: 20), color: .blue)
        context.fill(Rect(x: 0, y: 0, width: 40, height: 3), color: .green)
        context.flush()
        return try! Bitmap(pngData: bitmap.pngData())
    }

    /// A title longer than the button ends in "…" in the room beside the image, which stays whole inside
    /// the button (the title ran past the edge and pushed the image out on the left).
    @Test func aLongButtonTitleIsTruncatedBesideItsImage() {
        let r = RenderBed(width: 300, height: 60)
        let window = r.bed.window("main")
        window.backgroundColor = .white
        let icon = Bitmap(width: 20, height: 20)
        DrawingContext(bitmap: icon).fill(Rect(x: 0, y: 0, width: 20, height: 20), color: .red)
        let button = Button(title: String(repeating: "Pay now ", count: 10), frame: Rect(x: 100, y: 10, width: 120, height: 40))
        button.image = icon
        window.addSubview(button)
        let frame = r.render()
        var red = 0
        for y in 0..<60 { for x in 0..<300 where rgb(frame, x, y) == 0xFF0000 { red += 1 } }
        #expect(red == 400)
        // The image starts at the button's left edge, the title right after it and inside the button.
        #expect(rgb(frame, 100, 30) == 0xFF0000 && rgb(frame, 99, 30) == 0xFFFFFF)
    }

    @Test func buttonSendsTouchUpInsideAndShowsItsHighlight() {
        let r = RenderBed()
        let main = r.bed.window("main")
        main.backgroundColor = .white
        let button = Button(title: "OK", frame: Rect(x: 100, y: 100, width: 100, height: 40))
        button.backgroundColor = Color(rgb: 0x3366CC)
        button.titleColor = .white
        main.addSubview(button)
        var taps = 0
        var log: [String] = []
        button.addAction(for: .touchUpInside) { _ in taps += 1 }
        final class Target {
            var log: [String] = []
            func pressed(_ control: Control) { log.append("down") }
        }
        let target = Target()
        button.addTarget(target, action: Target.pressed, for: .touchDown)
        let before = rgb(r.render(), 105, 105)
        let touch = r.bed.touchDown(at: Point(x: 150, y: 120))
        #expect(button.isHighlighted && target.log == ["down"])
        let pressed = rgb(r.render(), 105, 105)
        #expect(pressed != before)  // visibly darker while pressed
        r.bed.touch(touch, .ended)
        #expect(taps == 1 && !button.isHighlighted)
        #expect(rgb(r.render(), 105, 105) == before)
        // Lifting outside is not a tap.
        let outside = r.bed.touchDown(at: Point(x: 150, y: 120))
        r.bed.touch(outside, .moved, at: Point(x: 10, y: 10))
        #expect(!button.isHighlighted)
        r.bed.touch(outside, .ended, at: Point(x: 10, y: 10))
        #expect(taps == 1)
        log.append("done")
        #expect(log == ["done"])
    }

    // MARK: Damage

    /// wlroots' and weston's lying-damage check: change everything, report a small damage only: only
    /// pixels inside it may change.
    @Test(arguments: [false, true])
    func lyingDamageChangesOnlyTheReportedRect(paintingInPlace: Bool) {
        let r = RenderBed(cachedMemory: paintingInPlace)
        let main = r.bed.window("main")
        main.backgroundColor = .white
        let box = CountingView(frame: Rect(x: 10, y: 10, width: 100, height: 100), color: .red)
        main.addSubview(box)
        let before = r.render()
        let copy = Bitmap(width: before.width, height: before.height, format: .xrgb8888)
        copy.copy(from: before, rotation: .normal, region: Region(before.bounds))
        // Everything changes.
        main.backgroundColor = .black
        box.color = .green
        box.setNeedsDisplay()
        box.center = Point(x: 200, y: 150)
        let small = PixelRect(x: 150, y: 100, width: 20, height: 20)
        r.compositor.composeFrame(on: r.screen, reportingOnly: Region(small))
        let after = r.output.lastFrame[r.screen.name]!
        var changedOutside = 0, changedInside = 0
        for y in 0..<after.height {
            for x in 0..<after.width where rgb(after, x, y) != rgb(copy, x, y) {
                if small.contains(x: Int32(x), y: Int32(y)) { changedInside += 1 } else { changedOutside += 1 }
            }
        }
        #expect(changedOutside == 0)
        #expect(changedInside == 400)
    }

    /// Opaque culling skips what opaque views hide and never changes the output.
    @Test(arguments: [false, true])
    func opaqueCullingNeverChangesTheOutput(paintingInPlace: Bool) {
        func scene(culling: Bool) -> Bitmap {
            let r = RenderBed(cachedMemory: paintingInPlace)
            r.compositor.isOpaqueCullingEnabled = culling
            let main = r.bed.window("main")
            main.backgroundColor = Color(rgb: 0x204060)
            for i in 0..<12 {
                let view = View(frame: Rect(x: Double(i * 23), y: Double(i * 15), width: 90, height: 70))
                view.backgroundColor = i % 3 == 0 ? Color(rgb: 0x808000, alpha: 0.5) : Color(rgb: UInt32(0x101010 * (i + 1)))
                view.isOpaque = i % 3 == 1
                view.alpha = i % 4 == 3 ? 0.7 : 1
                view.cornerRadius = i % 5 == 0 ? 12 : 0
                main.addSubview(view)
            }
            let overlay = r.bed.window("overlay", frame: Rect(x: 50, y: 50, width: 200, height: 100), level: .alert)
            overlay.backgroundColor = Color(white: 1, alpha: 0.4)
            let frame = r.render()
            let copy = Bitmap(width: frame.width, height: frame.height, format: .xrgb8888)
            copy.copy(from: frame, rotation: .normal, region: Region(frame.bounds))
            return copy
        }
        let culled = scene(culling: true), plain = scene(culling: false)
        var differences = 0
        for y in 0..<culled.height { for x in 0..<culled.width where rgb(culled, x, y) != rgb(plain, x, y) { differences += 1 } }
        #expect(differences == 0)
    }

    // MARK: Content bitmaps

    /// Views that only have a background colour (a window, a container) get no bitmap: they are fills.
    /// Only a view that draws something has one, the size of its bounds.
    @Test func onlyViewsThatDrawGetABitmap() {
        let r = RenderBed()
        let main = r.bed.window("main")
        main.backgroundColor = .white
        let container = View(frame: Rect(x: 20, y: 20, width: 200, height: 150))
        container.backgroundColor = .gray
        let box = CountingView(frame: Rect(x: 10, y: 10, width: 50, height: 40), color: .red)
        container.addSubview(box)
        main.addSubview(container)
        let frame = r.render()
        #expect(main.rendering.cache == nil)
        #expect(container.rendering.cache == nil)
        #expect(box.rendering.cache.map { ($0.width, $0.height) } ?? (0, 0) == (50, 40))
        #expect(rgb(frame, 5, 5) == 0xFFFFFF)
        #expect(rgb(frame, 25, 25) == Color.gray.premultipliedARGB32 & 0xFFFFFF)
        #expect(rgb(frame, 35, 35) == 0xFF0000)
    }

    /// A view whose `draw(_:)` calls the default one (as UIKit allows) before drawing keeps what it drew.
    @Test func aDrawThatCallsSuperKeepsWhatItDraws() {
        final class Marked: View {
            override func draw(_ rect: Rect) {
                super.draw(rect)
                DrawingContext.current?.fill(Rect(x: 0, y: 0, width: 10, height: 10), color: .red)
            }
        }
        let r = RenderBed()
        let main = r.bed.window("main")
        main.backgroundColor = .white
        let marked = Marked(frame: Rect(x: 40, y: 40, width: 30, height: 30))
        marked.backgroundColor = .blue
        main.addSubview(marked)
        let frame = r.render()
        #expect(rgb(frame, 45, 45) == 0xFF0000)
        #expect(rgb(frame, 65, 65) == 0x0000FF)
    }

    /// A view that draws nothing now (a label without text) is a fill; once it draws, it gets its bitmap.
    @Test func aViewThatStartsDrawingGetsItsBitmap() {
        let r = RenderBed()
        let main = r.bed.window("main")
        main.backgroundColor = .white
        let label = Label(text: "", font: .system(size: 20), frame: Rect(x: 10, y: 10, width: 200, height: 40))
        label.textColor = .black
        main.addSubview(label)
        var frame = r.render()
        #expect(label.rendering.cache == nil)
        #expect((10..<210).allSatisfy { x in (10..<50).allSatisfy { y in rgb(frame, x, y) == 0xFFFFFF } })
        label.text = "Hello"
        frame = r.render()
        #expect(label.rendering.cache != nil)
        #expect((10..<210).contains { x in (10..<50).contains { y in rgb(frame, x, y) == 0 } })
    }

    /// What a frame's own layout changes (a table adding its cells, a label sized by its container) is in
    /// that frame, so it leaves no frame pending: a frame that lands with changes pending says the screen
    /// has not settled (input waits for that at start), and the frame after would find nothing to draw.
    @Test func layoutDuringAFrameLeavesNoFramePending() {
        final class AddsOnLayout: View {
            override func layoutSubviews() {
                super.layoutSubviews()
                guard subviews.isEmpty else { return }
                let child = View(frame: Rect(x: 0, y: 0, width: 20, height: 20))
                child.backgroundColor = .black
                addSubview(child)
            }
        }
        let r = RenderBed()
        r.output.flipsImmediately = false
        let main = r.bed.window("main")
        main.backgroundColor = .white
        let parent = AddsOnLayout(frame: Rect(x: 10, y: 10, width: 100, height: 100))
        main.addSubview(parent)
        let frame = r.render()
        #expect(rgb(frame, 15, 15) == 0, "the child added by layout is in the frame")
        #expect(!r.compositor.needsFrame(on: r.screen))
        // A change made while the frame is in flight is pending, as before.
        parent.subviews[0].backgroundColor = .white
        #expect(r.compositor.needsFrame(on: r.screen))
        r.output.flip(r.screen)
        r.render()
        #expect(rgb(r.output.lastFrame[r.screen.name]!, 15, 15) == 0xFFFFFF)
    }

    @Test func idleComposesNothing() {
        let r = RenderBed()
        let main = r.bed.window("main")
        main.backgroundColor = .white
        r.render()
        let frames = r.compositor.framesComposed(on: r.screen)
        for _ in 0..<5 { r.compositor.composePendingFrames() }
        #expect(r.compositor.framesComposed(on: r.screen) == frames)
        #expect(!r.compositor.needsFrame(on: r.screen))
        // A change that changes nothing visible (a property set to its own value) makes no frame either.
        main.backgroundColor = .white
        main.isHidden = false
        r.compositor.composePendingFrames()
        #expect(r.compositor.framesComposed(on: r.screen) == frames)
    }

    /// A view that shows or hides damages its own place only: the layers painted after it (another
    /// window, the on-screen keyboard over a field whose caret blinks) moved in the frame's order but not
    /// relative to each other, and are not painted again. Re-stacking overlapping views still repaints.
    @Test func aViewShowingOrHidingDamagesOnlyItsPlace() {
        let r = RenderBed()
        let main = r.bed.window("main")
        main.backgroundColor = .white
        let dot = View(frame: Rect(x: 0, y: 0, width: 4, height: 4))
        dot.backgroundColor = .black
        main.addSubview(dot)
        let panel = r.bed.window("panel", frame: Rect(x: 0, y: 140, width: 320, height: 100), level: .statusBar)
        panel.backgroundColor = .gray
        let key = View(frame: Rect(x: 10, y: 10, width: 40, height: 40))
        key.backgroundColor = .blue
        panel.addSubview(key)
        r.render()
        dot.isHidden = true
        r.render()
        #expect(r.output.presented.last!.damage == Region(PixelRect(x: 0, y: 0, width: 4, height: 4)))
        dot.isHidden = false
        r.render()
        #expect(r.output.presented.last!.damage == Region(PixelRect(x: 0, y: 0, width: 4, height: 4)))
        // Two overlapping views change places in the order: both are painted again, the red one in front.
        let back = View(frame: Rect(x: 100, y: 20, width: 40, height: 40))
        back.backgroundColor = .red
        let front = View(frame: Rect(x: 120, y: 40, width: 40, height: 40))
        front.backgroundColor = .green
        main.addSubview(back)
        main.addSubview(front)
        r.render()
        main.bringSubviewToFront(back)
        let frame = r.render()
        #expect(rgb(frame, 130, 50) == 0xFF0000)
        #expect(
            r.output.presented.last!.damage.contains(PixelRect(x: 120, y: 40, width: 20, height: 20)))
    }

    @Test func movingShowingAndFadingRecompositeWithoutRedrawing() {
        let r = RenderBed()
        let main = r.bed.window("main")
        main.backgroundColor = .white
        let box = CountingView(frame: Rect(x: 10, y: 10, width: 50, height: 50), color: .red)
        main.addSubview(box)
        r.render()
        #expect(box.draws == 1)
        box.center = Point(x: 200, y: 100)
        var frame = r.render()
        #expect(rgb(frame, 200, 100) == 0xFF0000 && rgb(frame, 20, 20) == 0xFFFFFF)
        // Only the old and new places were repainted.
        #expect(
            r.output.presented.last!.damage
                == Region(rects: [
                    PixelRect(x: 10, y: 10, width: 50, height: 50),
                    PixelRect(x: 175, y: 75, width: 50, height: 50),
                ]))
        box.alpha = 0.5
        frame = r.render()
        #expect(rgb(frame, 200, 100) == 0xFF7F7F || rgb(frame, 200, 100) == 0xFF8080)
        box.isHidden = true
        frame = r.render()
        #expect(rgb(frame, 200, 100) == 0xFFFFFF)
        box.isHidden = false
        main.sendSubviewToBack(box)
        main.bringSubviewToFront(box)
        r.render()
        #expect(box.draws == 1)
        box.setNeedsDisplay(Rect(x: 0, y: 0, width: 10, height: 10))
        r.render()
        #expect(box.draws == 2)
        #expect(r.output.presented.last!.damage == Region(PixelRect(x: 175, y: 75, width: 10, height: 10)))
        // Removing a view damages where it was.
        box.removeFromSuperview()
        frame = r.render()
        #expect(rgb(frame, 200, 100) == 0xFFFFFF)
    }

    /// Two page-flipped buffers and a white window holding a red 10x10 box at the origin.
    private func flippedBuffersWithABox(paintingInPlace: Bool) -> (RenderBed, Window, View) {
        let r = RenderBed(buffers: 2, cachedMemory: paintingInPlace)
        let main = r.bed.window("main")
        main.backgroundColor = .white
        let box = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        box.backgroundColor = .red
        main.addSubview(box)
        return (r, main, box)
    }

    @Test(arguments: [false, true])
    func bufferAgeGrowsTheCopy(paintingInPlace: Bool) {
        let (r, _, box) = flippedBuffersWithABox(paintingInPlace: paintingInPlace)
        r.render()  // buffer A, age 0: whole screen
        r.render()  // nothing changed: no frame
        box.center = Point(x: 100, y: 100)
        r.render()  // buffer B, age 0: whole screen
        box.center = Point(x: 200, y: 100)
        let frame = r.render()  // buffer A, age 2: this frame's damage and the previous one's
        let ages = r.output.presented.map(\.age)
        #expect(ages == [0, 0, 2])
        let last = r.output.presented.last!.damage
        #expect(
            last
                == Region(rects: [
                    PixelRect(x: 0, y: 0, width: 10, height: 10), PixelRect(x: 95, y: 95, width: 10, height: 10),
                    PixelRect(x: 195, y: 95, width: 10, height: 10),
                ]))
        // And the buffer really is up to date everywhere.
        #expect(rgb(frame, 5, 5) == 0xFFFFFF && rgb(frame, 100, 100) == 0xFFFFFF && rgb(frame, 200, 100) == 0xFF0000)
    }

    /// Painting in place into page-flipped buffers: what the older buffer missed is copied from the buffer
    /// of the last frame, and only this frame's damage is composited.
    @Test func inPlaceBuffersCopyWhatTheyMissedFromTheLastFrame() {
        let (r, main, box) = flippedBuffersWithABox(paintingInPlace: true)
        let translucent = View(frame: Rect(x: 50, y: 150, width: 40, height: 40))
        translucent.backgroundColor = Color(red: 0, green: 0, blue: 1, alpha: 0.5)
        main.addSubview(translucent)
        r.render()  // buffer A, age 0: whole screen
        box.center = Point(x: 100, y: 100)
        r.render()  // buffer B, age 0: whole screen
        var painted: [Region] = []
        let token = r.compositor.application.instrumentation.observe { if case .painted(let region) = $0 { painted.append(region) } }
        defer { token.cancel() }
        box.center = Point(x: 200, y: 100)
        let frame = r.render()  // buffer A, age 2: the first move copied from B, the second painted
        #expect(r.output.presented.map(\.age) == [0, 0, 2])
        #expect(
            painted == [Region(rects: [PixelRect(x: 95, y: 95, width: 10, height: 10), PixelRect(x: 195, y: 95, width: 10, height: 10)])])
        // The frame is what a full composition gives.
        painted.removeAll()
        r.compositor.setNeedsFullRepaint(r.screen)
        let full = r.render()  // buffer B, age 2, but the whole screen is painted: nothing is copied first
        #expect(painted == [Region(PixelRect(x: 0, y: 0, width: 320, height: 240))])
        #expect(full !== frame && samePixels(frame, full))
    }

    /// A backend that changes a screen's buffers asks for a full repaint: the buffer the last frame was
    /// painted into is never read again (DRM unmaps it), and no screenshot is made of it meanwhile.
    @Test func aFullRepaintForgetsTheBufferOfTheLastFrame() {
        let (r, _, box) = flippedBuffersWithABox(paintingInPlace: true)
        r.render()
        box.center = Point(x: 100, y: 100)
        r.render()
        #expect(r.compositor.scanoutImage(of: r.screen) != nil)
        r.compositor.setNeedsFullRepaint(r.screen)
        #expect(r.compositor.scanoutImage(of: r.screen) == nil)
        var painted: [Region] = []
        let token = r.compositor.application.instrumentation.observe { if case .painted(let region) = $0 { painted.append(region) } }
        defer { token.cancel() }
        let frame = r.render()  // buffer A, age 2: painted whole, nothing copied from B
        #expect(r.output.presented.last?.age == 2 && painted == [Region(PixelRect(x: 0, y: 0, width: 320, height: 240))])
        #expect(rgb(frame, 100, 100) == 0xFF0000 && rgb(frame, 5, 5) == 0xFFFFFF)
        #expect(r.compositor.scanoutImage(of: r.screen) != nil)
    }

    @Test func atMostOneFrameInFlight() {
        let r = RenderBed()
        r.output.flipsImmediately = false
        let main = r.bed.window("main")
        main.backgroundColor = .white
        r.compositor.composePendingFrames()
        #expect(r.compositor.framesComposed(on: r.screen) == 1 && r.compositor.isFrameInFlight(on: r.screen))
        main.backgroundColor = .black
        r.compositor.composePendingFrames()
        #expect(r.compositor.framesComposed(on: r.screen) == 1)
        r.output.flip(r.screen)
        r.compositor.composePendingFrames()
        #expect(r.compositor.framesComposed(on: r.screen) == 2)
        #expect(rgb(r.output.lastFrame[r.screen.name]!, 0, 0) == 0)
    }

    @Test func disconnectedScreensAreNotComposedAndComeBackWhole() {
        let r = RenderBed()
        let main = r.bed.window("main")
        main.backgroundColor = .blue
        r.render()
        r.bed.backend.disconnect("Virtual-1")
        main.backgroundColor = .green
        r.compositor.composePendingFrames()
        #expect(r.compositor.framesComposed(on: r.screen) == 0)
        r.bed.backend.connect("Virtual-1", modes: [Screen.Mode(width: 320, height: 240, refreshRate: 60)])
        let frame = r.render()
        #expect(rgb(frame, 0, 0) == 0x00FF00 && rgb(frame, 319, 239) == 0x00FF00)
        #expect(r.output.presented.last!.damage == Region(PixelRect(x: 0, y: 0, width: 320, height: 240)))
    }
}
