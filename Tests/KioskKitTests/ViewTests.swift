import Testing

@testable import KioskKit

@MainActor @Suite(.serialized)
struct ViewTests {
    @Test func frameBoundsAndCenter() {
        let view = View(frame: Rect(x: 10, y: 20, width: 100, height: 50))
        #expect(view.center == Point(x: 60, y: 45) && view.bounds == Rect(x: 0, y: 0, width: 100, height: 50))
        view.center = Point(x: 0, y: 0)
        #expect(view.frame == Rect(x: -50, y: -25, width: 100, height: 50))
        view.bounds.size = Size(width: 10, height: 10)
        #expect(view.frame == Rect(x: -5, y: -5, width: 10, height: 10))
        view.frame = Rect(x: 5, y: 5, width: -4, height: 4)
        #expect(view.frame == Rect(x: 1, y: 5, width: 4, height: 4))
    }

    @Test func subviewOrdering() {
        let parent = View()
        let a = View(), b = View(), c = View()
        for (view, name) in [(a, "a"), (b, "b"), (c, "c")] { view.identifier = name }
        parent.addSubview(a)
        parent.addSubview(b)
        parent.insertSubview(c, at: 0)
        #expect(parent.subviews.map(\.displayName) == ["c", "a", "b"])
        parent.bringSubviewToFront(c)
        #expect(parent.subviews.map(\.displayName) == ["a", "b", "c"])
        parent.sendSubviewToBack(b)
        #expect(parent.subviews.map(\.displayName) == ["b", "a", "c"])
        parent.insertSubview(b, aboveSubview: a)
        #expect(parent.subviews.map(\.displayName) == ["a", "b", "c"])
        parent.insertSubview(c, belowSubview: a)
        #expect(parent.subviews.map(\.displayName) == ["c", "a", "b"])
        parent.insertSubview(a, at: 99)
        #expect(parent.subviews.map(\.displayName) == ["c", "b", "a"])
        // Adding to another parent moves it.
        let other = View()
        other.addSubview(b)
        #expect(parent.subviews.map(\.displayName) == ["c", "a"] && b.superview === other)
        c.removeFromSuperview()
        #expect(parent.subviews.map(\.displayName) == ["a"] && c.superview == nil)
        #expect(View().displayName == "View")
    }

    @Test func layoutRunsOnceWhenNeeded() {
        final class Counting: View {
            var layouts = 0
            override func layoutSubviews() { layouts += 1 }
        }
        let view = Counting(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        let child = Counting()
        view.addSubview(child)
        view.layoutIfNeeded()
        view.layoutIfNeeded()
        #expect(view.layouts == 1 && child.layouts == 1)
        view.setNeedsLayout()
        view.layoutIfNeeded()
        #expect(view.layouts == 2 && child.layouts == 1)
        view.frame = Rect(x: 0, y: 0, width: 20, height: 20)
        #expect(view.needsLayout)
        view.center = Point(x: 100, y: 100)
        view.layoutIfNeeded()
        #expect(view.layouts == 3)
    }

    @Test func setNeedsDisplayTracksTheDirtyRect() {
        let view = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        #expect(view.takeDirtyRect() == Rect(x: 0, y: 0, width: 100, height: 100))
        #expect(view.dirtyRect.isNull)
        view.setNeedsDisplay(Rect(x: 10, y: 10, width: 5, height: 5))
        view.setNeedsDisplay(Rect(x: 90, y: 90, width: 50, height: 50))
        #expect(view.dirtyRect == Rect(x: 10, y: 10, width: 90, height: 90))
        view.setNeedsDisplay(Rect(x: 200, y: 200, width: 5, height: 5))
        #expect(view.dirtyRect == Rect(x: 10, y: 10, width: 90, height: 90))
    }

    @Test func alphaIsClamped() {
        let view = View()
        view.alpha = 3
        #expect(view.alpha == 1)
        view.alpha = -1
        #expect(view.alpha == 0)
    }

    @Test func autoresizingSharesTheChange() {
        let parent = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let pinnedRight = View(frame: Rect(x: 80, y: 0, width: 20, height: 20))
        pinnedRight.autoresizingMask = [.flexibleLeftMargin]
        let stretch = View(frame: Rect(x: 10, y: 10, width: 80, height: 80))
        stretch.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        let fixed = View(frame: Rect(x: 10, y: 10, width: 10, height: 10))
        for view in [pinnedRight, stretch, fixed] { parent.addSubview(view) }
        parent.frame = Rect(x: 0, y: 0, width: 200, height: 150)
        #expect(pinnedRight.frame == Rect(x: 180, y: 0, width: 20, height: 20))
        #expect(stretch.frame == Rect(x: 10, y: 10, width: 180, height: 130))
        #expect(fixed.frame == Rect(x: 10, y: 10, width: 10, height: 10))
    }

    @Test func viewControllerLoadsItsViewOnce() {
        final class Controller: ViewController {
            var loads = 0, didLoads = 0
            override func loadView() {
                loads += 1
                view = View(frame: Rect(x: 0, y: 0, width: 1, height: 1))
            }
            override func viewDidLoad() { didLoads += 1 }
        }
        let controller = Controller()
        #expect(!controller.isViewLoaded)
        let view = controller.view
        #expect(controller.view === view && controller.loads == 1 && controller.didLoads == 1 && controller.isViewLoaded)
        #expect(view.next === controller)
        // A window installs the root view sized to itself.
        _ = TestBed()
        let window = Window(frame: Rect(x: 0, y: 0, width: 300, height: 200))
        window.rootViewController = controller
        #expect(view.superview === window && view.frame == Rect(x: 0, y: 0, width: 300, height: 200))
        window.rootViewController = nil
        #expect(view.superview == nil)
    }
}
