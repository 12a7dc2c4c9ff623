import KioskTesting
import Testing

@testable import KioskKit

/// A row of the appearance table: the stack at the start, what is done, and every call that follows, in
/// order, with `"|"` where the clock runs (the slide: what comes after it comes once the slide has ended).
struct AppearanceRow: CustomTestStringConvertible, Sendable {
    let name: String
    let stack: [String]
    let act: @MainActor @Sendable (NavigationBed) -> Void
    let expected: [String]

    var testDescription: String { name }
}

/// The calls of a change of the top controller, as UIKit's: the leaving controllers' `willMove(toParent:
/// nil)` and the joining ones' `willMove(toParent:)` first, the appearing one's view loaded, then
/// `viewWillDisappear`, `viewWillAppear` and the delegate's `willShow`; after the slide (at once when not
/// animated) `viewDidDisappear`, `viewDidAppear`, the containment's `didMove(toParent:)` and `didShow`.
private func appearanceRows(animated: Bool) -> [AppearanceRow] {
    let a = animated
    let slide = animated ? ["|"] : []
    let end = animated ? [] : ["|"]
    return [
        AppearanceRow(
            name: "push (animated \(a))", stack: ["A"], act: { $0.navigation.pushViewController($0["B"], animated: a) },
            expected: ["B willMove nav", "B didLoad", "A willDisappear \(a)", "B willAppear \(a)", "willShow B \(a)"] + slide
                + ["A didDisappear \(a)", "B didAppear \(a)", "B didMove nav", "didShow B \(a)"] + end),
        AppearanceRow(
            name: "pop (animated \(a))", stack: ["A", "B"], act: { _ = $0.navigation.popViewController(animated: a) },
            expected: ["B willMove nil", "A didLoad", "B willDisappear \(a)", "A willAppear \(a)", "willShow A \(a)"] + slide
                + ["B didDisappear \(a)", "A didAppear \(a)", "B didMove nil", "didShow A \(a)"] + end),
        AppearanceRow(
            name: "popToRoot (animated \(a))", stack: ["A", "B", "C"],
            act: { _ = $0.navigation.popToRootViewController(animated: a) },
            expected: ["B willMove nil", "C willMove nil", "A didLoad", "C willDisappear \(a)", "A willAppear \(a)", "willShow A \(a)"]
                + slide
                + ["C didDisappear \(a)", "A didAppear \(a)", "B didMove nil", "C didMove nil", "didShow A \(a)"] + end),
        // Controllers below the top load their views when they come back (A's in the rows above too).
        AppearanceRow(
            name: "popTo (animated \(a))", stack: ["A", "B", "C", "D"],
            act: { _ = $0.navigation.popToViewController($0["B"], animated: a) },
            expected: ["C willMove nil", "D willMove nil", "B didLoad", "D willDisappear \(a)", "B willAppear \(a)", "willShow B \(a)"]
                + slide + ["D didDisappear \(a)", "B didAppear \(a)", "C didMove nil", "D didMove nil", "didShow B \(a)"] + end),
        // A new top that was on the stack: a pop to it; D joins below without appearing.
        AppearanceRow(
            name: "setViewControllers, a pop (animated \(a))", stack: ["A", "B"],
            act: { $0.navigation.setViewControllers([$0["D"], $0["A"]], animated: a) },
            expected: ["D willMove nav", "B willMove nil", "A didLoad", "B willDisappear \(a)", "A willAppear \(a)", "willShow A \(a)"]
                + slide
                + ["B didDisappear \(a)", "A didAppear \(a)", "B didMove nil", "D didMove nav", "didShow A \(a)"] + end),
        // A new top that was not: a push; B joins under it.
        AppearanceRow(
            name: "setViewControllers, a push (animated \(a))", stack: ["A"],
            act: { $0.navigation.setViewControllers([$0["A"], $0["B"], $0["C"]], animated: a) },
            expected: ["B willMove nav", "C willMove nav", "C didLoad", "A willDisappear \(a)", "C willAppear \(a)", "willShow C \(a)"]
                + slide + ["A didDisappear \(a)", "C didAppear \(a)", "B didMove nav", "C didMove nav", "didShow C \(a)"] + end),
        // The same top: no appearance calls, only containment.
        AppearanceRow(
            name: "setViewControllers, same top (animated \(a))", stack: ["A", "B"],
            act: { $0.navigation.setViewControllers([$0["C"], $0["B"]], animated: a) },
            expected: ["C willMove nav", "A willMove nil", "A didMove nil", "C didMove nav", "|"]),
    ]
}

@MainActor
@Suite(.serialized)
struct NavigationControllerTests {
    @Test(arguments: appearanceRows(animated: false) + appearanceRows(animated: true))
    func appearanceCallsComeInUIKitsOrder(_ row: AppearanceRow) {
        let bed = NavigationBed(stack: row.stack)
        row.act(bed)
        bed.log.lines.append("|")
        bed.settle()
        #expect(bed.log.take() == row.expected)
        #expect(bed.navigation.transition == nil)
    }

