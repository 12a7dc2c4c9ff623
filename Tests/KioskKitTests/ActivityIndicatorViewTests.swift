import KioskTesting
import Testing

@testable import KioskKit

/// `ActivityIndicatorView` as UIActivityIndicatorView: stopped and hidden when made, shown while turning,
/// one step an eighth of a second, each step its own rectangle, and nothing running while it is not seen.
@MainActor
@Suite(.serialized)
struct ActivityIndicatorViewTests {
    /// A render bed on a manual clock with a large indicator at (40, 40) in a shown window.
    static func bed() -> (RenderBed, ManualClock, ActivityIndicatorView, Window) {
        let bed = RenderBed()
        let clock = ManualClock(now: 10)
        bed.bed.app.clock = clock
        let window = Window(frame: Rect(x: 0, y: 0, width: 320, height: 240))
        window.backgroundColor = .white
        let spinner = ActivityIndicatorView(style: .large)
        spinner.frame.origin = Point(x: 40, y: 40)
        spinner.color = .black
        window.addSubview(spinner)
        window.makeKeyAndVisible()
        bed.render()
        return (bed, clock, spinner, window)
    }

    /// How dark the top spoke is (0: white, 255: black) in the frame shown now.
    static func topSpoke(_ bed: RenderBed, _ spinner: ActivityIndicatorView) -> Int {
        let frame = bed.render()
        // The top spoke runs from 46 % to 24 % of the side above the centre: sample at 35 %.
        let x = Int(spinner.frame.midX), y = Int(spinner.frame.midY - spinner.bounds.height * 0.35)
        return 255 - Int(rgb(frame, x, y) & 0xFF)
    }

    @Test func aNewOneIsStoppedAndHiddenAndShowsWhileItTurns() {
        let (_, clock, spinner, _) = Self.bed()
        #expect(spinner.isHidden && !spinner.isAnimating && spinner.bounds.size == Size(width: 37, height: 37))
        #expect(ActivityIndicatorView(style: .medium).intrinsicContentSize == Size(width: 20, height: 20))
        spinner.startAnimating()
        #expect(!spinner.isHidden && spinner.isAnimating)
        spinner.stopAnimating()
        #expect(spinner.isHidden && !spinner.isAnimating && clock.pendingTimers.isEmpty)
        spinner.hidesWhenStopped = false
        #expect(!spinner.isHidden, "shown stopped")
        spinner.startAnimating()
        spinner.stopAnimating()
        #expect(!spinner.isHidden)
    }

    @Test(
        arguments: [(0.0, 0), (0.124, 0), (0.125, 1), (0.3, 2), (0.999, 7), (1.0, 0), (2.6, 4)] as [(Double, Int)])
    func theStepShownAtATime(elapsed: Double, step: Int) {
        #expect(ActivityIndicatorView.step(at: 10 + elapsed, start: 10) == step)
    }

    /// The top spoke is brightest at step 0 and fades behind the head as it moves round; each step is due
    /// an eighth of a second after the last and composes the indicator's rectangle alone.
    @Test func itStepsRoundOnTheClockWithItsOwnDamage() {
        let (bed, clock, spinner, _) = Self.bed()
        spinner.startAnimating()
        let head = Self.topSpoke(bed, spinner)
        #expect(head > 200, "the head is the top spoke: \(head)")
        #expect(clock.pendingTimers.map(\.deadline) == [10.125])
        clock.advance(to: 10.125)
        // One step behind the head, a spoke is at 90 %; four behind, at 60 %.
        let behind = Self.topSpoke(bed, spinner)
        #expect(abs(behind - 230) <= 3, "one step on, the top spoke fades: \(behind) after \(head)")
        #expect(bed.output.presented.last?.damage == Region(PixelRect(x: 40, y: 40, width: 37, height: 37)))
        clock.advance(to: 10.5)
        #expect(abs(Self.topSpoke(bed, spinner) - 153) <= 3)
        clock.advance(to: 11.0)
        #expect(abs(Self.topSpoke(bed, spinner) - head) <= 2, "a turn later the top spoke leads again")
    }

    /// Hidden while turning, the timer runs out and none follows, and no frame comes; shown, it goes on
    /// from the step due then.
    @Test func itCostsNothingWhileNotSeen() {
        let (bed, clock, spinner, window) = Self.bed()
        spinner.startAnimating()
        bed.render()
        expectNothingRunsWhileHidden(spinner, bed: bed, clock: clock, due: 10.125, until: 12)
        bed.render()
        #expect(clock.pendingTimers.map(\.deadline) == [12.125])
        // Out of its window, the same.
        spinner.removeFromSuperview()
        clock.advance(to: 12.2)
        bed.render()
        #expect(clock.pendingTimers.isEmpty)
        window.addSubview(spinner)
        bed.render()
        #expect(clock.pendingTimers.map(\.deadline) == [12.25])
        spinner.stopAnimating()
        #expect(clock.pendingTimers.isEmpty)
    }

    @Test func theLookOfEachStyle() throws {
        let r = RenderBed(width: 120, height: 50)
        let window = r.bed.window("main")
        window.backgroundColor = .white
        let clock = ManualClock(now: 10)
        r.bed.app.clock = clock
        let medium = ActivityIndicatorView(style: .medium)
        medium.frame.origin = Point(x: 10, y: 15)
        let large = ActivityIndicatorView(style: .large)
        large.frame.origin = Point(x: 40, y: 6)
        let tinted = ActivityIndicatorView(style: .large)
        tinted.frame.origin = Point(x: 80, y: 6)
        tinted.color = Color(rgb: 0x0A84FF)
        for spinner in [medium, large, tinted] {
            window.addSubview(spinner)
            spinner.startAnimating()
        }
        clock.advance(to: 10.3)
        try expectGolden(r.render(), named: "activity-indicators")
    }
}
