import KioskTesting
import Testing

@testable import KioskKit

/// A view transition's scene on a 64 Hz animation bed, where every frame time and every progress is a
/// binary fraction (so a frame lands exactly at 25 % or 50 %): a 200x120 container at (60, 60) on the
/// white window, with the progress of each frame composed recorded.
@MainActor
final class TransitionBed {
    let bed = AnimationBed(refreshRate: 64)
    let container = View(frame: Rect(x: 60, y: 60, width: 200, height: 120))
    /// The container's progress as each frame was composed (nil: its subtree showed live).
    private(set) var progresses: [Double?] = []
    private var frames: InstrumentationToken?

    init() {
        container.identifier = "container"
        bed.window.addSubview(container)
        frames = bed.compositor.application.instrumentation.observe { [weak self] event in
            guard let self, case .frameComposed = event else { return }
            self.progresses.append(self.container.presentation.transitionProgress)
        }
    }

    /// The container filled with `background` and holding `square`, on screen, then transitioned over a
    /// quarter of a second (linear) with `options` by `change`, given the square.
    func transition(from background: Color, with square: View, options: View.AnimationOptions, _ change: @escaping (View) -> Void) {
        container.backgroundColor = background
        container.addSubview(square)
        bed.render.render()
        View.transition(with: container, duration: 0.25, options: options.union(.curveLinear)) { change(square) }
    }

    /// A filled subview of the container.
    @discardableResult
    func square(_ frame: Rect, _ color: Color, in view: View? = nil) -> View {
        let square = View(frame: frame)
        square.backgroundColor = color
        (view ?? container).addSubview(square)
        return square
    }

    /// Runs frames one period at a time until one shows the transition at `progress`, and returns it.
    func frame(at progress: Double, sourceLocation: SourceLocation = #_sourceLocation) -> Bitmap {
        for _ in 0..<200 where container.presentation.transitionProgress != progress { bed.advance(by: bed.period) }
        #expect(container.presentation.transitionProgress == progress, sourceLocation: sourceLocation)
        return bed.frame()
    }

    var screen: Screen { bed.screen }
}

@MainActor
@Suite(.serialized)
struct ViewTransitionTests {
    /// The red square on the left goes, a blue one on the right comes: a cross-dissolve of a container
    /// with no background, whose old and new pixels are partly transparent.
    static func dissolve(_ scene: TransitionBed, duration: TimeInterval = 0.25, options: View.AnimationOptions = .curveLinear)
        -> Recorded<Bool>
    {
        let red = scene.square(Rect(x: 10, y: 10, width: 100, height: 100), .red)
        scene.bed.render.render()
        let finished = Recorded<Bool>()
        View.transition(
            with: scene.container, duration: duration, options: options.union(.transitionCrossDissolve),
            animations: {
                red.removeFromSuperview()
                scene.square(Rect(x: 90, y: 10, width: 100, height: 100), .blue)
            }, completion: { finished.values.append($0) })
        return finished
    }

    @Test func aCrossDissolveGivesAFramePerRefreshFromTheOldRenderingToTheNew() {
        let scene = TransitionBed()
        let finished = Self.dissolve(scene)
        // The model changed at once; the screen still shows the old rendering.
        #expect(scene.container.subviews.count == 1 && scene.container.subviews[0].backgroundColor == .blue)
        #expect(scene.bed.render.bed.app.isAnimating)
        scene.bed.advance(by: 1)
        // 0.25 s at 64 Hz: the first frame shows the start (its time starts when that frame is on the
        // display), then one frame a period apart per sixteenth, then the live subtree again.
        #expect(scene.progresses.count == 18 && scene.progresses.first == .some(nil))
        #expect(Array(scene.progresses.dropFirst()) == (0..<16).map { Double($0) / 16 } + [nil])
        let times = scene.bed.frameTimes.suffix(17)
        for (earlier, later) in zip(times, times.dropFirst()) { #expect(later - earlier == scene.bed.period) }
        #expect(finished.values == [true])
    }

    @Test func eachPixelPassesFromItsOldValueToItsNew() {
        let scene = TransitionBed()
        _ = Self.dissolve(scene)
        let (left, middle, right) = ((100, 100), (160, 100), (230, 100))
        let start = scene.frame(at: 0)
        #expect(
            [rgb(start, left.0, left.1), rgb(start, middle.0, middle.1), rgb(start, right.0, right.1)] == [0xFF0000, 0xFF0000, 0xFFFFFF])
        // Half way (the new side's weight 128/255, the old's 127/255): the red, where nothing comes after it,
        // half gone over the white window; the blue, where nothing was, half come; both where they overlap.
        let half = scene.frame(at: 0.5)
        #expect([rgb(half, left.0, left.1), rgb(half, middle.0, middle.1), rgb(half, right.0, right.1)] == [0xFF8080, 0x7F0080, 0x7F7FFF])
        let quarter = scene.frame(at: 0.75)
        #expect(rgb(quarter, right.0, right.1) == 0x4040FF)
    }

