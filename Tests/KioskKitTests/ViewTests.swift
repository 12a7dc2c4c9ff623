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

    /// A control is inside where its hit test says it is: a button that widens its touch area with
    /// `point(inside:with:)` fires where its touches land.
    @Test func aControlsInsideIsItsPointInside() {
        final class WideButton: Button {
            override func point(inside point: Point, with event: Event?) -> Bool {
                bounds.insetBy(dx: -20, dy: -20).contains(point)
            }
        }
        let bed = TestBed()
        let window = bed.window("main")
        let button = WideButton(frame: Rect(x: 100, y: 100, width: 40, height: 40))
        var events: [String] = []
        button.addAction(for: .touchUpInside) { _ in events.append("upInside") }
        button.addAction(for: .touchUpOutside) { _ in events.append("upOutside") }
        button.addAction(for: .touchDragOutside) { _ in events.append("dragOutside") }
        window.addSubview(button)
        let touch = bed.touchDown(at: Point(x: 90, y: 120))
        #expect(touch.view === button)
        bed.touch(touch, .moved, at: Point(x: 85, y: 125))
        #expect(button.isHighlighted)
        bed.touch(touch, .ended, at: Point(x: 85, y: 125), time: 3)
        #expect(events == ["upInside"])
        let outside = bed.touchDown(at: Point(x: 120, y: 120), time: 4)
        bed.touch(outside, .ended, at: Point(x: 70, y: 120), time: 5)
        #expect(events == ["upInside", "upOutside"])
    }

    /// A control disabled while a finger is on it lets that touch go: no `touchUpInside`.
    @Test func aControlDisabledUnderAFingerDoesNotFire() {
        let bed = TestBed()
        let window = bed.window("main")
        let button = Button(title: "Pay", frame: Rect(x: 100, y: 100, width: 100, height: 50))
        var events: [String] = []
        button.addAction(for: .touchUpInside) { _ in events.append("upInside") }
        button.addAction(for: .touchCancel) { _ in events.append("cancel") }
        window.addSubview(button)
        let touch = bed.touchDown(at: Point(x: 150, y: 120))
        #expect(button.isHighlighted && button.isTracking)
        button.isEnabled = false
        #expect(!button.isHighlighted && !button.isTracking)
        bed.touch(touch, .ended, time: 3)
        #expect(events == ["cancel"])
    }

    /// A disabled control ignores touches (as UIKit's): they go up the responder chain to its superview,
    /// and a superview's tap recognizer takes the tap; enabled, the control keeps both.
    @Test func aDisabledControlLeavesTouchesToItsSuperview() {
        let bed = TestBed()
        let window = bed.window("main")
        let row = RecordingView(frame: Rect(x: 0, y: 0, width: 400, height: 200))
        var rowTaps = 0
        row.addGestureRecognizer(TapGestureRecognizer { _ in rowTaps += 1 })
        window.addSubview(row)
        let button = Button(title: "Pay", frame: Rect(x: 100, y: 100, width: 100, height: 50))
        var presses = 0
        button.addAction(for: .touchUpInside) { _ in presses += 1 }
        row.addSubview(button)
        button.isEnabled = false
        let touch = bed.touchDown(at: Point(x: 150, y: 120), time: 1)
        bed.touch(touch, .ended, time: 1.1)
        #expect(rowTaps == 1 && presses == 0)
        #expect(row.calls == ["began 1", "cancelled 1"])  // the recognizer took the tap from the views
        button.isEnabled = true
        let again = bed.touchDown(at: Point(x: 150, y: 120), time: 3)
        bed.touch(again, .ended, time: 3.1)
        #expect(rowTaps == 1 && presses == 1 && row.calls.count == 2)
    }

    /// Image views take no touches (as UIKit's): an icon on a button leaves the tap to the button.
    @Test func anImageViewOnAButtonLeavesItTheTap() {
        let bed = TestBed()
        let window = bed.window("main")
        let button = Button(title: "", frame: Rect(x: 100, y: 100, width: 200, height: 80))
        var taps = 0
        button.addAction(for: .touchUpInside) { _ in taps += 1 }
        window.addSubview(button)
        let icon = ImageView(image: Image(bitmap: Bitmap(width: 40, height: 40)))
        icon.frame = Rect(x: 110, y: 110, width: 40, height: 40)
        window.addSubview(icon)
        #expect(!icon.isUserInteractionEnabled && !ImageView().isUserInteractionEnabled)
        let touch = bed.touchDown(at: Point(x: 120, y: 120))
        #expect(touch.view === button)
        bed.touch(touch, .ended, time: 3)
        #expect(taps == 1)
    }

    /// An alpha outside 0...1 is clamped and drawn (it used to change the model and not the screen).
    @Test func anAlphaOutOfRangeIsClampedAndDrawn() {
        let render = RenderBed(width: 64, height: 64)
        let main = render.bed.window("main")
        main.backgroundColor = .white
        main.isOpaque = true
        let box = View(frame: Rect(x: 10, y: 10, width: 20, height: 20))
        box.backgroundColor = .black
        box.alpha = 0.5
        main.addSubview(box)
        #expect(rgb(render.render(), 20, 20) != 0xFFFFFF)
        box.alpha = -0.2
        #expect(box.alpha == 0)
        #expect(rgb(render.render(), 20, 20) == 0xFFFFFF)
        box.alpha = 1.5
        #expect(box.alpha == 1)
        #expect(rgb(render.render(), 20, 20) == 0x000000)
    }

    /// Setting `rootViewController` removes the window's old views before installing the new root ("If the
    /// window has an existing view hierarchy, the old views are removed", UIKit).
    @Test func aNewRootViewControllerReplacesTheWindowsViews() {
        let bed = TestBed()
        let window = bed.window("main")
        let splash = View(frame: window.bounds)
        window.addSubview(splash)
        let first = ViewController()
        window.rootViewController = first
        #expect(splash.superview == nil && window.subviews.count == 1 && window.subviews[0] === first.view)
        let second = ViewController()
        window.rootViewController = second
        #expect(first.view.superview == nil && window.subviews.count == 1 && window.subviews[0] === second.view)
        #expect(bed.app.hitTest(Point(x: 5, y: 5), on: Screen.main)?.1 === second.view)
    }

    /// A root view controller hears its view appear and disappear with its window, and when another takes
    /// its place on a visible window (UIKit's appearance calls, `animated` false).
    @Test func aRootViewControllerAppearsAndDisappearsWithItsWindow() {
        final class Controller: ViewController {
            let name: String
            var log: [String]
            init(_ name: String, log: [String] = []) {
                self.name = name
                self.log = log
            }
            /// Where the view is: in no window, a hidden one or a shown one.
            var place: String { view.window.map { $0.isHidden ? "hidden" : "shown" } ?? "none" }
            override func viewWillAppear(_ animated: Bool) { log.append("\(name) willAppear \(place)") }
            override func viewDidAppear(_ animated: Bool) { log.append("\(name) didAppear \(place)") }
            override func viewWillDisappear(_ animated: Bool) { log.append("\(name) willDisappear") }
            override func viewDidDisappear(_ animated: Bool) { log.append("\(name) didDisappear") }
        }
        let bed = TestBed()
        let window = bed.window("main", show: false)
        let first = Controller("first")
        window.rootViewController = first
        #expect(first.log.isEmpty)
        window.makeKeyAndVisible()
        #expect(first.log == ["first willAppear hidden", "first didAppear shown"])
        first.log = []
        window.isHidden = true
        #expect(first.log == ["first willDisappear", "first didDisappear"])
        window.isHidden = false
        first.log = []
        let second = Controller("second")
        window.rootViewController = second
        #expect(first.log == ["first willDisappear", "first didDisappear"])
        // Not yet in the window when about to appear, as UIKit's ("about to be added to a view hierarchy").
        #expect(second.log == ["second willAppear none", "second didAppear shown"])
        #expect(first.view.window == nil)
    }

    /// A controller made the root of a shown window loads its view before it appears: `viewDidLoad` comes
    /// first, and `viewWillAppear` finds what it made there (the swap after a login).
    @Test func aNewRootOfAShownWindowLoadsItsViewBeforeItAppears() {
        final class Controller: ViewController {
            var log: [String] = []
            var welcome: Label?
            override func viewDidLoad() {
                log.append("didLoad")
                let label = Label(text: "Welcome")
                view.addSubview(label)
                welcome = label
            }
            override func viewWillAppear(_ animated: Bool) { log.append("willAppear \(welcome != nil)") }
            override func viewDidAppear(_ animated: Bool) { log.append("didAppear") }
        }
        let bed = TestBed()
        let window = bed.window("main")
        window.rootViewController = ViewController()
        let next = Controller()
        window.rootViewController = next
        #expect(next.log == ["didLoad", "willAppear true", "didAppear"])
        let hidden = bed.window("other", show: false)
        let later = Controller()
        hidden.rootViewController = later
        #expect(later.log == ["didLoad"])
        hidden.makeKeyAndVisible()
        #expect(later.log == ["didLoad", "willAppear true", "didAppear"])
    }

    /// A container's children (as UIKit's containment): `addChild` calls `willMove(toParent:)`,
    /// `removeFromParent` calls `didMove(toParent: nil)`; a child appears with its container when its view
    /// is in the container's, and when its view enters a shown window after the container appeared;
    /// it disappears when its view leaves, or with the container.
    @Test func childViewControllersMoveAndAppearWithTheirContainer() {
        final class Controller: ViewController {
            let name: String
            let log: Log
            init(_ name: String, _ log: Log) {
                self.name = name
                self.log = log
            }
            override func viewWillAppear(_ animated: Bool) { log.lines.append("\(name) willAppear") }
            override func viewDidAppear(_ animated: Bool) { log.lines.append("\(name) didAppear") }
            override func viewWillDisappear(_ animated: Bool) { log.lines.append("\(name) willDisappear") }
            override func viewDidDisappear(_ animated: Bool) { log.lines.append("\(name) didDisappear") }
            override func willMove(toParent parent: ViewController?) {
                log.lines.append("\(name) willMove to \((parent as? Controller)?.name ?? "nil")")
            }
            override func didMove(toParent parent: ViewController?) {
                log.lines.append("\(name) didMove to \((parent as? Controller)?.name ?? "nil")")
            }
        }
        final class Log { var lines: [String] = [] }
        let log = Log()
        let bed = TestBed()
        let window = bed.window("main", show: false)
        let container = Controller("container", log)
        let inside = Controller("inside", log), grandchild = Controller("grandchild", log), offstage = Controller("offstage", log)
        container.addChild(inside)
        inside.addChild(grandchild)
        container.addChild(offstage)  // its view is not in the container's: it does not appear
        container.view.addSubview(inside.view)
        inside.view.addSubview(grandchild.view)
        inside.didMove(toParent: container)
        grandchild.didMove(toParent: inside)
        #expect(container.children.compactMap { ($0 as? Controller)?.name } == ["inside", "offstage"] && inside.parent === container)
        #expect(
            log.lines == [
                "inside willMove to container", "grandchild willMove to inside", "offstage willMove to container",
                "inside didMove to container", "grandchild didMove to inside",
            ])
        log.lines = []
        window.rootViewController = container
        #expect(log.lines.isEmpty)  // the window is hidden
        window.makeKeyAndVisible()
        #expect(
            log.lines == [
                "container willAppear", "inside willAppear", "grandchild willAppear",
                "container didAppear", "inside didAppear", "grandchild didAppear",
            ])
        // The offstage child's view joins the shown container: it appears; a move within the window changes
        // nothing, into another child's view included.
        log.lines = []
        container.view.addSubview(offstage.view)
        container.view.insertSubview(offstage.view, at: 0)
        inside.view.addSubview(offstage.view)
        #expect(log.lines == ["offstage willAppear", "offstage didAppear"])
        // Taken out of its container the usual way: its view leaves (it disappears, with its child and the
        // view of the container's other child inside it), then the controller.
        log.lines = []
        inside.willMove(toParent: nil)
        inside.view.removeFromSuperview()
        inside.removeFromParent()
        #expect(
            log.lines == [
                "inside willMove to nil", "inside willDisappear", "grandchild willDisappear", "offstage willDisappear",
                "inside didDisappear", "grandchild didDisappear", "offstage didDisappear", "inside didMove to nil",
            ])
        #expect(
            container.children.compactMap { ($0 as? Controller)?.name } == ["offstage"] && inside.parent == nil
                && grandchild.parent === inside)
        // The window hides: the container and the child in its view disappear, once.
        container.view.addSubview(offstage.view)
        log.lines = []
        window.isHidden = true
        window.isHidden = true
        #expect(log.lines == ["container willDisappear", "offstage willDisappear", "container didDisappear", "offstage didDisappear"])
        // Added to another container, a child leaves the first one.
        log.lines = []
        let other = Controller("other", log)
        other.addChild(offstage)
        #expect(log.lines == ["offstage willMove to nil", "offstage didMove to nil", "offstage willMove to other"])
        #expect(container.children.isEmpty && other.children.compactMap { ($0 as? Controller)?.name } == ["offstage"])
    }

    /// A container that forwards appearance itself: its children hear only what it passes on.
    @Test func aContainerCanForwardAppearanceItself() {
        final class Manual: ViewController {
            override var shouldAutomaticallyForwardAppearanceMethods: Bool { false }
        }
        final class Child: ViewController {
            var calls: [String] = []
            override func viewWillAppear(_ animated: Bool) { calls.append("will \(animated)") }
            override func viewDidAppear(_ animated: Bool) { calls.append("did \(animated)") }
            override func viewWillDisappear(_ animated: Bool) { calls.append("will disappear \(animated)") }
            override func viewDidDisappear(_ animated: Bool) { calls.append("did disappear \(animated)") }
        }
        let bed = TestBed()
        let window = bed.window("main", show: false)
        let container = Manual(), child = Child()
        container.addChild(child)
        container.view.addSubview(child.view)
        window.rootViewController = container
        window.makeKeyAndVisible()
        #expect(child.calls.isEmpty)
        child.beginAppearanceTransition(true, animated: true)
        child.beginAppearanceTransition(true, animated: true)
        child.endAppearanceTransition()
        child.endAppearanceTransition()
        #expect(child.calls == ["will true", "did true"])
        // A child's view that joins or leaves the shown container gets no calls of its own either: the
        // container gives them (UIKit's `shouldAutomaticallyForwardAppearanceMethods`).
        let later = Child()
        container.addChild(later)
        container.view.addSubview(later.view)
        later.didMove(toParent: container)
        #expect(later.calls.isEmpty)
        later.beginAppearanceTransition(true, animated: false)
        later.endAppearanceTransition()
        #expect(later.calls == ["will false", "did false"])
        later.calls = []
        later.willMove(toParent: nil)
        later.view.removeFromSuperview()
        later.removeFromParent()
        #expect(later.calls.isEmpty)
        later.beginAppearanceTransition(false, animated: false)
        later.endAppearanceTransition()
        #expect(later.calls == ["will disappear false", "did disappear false"])
    }

    /// `viewWithTag` finds the view itself or one below it, depth first.
    @Test func viewsAreFoundByTag() {
        let root = View(), a = View(), b = View(), deep = View()
        root.addSubview(a)
        root.addSubview(b)
        a.addSubview(deep)
        deep.tag = 7
        b.tag = 7
        #expect(root.viewWithTag(7) === deep && b.viewWithTag(7) === b && root.viewWithTag(0) === root)
        #expect(root.viewWithTag(8) == nil)
    }

    /// Every view answers `sizeThatFits` (its current size by default) and an app's own view can override
    /// it for `sizeToFit`; an image view and a button say what their content needs.
    @Test func sizeThatFitsIsEveryViewsAndOverridable() {
        final class Badge: View {
            override func sizeThatFits(_ size: Size) -> Size { Size(width: 30, height: 20) }
        }
        let plain = View(frame: Rect(x: 5, y: 5, width: 10, height: 10))
        plain.sizeToFit()
        #expect(plain.frame == Rect(x: 5, y: 5, width: 10, height: 10))
        let badge = Badge(frame: Rect(x: 5, y: 5, width: 1, height: 1))
        badge.sizeToFit()
        #expect(badge.frame == Rect(x: 5, y: 5, width: 30, height: 20))
        let icon = ImageView(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        icon.image = Image(bitmap: Bitmap(width: 24, height: 16))
        icon.sizeToFit()
        #expect(icon.bounds.size == Size(width: 24, height: 16))
        let empty = Label(text: "", frame: Rect(x: 0, y: 0, width: 50, height: 30))
        empty.sizeToFit()
        #expect(empty.bounds.size == .zero)
        let button = Button(title: "Pay", frame: .zero)
        let title = Label(text: "Pay", font: button.font).sizeThatFits(.zero)
        button.image = Bitmap(width: 20, height: 40)
        button.sizeToFit()
        #expect(button.bounds.size == Size(width: 20 + button.imageTitleSpacing + title.width, height: max(40, title.height)))
    }

    /// `sizeToFit` fits within the current width (`sizeThatFits(bounds.size)`): a label of several lines
    /// wraps there; a one-line label takes its whole line.
    @Test func sizeToFitWrapsWithinTheLabelsWidth() {
        let text = "Tap anywhere to start your order and pay at the counter"
        let label = Label(text: text, frame: Rect(x: 10, y: 10, width: 120, height: 20))
        let oneLine = label.sizeThatFits(.zero)
        #expect(oneLine.width > 120)
        label.sizeToFit()
        #expect(label.frame.size == oneLine && label.frame.origin == Point(x: 10, y: 10))
        label.frame = Rect(x: 10, y: 10, width: 120, height: 20)
        label.numberOfLines = 0
        label.sizeToFit()
        #expect(label.frame.width <= 120 && label.frame.height > oneLine.height * 2)
    }

    /// An image view stretches its image by default (`scaleToFill`, UIKit's default content mode).
    @Test func anImageViewStretchesByDefault() {
        let view = ImageView(frame: Rect(x: 0, y: 0, width: 200, height: 100))
        view.image = Image(bitmap: Bitmap(width: 10, height: 10))
        #expect(view.contentMode == .scaleToFill && view.imageRect() == view.bounds)
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
