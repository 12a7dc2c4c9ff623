import KioskTesting
import Testing

@testable import KioskKit

/// The interactive pop driven by touches through `Application.sendEvent`, as the input backend sends them:
/// a finger from the leading edge drags the top view, and letting go completes or cancels the pop.
@MainActor
@Suite(.serialized)
struct NavigationInteractivePopTests {
    /// The finger drags the top view with it (the one below a third as fast); let go past half the width,
    /// the pop completes: UIKit's calls, `viewWillDisappear` as the drag starts and the rest at the end.
    @Test func aSwipePastHalfTheWidthPops() {
        let bed = NavigationBed(stack: ["A", "B"])
        let a = bed["A"].view, b = bed["B"].view
        bed.down(10, 120)
        bed.move(30, 121)
        // A's view loads as it is first needed.
        #expect(bed.log.take() == ["A didLoad", "B willDisappear true", "A willAppear true", "willShow A true"])
        bed.move(120, 122)
        #expect(b.presentationFrame.minX == 110 && abs(a.presentationFrame.minX - (-320.0 / 3 + 110.0 / 3)) < 1e-9)
        #expect(bed.stack == ["A", "B"] && bed.navigation.navigationBar.topItem === bed["A"].navigationItem)
        bed.move(200, 122)
        // Held still before letting go: no speed, only the distance decides.
        bed.up(after: 0.3)
        #expect(bed.log.take() == ["B willMove nil"])
        #expect(bed.stack == ["A"])
        bed.settle()
        #expect(bed.log.take() == ["B didDisappear true", "A didAppear true", "B didMove nil", "didShow A true"])
        #expect(a.presentationFrame.minX == 0 && b.superview == nil && bed["B"].parent == nil)
        #expect(bed.navigation.transition == nil && bed.clock.pendingTimers.isEmpty)
    }

    /// Let go short of half the width and slowly, the views slide back and the calls say so: the one below
    /// disappears again and the top one hears `viewWillAppear` and `viewDidAppear` again; the stack and
    /// the containment never changed.
    @Test func aShortSwipeCancelsAndTheAppearanceCallsSaySo() {
        let bed = NavigationBed(stack: ["A", "B"])
        let a = bed["A"].view, b = bed["B"].view
        bed.down(5, 120)
        bed.move(25, 120)
        bed.move(100, 120)
        bed.up(after: 0.3)
        #expect(
            bed.log.take() == [
                "A didLoad", "B willDisappear true", "A willAppear true", "willShow A true", "A willDisappear true",
                "B willAppear true",
            ])
        bed.settle()
        #expect(bed.log.take() == ["A didDisappear true", "B didAppear true"])
        #expect(bed.stack == ["A", "B"] && b.presentationFrame.minX == 0 && a.superview == nil)
        #expect(bed.navigation.navigationBar.topItem === bed["B"].navigationItem && bed.navigation.navigationBar.outgoing == nil)
        #expect(bed.navigation.containerView.isUserInteractionEnabled && bed.clock.pendingTimers.isEmpty)
    }

    /// A quick flick toward the trailing edge pops from anywhere; one back toward the leading edge cancels
    /// even past half the width.
    @Test func theSpeedOfTheFlickDecidesToo() {
        let bed = NavigationBed(stack: ["A", "B", "C"])
        bed.swipe(at: 100, from: 10, [(30, 0.02), (90, 0.02)], lift: 0.01)
        bed.settle()
        #expect(bed.stack == ["A", "B"])
        _ = bed.log.take()
        // Past half the width, held, then thrown back: the speed toward the leading edge cancels.
        bed.swipe(at: 100, from: 10, [(30, 0.05), (250, 0.2), (200, 0.02)], lift: 0.01)
        bed.settle()
        #expect(bed.stack == ["A", "B"])
        #expect(bed.log.take().suffix(2) == ["A didDisappear true", "B didAppear true"])
    }

    /// No swipe on the root, none from away from the edge, none that goes up or toward the leading edge,
    /// none while disabled: nothing moves and no call is made.
    @Test func theSwipeStartsOnlyFromTheLeadingEdgeAboveTheRoot() {
        let root = NavigationBed(stack: ["A"])
        root.down(10, 120)
        root.move(40, 120)
        root.move(200, 120)
        root.up()
        #expect(root.log.take().isEmpty && root.navigation.transition == nil)
        let bed = NavigationBed(stack: ["A", "B"])
        for (start, end) in [((60.0, 120.0), (200.0, 120.0)), ((10, 120), (12, 60)), ((15, 120), (0, 120))] {
            bed.down(start.0, start.1)
            bed.move(end.0, end.1)
            bed.move(end.0 + 1, end.1)
            bed.up()
            bed.settle()
        }
        bed.navigation.interactivePopGestureRecognizer?.isEnabled = false
        bed.down(10, 120)
        bed.move(200, 120)
        bed.up()
        bed.settle()
        #expect(bed.log.take().isEmpty && bed.stack == ["A", "B"] && bed["B"].view.frame.minX == 0)
    }

    /// A change the app asks for while the finger drags ends the swipe as a cancel first; the finger's
    /// later moves and its lift do nothing.
    @Test func aPopAskedForDuringTheSwipeCancelsItFirst() {
        let bed = NavigationBed(stack: ["A", "B"])
        bed.down(10, 120)
        bed.move(30, 120)
        bed.move(100, 120)
        _ = bed.log.take()
        _ = bed.navigation.popViewController(animated: false)
        #expect(
            bed.log.take() == [
                "A willDisappear true", "B willAppear true", "A didDisappear true", "B didAppear true",
                "B willMove nil", "B willDisappear false", "A willAppear false", "willShow A false",
                "B didDisappear false", "A didAppear false", "B didMove nil", "didShow A false",
            ])
        bed.move(250, 120)
        bed.up()
        bed.settle()
        #expect(bed.log.take().isEmpty && bed.stack == ["A"] && bed["A"].view.frame.minX == 0)
    }
}
