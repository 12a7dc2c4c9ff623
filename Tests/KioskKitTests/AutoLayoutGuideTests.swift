import Testing

@testable import KioskKit

/// Layout guides: an app's own, the margins, the safe area (status bars, overscan, a controller's
/// additional insets) and the keyboard's, which slides with the on-screen keyboard.
@MainActor @Suite(.serialized)
struct AutoLayoutGuideTests {
    /// Two boxes spread with equal space around them through two guides of equal width.
    @Test func anAppsGuidesSpaceViews() {
        let bed = LayoutBed()
        let left = bed.constrainedView("left")
        let right = bed.constrainedView("right")
        let gaps = [LayoutGuide(), LayoutGuide(), LayoutGuide()]
        for gap in gaps { bed.container.addLayoutGuide(gap) }
        #expect(bed.container.layoutGuides.count == 3 && gaps[0].owningView === bed.container)
        LayoutConstraint.activate([
            gaps[0].leadingAnchor.constraint(equalTo: bed.container.leadingAnchor),
            left.leadingAnchor.constraint(equalTo: gaps[0].trailingAnchor),
            gaps[1].leadingAnchor.constraint(equalTo: left.trailingAnchor),
            right.leadingAnchor.constraint(equalTo: gaps[1].trailingAnchor),
            gaps[2].leadingAnchor.constraint(equalTo: right.trailingAnchor),
            gaps[2].trailingAnchor.constraint(equalTo: bed.container.trailingAnchor),
            gaps[1].widthAnchor.constraint(equalTo: gaps[0].widthAnchor), gaps[2].widthAnchor.constraint(equalTo: gaps[0].widthAnchor),
            left.widthAnchor.constraint(equalToConstant: 50), right.widthAnchor.constraint(equalToConstant: 50),
            left.topAnchor.constraint(equalTo: bed.container.topAnchor), right.topAnchor.constraint(equalTo: bed.container.topAnchor),
            left.heightAnchor.constraint(equalToConstant: 10), right.heightAnchor.constraint(equalToConstant: 10),
        ])
        bed.layout()
        #expect(left.frame.minX == 100 && right.frame.minX == 250)
        #expect(gaps[1].layoutFrame.short == "150 0 100 0")
        // A removed guide takes its constraints with it.
        bed.container.removeLayoutGuide(gaps[2])
        #expect(gaps[2].owningView == nil && bed.container.layoutGuides.count == 2)
        #expect(bed.takeProblems().isEmpty)
    }

    /// Margins: 8 by default; the margin attributes and the guide follow a change, directional or not.
    @Test func layoutMargins() {
        let bed = LayoutBed()
        let box = bed.constrainedView("box")
        LayoutConstraint.activate([
            box.leadingAnchor.constraint(equalTo: bed.container.layoutMarginsGuide.leadingAnchor),
            LayoutConstraint(item: box, attribute: .trailing, relatedBy: .equal, toItem: bed.container, attribute: .trailingMargin),
            LayoutConstraint(item: box, attribute: .top, relatedBy: .equal, toItem: bed.container, attribute: .topMargin),
            box.bottomAnchor.constraint(equalTo: bed.container.layoutMarginsGuide.bottomAnchor),
        ])
        bed.layout()
        #expect(bed.container.layoutMargins == EdgeInsets(top: 8, left: 8, bottom: 8, right: 8))
        #expect(box.frame.short == "8 8 384 284")
        bed.container.directionalLayoutMargins = DirectionalEdgeInsets(top: 20, leading: 30, bottom: 0, trailing: 10)
        #expect(bed.container.layoutMargins == EdgeInsets(top: 20, left: 30, bottom: 0, right: 10))
        bed.layout()
        #expect(box.frame.short == "30 20 360 280")
    }

    /// A visible status-bar window along the top takes the top of the windows' safe areas below its level
    /// (not its own, nor an alert's); content pinned to the safe area moves under it when it shows and back
    /// when it hides.
    @Test func aStatusBarTakesTheSafeAreasTop() {
        let bed = LayoutBed()
        let content = bed.constrainedView("content", in: bed.window)
        let guide = bed.window.safeAreaLayoutGuide
        LayoutConstraint.activate([
            content.topAnchor.constraint(equalTo: guide.topAnchor), content.leadingAnchor.constraint(equalTo: guide.leadingAnchor),
            content.trailingAnchor.constraint(equalTo: guide.trailingAnchor), content.heightAnchor.constraint(equalToConstant: 100),
        ])
        bed.layout()
        #expect(content.frame.short == "0 0 1920 100" && bed.window.safeAreaInsets == .zero)
        let bar = bed.bed.window("status", frame: Rect(x: 0, y: 0, width: 1920, height: 40), level: .statusBar, show: true)
        #expect(bed.window.safeAreaInsets == EdgeInsets(top: 40))
        #expect(bar.safeAreaInsets == .zero)
        let alert = bed.bed.window("alert", frame: Rect(x: 0, y: 0, width: 1920, height: 1080), level: .alert)
        #expect(alert.safeAreaInsets == .zero)
        alert.isHidden = true
        bed.layout()
        #expect(content.frame.short == "0 40 1920 100")
        // A subview gets the part it overlaps: a view 30 points down is 10 points under the bar.
        let strip = View(frame: Rect(x: 0, y: 30, width: 100, height: 100))
        bed.window.addSubview(strip)
        #expect(strip.safeAreaInsets == EdgeInsets(top: 10))
        bar.isHidden = true
        bed.layout()
        #expect(content.frame.short == "0 0 1920 100" && strip.safeAreaInsets == .zero)
        // A bar that does not span the window's side is no bar for it.
        let badge = bed.bed.window("badge", frame: Rect(x: 0, y: 0, width: 200, height: 40), level: .statusBar)
        #expect(!badge.isHidden && bed.window.safeAreaInsets == .zero)
    }