    /// The stack's operations and what they return, and the containment they leave (UIKit's).
    @Test func stackOperationsAndTheirResults() {
        let bed = NavigationBed(stack: ["A"])
        let nav = bed.navigation
        let a = bed["A"], b = bed["B"], c = bed["C"], d = bed["D"]
        #expect(nav.viewControllers.map(\.title) == ["A"] && nav.topViewController === a && nav.visibleViewController === a)
        #expect(a.parent === nav && a.navigationController === nav && same(nav.children, [a]))
        nav.pushViewController(b, animated: false)
        nav.pushViewController(c, animated: true)
        // The stack changes at once; the slide shows it.
        #expect(bed.stack == ["A", "B", "C"] && nav.topViewController === c)
        bed.settle()
        #expect(c.view.superview === nav.containerView && b.view.superview == nil && same(nav.containerView.subviews, [c.view]))
        #expect(nav.popViewController(animated: false) === c)
        #expect(c.parent == nil && c.navigationController == nil && bed.stack == ["A", "B"])
        nav.pushViewController(c, animated: false)
        nav.pushViewController(d, animated: false)
        #expect(nav.popToViewController(b, animated: true)?.map(\.title) == ["C", "D"])
        bed.settle()
        #expect(bed.stack == ["A", "B"] && nav.popToViewController(b, animated: false)?.isEmpty == true)
        #expect(nav.popToRootViewController(animated: true)?.map(\.title) == ["B"])
        bed.settle()
        #expect(nav.popToRootViewController(animated: false)?.isEmpty == true && bed.stack == ["A"])
        nav.viewControllers = [d, c]
        #expect(bed.stack == ["D", "C"] && a.parent == nil && nav.children.map(\.title) == ["D", "C"])
        #expect(same(nav.containerView.subviews, [c.view]) && a.view.superview == nil)
        nav.setViewControllers([], animated: true)
        bed.settle()
        #expect(nav.viewControllers.isEmpty && nav.topViewController == nil && nav.containerView.subviews.isEmpty)
        #expect(nav.popToRootViewController(animated: false) == nil && nav.popViewController(animated: false) == nil)
    }

    /// Off screen, changes make no appearance calls and no slide; the top appears with the navigation
    /// controller, which tells the delegate.
    @Test func offScreenChangesMakeNoAppearanceCallsUntilTheNavigationControllerAppears() {
        let bed = NavigationBed(stack: ["A"])
        bed.animation.window.isHidden = true
        _ = bed.log.take()
        bed.navigation.pushViewController(bed["B"], animated: true)
        #expect(bed.log.take() == ["B willMove nav", "B didLoad", "B didMove nav"])
        #expect(bed.navigation.transition == nil && same(bed.navigation.containerView.subviews, [bed["B"].view]))
        bed.animation.window.isHidden = false
        #expect(bed.log.take() == ["willShow B false", "B willAppear false", "didShow B false", "B didAppear false"])
        // Never loaded: the stack changes, the view loads when it is shown.
        let fresh = NavigationController(rootViewController: bed["C"])
        fresh.pushViewController(bed["D"], animated: true)
        #expect(bed.log.take() == ["C willMove nav", "C didMove nav", "D willMove nav", "D didMove nav"])
        #expect(!fresh.isViewLoaded && !bed["D"].isViewLoaded)
    }

    /// UIKit's slide: the new view comes in from the trailing edge over the old one, which moves a third of
    /// the way toward the leading edge; a pop is the reverse. 0.35 s with the ease-in-out curve, one frame
    /// per refresh, nothing after it ends; touches reach neither the content nor the bar meanwhile.
    @Test func theSlideMovesBothViewsPacedByTheFrameClockAndEndsQuiet() {
        let bed = NavigationBed(stack: ["A"])
        let nav = bed.navigation, a = bed["A"].view, b = bed["B"].view
        nav.pushViewController(bed["B"], animated: true)
        #expect(b.presentationFrame.minX == 320 && a.presentationFrame.minX == 0)
        #expect(!nav.containerView.isUserInteractionEnabled && !nav.navigationBar.isUserInteractionEnabled)
        #expect(bed.app.hitTest(Point(x: 160, y: 150), on: Screen.main)?.1 === nav.view)
        #expect(bed.app.hitTest(Point(x: 30, y: 22), on: Screen.main)?.1 === nav.view)
        // Half the time (the animation starts with its first frame, a period on): half the way, the curve
        // being symmetric.
        let start = bed.clock.now + bed.animation.period
        bed.clock.advance(to: start + NavigationTransition.duration / 2)
        #expect(abs(b.presentationFrame.minX - 160) <= 320 * 3 * bed.animation.period)
        #expect(abs(a.presentationFrame.minX + 320.0 / 6) <= 320 * bed.animation.period)
        bed.clock.advance(to: start + NavigationTransition.duration + 0.1)
        #expect(b.presentationFrame.minX == 0 && a.superview == nil && a.frame == nav.containerView.bounds)
        #expect(nav.transition == nil && nav.containerView.isUserInteractionEnabled && nav.navigationBar.isUserInteractionEnabled)
        let frames = bed.animation.frameTimes.count
        #expect(frames >= 20 && frames <= 24)
        bed.clock.advance(by: 2)
        #expect(bed.animation.frameTimes.count <= frames + 1 && bed.clock.pendingTimers.isEmpty && !bed.app.isAnimating)
        // The pop: the top view leaves toward the trailing edge, the one below comes from a third of the way.
        _ = nav.popViewController(animated: true)
        #expect(b.presentationFrame.minX == 0 && a.presentationFrame.minX == -320.0 / 3)
        bed.settle()
        #expect(a.presentationFrame.minX == 0 && b.superview == nil && bed.clock.pendingTimers.isEmpty)
    }