    @Test func theTimingCurveIsHonoured() {
        let scene = TransitionBed()
        _ = Self.dissolve(scene, duration: 0.5, options: .curveEaseIn)
        // The frame shown at a quarter of the time has come along the ease-in curve.
        var seen: [Double] = []
        for _ in 0..<40 {
            scene.bed.advance(by: scene.bed.period)
            if let progress = scene.container.presentation.transitionProgress { seen.append(progress) }
        }
        #expect(seen.count == 32)
        #expect(abs(seen[8] - TimingFunction.easeIn.value(at: 0.25)) < 1e-12)
        #expect(seen[8] < 0.25)
    }

    @Test func goldenCrossDissolveHalfWay() throws {
        let scene = TransitionBed()
        _ = Self.dissolve(scene)
        try expectGolden(scene.frame(at: 0.5), named: "transition-dissolve-50")
    }

    /// An orange container with a red square on its left flips to a blue one with a yellow square.
    static func flip(_ scene: TransitionBed, options: View.AnimationOptions) {
        let red = View(frame: Rect(x: 10, y: 10, width: 60, height: 60))
        red.backgroundColor = .red
        scene.transition(from: .orange, with: red, options: options) { red in
            scene.container.backgroundColor = .blue
            red.removeFromSuperview()
            scene.square(Rect(x: 130, y: 50, width: 60, height: 60), .yellow)
        }
    }

    @Test func aFlipScalesTheOldRenderingToNothingThenTheNewFromNothing() throws {
        let scene = TransitionBed()
        Self.flip(scene, options: .transitionFlipFromLeft)
        // A quarter through: the old rendering at half its width about the centre (x 110 to 210).
        let quarter = scene.frame(at: 0.25)
        #expect(rgb(quarter, 105, 120) == 0xFFFFFF && rgb(quarter, 120, 75) == 0xFF0000)
        #expect(rgb(quarter, 150, 120) == 0xFF8000 && rgb(quarter, 215, 120) == 0xFFFFFF)
        try expectGolden(quarter, named: "transition-flip-25")
        // Half way it has no width: nothing of the container shows.
        let half = scene.frame(at: 0.5)
        #expect(rgb(half, 160, 120) == 0xFFFFFF)
        // Three quarters through: the new one at half its width.
        let later = scene.frame(at: 0.75)
        #expect(rgb(later, 112, 120) == 0x0000FF && rgb(later, 180, 120) == 0xFFFF00 && rgb(later, 215, 120) == 0xFFFFFF)
    }

    @Test func aVerticalFlipScalesTheHeight() {
        let scene = TransitionBed()
        Self.flip(scene, options: .transitionFlipFromBottom)
        // A quarter through: the old rendering at half its height (y 90 to 150).
        let quarter = scene.frame(at: 0.25)
        #expect(rgb(quarter, 160, 85) == 0xFFFFFF && rgb(quarter, 160, 120) == 0xFF8000 && rgb(quarter, 160, 155) == 0xFFFFFF)
    }

    /// A red container with a white square slides away for a blue one with a yellow square.
    static func slide(_ scene: TransitionBed, options: View.AnimationOptions) {
        let white = View(frame: Rect(x: 20, y: 20, width: 40, height: 40))
        white.backgroundColor = .white
        scene.transition(from: .red, with: white, options: options) { white in
            scene.container.backgroundColor = .blue
            white.backgroundColor = .yellow
        }
    }

