import Glibc
import KioskTesting
import Testing

@testable import KioskKit

/// A finger on the manual clock: each step moves the clock to the event's time first, so timers (the
/// content-touch delay, the frame clock) run in order between events.
@MainActor
struct Finger {
    let clock: ManualClock

    @discardableResult
    func down(at point: Point) -> Touch {
        let touch = Touch(screen: Screen.main, location: point, timestamp: clock.now)
        Application.shared.sendEvent(Event(touches: [touch], timestamp: clock.now))
        return touch
    }

    func move(_ touch: Touch, to point: Point) {
        touch.update(phase: .moved, location: point, timestamp: clock.now)
        Application.shared.sendEvent(Event(touches: [touch], timestamp: clock.now))
    }

    func up(_ touch: Touch) {
        touch.update(phase: .ended, location: touch.locationOnScreen, timestamp: clock.now)
        Application.shared.sendEvent(Event(touches: [touch], timestamp: clock.now))
    }

    /// Down at `start`, then `steps` moves evenly to `end` over `duration`, then up (unless `lift` is false).
    @discardableResult
    func drag(from start: Point, to end: Point, duration: TimeInterval, steps: Int, lift: Bool = true) -> Touch {
        let touch = down(at: start)
        for step in 1...steps {
            clock.advance(by: duration / Double(steps))
            let f = Double(step) / Double(steps)
            move(touch, to: Point(x: start.x + (end.x - start.x) * f, y: start.y + (end.y - start.y) * f))
        }
        if lift { up(touch) }
        return touch
    }
}

/// Records what a scroll view tells its delegate.
@MainActor
final class ScrollRecorder: TableViewDelegate {
    var offsets: [Point] = []
    var events: [String] = []
    var selected: [IndexPath] = []

    func scrollViewDidScroll(_ scrollView: ScrollView) { offsets.append(scrollView.contentOffset) }
    func scrollViewWillBeginDragging(_ scrollView: ScrollView) { events.append("willBeginDragging") }
    func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool) {
        events.append("didEndDragging(\(decelerate))")
    }
    func scrollViewDidEndDecelerating(_ scrollView: ScrollView) { events.append("didEndDecelerating") }
    func scrollViewDidEndScrollingAnimation(_ scrollView: ScrollView) { events.append("didEndScrollingAnimation") }
    func tableView(_ tableView: TableView, didSelectRowAt indexPath: IndexPath) { selected.append(indexPath) }
}

@MainActor
struct ScrollPhysicsTests {
    @Test(arguments: [
        (overshoot: 100.0, dimension: 500.0), (overshoot: -100, dimension: 500), (overshoot: 1000, dimension: 800),
        (overshoot: 5, dimension: 480), (overshoot: 0, dimension: 480),
    ])
    func rubberBandFollowsItsFormula(overshoot: Double, dimension: Double) {
        let expected = (overshoot < 0 ? -1.0 : 1.0) * (1 - 1 / (abs(overshoot) * 0.55 / dimension + 1)) * dimension
        #expect(abs(ScrollPhysics.rubberBand(overshoot, dimension: dimension) - expected) < 1e-9)
        // Always less than the finger's movement, never more than the view.
        #expect(abs(ScrollPhysics.rubberBand(overshoot, dimension: dimension)) <= abs(overshoot))
        #expect(abs(ScrollPhysics.rubberBand(overshoot, dimension: dimension)) < dimension)
    }

    @Test(arguments: [(velocity: 1000.0, rate: 0.998), (velocity: -5000, rate: 0.998), (velocity: 2000, rate: 0.99)])
    func decelerationFollowsUIKitsFormula(velocity: Double, rate: Double) {
        let motion = ScrollPhysics.Deceleration(velocity: velocity, rate: rate)
        for time in [0.0, 0.016, 0.1, 0.5, 1, 3] {
            let expected = velocity * (pow(rate, 1000 * time) - 1) / (1000 * log(rate))
            #expect(abs(motion.distance(at: time) - expected) < 1e-9)
            #expect(abs(motion.velocity(at: time) - velocity * pow(rate, 1000 * time)) < 1e-9)
        }
        // It comes to rest within half a point of where it is heading, and that is v0 / (1000 |ln rate|).
        #expect(abs(motion.totalDistance - velocity / (1000 * -log(rate))) < 1e-9)
        #expect(abs(motion.totalDistance - motion.distance(at: motion.duration)) < 0.5 + 1e-9)
        #expect(abs(motion.totalDistance - motion.distance(at: motion.duration * 0.9)) > 0.5)
    }

    @Test func normalAndFastRatesAreUIKits() {
        #expect(ScrollView.DecelerationRate.normal.rawValue == 0.998)
        #expect(ScrollView.DecelerationRate.fast.rawValue == 0.99)
        // 1000 pt/s travels about 500 pt at the normal rate, 100 pt at the fast one.
        #expect(abs(ScrollPhysics.Deceleration(velocity: 1000, rate: 0.998).totalDistance - 499.5) < 0.1)
        #expect(abs(ScrollPhysics.Deceleration(velocity: 1000, rate: 0.99).totalDistance - 99.5) < 0.1)
    }

    @Test func springIsCriticallyDamped() {
        let spring = ScrollPhysics.Spring(displacement: -80, velocity: 0)
        #expect(spring.position(at: 0) == -80)
        for time in stride(from: 0.0, through: 1.5, by: 0.05) {
            let expected = (-80 + (0 + 12 * -80) * time) * exp(-12 * time)
            #expect(abs(spring.position(at: time) - expected) < 1e-9)
            // Critically damped from rest: it never crosses zero.
            #expect(spring.position(at: time) <= 0)
        }
        #expect(spring.isAtRest(at: 1.5))
        #expect(!spring.isAtRest(at: 0.2))
    }

