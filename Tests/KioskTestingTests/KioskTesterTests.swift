import KioskKit
import KioskTesting
import Testing

/// KioskTester itself: its queries, its drag, its clock and its pixels.
@MainActor
struct KioskTesterTests {
    /// A window with a red square named "square" at (100, 100), 50 wide, and a scroll view under it.
    final class SquareApp: ApplicationDelegate {
        var window: Window?
        let scroll = ScrollView(frame: Rect(x: 0, y: 300, width: 400, height: 200))

        func applicationDidFinishLaunching(_ application: Application) {
            let window = Window(screen: Screen.main)
            window.backgroundColor = .white
            let square = View(frame: Rect(x: 100, y: 100, width: 50, height: 50))
            square.identifier = "square"
            square.backgroundColor = Color(rgb: 0xFF0000)
            window.addSubview(square)
            scroll.contentSize = Size(width: 400, height: 2000)
            window.addSubview(scroll)
            window.makeKeyAndVisible()
            self.window = window
        }
    }

    @Test func findsViewsByIdentifierAndSaysWhichThereAreWhenNone() throws {
        let tester = KioskTester(mode: Screen.Mode(width: 640, height: 480, refreshRate: 60), launching: SquareApp())
        let square = try tester.view(withIdentifier: "square")
        #expect(tester.center(of: square) == Point(x: 125, y: 125))
        #expect(throws: KioskTesterError.self) { try tester.view(withIdentifier: "circle") }
        do {
            _ = try tester.view(withIdentifier: "circle")
        } catch {
            #expect("\(error)".contains("there are: square"), "\(error)")
        }
    }

    @Test func theImageIsWhatTheScreenShows() throws {
        let tester = KioskTester(mode: Screen.Mode(width: 640, height: 480, refreshRate: 60), launching: SquareApp())
        let image = try tester.image()
        #expect(image.width == 640 && image.height == 480)
        #expect(image.pixel(x: 125, y: 125) & 0xFFFFFF == 0xFF0000)
        #expect(image.pixel(x: 10, y: 10) & 0xFFFFFF == 0xFFFFFF)
        tester.display.disconnect("HDMI-A-1")
        #expect(throws: KioskTesterError.self) { try tester.image() }
    }

    @Test func aDragScrollsAndTheClockRunsItsMomentumOut() {
        let app = SquareApp()
        let tester = KioskTester(mode: Screen.Mode(width: 640, height: 480, refreshRate: 60), launching: app)
        tester.drag(from: Point(x: 200, y: 450), to: Point(x: 200, y: 350), duration: 0.2, steps: 10)
        let afterDrag = app.scroll.contentOffset.y
        #expect(afterDrag >= 90, "\(afterDrag)")
        tester.advance(by: 3)
        #expect(app.scroll.contentOffset.y > afterDrag, "momentum after a flick: \(app.scroll.contentOffset.y)")
        #expect(!tester.application.isAnimating)
    }
}