    @Test func aSlidePushesTheOldRenderingOutAndTheNewInWithinTheBounds() throws {
        let scene = TransitionBed()
        Self.slide(scene, options: .transitionSlideFromLeft)
        // Half way: the new one's right half on the left, the old one's left half on the right, nothing
        // outside the container.
        let half = scene.frame(at: 0.5)
        #expect(rgb(half, 80, 100) == 0x0000FF && rgb(half, 170, 100) == 0xFF0000 && rgb(half, 190, 100) == 0xFFFFFF)
        #expect(rgb(half, 55, 100) == 0xFFFFFF && rgb(half, 265, 100) == 0xFFFFFF)
        try expectGolden(half, named: "transition-slide-50")
    }

    @Test(arguments: [
        (View.AnimationOptions.transitionSlideFromRight, (80, 100), (240, 100)),
        (.transitionSlideFromTop, (160, 140), (160, 100)),
        (.transitionSlideFromBottom, (160, 80), (160, 160)),
    ])
    func theOtherSlidesComeFromTheirEdges(options: View.AnimationOptions, old: (Int, Int), new: (Int, Int)) {
        let scene = TransitionBed()
        Self.slide(scene, options: options)
        let half = scene.frame(at: 0.5)
        #expect(rgb(half, old.0, old.1) == 0xFF0000 && rgb(half, new.0, new.1) == 0x0000FF)
    }

