import Testing

@testable import KioskKit

/// A view placed by its frame (its autoresizing mask as constraints) whose content needs a width, pinned to
/// its safe area, moves past its superview's edge, as a navigation controller's pop slides the top view
/// out: where the superview has no unsafe band the part beyond its edge is not unsafe either, so the safe
/// area keeps the view's width and the content still fits. (Both margins changing at once, which changed
/// one by one could squeeze the view on the way, is DemoScreensTests' rounds of pushes.)
@MainActor
struct AutoresizingMoveTests {
    @Test func aViewSlidingOutKeepsItsSafeArea() {
        let bed = LayoutBed()
        let page = View(frame: Rect(x: 0, y: 0, width: 400, height: 300))
        page.identifier = "page"
        page.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        bed.container.addSubview(page)
        let button = bed.constrainedView("button", in: page)
        LayoutConstraint.activate([
            button.leadingAnchor.constraint(equalTo: page.safeAreaLayoutGuide.leadingAnchor, constant: 40),
            button.trailingAnchor.constraint(lessThanOrEqualTo: page.safeAreaLayoutGuide.trailingAnchor, constant: -40),
            button.topAnchor.constraint(equalTo: page.topAnchor, constant: 40),
            button.widthAnchor.constraint(equalToConstant: 160), button.heightAnchor.constraint(equalToConstant: 44),
        ])
        bed.layout()
        #expect(bed.takeProblems().isEmpty)
        // To the right, most of the way out and all of it (an off-screen part counted as unsafe would leave
        // its safe area 50 wide at 350); then back.
        for x in [100.0, 350, 400, 0] {
            page.center = Point(x: x + 200, y: 150)
            bed.layout()
            #expect(page.frame.short == "\(Int(x)) 0 400 300" && button.frame.short == "40 40 160 44", "at \(x)")
        }
        #expect(bed.takeProblems().isEmpty)
    }
}
