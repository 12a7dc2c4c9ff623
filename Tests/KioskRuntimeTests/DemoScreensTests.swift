import Foundation
import GoldenImages
import KioskConfig
import KioskKit
import KioskTesting
import Testing

@testable import kiosk

/// The demo's screens as they are drawn, at every rotation of a 800x480 panel (a 7-inch kiosk's, portrait at
/// 90 and 270): the welcome alert over the main screen, the main screen, a product's detail pushed, its
/// Reserve alert with a text field and the keyboard, and the form with the keyboard, each against a golden
/// image; and a rotation at run time, which must draw what launching at that rotation draws. Driven by
/// taps, drags and keys as the kiosk delivers them (`KioskTester`).
@MainActor
@Suite(.serialized)
struct DemoScreensTests {
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
    static let panel = Screen.Mode(width: 800, height: 480, refreshRate: 60)

    /// The demo launched on the panel at `rotation`, its clock stopped at 09:41, the launch's alert in. Keep
    /// the demo as long as the tester: its windows hold their actions' targets weakly, as the kiosk does.
    private func launch(_ rotation: Rotation, settings: [String: ConfigValue] = [:]) -> (KioskTester, DemoApp) {
        var configuration = KioskConfiguration()
        configuration.appSettings = settings
        let demo = DemoApp(configuration: configuration)
        demo.statusTime = { "09:41" }
        let tester = KioskTester(mode: Self.panel)
        tester.screen.rotation = rotation
        demo.applicationDidFinishLaunching(tester.application)
        tester.advance(by: 1)
        return (tester, demo)
    }

    private func navigation(_ tester: KioskTester) throws -> NavigationController {
        let main = try #require(tester.application.windows.first { $0.identifier == "main" })
        return try #require(main.rootViewController as? NavigationController)
    }

    /// Welcome, OK, a row, Reserve (and a name typed in its alert, which Reserve takes), the back swipe, the
    /// form: the pictures at each step, and where the navigation and the key window are.
    @Test(arguments: [Rotation.normal, .rotated90, .rotated180, .rotated270])
    func theDemosScreensAtEveryRotation(_ rotation: Rotation) throws {
        let (tester, demo) = launch(rotation)
        defer { withExtendedLifetime(demo) {} }
        let name = rotation.name
        let navigation = try navigation(tester)
        #expect(tester.application.keyWindow?.rootViewController is AlertController)
        try expectGolden(tester.image(), named: "demo-welcome-\(name)", in: Self.golden)
        // On the short landscape panel the logo makes way for the list; portrait has room for both.
        #expect(try tester.view(withIdentifier: "logo").isHidden == (tester.screen.bounds.height < 600))

        tester.tap(try tester.view(withIdentifier: "alert.action.OK"))
        tester.advance(by: 1)
        #expect(navigation.presentedViewController == nil && tester.application.keyWindow?.identifier == "main")
        try expectGolden(tester.image(), named: "demo-main-\(name)", in: Self.golden)

        // The third row: its detail is pushed with the navigation bar, whose back button names the list.
        let list = try tester.view(withIdentifier: "product-list")
        let row = list.convert(Point(x: 100, y: 2.5 * (list as! TableView).rowHeight), to: nil)
        tester.tap(at: row)
        tester.advance(by: 1)
        let detail = try #require(navigation.topViewController as? DemoDetailController)
        #expect(detail.product == 3 && !navigation.isNavigationBarHidden)
        #expect((try tester.view(withIdentifier: "navigation-back") as? Button)?.title == "Products")
        try expectGolden(tester.image(), named: "demo-detail-\(name)", in: Self.golden)

        // Reserve: an alert with a text field, the keyboard up and the card above it.
        tester.tap(try tester.view(withIdentifier: "detail-reserve"))
        tester.advance(by: 1)
        let field = try #require(try tester.view(withIdentifier: "reserve-name") as? TextField)
        #expect(field.isFirstResponder && tester.application.keyboard.isVisible)
        let card = try tester.view(withIdentifier: "alert.card")
        let keyboardTop = try #require(tester.application.windows.first { $0.identifier == "keyboard" }).frame.minY
        #expect(card.convert(card.bounds, to: nil).maxY <= keyboardTop)
        try expectGolden(tester.image(), named: "demo-reserve-\(name)", in: Self.golden)
        tester.type("Ada")
        tester.pressReturn()
        tester.advance(by: 1)
        #expect(detail.presentedViewController == nil && detail.status.text == "Reserved")
        #expect(!tester.application.keyboard.isVisible)

        // The back swipe from the leading edge (the left one, in a left-to-right language) pops it.
        let bounds = tester.screen.bounds
        tester.drag(from: Point(x: 4, y: bounds.midY), to: Point(x: bounds.width * 0.8, y: bounds.midY), duration: 0.4, steps: 12)
        tester.advance(by: 1)
        #expect(navigation.viewControllers.count == 1 && navigation.isNavigationBarHidden)
        #expect((navigation.topViewController as? DemoContentController)?.list.indexPathForSelectedRow == nil)

        // The form: the name field's keyboard, the fields above it.
        tester.tap(try tester.view(withIdentifier: "form-button"))
        tester.advance(by: 1)
        let form = try #require(navigation.presentedViewController as? DemoFormController)
        tester.tap(form.name)
        tester.advance(by: 1)
        #expect(form.name.isFirstResponder && tester.application.keyboard.isVisible)
        let keyboard = try #require(tester.application.windows.first { $0.identifier == "keyboard" })
        for field in [form.name, form.pin, form.number] {
            #expect(field.convert(field.bounds, to: nil).maxY <= keyboard.frame.minY, "\(field.identifier ?? "")")
        }
        try expectGolden(tester.image(), named: "demo-form-\(name)", in: Self.golden)
        tester.tap(form.done)
        tester.advance(by: 1)
        #expect(navigation.presentedViewController == nil && !tester.application.keyboard.isVisible)

        // The settings: the controls beside a language picker and a countdown, pushed with the bar.
        tester.tap(try tester.view(withIdentifier: "settings-button"))
        tester.advance(by: 1)
        #expect(navigation.topViewController is DemoSettingsController && !navigation.isNavigationBarHidden)
        try expectGolden(tester.image(), named: "demo-settings-\(name)", in: Self.golden)
    }