    @Test(arguments: [
        (offset: 150.0, velocity: 0.0, page: 0), (offset: 250, velocity: 0, page: 1), (offset: 100, velocity: 800, page: 1),
        (offset: 700, velocity: -800, page: 1), (offset: 1190, velocity: 5000, page: 3), (offset: -50, velocity: -900, page: 0),
        (offset: 410, velocity: 200, page: 1),
    ])
    func pagingPicksTheNextPageOnAFlingElseTheNearest(offset: Double, velocity: Double, page: Int) {
        #expect(ScrollPhysics.page(forOffset: offset, velocity: velocity, pageLength: 400, lastPage: 3) == page)
    }
}

@MainActor
struct ScrollViewTests {
    /// A 320x800 screen on the manual clock with a scroll view over all of it.
    @MainActor
    final class Bed {
        let animation = AnimationBed(width: 320, height: 800)
        let scrollView = ScrollView(frame: Rect(x: 0, y: 0, width: 320, height: 800))
        let recorder = ScrollRecorder()
        var finger: Finger { Finger(clock: animation.clock) }
        var clock: ManualClock { animation.clock }

        init(contentSize: Size = Size(width: 320, height: 5000)) {
            scrollView.contentSize = contentSize
            scrollView.delegate = recorder
            animation.window.addSubview(scrollView)
            animation.render.render()
        }

        /// Frames until the scroll view is at rest (at most `limit` seconds).
        func settle(limit: TimeInterval = 10) {
            let end = clock.now + limit
            while clock.now < end, scrollView.isMoving || scrollView.isDragging { clock.advance(by: 1.0 / 60) }
        }
    }

    @Test func aFlingDeceleratesToRestAtTheFormulasDistanceAndStopsTheFrames() {
        let bed = Bed()
        // 600 pt up in 120 ms, in 12 steps of 50 pt every 10 ms: 5000 pt/s when the finger lifts.
        bed.finger.drag(from: Point(x: 160, y: 700), to: Point(x: 160, y: 100), duration: 0.12, steps: 12)
        let released = bed.scrollView.contentOffset.y
        #expect(bed.recorder.events == ["willBeginDragging", "didEndDragging(true)"])
        #expect(bed.scrollView.isDecelerating)
        bed.settle()
        #expect(bed.recorder.events.last == "didEndDecelerating")
        let expected = (released + ScrollPhysics.Deceleration(velocity: 5000, rate: 0.998).totalDistance).rounded()
        #expect(bed.scrollView.contentOffset.y == expected)
        // Each frame moves less than the one before (it slows down), and it never goes back.
        let momentum = bed.recorder.offsets.map(\.y).drop { $0 <= released }
        let steps = zip(momentum.dropFirst(), momentum).map { $0 - $1 }
        #expect(steps.allSatisfy { $0 >= 0 })
        #expect(steps.first! > steps.last! + 40)
        // At rest: after the indicators fade no frame and no timer is left.
        bed.clock.advance(by: 1)
        #expect(!bed.animation.compositor.isTickScheduled(on: bed.animation.screen))
        #expect(Application.shared.displayLinks.isEmpty)
        #expect(bed.clock.pendingTimers.isEmpty)
    }