    @Test func onlyTheContainersAreaIsPainted() {
        let scene = TransitionBed()
        Self.slide(scene, options: .transitionSlideFromLeft)
        let painted = Recorded<PixelRect>()
        let token = scene.bed.compositor.application.instrumentation.observe { event in
            if case .painted(let region) = event { painted.values.append(region.extents) }
        }
        scene.bed.advance(by: 1)
        token.cancel()
        // A frame per sixteenth, and the one that shows the live subtree again.
        #expect(painted.values.count == 17)
        let box = PixelRect(x: 60, y: 60, width: 200, height: 120)
        for extents in painted.values { #expect(box.intersection(extents) == extents, "\(extents)") }
    }

    @Test func theCompletionHearsFalseWhenAnotherTransitionReplacesIt() {
        let scene = TransitionBed()
        let first = Self.dissolve(scene)
        _ = scene.frame(at: 0.5)
        let second = Recorded<Bool>()
        View.transition(
            with: scene.container, duration: 0.25, options: [.transitionFlipFromRight, .curveLinear], animations: {},
            completion: { second.values.append($0) })
        scene.bed.advance(by: scene.bed.period)
        #expect(first.values == [false] && second.values.isEmpty)
        // The new one starts from what the screen showed: the cross-fade half way.
        let start = scene.frame(at: 0)
        #expect(rgb(start, 160, 100) == 0x7F0080)
        scene.bed.advance(by: 1)
        #expect(second.values == [true])
    }

    @Test func theCompletionHearsFalseWhenTheViewLeavesItsWindow() {
        let scene = TransitionBed()
        let finished = Self.dissolve(scene)
        _ = scene.frame(at: 0.25)
        scene.container.removeFromSuperview()
        scene.bed.advance(by: scene.bed.period)
        #expect(finished.values == [false])
        #expect(scene.container.presentation.transition == nil)
        #expect(!scene.bed.render.bed.app.isAnimating)
    }

    @Test func nothingRunsAfterTheEnd() {
        let scene = TransitionBed()
        let finished = Self.dissolve(scene)
        scene.bed.advance(by: 1)
        #expect(finished.values == [true])
        let frames = scene.bed.frameTimes.count
        scene.bed.advance(by: 5)
        #expect(scene.bed.frameTimes.count == frames)
        #expect(!scene.bed.compositor.isTickScheduled(on: scene.screen))
        #expect(scene.bed.clock.pendingTimers.isEmpty)
        #expect(scene.container.presentation.transition == nil)
        // The last frame is the live tree, as a full repaint draws it.
        let last = scene.bed.frame()
        scene.bed.compositor.setNeedsFullRepaint(scene.screen)
        scene.bed.render.render()
        #expect(samePixels(last, scene.bed.frame()))
        #expect(rgb(last, 100, 100) == 0xFFFFFF && rgb(last, 230, 100) == 0x0000FF)
    }

    @Test func transitionFromToPutsTheNewViewInTheOldOnesPlace() {
        let scene = TransitionBed()
        let (before, from, after) = (
            scene.square(Rect(x: 0, y: 0, width: 10, height: 10), .red), scene.square(Rect(x: 20, y: 0, width: 10, height: 10), .green),
            scene.square(Rect(x: 40, y: 0, width: 10, height: 10), .blue)
        )
        let to = View(frame: Rect(x: 20, y: 0, width: 10, height: 10))
        scene.bed.render.render()
        let finished = Recorded<Bool>()
        View.transition(from: from, to: to, duration: 0.25, options: .transitionCrossDissolve) { finished.values.append($0) }
        #expect(scene.container.subviews.map(ObjectIdentifier.init) == [before, to, after].map(ObjectIdentifier.init))
        #expect(from.superview == nil && to.superview === scene.container)
        // The container is what transitions.
        #expect(scene.container.presentation.transitionProgress == 0)
        scene.bed.advance(by: 1)
        #expect(finished.values == [true])
    }

    @Test func transitionFromToWithShowHideTransitionViewsHidesAndShows() {
        let scene = TransitionBed()
        let from = scene.square(Rect(x: 0, y: 0, width: 10, height: 10), .green)
        let to = scene.square(Rect(x: 20, y: 0, width: 10, height: 10), .blue)
        to.isHidden = true
        scene.bed.render.render()
        let finished = Recorded<Bool>()
        View.transition(from: from, to: to, duration: 0.25, options: [.transitionFlipFromLeft, .showHideTransitionViews]) {
            finished.values.append($0)
        }
        #expect(scene.container.subviews.map(ObjectIdentifier.init) == [from, to].map(ObjectIdentifier.init))
        #expect(from.isHidden && !to.isHidden)
        scene.bed.advance(by: 1)
        #expect(finished.values == [true])
    }

    @Test func aViewHiddenInTheBlockFadesAway() {
        let scene = TransitionBed()
        scene.container.backgroundColor = .blue
        scene.bed.render.render()
        View.transition(with: scene.container, duration: 0.25, options: [.transitionCrossDissolve, .curveLinear]) {
            scene.container.isHidden = true
        }
        #expect(rgb(scene.frame(at: 0.5), 160, 120) == 0x8080FF)
        scene.bed.advance(by: 1)
        #expect(rgb(scene.bed.frame(), 160, 120) == 0xFFFFFF)
    }

    @Test func theTraceHearsATransitionAsAnAnimationOfItsContainer() {
        let scene = TransitionBed()
        let events = Recorded<String>()
        let token = scene.bed.compositor.application.instrumentation.observe { event in
            switch event {
            case .animationBegan(let views, let properties, let duration):
                events.values.append("began \(views.map(\.displayName)) \(properties) \(duration)")
            case .animationEnded(let views, let properties, _, let finished):
                events.values.append("ended \(views.map(\.displayName)) \(properties) \(finished)")
            default: break
            }
        }
        _ = Self.dissolve(scene)
        scene.bed.advance(by: 1)
        token.cancel()
        #expect(events.values == ["began [\"container\"] [\"transition\"] 0.25", "ended [\"container\"] [\"transition\"] true"])
    }

    @Test func noDurationOrNoAnimationsMakesTheChangesAtOnce() {
        let scene = TransitionBed()
        scene.bed.render.render()
        let finished = Recorded<Bool>()
        View.transition(
            with: scene.container, duration: 0, options: .transitionCrossDissolve,
            animations: {
                scene.container.backgroundColor = .blue
            }, completion: { finished.values.append($0) })
        #expect(scene.container.presentation.transition == nil && !scene.bed.render.bed.app.isAnimating)
        View.setAnimationsEnabled(false)
        View.transition(
            with: scene.container, duration: 1, options: .transitionCrossDissolve,
            animations: {
                scene.container.alpha = 0.5
            }, completion: { finished.values.append($0) })
        View.setAnimationsEnabled(true)
        #expect(scene.container.presentation.transition == nil && !scene.bed.render.bed.app.isAnimating)
        scene.bed.advance(by: scene.bed.period)
        #expect(finished.values == [true, true])
    }

    @Test func withoutATransitionTheBlockAnimatesAsAnAnimationBlock() {
        let scene = TransitionBed()
        scene.bed.render.render()
        View.transition(with: scene.container, duration: 0.25, options: .curveLinear, animations: { scene.container.alpha = 0 })
        #expect(scene.container.alpha == 0 && scene.container.presentationAlpha == 1)
        #expect(scene.container.presentation.transition == nil)
        scene.bed.advance(by: 1)
        #expect(scene.container.presentationAlpha == 0)
    }
}