    /// `open-product` and `open-reserve` start where the taps lead (what a system test renders headless to
    /// compare with a display's): the same picture as tapping there. A number that names no product is
    /// logged and leaves the welcome alert.
    @Test func theOpenSettingsStartWhereTheTapsLead() throws {
        let (tester, demo) = launch(.normal, settings: ["open-product": .integer(3), "open-reserve": .boolean(true)])
        #expect(try navigation(tester).viewControllers.count == 2)
        try expectGolden(tester.image(), named: "demo-reserve-normal", in: Self.golden)
        withExtendedLifetime(demo) {}
        let (settings, settingsDemo) = launch(.normal, settings: ["open-settings": .boolean(true)])
        #expect(try navigation(settings).topViewController is DemoSettingsController)
        try expectGolden(settings.image(), named: "demo-settings-normal", in: Self.golden)
        withExtendedLifetime(settingsDemo) {}
        let (moved, movedDemo) = launch(
            .normal, settings: ["open-settings": .boolean(true), "settings-volume": .float(0.8), "settings-language": .integer(5)])
        #expect((try moved.view(withIdentifier: "settings-volume") as? Slider)?.value == 0.8)
        #expect((try moved.view(withIdentifier: "settings-language") as? PickerView)?.selectedRow(inComponent: 0) == 5)
        withExtendedLifetime(movedDemo) {}
        let (nowhere, nowhereDemo) = launch(.normal, settings: ["open-product": .integer(1001)])
        #expect(try navigation(nowhere).viewControllers.count == 1)
        #expect(nowhere.application.keyWindow?.rootViewController is AlertController)
        withExtendedLifetime(nowhereDemo) {}
    }