    /// `scrollViewWillEndDragging` hears the velocity (points per millisecond) and where the content would
    /// rest, and may move that place: the content then comes to rest there (snapping to rows of 100 pt);
    /// `scrollViewWillBeginDecelerating` follows `scrollViewDidEndDragging`. Not asked when paging.
    @Test func theDelegateMayChooseWhereAFlingComesToRest() {
        final class Snapper: ScrollViewDelegate {
            var events: [String] = []
            var velocity = Point.zero
            var natural = Point.zero
            var wanted: Double?
            func scrollViewWillEndDragging(
                _ scrollView: ScrollView, withVelocity velocity: Point, targetContentOffset: UnsafeMutablePointer<Point>
            ) {
                events.append("willEndDragging")
                self.velocity = velocity
                natural = targetContentOffset.pointee
                targetContentOffset.pointee.y = wanted ?? (targetContentOffset.pointee.y / 100).rounded() * 100 + 50
            }
            func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool) {
                events.append("didEndDragging(\(decelerate))")
            }
            func scrollViewWillBeginDecelerating(_ scrollView: ScrollView) { events.append("willBeginDecelerating") }
            func scrollViewDidEndDecelerating(_ scrollView: ScrollView) { events.append("didEndDecelerating") }
        }
        let bed = Bed()
        let snapper = Snapper()
        bed.scrollView.delegate = snapper
        bed.finger.drag(from: Point(x: 160, y: 700), to: Point(x: 160, y: 100), duration: 0.12, steps: 12)
        let released = bed.scrollView.contentOffset.y
        #expect(snapper.events == ["willEndDragging", "didEndDragging(true)", "willBeginDecelerating"])
        #expect(abs(snapper.velocity.y - 5) < 1e-9 && snapper.velocity.x == 0)
        let natural = (released + ScrollPhysics.Deceleration(velocity: 5000, rate: 0.998).totalDistance).rounded()
        #expect(snapper.natural == Point(x: 0, y: natural))
        bed.settle()
        #expect(bed.scrollView.contentOffset.y == (natural / 100).rounded() * 100 + 50)
        #expect(snapper.events.last == "didEndDecelerating")
        // A target past the end stops at the end.
        let far = Bed()
        let farSnapper = Snapper()
        farSnapper.wanted = 1_000_000
        far.scrollView.delegate = farSnapper
        far.finger.drag(from: Point(x: 160, y: 700), to: Point(x: 160, y: 100), duration: 0.12, steps: 12)
        far.settle()
        #expect(far.scrollView.contentOffset.y == 5000 - 800)
        // Paging asks nothing.
        let paged = Bed(contentSize: Size(width: 1280, height: 480))
        paged.scrollView.isPagingEnabled = true
        let pagedSnapper = Snapper()
        paged.scrollView.delegate = pagedSnapper
        paged.finger.drag(from: Point(x: 300, y: 200), to: Point(x: 50, y: 200), duration: 0.2, steps: 10)
        paged.settle()
        #expect(!pagedSnapper.events.contains("willEndDragging") && paged.scrollView.contentOffset == Point(x: 320, y: 0))
    }

    @Test func pullingPastTheTopFollowsTheRubberBandAndSpringsBack() {
        let bed = Bed()
        let finger = bed.finger
        // Past the hysteresis (10 pt) the translation starts from zero, then 100 pt more down.
        let touch = finger.drag(from: Point(x: 100, y: 100), to: Point(x: 100, y: 112), duration: 0.05, steps: 2, lift: false)
        bed.clock.advance(by: 0.1)
        finger.move(touch, to: Point(x: 100, y: 212))
        let pulled = -ScrollPhysics.rubberBand(100, dimension: 800)
        #expect(bed.scrollView.contentOffset.y == pulled.rounded())
        bed.clock.advance(by: 0.3)
        finger.up(touch)
        #expect(bed.recorder.events == ["willBeginDragging", "didEndDragging(true)"])
        bed.settle()
        #expect(bed.scrollView.contentOffset == .zero)
        #expect(bed.recorder.offsets.map(\.y).allSatisfy { $0 <= 0 })
    }

    @Test func withoutBouncesTheContentStopsAtTheEdge() {
        let bed = Bed()
        bed.scrollView.bounces = false
        bed.finger.drag(from: Point(x: 100, y: 100), to: Point(x: 100, y: 300), duration: 0.2, steps: 10)
        #expect(bed.recorder.offsets.allSatisfy { $0.y == 0 })
        #expect(bed.scrollView.contentOffset == .zero)
    }

    @Test func pagingLandsOnPageBoundaries() {
        for (distance, duration, page) in [(150.0, 1.0, 0), (250.0, 1.0, 1), (100.0, 0.05, 1), (-50.0, 0.5, 0)] {
            let bed = Bed(contentSize: Size(width: 1280, height: 480))
            bed.scrollView.isPagingEnabled = true
            bed.finger.drag(from: Point(x: 300, y: 200), to: Point(x: 300 - distance, y: 200), duration: duration, steps: 10)
            bed.settle()
            #expect(bed.scrollView.contentOffset == Point(x: Double(page) * 320, y: 0), "\(distance) pt in \(duration) s")
        }
    }

    /// Without `bounces`, a page's spring stops at the content's edge: the last page is not overshot.
    @Test func pagingWithoutBouncesStaysWithinTheContent() {
        let bed = Bed(contentSize: Size(width: 640, height: 800))
        bed.scrollView.isPagingEnabled = true
        bed.scrollView.bounces = false
        bed.finger.drag(from: Point(x: 300, y: 400), to: Point(x: 40, y: 400), duration: 0.08, steps: 8)
        bed.settle()
        #expect(bed.scrollView.contentOffset == Point(x: 320, y: 0))
        #expect(bed.recorder.offsets.map(\.x).allSatisfy { (0...320).contains($0) }, "\(bed.recorder.offsets.map(\.x))")
    }

    /// Content that shrinks while the content moves (an animated offset, a spring back from past the end)
    /// brings the move to the new end: it came to rest past it, showing nothing.
    @Test func contentThatShrinksDuringAMoveEndsTheMoveWithinIt() {
        let bed = Bed()
        bed.scrollView.setContentOffset(Point(x: 0, y: 4000), animated: true)
        bed.clock.advance(by: 0.1)
        bed.scrollView.contentSize = Size(width: 320, height: 1000)
        bed.settle()
        #expect(bed.scrollView.contentOffset == Point(x: 0, y: 200))
        #expect(bed.recorder.events == ["didEndScrollingAnimation"])
        // Pulled past the end and let go: the spring's target was the old end.
        let spring = Bed(contentSize: Size(width: 320, height: 2000))
        spring.finger.drag(from: Point(x: 160, y: 700), to: Point(x: 160, y: 100), duration: 0.6, steps: 30)
        spring.scrollView.setContentOffset(Point(x: 0, y: 1200), animated: false)
        spring.finger.drag(from: Point(x: 160, y: 700), to: Point(x: 160, y: 300), duration: 0.6, steps: 30)
        #expect(spring.scrollView.contentOffset.y > 1200)
        spring.clock.advance(by: 0.05)
        spring.scrollView.contentSize = Size(width: 320, height: 1500)
        spring.settle()
        #expect(spring.scrollView.contentOffset == Point(x: 0, y: 700))
    }

    @Test func animatedOffsetArrivesAndSaysSo() {
        let bed = Bed()
        bed.scrollView.setContentOffset(Point(x: 0, y: 900), animated: true)
        #expect(bed.scrollView.contentOffset == .zero)
        bed.settle()
        #expect(bed.scrollView.contentOffset == Point(x: 0, y: 900))
        #expect(bed.recorder.events == ["didEndScrollingAnimation"])
        // Frames at the refresh period for 0.3 s: about 18 offsets on the way.
        #expect((16...20).contains(bed.recorder.offsets.count))
    }

    @Test func aTouchDuringMomentumStopsItAndReachesNoContent() {
        let bed = Bed()
        let button = Button(title: "Buy", frame: Rect(x: 0, y: 0, width: 320, height: 5000))
        var pressed = 0
        button.addAction(for: .touchDown) { _ in pressed += 1 }
        bed.scrollView.addSubview(button)
        bed.finger.drag(from: Point(x: 160, y: 400), to: Point(x: 160, y: 100), duration: 0.06, steps: 6)
        bed.clock.advance(by: 0.1)
        #expect(bed.scrollView.isDecelerating)
        let caught = bed.scrollView.contentOffset
        let touch = bed.finger.down(at: Point(x: 160, y: 200))
        #expect(!bed.scrollView.isDecelerating)
        bed.clock.advance(by: 0.3)
        bed.finger.up(touch)
        bed.clock.advance(by: 0.5)
        #expect(bed.scrollView.contentOffset == caught)
        #expect(pressed == 0)
    }

    /// A drag a scroll view cannot follow is not its own: a vertical list inside a horizontal pager lets
    /// sideways drags page (UIKit's nested scroll views), and takes the vertical ones itself.
    @Test func aSidewaysDragOverAVerticalListGoesToThePagerAroundIt() {
        let bed = Bed(contentSize: Size(width: 960, height: 800))
        bed.scrollView.isPagingEnabled = true
        let list = ScrollView(frame: Rect(x: 0, y: 0, width: 320, height: 800))
        list.contentSize = Size(width: 320, height: 5000)
        let listRecorder = ScrollRecorder()
        list.delegate = listRecorder
        bed.scrollView.addSubview(list)
        bed.finger.drag(from: Point(x: 300, y: 200), to: Point(x: 60, y: 210), duration: 0.2, steps: 10)
        bed.settle()
        #expect(bed.scrollView.contentOffset == Point(x: 320, y: 0))
        #expect(list.contentOffset == .zero && listRecorder.events.isEmpty)
        // Back on the list's page, a vertical drag scrolls the list and leaves the pager where it is.
        bed.scrollView.setContentOffset(.zero, animated: false)
        bed.finger.drag(from: Point(x: 160, y: 600), to: Point(x: 150, y: 300), duration: 0.3, steps: 10)
        bed.settle()
        #expect(bed.scrollView.contentOffset == .zero)
        #expect(list.contentOffset.y > 250)
        #expect(listRecorder.events.first == "willBeginDragging")
    }

    /// Content that fits takes no drag, so what is under the finger keeps its touch; `alwaysBounceVertical`
    /// makes it drag anyway, but only with `bounces` (as UIKit).
    @Test func contentThatFitsTakesNoDrag() {
        for (alwaysBounce, bounces, drags) in [(false, true, false), (true, false, false), (true, true, true)] {
            let bed = Bed(contentSize: Size(width: 320, height: 300))
            bed.scrollView.alwaysBounceVertical = alwaysBounce
            bed.scrollView.bounces = bounces
            let content = RecordingView(frame: Rect(x: 0, y: 0, width: 320, height: 300))
            bed.scrollView.addSubview(content)
            bed.finger.drag(from: Point(x: 100, y: 100), to: Point(x: 100, y: 160), duration: 0.3, steps: 6)
            bed.settle()
            let context = "alwaysBounceVertical \(alwaysBounce), bounces \(bounces)"
            #expect(bed.recorder.events.contains("willBeginDragging") == drags, "\(context)")
            // Dragged, the content never sees its touch end (held back, or cancelled by the drag).
            #expect(content.calls.contains("ended 1") == !drags, "\(context): \(content.calls)")
        }
    }

    /// An offset set during momentum is where the motion goes on from, at the speed it had (UIKit's endless
    /// lists recentre themselves so); an offset set during a drag is where the finger goes on from.
    @Test func anOffsetSetWhileTheContentMovesIsWhereItGoesOnFrom() {
        let bed = Bed()
        bed.finger.drag(from: Point(x: 160, y: 700), to: Point(x: 160, y: 100), duration: 0.12, steps: 12)
        bed.clock.advance(by: 0.1)
        #expect(bed.scrollView.isDecelerating)
        let before = bed.scrollView.contentOffset.y
        bed.clock.advance(by: 1.0 / 60)
        let step = bed.scrollView.contentOffset.y - before
        bed.scrollView.contentOffset = Point(x: 0, y: 1000)
        #expect(bed.scrollView.isDecelerating)
        bed.clock.advance(by: 1.0 / 60)
        let after = bed.scrollView.contentOffset.y
        // On from 1000, about as fast as before (the speed decays a little each frame), not back near `before`.
        #expect(after > 1000 && after - 1000 <= step + 1 && after - 1000 > step * 0.8, "step \(step) from \(before), then \(after - 1000)")
        bed.recorder.events = []
        bed.settle()
        #expect(bed.recorder.events == ["didEndDecelerating"])
        #expect(bed.scrollView.contentOffset.y > after)
        // During a drag.
        let touch = bed.finger.drag(from: Point(x: 160, y: 600), to: Point(x: 160, y: 500), duration: 0.5, steps: 5, lift: false)
        bed.scrollView.contentOffset = Point(x: 0, y: 200)
        bed.clock.advance(by: 0.1)
        bed.finger.move(touch, to: Point(x: 160, y: 450))
        #expect(bed.scrollView.contentOffset == Point(x: 0, y: 250))
        bed.finger.up(touch)
    }

    /// "If the area is already visible, the method does nothing": momentum goes on.
    @Test func scrollingToAVisibleRectLeavesMomentumAlone() {
        let bed = Bed()
        bed.finger.drag(from: Point(x: 160, y: 700), to: Point(x: 160, y: 100), duration: 0.12, steps: 12)
        bed.clock.advance(by: 0.1)
        let offset = bed.scrollView.contentOffset.y
        bed.scrollView.scrollRectToVisible(Rect(x: 0, y: offset + 100, width: 10, height: 10), animated: false)
        #expect(bed.scrollView.isDecelerating)
        bed.recorder.events = []
        bed.settle()
        #expect(bed.scrollView.contentOffset.y > offset + 50)
        #expect(bed.recorder.events == ["didEndDecelerating"])
    }

    @Test func aTapOnAButtonInsideStillPressesIt() {
        let bed = Bed()
        let button = Button(title: "Buy", frame: Rect(x: 20, y: 20, width: 200, height: 60))
        var events: [String] = []
        button.addAction(for: .touchDown) { _ in events.append("down") }
        button.addAction(for: .touchUpInside) { _ in events.append("upInside") }
        button.addAction(for: .touchCancel) { _ in events.append("cancel") }
        bed.scrollView.addSubview(button)
        // A quick tap: the delayed touch reaches the button when it lifts.
        let tap = bed.finger.down(at: Point(x: 60, y: 40))
        #expect(events.isEmpty)
        bed.clock.advance(by: 0.05)
        bed.finger.up(tap)
        #expect(events == ["down", "upInside"])
        // A held tap: after 0.15 s the button has it.
        events.removeAll()
        bed.clock.advance(by: 1)
        let held = bed.finger.down(at: Point(x: 60, y: 40))
        bed.clock.advance(by: 0.2)
        #expect(events == ["down"])
        bed.finger.up(held)
        #expect(events == ["down", "upInside"])
    }

    @Test func aDragStartingOnAButtonScrollsAndTheButtonNeverFires() {
        let bed = Bed()
        let button = Button(title: "Buy", frame: Rect(x: 20, y: 200, width: 200, height: 60))
        var events: [String] = []
        button.addAction(for: [.touchDown, .touchUpInside, .touchCancel]) { _ in events.append("event") }
        bed.scrollView.addSubview(button)
        bed.finger.drag(from: Point(x: 60, y: 230), to: Point(x: 60, y: 130), duration: 0.1, steps: 5)
        #expect(bed.scrollView.contentOffset.y > 50)
        #expect(events.isEmpty)
    }

    @Test func aHeldControlKeepsItsTouchAsUIKitsButAnOverrideLetsTheDragTakeIt() {
        final class TakingScrollView: ScrollView {
            override func touchesShouldCancel(in view: View) -> Bool { true }
        }
        for taking in [false, true] {
            let bed = Bed()
            let scrollView = taking ? TakingScrollView(frame: bed.scrollView.frame) : bed.scrollView
            if taking {
                bed.scrollView.removeFromSuperview()
                scrollView.contentSize = Size(width: 320, height: 5000)
                bed.animation.window.addSubview(scrollView)
            }
            let button = Button(title: "Buy", frame: Rect(x: 20, y: 200, width: 200, height: 60))
            var events: [String] = []
            button.addAction(for: .touchDown) { _ in events.append("down") }
            button.addAction(for: .touchCancel) { _ in events.append("cancel") }
            button.addAction(for: .touchUpOutside) { _ in events.append("upOutside") }
            scrollView.addSubview(button)
            let touch = bed.finger.down(at: Point(x: 60, y: 230))
            bed.clock.advance(by: 0.2)
            for step in 1...5 {
                bed.clock.advance(by: 0.02)
                bed.finger.move(touch, to: Point(x: 60, y: 230 - Double(step) * 30))
            }
            bed.finger.up(touch)
            if taking {
                #expect(events == ["down", "cancel"])
                #expect(scrollView.contentOffset.y > 50)
            } else {
                #expect(events == ["down", "upOutside"])
                #expect(scrollView.contentOffset.y == 0)
            }
        }
    }
}

