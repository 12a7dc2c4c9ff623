import KioskTesting
import Testing

@testable import KioskKit

/// A render bed on a manual clock at 60 Hz whose output shows each frame at once (as the headless
/// backend: no vblank events), recording the clock's time at every frame composed.
@MainActor
final class AnimationBed {
    let render: RenderBed
    let clock = ManualClock(now: 99)
    let window: Window
    private(set) var frameTimes: [TimeInterval] = []
    /// `frameTimes`' subscription.
    private var frames: InstrumentationToken?

    /// `refreshRate`: 64 Hz makes every frame time and progress a binary fraction, exactly (golden frames
    /// at a given point of an animation).
    init(width: Int = 320, height: Int = 240, buffers: Int = 1, refreshRate: Double = 60) {
        render = RenderBed(width: width, height: height, buffers: buffers, refreshRate: refreshRate)
        render.bed.app.clock = clock
        window = Window(screen: Screen.main)
        window.backgroundColor = .white
        window.isOpaque = true
        window.makeKeyAndVisible()
        // The window's first frame a second before the tests' time 100, so that what a test starts at 100
        // is not held back to a period after it (outputs without vblank times get a frame per period).
        render.render()
        clock.advance(to: 100)
        frames = render.compositor.application.instrumentation.observe { [weak self] event in
            guard let self, case .frameComposed = event else { return }
            self.frameTimes.append(self.clock.now)
        }
    }

    var compositor: Compositor { render.compositor }
    var output: TestOutput { render.output }
    var screen: Screen { render.screen }
    var period: TimeInterval { 1 / (screen.currentMode?.refreshRate ?? 60) }

    /// A bed whose output holds each frame until the test flips it, and an added display link that
    /// records its timestamps and moves a blue view each frame (so each frame is in flight until flipped).
    static func withMovingLink() -> (AnimationBed, DisplayLink, Recorded<TimeInterval>) {
        let bed = AnimationBed()
        bed.output.flipsImmediately = false
        let stamps = Recorded<TimeInterval>()
        let view = bed.smallView()
        view.backgroundColor = .blue
        let link = bed.screen.displayLink { link in
            stamps.values.append(link.timestamp)
            view.center.x += 1
        }
        link.add()
        return (bed, link, stamps)
    }

    /// A 10x10 view at the window's origin.
    func smallView() -> View {
        let view = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        window.addSubview(view)
        return view
    }

    /// Moves the clock by `seconds`, running the frame clock's ticks and deferred completions on the way.
    func advance(by seconds: TimeInterval) { clock.advance(by: seconds) }

    /// The frame on the output now, copied.
    func frame() -> Bitmap {
        let frame = render.output.lastFrame[screen.name]!
        let copy = Bitmap(width: frame.width, height: frame.height, format: frame.format)
        copy.composite(frame, operation: .source, destination: copy.bounds)
        return copy
    }
}

/// Values a closure appends to, shared with the test.
@MainActor
final class Recorded<Value> {
    var values: [Value] = []
}

func samePixels(_ a: Bitmap, _ b: Bitmap) -> Bool {
    guard a.width == b.width, a.height == b.height else { return false }
    for y in 0..<a.height {
        for x in 0..<a.width where rgb(a, x, y) != rgb(b, x, y) { return false }
    }
    return true
}

@MainActor
@Suite(.serialized)
struct AnimationTests {
    @Test func theModelValueChangesAtOnceAndTheScreenShowsThePresentation() {
        let bed = AnimationBed()
        let view = View(frame: Rect(x: 10, y: 10, width: 100, height: 50))
        view.backgroundColor = .red
        bed.window.addSubview(view)
        View.animate(withDuration: 1, options: .curveLinear) {
            view.alpha = 0
            view.center = Point(x: 200, y: 100)
        }
        #expect(view.alpha == 0)
        #expect(view.center == Point(x: 200, y: 100))
        #expect(view.presentationAlpha == 1)
        #expect(view.presentationFrame == Rect(x: 10, y: 10, width: 100, height: 50))
        #expect(bed.render.bed.app.isAnimating)
        // The animation's time starts with the first frame that shows it (one period from now), and each
        // frame samples the time it will be shown: 0.5 s on, the frame shows half way, within a frame.
        bed.advance(by: 0.5)
        #expect(abs(view.presentationAlpha - 0.5) <= bed.period + 1e-9)
        #expect(abs(view.presentationFrame.midX - (60 + 200) / 2) <= 140 * bed.period + 1e-9)
        bed.advance(by: 1)
        #expect(view.presentationAlpha == 0)
        #expect(view.presentationFrame == view.frame)
        #expect(!bed.render.bed.app.isAnimating)
    }

