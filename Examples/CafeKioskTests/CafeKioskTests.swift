// The getting-started article's app under test (Sources/KioskKit/KioskKit.docc/TestingYourApp.md): KioskTesting's
// KioskTester runs it in memory, on a clock the test moves, and sends it touches and keys as a kiosk would.
//
//   swift test --filter CafeKioskTests

import KioskConfig
import KioskKit
import KioskTesting
import Testing

@testable import CafeKioskExample

@MainActor
struct CafeKioskTests {
    @Test func orderingWithoutADrinkAsksForOne() {
        let app = CafeApp(configuration: .default)
        let tester = KioskTester(launching: app)
        tester.tap(app.orderButton)
        #expect(app.status.text == "Choose a drink first")
    }

    @Test func aDrinkAndANameMakeAnOrder() {
        let app = CafeApp(configuration: .default)
        let tester = KioskTester(launching: app)
        // The list's rows are 60 points tall from the top of the list: the second is Cappuccino.
        tester.tap(at: Point(x: app.list.frame.midX, y: app.list.frame.minY + 60 + 30))
        #expect(app.status.text == "Cappuccino: tap Order")
        tester.tap(app.nameField)
        tester.type("Ada")
        tester.tap(app.orderButton)
        #expect(app.banner.text == "Cappuccino for Ada, coming up!")
    }

    @Test func theOrderButtonIsCoffeeBrown() throws {
        let app = CafeApp(configuration: .default)
        let tester = KioskTester(launching: app)
        let screen = try tester.image()
        let button = app.orderButton.frame
        // Inside the rounded corners, left of the title: the button's own colour.
        #expect(screen.pixel(x: Int(button.minX) + 16, y: Int(button.midY)) & 0xFFFFFF == 0x6F4E37)
    }
}
