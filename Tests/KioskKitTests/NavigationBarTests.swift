import KioskTesting
import Testing

@testable import KioskKit

/// A row of the back button's table: the item below's title, back button title and back item's title.
struct BackTitleRow: CustomTestStringConvertible, Sendable {
    let name: String
    let title: String?
    var backButtonTitle: String?
    var backItem: String?
    let expected: String

    init(_ name: String, title: String?, backButtonTitle: String? = nil, backItem: String? = nil, expected: String) {
        self.name = name
        self.title = title
        self.backButtonTitle = backButtonTitle
        self.backItem = backItem
        self.expected = expected
    }

    var testDescription: String { name }
}

/// The navigation bar: where it sits, what its back button says (UIKit's rules), its bar button items, and
/// golden images of a bar and of a push half way through its slide.
@MainActor
@Suite(.serialized)
struct NavigationBarTests {
    /// The bar's content for the top item, laid out.
    private func content(_ bed: NavigationBed) -> NavigationBarContent {
        bed.navigation.view.layoutIfNeeded()
        let content = bed.navigation.navigationBar.content!
        content.layoutIfNeeded()
        return content
    }

    /// The back button's title, as UIKit's default display mode picks it: the item below's
    /// `backBarButtonItem`, its `backButtonTitle`, its title, "Back" when that is nil or too long to leave
    /// the centred title clear, then the chevron alone; none on the root, with `hidesBackButton`, or where
    /// left items take its place (unless they supplement it).
    @Test(arguments: [
        BackTitleRow("its title", title: "Rooms", expected: "Rooms"),
        BackTitleRow("no title", title: nil, expected: "Back"),
        BackTitleRow("a long title", title: "The rooms of the north wing, ground floor", expected: "Back"),
        BackTitleRow("backButtonTitle", title: "Rooms", backButtonTitle: "Floors", expected: "Floors"),
        BackTitleRow("backBarButtonItem", title: "Rooms", backButtonTitle: "Floors", backItem: "Up", expected: "Up"),
    ])
    func theBackButtonSaysWhatUIKitsWould(_ row: BackTitleRow) {
        let bed = NavigationBed(stack: ["A", "B"])
        bed["A"].title = row.title
        bed["A"].navigationItem.backButtonTitle = row.backButtonTitle
        bed["A"].navigationItem.backBarButtonItem = row.backItem.map { BarButtonItem(title: $0) }
        let laidOut = content(bed)
        #expect(laidOut.backButton?.title == row.expected)
        #expect(laidOut.backButton.map { $0.frame.maxX <= laidOut.titleLabel.frame.minX } == true)
    }

    @Test func theBackButtonIsLeftOutWhereUIKitLeavesItOut() {
        let bed = NavigationBed(stack: ["A"])
        #expect(content(bed).backButton == nil)
        bed.navigation.pushViewController(bed["B"], animated: false)
        #expect(content(bed).backButton != nil)
        bed["B"].navigationItem.hidesBackButton = true
        #expect(content(bed).backButton == nil)
        bed["B"].navigationItem.hidesBackButton = false
        bed["B"].navigationItem.leftBarButtonItem = BarButtonItem(title: "Cancel")
        #expect(content(bed).backButton == nil && content(bed).leftButtons.map(\.title) == ["Cancel"])
        bed["B"].navigationItem.leftItemsSupplementBackButton = true
        let both = content(bed)
        #expect(both.backButton != nil && both.leftButtons[0].frame.minX >= both.backButton!.frame.maxX)
        // A title too long for the room even for "Back" leaves the chevron alone.
        bed["B"].title = "A title that fills nearly all of the bar"
        #expect(content(bed).backButton?.title == nil)
    }

    /// The bar sits at the top of the safe area: a status bar's window pushes it down, and it goes back up
    /// when that window hides. The title is centred, the right items from the trailing edge inward.
    @Test func theBarSitsInTheSafeAreaWithItsTitleCentred() {
        let bed = NavigationBed(stack: ["A", "B"])
        bed["B"].navigationItem.rightBarButtonItems = [BarButtonItem(title: "Edit"), BarButtonItem(title: "Add")]
        let bar = bed.navigation.navigationBar
        let laidOut = content(bed)
        #expect(bar.frame == Rect(x: 0, y: 0, width: 320, height: 44))
        #expect(abs(laidOut.titleLabel.frame.midX - 160) <= 1 && laidOut.titleLabel.text == "B")
        let edit = laidOut.rightButtons[0], add = laidOut.rightButtons[1]
        #expect(edit.frame.maxX == 320 - NavigationBarContent.edgeInset && add.frame.maxX == edit.frame.minX)
        let status = bed.animation.render.bed.window("status", frame: Rect(x: 0, y: 0, width: 320, height: 20), level: .statusBar)
        bed.navigation.view.layoutIfNeeded()
        #expect(bar.frame.minY == 20 && bed.navigation.containerView.frame.minY == 64)
        status.isHidden = true
        bed.navigation.view.layoutIfNeeded()
        #expect(bar.frame.minY == 0)
    }

    /// A bar button item runs its actions on a tap, with itself; disabled, it does not and is dimmed; a
    /// change to the item shows on its button at once. The back button pops.
    @Test func barButtonItemsActAndFollowTheirItem() {
        let bed = NavigationBed(stack: ["A", "B"])
        var taps: [String] = []
        let edit = BarButtonItem(title: "Edit", style: .done) { item in taps.append("primary \(item.title ?? "")") }
        edit.addAction { _ in taps.append("added") }
        bed["B"].navigationItem.rightBarButtonItem = edit
        let button = content(bed).rightButtons[0]
        #expect(button.font == .system(size: 17, weight: .bold))
        bed.tap(button)
        #expect(taps == ["primary Edit", "added"])
        edit.isEnabled = false
        bed.tap(button)
        #expect(taps.count == 2 && !button.isEnabled)
        edit.title = "Done"
        #expect(button.title == "Done")
        edit.image = NavigationBarContent.backIndicator(color: .black)
        #expect(button.title == nil && button.image != nil)
        bed.tap(content(bed).backButton!)
        bed.settle()
        #expect(bed.stack == ["A"])
    }

    /// A bar with a title, a back button titled after the item below and a right item.
    @Test func goldenNavigationBar() throws {
        let bed = NavigationBed(stack: ["A", "B"])
        bed["A"].title = "Rooms"
        bed["B"].title = "Room 101"
        bed["B"].navigationItem.rightBarButtonItem = BarButtonItem(title: "Edit")
        try expectGolden(bed.frame(), named: "navigation-bar")
    }

    /// A push half way through its slide: the new view half in from the trailing edge, the old one a sixth
    /// of the width toward the leading edge, the bar's titles cross-faded.
    @Test func goldenPushHalfWay() throws {
        let bed = NavigationBed(stack: ["A"])
        bed["A"].title = "Rooms"
        bed["B"].title = "Room 101"
        bed.navigation.pushViewController(bed["B"], animated: true)
        let start = bed.clock.now + bed.animation.period
        bed.clock.advance(to: start + NavigationTransition.duration / 2)
        try expectGolden(bed.animation.frame(), named: "navigation-push-50")
    }
}