    /// Overscan on a television: every window's safe area keeps clear of it, and hears of the change.
    @Test func overscanInsetsTheSafeArea() {
        final class Watching: Window {
            var changes = 0
            override func safeAreaInsetsDidChange() { changes += 1 }
        }
        let bed = TestBed()
        let window = Watching(screen: Screen.main)
        window.makeKeyAndVisible()
        let content = View()
        content.translatesAutoresizingMaskIntoConstraints = false
        window.addSubview(content)
        let guide = window.safeAreaLayoutGuide
        LayoutConstraint.activate([
            content.topAnchor.constraint(equalTo: guide.topAnchor), content.leadingAnchor.constraint(equalTo: guide.leadingAnchor),
            content.trailingAnchor.constraint(equalTo: guide.trailingAnchor), content.bottomAnchor.constraint(equalTo: guide.bottomAnchor),
        ])
        window.layoutIfNeeded()
        #expect(content.frame.short == "0 0 1920 1080")
        bed.screen("HDMI-A-1").overscanInsets = EdgeInsets(top: 27, left: 48, bottom: 27, right: 48)
        window.layoutIfNeeded()
        #expect(content.frame.short == "48 27 1824 1026" && window.changes == 1)
        // Margins count from the safe area.
        #expect(window.layoutMarginsForGuide == EdgeInsets(top: 35, left: 56, bottom: 35, right: 56))
        window.insetsLayoutMarginsFromSafeArea = false
        #expect(window.layoutMarginsForGuide == EdgeInsets(top: 8, left: 8, bottom: 8, right: 8))
    }

    /// A view controller's additional insets add to its root view's safe area and to the views inside it.
    @Test func additionalSafeAreaInsets() {
        let bed = LayoutBed()
        let controller = ViewController()
        bed.window.rootViewController = controller
        let root = controller.view
        let inner = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        root.addSubview(inner)
        controller.additionalSafeAreaInsets = EdgeInsets(top: 0, left: 0, bottom: 0, right: 0)
        #expect(root.safeAreaInsets == .zero)
        controller.additionalSafeAreaInsets = EdgeInsets(top: 50, left: 20, bottom: 0, right: 0)
        #expect(root.safeAreaInsets == EdgeInsets(top: 50, left: 20))
        #expect(inner.safeAreaInsets == EdgeInsets(top: 50, left: 20))
    }

    /// A field kept above the keyboard by its layout guide: the guide is the safe area's bottom while the
    /// keyboard is away, slides up with it (the same animation) and down again.
    @Test func theKeyboardGuideFollowsTheKeyboard() {
        let text = TextBed()
        let window = Window(screen: Screen.main)
        window.makeKeyAndVisible()
        let field = TextField()
        field.identifier = "code"
        field.translatesAutoresizingMaskIntoConstraints = false
        window.addSubview(field)
        LayoutConstraint.activate([
            field.leadingAnchor.constraint(equalTo: window.leadingAnchor, constant: 20),
            field.trailingAnchor.constraint(equalTo: window.trailingAnchor, constant: -20),
            field.bottomAnchor.constraint(equalTo: window.keyboardLayoutGuide.topAnchor, constant: -10),
        ])
        window.layoutIfNeeded()
        let height = field.intrinsicContentSize.height
        #expect(field.frame.maxY == 558 && field.frame.height == height)
        _ = field.becomeFirstResponder()
        let keyboard = try! #require(text.keyboardWindow)
        // The model is where the slide goes; the screen shows it on its way.
        #expect(field.frame.maxY == keyboard.frame.minY - 10)
        text.clock.advance(by: OnScreenKeyboard.animationDuration / 2)
        let halfway = field.presentationFrame.maxY
        #expect(halfway < 558 && halfway > keyboard.frame.minY - 10)
        text.settle()
        #expect(field.presentationFrame.maxY == keyboard.frame.minY - 10)
        #expect(window.keyboardLayoutGuide.layoutFrame.minY == keyboard.frame.minY)
        _ = field.resignFirstResponder()
        text.settle()
        #expect(field.frame.maxY == 558 && field.presentationFrame.maxY == 558)
    }
}