    @Test func aFadeGivesOneFramePerRefreshAndEndsOnTheEndStateWithNothingScheduled() {
        let bed = AnimationBed()
        let view = CountingView(frame: Rect(x: 40, y: 40, width: 120, height: 80), color: .blue)
        bed.window.addSubview(view)
        bed.render.render()
        let framesBefore = bed.frameTimes.count
        var finished: Bool?
        View.animate(withDuration: 0.3, options: .curveLinear, animations: { view.alpha = 0 }) { finished = $0 }
        bed.advance(by: 1)
        let times = Array(bed.frameTimes.dropFirst(framesBefore))
        // The first tick shows the start value (nothing changed: no frame), then a frame per period until
        // the one that shows the end: 0.3 s at 60 Hz.
        #expect(times.count == 18)
        for (earlier, later) in zip(times, times.dropFirst()) { #expect(abs(later - earlier - bed.period) < 1e-9) }
        #expect(finished == true)
        #expect(view.draws == 1)  // alpha recomposites the cached content
        #expect(!bed.compositor.isTickScheduled(on: bed.screen))
        #expect(bed.clock.pendingTimers.isEmpty)
        let last = bed.frame()
        bed.compositor.setNeedsFullRepaint(bed.screen)
        bed.render.render()
        #expect(samePixels(last, bed.frame()))
        #expect(rgb(last, 100, 80) == 0xFFFFFF)
        // At rest: advancing the clock makes no frames.
        let count = bed.frameTimes.count
        bed.advance(by: 5)
        #expect(bed.frameTimes.count == count)
    }

    @Test func anAnimationStartsWithTheFirstFrameThatShowsIt() {
        // A slow frame (here one that stays in flight for half a second) before the animation's first
        // frame does not eat into it: the whole fade still shows.
        let bed = AnimationBed()
        bed.output.flipsImmediately = false
        let view = bed.smallView()
        bed.render.render()
        #expect(bed.compositor.isFrameInFlight(on: bed.screen))
        View.animate(withDuration: 0.3, options: .curveLinear) { view.alpha = 0 }
        bed.advance(by: 0.5)
        #expect(view.presentationAlpha == 1)
        bed.compositor.framePresented(on: bed.screen, at: bed.clock.now)
        #expect(view.presentationAlpha == 1)  // the first frame shows the start
        bed.compositor.framePresented(on: bed.screen, at: bed.clock.now + bed.period)
        #expect(abs(view.presentationAlpha - (1 - bed.period / 0.3)) < 1e-9)
    }

    @Test func aMovingViewDamagesOnlyWhereItWasAndWhereItIs() {
        let bed = AnimationBed()
        let view = CountingView(frame: Rect(x: 0, y: 0, width: 20, height: 20), color: .blue)
        bed.window.addSubview(view)
        bed.render.render()
        let before = bed.output.presented.count
        View.animate(withDuration: 0.1, options: .curveLinear) { view.center = Point(x: 110, y: 10) }
        bed.advance(by: 1)
        var previous = PixelRect(x: 0, y: 0, width: 20, height: 20)
        let frames = bed.output.presented.dropFirst(before)
        #expect(!frames.isEmpty)
        var x = 0.0
        for frame in frames {
            let rects = frame.damage.rects
            #expect(rects.allSatisfy { $0.height == 20 && $0.y == 0 })
            let covered = rects.map { Int($0.width) }.reduce(0, +)
            let left = rects.map(\.x).min()!
            // The union of the old and the new place, never more.
            #expect(left == previous.x)
            x = Double(rects.map { $0.x + $0.width }.max()! - 20)
            #expect(covered <= 40)
            previous = PixelRect(x: Int32(x), y: 0, width: 20, height: 20)
        }
        #expect(x == 100)
        #expect(view.draws == 1)
    }

    @Test func anInterruptedAnimationCompletesWithFalseAndTheNewOneTakesOver() {
        let bed = AnimationBed()
        let view = bed.smallView()
        var log: [String] = []
        View.animate(withDuration: 1, options: .curveLinear, animations: { view.alpha = 0 }) { log.append("first \($0)") }
        bed.advance(by: 0.5)
        #expect(abs(view.presentationAlpha - 0.5) <= bed.period + 1e-9)
        View.animate(
            withDuration: 1, options: [.curveLinear, .beginFromCurrentState], animations: { view.alpha = 1 }
        ) { log.append("second \($0)") }
        // Takes over from what shows: 0.5, not the model's 0.
        #expect(abs(view.presentationAlpha - 0.5) <= bed.period + 1e-9)
        bed.advance(by: 0)
        #expect(log == ["first false"])
        bed.advance(by: 0.5)
        #expect(abs(view.presentationAlpha - 0.75) <= bed.period / 2 + 1e-9)
        bed.advance(by: 1)
        #expect(log == ["first false", "second true"])
        #expect(view.presentationAlpha == 1)
    }

    /// An animation whose end has come by the clock, replaced before the tick that would have ended it ran
    /// (the main thread held by other work), ran its course: it completes with true, and the new one starts
    /// from its end value even with `.beginFromCurrentState` (the frame before showed an earlier value).
    @Test func oneThatRanItsCourseByTheClockIsFinishedWhenReplaced() {
        let bed = AnimationBed()
        let view = bed.smallView()
        var log: [String] = []
        View.animate(withDuration: 0.1, options: .curveLinear, animations: { view.alpha = 0 }) { log.append("press \($0)") }
        bed.advance(by: 0.05)
        #expect(view.presentationAlpha > 0 && view.presentationAlpha < 1)
        bed.clock.stall(until: bed.clock.now + 0.2)
        View.animate(
            withDuration: 0.15, options: [.curveLinear, .beginFromCurrentState], animations: { view.alpha = 1 }
        ) { log.append("release \($0)") }
        bed.advance(by: 0)
        #expect(log.first == "press true")
        bed.advance(by: 0.3)
        #expect(log == ["press true", "release true"])
        #expect(view.presentationAlpha == 1)
        // Replaced while it still ran, by the clock: unfinished, as before.
        View.animate(withDuration: 0.1, options: .curveLinear, animations: { view.alpha = 0 }) { log.append("again \($0)") }
        bed.advance(by: 0.05)
        View.animate(withDuration: 0.1, options: .curveLinear, animations: { view.alpha = 1 })
        bed.advance(by: 0)
        #expect(log.last == "again false")
    }

    @Test func withoutBeginFromCurrentStateTheNewAnimationStartsFromTheOldTarget() {
        let bed = AnimationBed()
        let view = bed.smallView()
        View.animate(withDuration: 1, options: .curveLinear) { view.alpha = 0 }
        bed.advance(by: 0.5)
        View.animate(withDuration: 1, options: .curveLinear) { view.alpha = 1 }
        #expect(view.presentationAlpha == 0)
        bed.advance(by: 0.25)
        // The tick before now sampled the time its frame shows: within a period of 0.25 s in.
        #expect(abs(view.presentationAlpha - 0.25) <= bed.period + 1e-9)
    }

    @Test func repeatAndAutoreverse() {
        let bed = AnimationBed()
        let view = bed.smallView()
        var completions: [Bool] = []
        View.animate(
            withDuration: 1, options: [.curveLinear, .repeat, .autoreverse], animations: { view.alpha = 0 }
        ) { completions.append($0) }
        let start = bed.clock.now
        func at(_ t: TimeInterval) -> Double {
            bed.clock.advance(to: start + t)
            return view.presentationAlpha
        }
        #expect(abs(at(0.5) - 0.5) <= bed.period + 1e-9)
        #expect(abs(at(1.25) - 0.25) <= bed.period + 1e-9)  // on the way back
        #expect(abs(at(1.75) - 0.75) <= bed.period + 1e-9)
        #expect(abs(at(2.5) - 0.5) <= bed.period + 1e-9)  // forwards again
        #expect(abs(at(10.25) - 0.75) <= bed.period + 1e-9)
        #expect(completions.isEmpty)
        #expect(bed.compositor.isTickScheduled(on: bed.screen))
        // Only a new animation of the property ends it.
        View.animate(withDuration: 0, animations: { view.alpha = 1 })
        bed.advance(by: 0)
        #expect(completions == [false])
        #expect(view.presentationAlpha == 1)
    }

    @Test func autoreverseWithoutRepeatEndsOnTheModelValue() {
        let bed = AnimationBed()
        let view = bed.smallView()
        var completions: [Bool] = []
        View.animate(withDuration: 1, options: [.curveLinear, .autoreverse], animations: { view.alpha = 0 }) {
            completions.append($0)
        }
        bed.advance(by: 1.5)
        #expect(abs(view.presentationAlpha - 0.5) <= bed.period + 1e-9)
        bed.advance(by: 1)
        // UIKit's well-known end: back at the start, then the model value shows.
        #expect(view.presentationAlpha == 0)
        #expect(completions == [true])
    }

    @Test func completionsRunInTheOrderTheAnimationsEnd() {
        let bed = AnimationBed()
        let a = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        let b = View(frame: Rect(x: 20, y: 0, width: 10, height: 10))
        let c = View(frame: Rect(x: 40, y: 0, width: 10, height: 10))
        for view in [a, b, c] { bed.window.addSubview(view) }
        var log: [String] = []
        View.animate(withDuration: 0.5, animations: { a.alpha = 0.5 }) { _ in log.append("a") }
        View.animate(withDuration: 0.2, animations: { b.alpha = 0.5 }) { _ in log.append("b") }
        View.animate(withDuration: 0.5, animations: { c.alpha = 0.5 }) { _ in log.append("c") }
        #expect(log.isEmpty)
        bed.advance(by: 1)
        #expect(log == ["b", "a", "c"])
    }

    @Test func aBlockThatChangesNothingCompletesAtOnceWithTrue() {
        let bed = AnimationBed()
        let view = bed.smallView()
        var finished: Bool?
        View.animate(withDuration: 5, animations: { view.alpha = 1 }) { finished = $0 }
        #expect(finished == nil)  // not inside the call
        bed.advance(by: 0)
        #expect(finished == true)
        #expect(!bed.render.bed.app.isAnimating)
    }

    @Test func duringTheDelayTheStartValueShows() {
        let bed = AnimationBed()
        let view = bed.smallView()
        View.animate(withDuration: 1, delay: 0.5, options: .curveLinear) { view.alpha = 0 }
        #expect(view.alpha == 0)
        bed.advance(by: 0.4)
        #expect(view.presentationAlpha == 1)
        bed.advance(by: 0.6)
        #expect(abs(view.presentationAlpha - 0.5) <= bed.period + 1e-9)
    }

    /// A block that also animates a view on no screen keeps its delay for every view (the other view made
    /// the block start at once, or not, by the order its properties were set).
    @Test func aViewOnNoScreenDoesNotCutTheBlocksDelay() {
        let bed = AnimationBed()
        let shown = bed.smallView()
        let detached = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        View.animate(withDuration: 1, delay: 0.5, options: .curveLinear) {
            shown.alpha = 0
            detached.alpha = 0
        }
        bed.advance(by: 0.4)
        #expect(shown.presentationAlpha == 1)
        bed.advance(by: 0.6)
        #expect(abs(shown.presentationAlpha - 0.5) <= bed.period + 1e-9)
    }

    /// A delay needs no frames: the frame clock sleeps until a few refreshes before the animation begins,
    /// and the animation still runs on time.
    @Test func theDelayIsSpentWithoutFrames() {
        let bed = AnimationBed()
        let view = bed.smallView()
        View.animate(withDuration: 1, delay: 30, options: .curveLinear) { view.alpha = 0 }
        bed.advance(by: 1)
        let frames = bed.frameTimes.count
        #expect(!bed.compositor.isTickScheduled(on: bed.screen))
        bed.advance(by: 28.9)
        #expect(bed.frameTimes.count == frames && view.presentationAlpha == 1)
        bed.advance(by: 0.6)
        #expect(abs(view.presentationAlpha - 0.5) <= bed.period + 1e-9)
        bed.advance(by: 1)
        #expect(view.presentationAlpha == 0 && !bed.render.bed.app.isAnimating)
        #expect(!bed.compositor.isTickScheduled(on: bed.screen))
    }

    /// A screen that is off composes nothing, and a repeating animation on it does not tick the frame clock
    /// (it woke the kiosk every refresh all night); on again, it goes on where it would be.
    @Test func aScreenThatIsOffGetsNoTicks() throws {
        let bed = AnimationBed()
        let view = bed.smallView()
        View.animate(withDuration: 1, options: [.repeat, .curveLinear]) { view.alpha = 0 }
        bed.advance(by: 0.5)
        #expect(bed.compositor.isTickScheduled(on: bed.screen))
        try bed.screen.setPower(.off, reason: "test")
        bed.advance(by: 0.1)
        #expect(!bed.compositor.isTickScheduled(on: bed.screen))
        let frames = bed.frameTimes.count
        bed.advance(by: 60)
        #expect(bed.frameTimes.count == frames)
        try bed.screen.setPower(.on, reason: "test")
        bed.render.render()  // the run loop's turn after the change
        bed.advance(by: 0.25)
        #expect(bed.frameTimes.count > frames && bed.compositor.isTickScheduled(on: bed.screen))
        #expect(abs(view.presentationAlpha - (1 - 0.85)) <= 2 * bed.period + 1e-9)
    }

    /// A view that leaves its window loses its animations: their completions hear false, and a repeating one
    /// lets the view go and the frames stop (it kept both for ever).
    @Test func aViewThatLeavesItsWindowLosesItsAnimations() {
        let bed = AnimationBed()
        weak var gone: View?
        var finished: [Bool] = []
        do {
            let view = bed.smallView()
            gone = view
            View.animate(withDuration: 0.5, options: [.repeat, .autoreverse]) { view.alpha = 0 }
            let child = View(frame: Rect(x: 0, y: 0, width: 5, height: 5))
            view.addSubview(child)
            View.animate(withDuration: 1, animations: { child.center = Point(x: 50, y: 50) }) { finished.append($0) }
            bed.advance(by: 0.1)
            view.removeFromSuperview()
        }
        bed.advance(by: 2)
        #expect(gone == nil)
        #expect(finished == [false])
        #expect(!bed.render.bed.app.isAnimating && !bed.compositor.isTickScheduled(on: bed.screen))
    }

    @Test func touchesPassAnimatingViewsByUnlessAllowed() {
        let bed = AnimationBed()
        let view = View(frame: Rect(x: 0, y: 0, width: 50, height: 50))
        bed.window.addSubview(view)
        let app = bed.render.bed.app
        View.animate(withDuration: 1) { view.center = Point(x: 125, y: 25) }
        // Hit testing reads the model (where it is going), and the animation keeps touches off it.
        #expect(app.hitTest(Point(x: 125, y: 25), on: bed.screen)?.1 === bed.window)
        View.animate(withDuration: 1, options: [.allowUserInteraction, .beginFromCurrentState]) {
            view.center = Point(x: 175, y: 25)
        }
        #expect(app.hitTest(Point(x: 175, y: 25), on: bed.screen)?.1 === view)
        #expect(app.hitTest(Point(x: 25, y: 25), on: bed.screen)?.1 === bed.window)
        bed.advance(by: 2)
        #expect(app.hitTest(Point(x: 175, y: 25), on: bed.screen)?.1 === view)
    }

    @Test func animationsOfViewsNoScreenShowsStillEndOnTime() {
        let bed = AnimationBed()
        let view = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        var finished: Bool?
        View.animate(withDuration: 0.3, animations: { view.alpha = 0 }) { finished = $0 }
        #expect(!bed.compositor.isTickScheduled(on: bed.screen))
        bed.advance(by: 0.29)
        #expect(finished == nil)
        bed.advance(by: 0.02)
        #expect(finished == true)
        #expect(bed.clock.pendingTimers.isEmpty)
    }

    @Test func workCanWaitForTheAnimationsToEnd() {
        let bed = AnimationBed()
        let view = bed.smallView()
        let app = bed.render.bed.app
        var log: [String] = []
        app.whenAnimationsEnd(within: 1) { log.append("at rest") }
        bed.advance(by: 0)
        #expect(log == ["at rest"])
        View.animate(withDuration: 0.3) { view.alpha = 0.5 }
        app.whenAnimationsEnd(within: 1) { log.append("after the fade") }
        bed.advance(by: 0.2)
        #expect(log.count == 1)
        bed.advance(by: 0.2)
        #expect(log == ["at rest", "after the fade"])
        // An animation that never ends: the limit.
        View.animate(withDuration: 0.3, options: [.repeat, .autoreverse]) { view.alpha = 1 }
        app.whenAnimationsEnd(within: 1) { log.append("limit") }
        bed.advance(by: 0.9)
        #expect(log.count == 2)
        bed.advance(by: 0.2)
        #expect(log.last == "limit")
        View.animate(withDuration: 0) { view.alpha = 0.2 }
        bed.advance(by: 0)
        #expect(log.count == 3)
    }

    /// "If you specify a negative value or 0, the changes are made without animating them", and the
    /// completion runs on the next turn of the run loop.
    @Test func aZeroDurationChangesWithoutAnimating() {
        let bed = AnimationBed()
        let view = bed.smallView()
        var completions: [Bool] = []
        for duration in [0.0, -1] {
            View.animate(withDuration: duration, animations: { view.center = Point(x: 125 + duration, y: 25) }) { completions.append($0) }
            #expect(!bed.render.bed.app.isAnimating)
            #expect(view.presentation.center == nil)
            // Touches find it where it went at once (an animating view lets them pass).
            #expect(bed.render.bed.app.hitTest(Point(x: 125 + duration, y: 25), on: bed.screen)?.1 === view)
            #expect(completions.count == (duration == 0 ? 0 : 1))
            bed.advance(by: 0)
        }
        #expect(completions == [true, true])
    }

    /// A block inside another takes its duration and curve unless it overrides them (UIKit's nested
    /// animation blocks).
    @Test func nestedBlocksInheritDurationAndCurve() {
        let bed = AnimationBed()
        let a = bed.smallView(), b = bed.smallView(), c = bed.smallView()
        var log: [String] = []
        View.animate(withDuration: 1, options: .curveLinear) {
            a.alpha = 0
            View.animate(withDuration: 0.2, animations: { b.alpha = 0 }) { _ in log.append("inner") }
            View.animate(withDuration: 0.2, options: [.overrideInheritedDuration, .overrideInheritedCurve, .curveLinear]) {
                c.alpha = 0
            }
        } completion: { _ in
            log.append("outer")
        }
        bed.advance(by: 0.1)
        #expect(abs(c.presentationAlpha - 0.5) < 1e-9)
        bed.advance(by: 0.4)
        #expect(log.isEmpty)
        #expect(abs(b.presentationAlpha - a.presentationAlpha) < 1e-9)
        #expect(abs(b.presentationAlpha - 0.5) <= bed.period + 1e-9)
        bed.advance(by: 0.6)
        #expect(log.sorted() == ["inner", "outer"])
    }

    /// The options' raw values are UIKit's.
    @Test func animationOptionsHaveUIKitsRawValues() {
        let options: [(View.AnimationOptions, UInt)] = [
            (.allowUserInteraction, 2), (.beginFromCurrentState, 4), (.repeat, 8), (.autoreverse, 16),
            (.overrideInheritedDuration, 32), (.overrideInheritedCurve, 64), (.curveEaseInOut, 0),
            (.curveEaseIn, 1 << 16), (.curveEaseOut, 2 << 16), (.curveLinear, 3 << 16),
        ]
        for (option, rawValue) in options { #expect(option.rawValue == rawValue) }
    }

    @Test func performWithoutAnimationChangesAtOnce() {
        let bed = AnimationBed()
        let view = bed.smallView()
        View.animate(withDuration: 1) {
            View.performWithoutAnimation { view.alpha = 0.5 }
        }
        #expect(view.presentationAlpha == 0.5)
        #expect(!bed.render.bed.app.isAnimating)
    }

    @Test func aSpringEndsAtItsDuration() {
        let bed = AnimationBed()
        let view = bed.smallView()
        var finished: Bool?
        View.animate(
            withDuration: 0.5, usingSpringWithDamping: 0.5, initialSpringVelocity: 0,
            animations: { view.center = Point(x: 105, y: 5) }
        ) { finished = $0 }
        bed.advance(by: 0.45)
        #expect(finished == nil)
        bed.advance(by: 0.1)
        #expect(finished == true)
        #expect(view.presentationFrame == view.frame)
    }
}

@MainActor
@Suite(.serialized)
struct DisplayLinkTests {
    @Test func aLinkIsCalledOncePerRefreshWithTheFramesTimes() {
        let bed = AnimationBed()
        var calls: [(TimeInterval, TimeInterval, TimeInterval)] = []
        let link = bed.screen.displayLink { link in calls.append((link.timestamp, link.targetTimestamp, link.duration)) }
        #expect(!bed.compositor.isTickScheduled(on: bed.screen))
        link.add()
        bed.advance(by: 0.1)
        #expect(calls.count == 7)  // 100, 100 + 1/60, ..., 100.1
        for (index, call) in calls.enumerated() {
            #expect(abs(call.0 - (100 + Double(index) * bed.period)) < 1e-9)
            #expect(abs(call.1 - call.0 - bed.period) < 1e-12)
            #expect(abs(call.2 - bed.period) < 1e-12)
        }
        // Nothing changed on screen: the link alone makes no frames, only ticks.
        link.isPaused = true
        bed.advance(by: 0.1)
        #expect(calls.count == 7 || calls.count == 8)
        let paused = calls.count
        bed.advance(by: 0.5)
        #expect(calls.count == paused)
        #expect(!bed.compositor.isTickScheduled(on: bed.screen))
        link.isPaused = false
        bed.advance(by: 0.1)
        #expect(calls.count > paused)
        link.invalidate()
        let count = calls.count
        bed.advance(by: 1)
        #expect(calls.count <= count + 1)
        #expect(!bed.compositor.isTickScheduled(on: bed.screen))
        #expect(bed.clock.pendingTimers.isEmpty)
    }

    /// At 30 calls a second on a 60 Hz display every other frame calls, and each call covers two refresh
    /// periods: `targetTimestamp - timestamp` is 1/30 s ("the actual frame duration", CADisplayLink).
    @Test func preferredFramesPerSecondSkipsFrames() {
        let bed = AnimationBed()
        var calls = 0
        var covered: [TimeInterval] = []
        let link = DisplayLink(screen: bed.screen) { link in
            calls += 1
            covered.append(link.targetTimestamp - link.timestamp)
        }
        link.preferredFramesPerSecond = 30
        link.add()
        bed.advance(by: 1 - bed.period / 2)
        link.invalidate()
        #expect(calls == 30)
        #expect(covered.allSatisfy { abs($0 - 2 * bed.period) < 1e-9 })
    }

    /// `invalidate()` lets the callback go, and what it captured (as CADisplayLink releases its target):
    /// an owner whose link's closure captures it is freed.
    @Test func invalidateReleasesTheCallback() {
        final class Owner {
            var link: DisplayLink?
            var frames = 0
        }
        let bed = AnimationBed()
        weak var released: Owner?
        do {
            let owner = Owner()
            owner.link = bed.screen.displayLink { _ in owner.frames += 1 }
            owner.link?.add()
            bed.advance(by: 0.05)
            #expect(owner.frames > 0)
            owner.link?.invalidate()
            released = owner
        }
        #expect(released == nil)
        // Added again after `invalidate()`: nothing (its callback is gone for good).
        let link = DisplayLink(screen: bed.screen) { _ in Issue.record("called after invalidate") }
        link.invalidate()
        link.add()
        bed.advance(by: 0.1)
        #expect(!link.isAdded)
    }

    @Test func aFlipWithAVblankTimeIsTheNextTick() {
        let (bed, link, stamps) = AnimationBed.withMovingLink()
        bed.advance(by: 0)
        #expect(stamps.values.count == 1)
        #expect(bed.compositor.isFrameInFlight(on: bed.screen))
        // While a frame is in flight no timer runs: the flip brings the next frame.
        bed.advance(by: 0.5)
        #expect(stamps.values.count == 1)
        bed.compositor.framePresented(on: bed.screen, at: 200.004)
        #expect(stamps.values == [100, 200.004])
        bed.compositor.framePresented(on: bed.screen, at: 200.021)
        #expect(stamps.values.last == 200.021)
        link.invalidate()
        bed.compositor.framePresented(on: bed.screen, at: 200.038)
        #expect(stamps.values.count == 3)
    }

    @Test func aFlipWithoutAVblankTimeWaitsForTheRefreshPeriod() {
        // Outputs whose flips complete at once report no vblank time (DRM CRTCs without vblank interrupts,
        // as virtio-gpu's; fbdev; headless): however soon after its tick a frame lands, the next tick comes
        // from the timer a period after the last one, not at the flip.
        let (bed, link, stamps) = AnimationBed.withMovingLink()
        bed.advance(by: 0)
        for landed in [0.001, 0.8, 0.95, 0.5] {  // when the frame landed after its tick, in periods
            let ticks = stamps.values.count
            bed.advance(by: bed.period * landed)
            bed.compositor.framePresented(on: bed.screen)
            #expect(stamps.values.count == ticks)
            #expect(bed.compositor.isTickScheduled(on: bed.screen))
            bed.advance(by: bed.period * (1 - landed))
            #expect(stamps.values.count == ticks + 1)
        }
        let intervals = zip(stamps.values, stamps.values.dropFirst()).map { $1 - $0 }
        #expect(intervals.count == 4 && intervals.allSatisfy { abs($0 - bed.period) < 1e-9 }, "\(intervals)")
        link.invalidate()
    }

    @Test func aFrameLaterThanAPeriodIsFollowedOnTheNextBeat() {
        // Without vblank times, a frame that lands 1.4 periods after its tick is followed by a tick at 2
        // periods, on the beat the timer kept, not at once.
        let (bed, link, stamps) = AnimationBed.withMovingLink()
        bed.advance(by: 0)
        bed.advance(by: bed.period * 1.4)
        bed.compositor.framePresented(on: bed.screen)
        #expect(stamps.values == [100])
        bed.advance(by: bed.period * 0.59)
        #expect(stamps.values == [100])
        bed.advance(by: bed.period * 0.02)
        #expect(stamps.values.count == 2 && abs(stamps.values[1] - 100 - 2 * bed.period) < 1e-9)
        link.invalidate()
    }

    @Test func framesLockOntoTheVblanksAfterATimerTick() {
        // The first tick comes at no particular phase of the display's refresh (here from a change at
        // 100); its frame lands at the next vblank, 0.3 period later. That vblank is the next tick, and from
        // then on every frame is composed at a vblank for the next one, where it shows; a frame that misses
        // one vblank shows at the one after, which is the next tick.
        let (bed, link, stamps) = AnimationBed.withMovingLink()
        bed.advance(by: 0)
        #expect(stamps.values == [100])
        let first = 100 + bed.period * 0.3
        var vblanks: [TimeInterval] = []
        for index in [0, 1, 2, 4, 5] {
            let vblank = first + bed.period * Double(index)
            bed.advance(by: vblank - bed.clock.now)
            bed.compositor.framePresented(on: bed.screen, at: vblank)
            vblanks.append(vblank)
            #expect(link.targetTimestamp == vblank + bed.period)
            #expect(bed.compositor.isFrameInFlight(on: bed.screen))
        }
        #expect(stamps.values == [100] + vblanks)
        link.invalidate()
    }

    // MARK: Frames made by changes on outputs without vblank times

    /// The run loop's turn after a change (`scheduleRun` runs this, as a dispatch block).
    private func runLoopTurn(_ bed: AnimationBed) { bed.compositor.composePendingFrames(paced: true) }

    @Test func changesWaitAPeriodAfterTheLastFrameWithoutVblankTimes() {
        // The bed's output shows each frame at once without a vblank time (as fbdev, headless and
        // virtio-gpu): a finger's moves, a change each, get a frame a period apart, as on a display whose
        // vblanks pace the flips, not one per move.
        let bed = AnimationBed()
        let view = bed.smallView()
        view.backgroundColor = .blue
        runLoopTurn(bed)
        #expect(bed.frameTimes == [100])
        for move in 1...7 {  // a move every 5 ms
            bed.advance(by: 0.005)
            view.center.x += 1
            runLoopTurn(bed)
            #expect(bed.compositor.needsFrame(on: bed.screen) == (bed.frameTimes.last! > bed.clock.now - bed.period), "move \(move)")
        }
        bed.advance(by: bed.period)
        let intervals = zip(bed.frameTimes, bed.frameTimes.dropFirst()).map { $1 - $0 }
        // Moves at 5 to 35 ms: frames at 0, one period (the moves up to 15 ms), two (up to 30 ms), three.
        #expect(bed.frameTimes.count == 4 && intervals.allSatisfy { abs($0 - bed.period) < 1e-9 }, "\(bed.frameTimes)")
        #expect(!bed.compositor.needsFrame(on: bed.screen))
        #expect(rgb(bed.frame(), 16, 5) == 0x0000FF && rgb(bed.frame(), 17, 5) == 0xFFFFFF, "the last move is shown")
        #expect(bed.clock.pendingTimers.isEmpty, "nothing scheduled once the changes are shown")
        #expect(bed.compositor.compositionTime(ofLastFrameOn: bed.screen) == bed.frameTimes.last)
    }

    @Test func aChangeAPeriodAfterTheLastFrameIsComposedAtOnce() {
        let bed = AnimationBed()
        let view = bed.smallView()
        runLoopTurn(bed)
        bed.advance(by: bed.period)
        view.backgroundColor = .red
        runLoopTurn(bed)
        #expect(bed.frameTimes == [100, 100 + bed.period])
        #expect(bed.clock.pendingTimers.isEmpty)
    }

    @Test func changesAreNotHeldBackWhereFlipsHaveVblankTimes() {
        // A display with vblank interrupts paces the frames itself: a frame is composed when the flip
        // before lands, at a vblank, and shows at the next.
        let bed = AnimationBed()
        bed.output.flipsImmediately = false
        let view = bed.smallView()
        runLoopTurn(bed)
        bed.advance(by: 0.004)
        bed.compositor.framePresented(on: bed.screen, at: bed.clock.now)
        view.backgroundColor = .red
        runLoopTurn(bed)
        #expect(bed.frameTimes == [100, 100.004])
        #expect(bed.clock.pendingTimers.isEmpty)
    }

    @Test func aTickAfterAFrameAChangeMadeWaitsAPeriodAfterIt() {
        // Without vblank times: the frame of the tick at 100 lands late, at 1.2 periods, with a change
        // waiting; the run loop composes it at once (a period has passed since 100). The tick the timer
        // kept for 2 periods would come 0.8 period after that frame: it moves to a period after it.
        let (bed, link, stamps) = AnimationBed.withMovingLink()
        let view = bed.smallView()
        bed.advance(by: 0)
        #expect(bed.frameTimes == [100])
        bed.advance(by: bed.period * 1.2)
        view.backgroundColor = .red
        bed.compositor.framePresented(on: bed.screen)
        runLoopTurn(bed)
        #expect(bed.frameTimes == [100, 100 + bed.period * 1.2])
        bed.advance(by: bed.period * 0.1)
        bed.compositor.framePresented(on: bed.screen)
        bed.advance(by: bed.period * 0.85)
        #expect(bed.frameTimes.count == 2, "no frame 0.8 period after the last: \(bed.frameTimes)")
        bed.advance(by: bed.period * 0.2)
        bed.compositor.framePresented(on: bed.screen)
        bed.advance(by: bed.period * 1.5)
        let gaps = zip(bed.frameTimes, bed.frameTimes.dropFirst()).map { ($1 - $0) / bed.period }
        #expect(gaps.count >= 3 && gaps.allSatisfy { $0 >= 1 - 1e-9 }, "frames apart, in periods: \(gaps)")
        #expect(stamps.values.count >= 2 && abs(stamps.values[1] - 100 - bed.period * 2.2) < 1e-9, "\(stamps.values)")
        link.invalidate()
    }

    @Test func aChangeDuringAnAnimationWaitsForTheNextTick() {
        // While the frame clock ticks, a change between ticks is composed by the next tick (no timer of
        // its own), and the first tick after a frame a change made comes a period after that frame.
        let bed = AnimationBed()
        let view = bed.smallView()
        view.backgroundColor = .blue
        runLoopTurn(bed)
        bed.advance(by: 0.004)
        var ticks: [TimeInterval] = []
        let moving = bed.smallView()
        moving.frame.origin.y = 100
        let link = bed.screen.displayLink { link in
            ticks.append(link.timestamp)
            moving.center.x += 1
        }
        link.add()
        bed.advance(by: 0)
        #expect(ticks.isEmpty, "the first tick waits for a period after the frame at 100")
        bed.advance(by: bed.period - 0.004)
        #expect(ticks == [100 + bed.period])
        bed.advance(by: 0.005)
        view.center.x += 1
        runLoopTurn(bed)
        #expect(bed.compositor.needsFrame(on: bed.screen), "held for the tick")
        #expect(bed.clock.pendingTimers.count == 1, "the tick's timer only")
        bed.advance(by: bed.period - 0.005)
        #expect(!bed.compositor.needsFrame(on: bed.screen))
        #expect(bed.frameTimes.last == 100 + 2 * bed.period)
        link.invalidate()
    }

}