    /// Bad input is logged and changes nothing: pushing a controller on the stack (UIKit throws), a
    /// navigation controller, one that contains this one, a window's root; a list with a controller twice;
    /// popping the root (UIKit does nothing); popping to a controller not on the stack.
    @Test func badInputIsIgnoredWithoutACrash() {
        let bed = NavigationBed(stack: ["A", "B"])
        let nav = bed.navigation
        nav.pushViewController(bed["B"], animated: true)
        nav.pushViewController(bed["A"], animated: false)
        nav.pushViewController(NavigationController(), animated: false)
        nav.pushViewController(nav, animated: false)
        let outer = ViewController()
        outer.addChild(nav)
        nav.pushViewController(outer, animated: false)
        nav.willMove(toParent: nil)
        nav.removeFromParent()
        let other = Window(screen: Screen.main)
        let root = ViewController()
        other.rootViewController = root
        nav.pushViewController(root, animated: false)
        nav.setViewControllers([bed["C"], bed["C"]], animated: false)
        nav.setViewControllers([bed["C"], NavigationController()], animated: false)
        #expect(bed.stack == ["A", "B"] && bed.log.take().isEmpty)
        #expect(nav.popToViewController(bed["D"], animated: true) == nil)
        _ = nav.popViewController(animated: false)
        #expect(nav.popViewController(animated: true) == nil && nav.popToRootViewController(animated: true)?.isEmpty == true)
        #expect(bed.stack == ["A"] && nav.transition == nil)
    }

    /// A change asked for during a slide ends that slide where it was heading first (its calls all made),
    /// then runs: the stack is what was asked last, and the calls stay balanced.
    @Test func aChangeDuringATransitionEndsItFirst() {
        let bed = NavigationBed(stack: ["A"])
        let nav = bed.navigation
        nav.pushViewController(bed["B"], animated: true)
        bed.clock.advance(by: 0.1)
        nav.pushViewController(bed["C"], animated: true)
        #expect(
            bed.log.take() == [
                "B willMove nav", "B didLoad", "A willDisappear true", "B willAppear true", "willShow B true",
                "A didDisappear true", "B didAppear true", "B didMove nav", "didShow B true",
                "C willMove nav", "C didLoad", "B willDisappear true", "C willAppear true", "willShow C true",
            ])
        bed.clock.advance(by: 0.05)
        _ = nav.popToRootViewController(animated: false)
        bed.settle()
        #expect(
            bed.log.take() == [
                "B didDisappear true", "C didAppear true", "C didMove nav", "didShow C true",
                "B willMove nil", "C willMove nil", "C willDisappear false", "A willAppear false", "willShow A false",
                "C didDisappear false", "A didAppear false", "B didMove nil", "C didMove nil", "didShow A false",
            ])
        #expect(bed.stack == ["A"] && same(nav.containerView.subviews, [bed["A"].view]) && bed["A"].view.frame.minX == 0)
        #expect(bed.clock.pendingTimers.isEmpty)
    }

    /// The bar hides and shows, at once or sliding over `hideShowBarDuration`: the content takes its room
    /// (the top's view then reaches the safe area's top, and its safe area the status bar's edge).
    @Test func theBarHidesAndTheContentTakesItsRoom() {
        let bed = NavigationBed(stack: ["A"])
        let nav = bed.navigation, content = bed["A"].view
        nav.view.layoutIfNeeded()
        #expect(nav.navigationBar.frame == Rect(x: 0, y: 0, width: 320, height: 44) && content.frame.minY == 0)
        #expect(nav.containerView.frame == Rect(x: 0, y: 44, width: 320, height: 196))
        nav.isNavigationBarHidden = true
        nav.view.layoutIfNeeded()
        #expect(nav.navigationBar.isHidden && nav.containerView.frame == Rect(x: 0, y: 0, width: 320, height: 240))
        #expect(content.frame.size == Size(width: 320, height: 240))
        nav.setNavigationBarHidden(false, animated: true)
        #expect(!nav.navigationBar.isHidden && nav.containerView.frame.minY == 44 && nav.navigationBar.presentationFrame.maxY == 0)
        bed.settle()
        #expect(nav.navigationBar.presentationFrame.minY == 0 && nav.containerView.presentationFrame.minY == 44)
        nav.setNavigationBarHidden(true, animated: true)
        #expect(!nav.navigationBar.isHidden && nav.isNavigationBarHidden)
        bed.settle()
        #expect(nav.navigationBar.isHidden && nav.containerView.frame.minY == 0)
    }
}