    /// Round after round of what a kiosk's users do (a product's detail pushed and popped, the form
    /// presented, edited with the keyboard and dismissed, all animated) lays out without a problem every
    /// time: a pop once broke its detail's autoresizing, and a dismissal left the solver unable to remove
    /// the form's constraints, after which the next form had no layout and took no taps.
    @Test func roundsOfPushesAndFormsLayOutEveryTime() throws {
        let (tester, demo) = launch(.normal, settings: ["welcome": .boolean(false)])
        defer { withExtendedLifetime(demo) {} }
        var problems: [String] = []
        let token = tester.application.instrumentation.observe { event in
            if case .layoutProblem(let message) = event { problems.append(message) }
        }
        defer { token.cancel() }
        let navigation = try navigation(tester)
        for round in 1...3 {
            let list = try tester.view(withIdentifier: "product-list") as! TableView
            tester.tap(at: list.convert(Point(x: 100, y: 0.5 * list.rowHeight), to: nil))
            tester.advance(by: 1)
            tester.tap(try tester.view(withIdentifier: "navigation-back"))
            tester.advance(by: 1)
            tester.tap(try tester.view(withIdentifier: "form-button"))
            tester.advance(by: 1)
            let form = try #require(navigation.presentedViewController as? DemoFormController)
            tester.tap(form.name)
            tester.advance(by: 1)
            #expect(form.name.isFirstResponder, "round \(round)")
            tester.type("Ada")
            tester.tap(form.done)
            tester.advance(by: 1)
            #expect(navigation.presentedViewController == nil && navigation.viewControllers.count == 1, "round \(round)")
        }
        #expect(problems.isEmpty, "\(problems.prefix(3))")
    }

    /// The mirrored rotations (a panel mounted behind a mirror or glass) turn the same picture: the
    /// welcome alert over the main screen.
    @Test(arguments: [Rotation.flipped, .flipped90, .flipped180, .flipped270])
    func theMirroredRotationsShowTheWelcome(_ rotation: Rotation) throws {
        let (tester, _) = launch(rotation)
        try expectGolden(tester.image(), named: "demo-welcome-\(rotation.name)", in: Self.golden)
    }

    /// Turned while the Reserve alert and its keyboard are up, the demo lays every window out again: the
    /// picture is the one launching at that rotation gives (what a rotation set in the config does).
    @Test(arguments: [Rotation.rotated90, .rotated180])
    func aRotationAtRunTimeDrawsWhatLaunchingTurnedDraws(_ rotation: Rotation) throws {
        func reserveAlert(_ tester: KioskTester) throws -> Bitmap {
            tester.tap(try tester.view(withIdentifier: "alert.action.OK"))
            tester.advance(by: 1)
            let list = try tester.view(withIdentifier: "product-list") as! TableView
            tester.tap(at: list.convert(Point(x: 100, y: 2.5 * list.rowHeight), to: nil))
            tester.advance(by: 1)
            tester.tap(try tester.view(withIdentifier: "detail-reserve"))
            tester.advance(by: 1)
            return try tester.image()
        }
        // One application at a time (a tester resets the shared one): the turned picture first.
        let (turning, turningDemo) = launch(.normal)
        _ = try reserveAlert(turning)
        turning.screen.rotation = rotation
        turning.advance(by: 1)
        let shown = try turning.image()
        withExtendedLifetime(turningDemo) {}
        let (turned, turnedDemo) = launch(rotation)
        let expected = try reserveAlert(turned)
        withExtendedLifetime(turnedDemo) {}
        #expect(shown.width == expected.width && shown.height == expected.height)
        #expect(differingPixels(shown, expected) == 0)
        try expectGolden(shown, named: "demo-reserve-\(rotation.name)", in: Self.golden)
    }

    /// How many pixels (colour only) differ between two images of one size.
    private func differingPixels(_ a: Bitmap, _ b: Bitmap) -> Int {
        guard a.width == b.width, a.height == b.height else { return a.width * a.height }
        var count = 0
        for y in 0..<a.height {
            for x in 0..<a.width where a.pixel(x: x, y: y) & 0xFF_FFFF != b.pixel(x: x, y: y) & 0xFF_FFFF { count += 1 }
        }
        return count
    }
}