@MainActor
struct TableViewTests {
    @MainActor
    final class Source: TableViewDataSource {
        var sections: [(title: String?, rows: Int)]
        var drawn: [String] = []
        /// The rows whose cells were asked for, in order.
        var asked: [IndexPath] = []
        init(sections: [(title: String?, rows: Int)]) { self.sections = sections }

        func numberOfSections(in tableView: TableView) -> Int { sections.count }
        func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { sections[section].rows }
        func tableView(_ tableView: TableView, titleForHeaderInSection section: Int) -> String? { sections[section].title }
        func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
            asked.append(indexPath)
            let cell = tableView.dequeueReusableCell(withIdentifier: "row", for: indexPath)
            cell.textLabel.text = "Row \(indexPath.row)"
            return cell
        }
    }

    /// Counts its draws: scrolling must move cached content, never draw it again.
    @MainActor
    final class CountingCell: TableViewCell {
        static var draws = 0
        override func draw(_ rect: Rect) {
            Self.draws += 1
            super.draw(rect)
        }
    }

    @MainActor
    final class Bed {
        let animation = AnimationBed(width: 320, height: 480)
        let table = TableView(frame: Rect(x: 0, y: 0, width: 320, height: 480))
        let source: Source
        let recorder = ScrollRecorder()
        var finger: Finger { Finger(clock: animation.clock) }

        init(sections: [(title: String?, rows: Int)] = [(nil, 10_000)]) {
            source = Source(sections: sections)
            table.register(CountingCell.self, forCellReuseIdentifier: "row")
            table.dataSource = source
            table.delegate = recorder
            animation.window.addSubview(table)
            animation.render.render()
        }
    }

    @Test func tenThousandRowsScrollWithCellsBoundedByTheVisibleOnes() {
        let bed = Bed()
        #expect(bed.table.contentSize == Size(width: 320, height: 440_000))
        // 480 / 44: rows 0 to 10 are in view.
        #expect(bed.table.indexPathsForVisibleRows == (0...10).map { IndexPath(row: $0, section: 0) })
        var most = 0
        for y in stride(from: 0.0, through: 440_000 - 480, by: 97) {
            bed.table.contentOffset = Point(x: 0, y: y)
            bed.table.layoutIfNeeded()
            most = max(most, bed.table.visibleCells.count)
            #expect(bed.table.visibleCells.allSatisfy { $0.frame.intersects(bed.table.bounds) })
        }
        // Every row was shown with at most 12 cells on screen and 13 held in all.
        #expect(most <= 12)
        #expect(bed.table.cellCount <= 13)
        #expect(bed.table.indexPathsForVisibleRows.last == IndexPath(row: 9999, section: 0))
        #expect(bed.table.cellForRow(at: IndexPath(row: 9999, section: 0))?.textLabel.text == "Row 9999")
    }

    @Test func scrollingWithinTheRowsInViewRedrawsNothingAndDamagesOnlyTheTable() {
        let bed = Bed()
        let table = bed.table
        table.frame = Rect(x: 0, y: 100, width: 320, height: 300)
        bed.animation.render.render()
        CountingCell.draws = 0
        let before = bed.animation.output.presented.count
        // Rows 0 to 6 are in view (row 7 starts at 308): 4 points bring in no new row.
        table.contentOffset = Point(x: 0, y: 4)
        bed.animation.render.render()
        #expect(CountingCell.draws == 0)
        #expect(bed.animation.output.presented.count == before + 1)
        let damage = bed.animation.output.presented.last!.damage
        #expect(damage.extents == PixelRect(x: 0, y: 100, width: 320, height: 300))
    }

    @Test func aTapSelectsTheRowUnderTheFinger() {
        let bed = Bed()
        let touch = bed.finger.down(at: Point(x: 100, y: 44 * 3 + 20))
        bed.animation.clock.advance(by: 0.05)
        bed.finger.up(touch)
        #expect(bed.recorder.selected == [IndexPath(row: 3, section: 0)])
        #expect(bed.table.indexPathForSelectedRow == IndexPath(row: 3, section: 0))
        #expect(bed.table.cellForRow(at: IndexPath(row: 3, section: 0))?.isSelected == true)
        // A drag does not select, and takes the highlight away once it scrolls.
        bed.animation.clock.advance(by: 1)
        let drag = bed.finger.down(at: Point(x: 100, y: 44 * 6 + 20))
        bed.animation.clock.advance(by: 0.2)
        #expect(bed.table.cellForRow(at: IndexPath(row: 6, section: 0))?.isHighlighted == true)
        for step in 1...4 {
            bed.animation.clock.advance(by: 0.02)
            bed.finger.move(drag, to: Point(x: 100, y: 44 * 6 + 20 - Double(step) * 20))
        }
        #expect(bed.table.cellForRow(at: IndexPath(row: 6, section: 0))?.isHighlighted == false)
        bed.finger.up(drag)
        #expect(bed.recorder.selected == [IndexPath(row: 3, section: 0)])
    }

    /// A row held down that a programmatic scroll takes out of view loses its highlight, and the table
    /// selects on the next tap (its cell, made without a reuse identifier, left the table, and the table
    /// never heard that touch end: every later tap was ignored).
    @Test func aHeldRowScrolledOutOfViewDoesNotStopTheNextTaps() {
        final class Unregistered: TableViewDataSource {
            func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { 100 }
            func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
                TableViewCell(style: .default, reuseIdentifier: nil)
            }
        }
        let animation = AnimationBed(width: 320, height: 480)
        let table = TableView(frame: Rect(x: 0, y: 0, width: 320, height: 480))
        let source = Unregistered()
        let recorder = ScrollRecorder()
        table.dataSource = source
        table.delegate = recorder
        animation.window.addSubview(table)
        animation.render.render()
        let finger = Finger(clock: animation.clock)
        let hold = finger.down(at: Point(x: 100, y: 44 * 3 + 20))
        animation.clock.advance(by: 0.2)
        #expect(table.cellForRow(at: IndexPath(row: 3, section: 0))?.isHighlighted == true)
        table.scrollToRow(at: IndexPath(row: 50, section: 0), at: .top, animated: false)
        table.layoutIfNeeded()
        finger.up(hold)
        animation.clock.advance(by: 1)
        #expect(recorder.selected.isEmpty)
        let tap = finger.down(at: Point(x: 100, y: 44 + 20))
        animation.clock.advance(by: 0.05)
        finger.up(tap)
        #expect(recorder.selected == [IndexPath(row: 51, section: 0)])
    }

    @Test func sectionHeadersFloatAtTheTopOfTheirSection() {
        let bed = Bed(sections: [("Fruit", 20), ("Vegetables", 20), (nil, 5)])
        let table = bed.table
        #expect(table.numberOfSections == 3)
        // Two headers of 28 and 45 rows of 44.
        #expect(table.contentSize.height == 2 * 28 + 45 * 44)
        #expect(table.rectForRow(at: IndexPath(row: 0, section: 1)).minY == 28 + 20 * 44 + 28)
        table.contentOffset = Point(x: 0, y: 300)
        table.layoutIfNeeded()
        let headers = table.subviews.compactMap { $0 as? TableSectionHeader }
        #expect(headers.map(\.label.text) == ["Fruit"])
        #expect(headers.first?.frame.minY == 300)
        // Near the end of section 0 the next header pushes it up.
        table.contentOffset = Point(x: 0, y: 28 + 20 * 44 - 10)
        table.layoutIfNeeded()
        let pushed = table.subviews.compactMap { $0 as? TableSectionHeader }.first { $0.label.text == "Fruit" }
        #expect(pushed?.frame.maxY == Double(28 + 20 * 44))
        #expect(table.indexPathForRow(at: Point(x: 10, y: 28 + 20 * 44 + 28 + 50)) == IndexPath(row: 1, section: 1))
    }

    /// `contentInset` marks the part of the view the content is seen in (clear of a bar at the top and the
    /// keyboard at the bottom): rows scrolled to, rectangles made visible and floating headers keep within it.
    @Test func scrollingToARowKeepsItWithinTheInsets() {
        let bed = Bed(sections: [("Fruit", 20), ("Vegetables", 20)])
        let table = bed.table
        table.contentInset = EdgeInsets(top: 60, left: 0, bottom: 200, right: 0)
        table.contentOffset = Point(x: 0, y: 500)
        table.scrollToRow(at: IndexPath(row: 0, section: 0), at: .top, animated: false)
        #expect(table.contentOffset.y == 28 - 60)
        let row = table.rectForRow(at: IndexPath(row: 10, section: 1))
        table.scrollToRow(at: IndexPath(row: 10, section: 1), at: .bottom, animated: false)
        #expect(table.contentOffset.y == row.maxY - (480 - 200))
        table.scrollToRow(at: IndexPath(row: 10, section: 1), at: .middle, animated: false)
        #expect(table.contentOffset.y == row.midY - 60 - (480 - 60 - 200) / 2)
        // Just into view: below the top bar, above the keyboard.
        table.contentOffset = Point(x: 0, y: 0)
        table.scrollRectToVisible(row, animated: false)
        #expect(table.contentOffset.y == row.maxY - (480 - 200))
        table.scrollRectToVisible(table.rectForRow(at: IndexPath(row: 0, section: 0)), animated: false)
        #expect(table.contentOffset.y == 28 - 60)
        // The section's header floats below the top inset.
        table.contentOffset = Point(x: 0, y: 300)
        table.layoutIfNeeded()
        let header = table.subviews.compactMap { $0 as? TableSectionHeader }.first { $0.label.text == "Fruit" }
        #expect(header?.frame.minY == 360)
    }

    /// The usual set-up order: heights first, then the data source, whose rows come at the next layout;
    /// a height changed later moves the rows and keeps the selection.
    @Test func rowHeightSetBeforeTheDataSource() {
        let animation = AnimationBed(width: 320, height: 480)
        let table = TableView(frame: Rect(x: 0, y: 0, width: 320, height: 480))
        table.rowHeight = 60
        table.register(TableViewCell.self, forCellReuseIdentifier: "row")
        let source = Source(sections: [(nil, 20)])
        table.dataSource = source
        animation.window.addSubview(table)
        table.layoutIfNeeded()
        #expect(table.visibleCells.count == 8)
        #expect(table.contentSize == Size(width: 320, height: 1200))
        table.selectRow(at: IndexPath(row: 2, section: 0), animated: false, scrollPosition: .none)
        table.rowHeight = 40
        table.layoutIfNeeded()
        #expect(table.visibleCells.count == 12)
        #expect(table.cellForRow(at: IndexPath(row: 2, section: 0))?.frame == Rect(x: 0, y: 80, width: 320, height: 40))
        #expect(table.indexPathForSelectedRow == IndexPath(row: 2, section: 0))
        #expect(table.cellForRow(at: IndexPath(row: 2, section: 0))?.isSelected == true)
        // Another data source: asked for everything.
        let other = Source(sections: [(nil, 3)])
        table.dataSource = other
        table.layoutIfNeeded()
        #expect(table.visibleCells.count == 3 && table.indexPathForSelectedRow == nil)
    }

    /// A control in a cell's `contentView` takes its own taps (the row is not selected); a tap elsewhere in
    /// the cell selects the row.
    @Test func aButtonInACellTakesItsTap() {
        final class ButtonSource: TableViewDataSource {
            var taps = 0
            func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { 20 }
            func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
                let cell = TableViewCell(style: .default, reuseIdentifier: nil)
                let button = Button(title: "+", frame: Rect(x: 250, y: 0, width: 60, height: 44))
                button.addAction(for: .touchUpInside) { [unowned self] _ in self.taps += 1 }
                cell.contentView.addSubview(button)
                return cell
            }
        }
        let bed = Bed(sections: [(nil, 1)])
        let source = ButtonSource()
        bed.table.dataSource = source
        bed.table.layoutIfNeeded()
        let tap = bed.finger.down(at: Point(x: 280, y: 44 + 20))
        bed.animation.clock.advance(by: 0.2)
        bed.finger.up(tap)
        #expect(source.taps == 1 && bed.recorder.selected.isEmpty)
        let row = bed.finger.down(at: Point(x: 100, y: 44 + 20))
        bed.animation.clock.advance(by: 0.2)
        bed.finger.up(row)
        #expect(source.taps == 1 && bed.recorder.selected == [IndexPath(row: 1, section: 0)])
    }

    /// A floating section header in front of a row: a tap on it selects nothing.
    @Test func aTapOnASectionHeaderSelectsNothing() {
        let bed = Bed(sections: [("Fruit", 50)])
        bed.table.contentOffset = Point(x: 0, y: 300)
        bed.table.layoutIfNeeded()
        let header = bed.finger.down(at: Point(x: 100, y: 10))
        bed.animation.clock.advance(by: 0.2)
        bed.finger.up(header)
        #expect(bed.recorder.selected.isEmpty)
        let row = bed.finger.down(at: Point(x: 100, y: 60))
        bed.animation.clock.advance(by: 0.2)
        bed.finger.up(row)
        #expect(bed.recorder.selected.count == 1)
    }

    /// Rows inserted, deleted and reloaded: the rows that stay keep their cells, which move to their new
    /// places with the selection; new rows get cells from the data source; nothing else is asked again.
    @Test func insertingDeletingAndReloadingRowsKeepTheOtherCells() {
        let bed = Bed(sections: [(nil, 5)])
        bed.table.selectRow(at: IndexPath(row: 3, section: 0), animated: false, scrollPosition: .none)
        let before = (0..<5).map { bed.table.cellForRow(at: IndexPath(row: $0, section: 0))! }
        bed.source.sections = [(nil, 6)]
        bed.table.insertRows(at: [IndexPath(row: 2, section: 0)], with: .none)
        bed.table.layoutIfNeeded()
        let inserted = bed.table.cellForRow(at: IndexPath(row: 2, section: 0))
        #expect(inserted != nil && !before.contains { $0 === inserted })
        #expect(bed.table.cellForRow(at: IndexPath(row: 4, section: 0)) === before[3])
        #expect(bed.table.cellForRow(at: IndexPath(row: 4, section: 0))?.frame == Rect(x: 0, y: 44 * 4, width: 320, height: 44))
        #expect(bed.table.indexPathForSelectedRow == IndexPath(row: 4, section: 0) && before[3].isSelected)
        #expect(bed.table.contentSize.height == 44 * 6)
        // Deleting the selected row: no selection; the rows after it move up.
        bed.source.sections = [(nil, 5)]
        bed.table.deleteRows(at: [IndexPath(row: 4, section: 0)], with: .none)
        bed.table.layoutIfNeeded()
        #expect(bed.table.indexPathForSelectedRow == nil)
        #expect(bed.table.cellForRow(at: IndexPath(row: 4, section: 0)) === before[4])
        // Reloading a row asks the data source for that row alone; the others keep their cells.
        bed.source.asked = []
        bed.table.reloadRows(at: [IndexPath(row: 0, section: 0)], with: .none)
        bed.table.layoutIfNeeded()
        #expect(bed.source.asked == [IndexPath(row: 0, section: 0)])
        #expect(bed.table.cellForRow(at: IndexPath(row: 1, section: 0)) === before[1])
    }

    /// With `.fade` the deleted row fades out where it was while the rows after it slide up, then its cell
    /// goes back to the pool.
    @Test func aDeletedRowFadesOutWhileTheRestSlideUp() {
        let bed = Bed(sections: [(nil, 5)])
        let deleted = bed.table.cellForRow(at: IndexPath(row: 1, section: 0))!
        let next = bed.table.cellForRow(at: IndexPath(row: 2, section: 0))!
        bed.source.sections = [(nil, 4)]
        bed.table.deleteRows(at: [IndexPath(row: 1, section: 0)], with: .fade)
        #expect(bed.table.cellForRow(at: IndexPath(row: 1, section: 0)) === next)
        #expect(next.frame == Rect(x: 0, y: 44, width: 320, height: 44) && deleted.superview === bed.table)
        bed.animation.clock.advance(by: TableView.rowAnimationDuration / 2)
        let halfway = next.presentation.center?.y ?? next.center.y
        #expect(halfway > 44 + 22 && halfway < 88 + 22)
        #expect(deleted.presentationAlpha > 0 && deleted.presentationAlpha < 1)
        bed.animation.clock.advance(by: TableView.rowAnimationDuration)
        #expect(deleted.superview == nil && deleted.alpha == 1)
        #expect(next.presentation.center == nil && next.center.y == 44 + 22)
        #expect(bed.table.cellCount == 5)
    }

    /// An update the data source does not count stops the program, naming the section and the counts (as
    /// UIKit raises).
    @Test func anUpdateTheDataSourceDoesNotMatchStops() async {
        await #expect(processExitsWith: .failure) {
            await MainActor.run {
                let bed = Bed(sections: [(nil, 5)])
                bed.table.insertRows(at: [IndexPath(row: 0, section: 0)], with: .none)
            }
        }
    }

    @Test func reloadDataAsksAgainAndClearsTheSelection() {
        let bed = Bed(sections: [(nil, 30)])
        bed.table.selectRow(at: IndexPath(row: 2, section: 0), animated: false, scrollPosition: .none)
        bed.source.sections = [(nil, 3)]
        bed.table.reloadData()
        bed.table.layoutIfNeeded()
        #expect(bed.table.indexPathForSelectedRow == nil)
        #expect(bed.table.numberOfRows(inSection: 0) == 3)
        #expect(bed.table.visibleCells.count == 3)
        #expect(bed.table.visibleCells.allSatisfy { !$0.isSelected })
    }
}
