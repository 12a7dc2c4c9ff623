import KioskConfig
import KioskKit
import KioskTesting
import Testing

@testable import kiosk

/// The demo's form sends the keyboard away as a UIKit app does: UIKit ends editing only when the app asks,
/// and the form asks on a tap outside its fields (a tap recognizer of its own), not the kiosk.
@MainActor
struct DemoFormTests {
    @Test func aTapOutsideTheFormsFieldsEndsTheEditing() throws {
        let application = Application.reset(notificationCenter: NotificationHub())
        let clock = ManualClock(now: 10)
        application.clock = clock
        let display = InMemoryDisplayBackend()
        display.connect("HDMI-A-1", modes: [Screen.Mode(width: 1280, height: 800, refreshRate: 60)])
        var configuration = KioskConfiguration()
        configuration.appSettings = ["open-form": .boolean(true)]
        let demo = DemoApp(configuration: configuration)
        defer { withExtendedLifetime(demo) {} }
        demo.applicationDidFinishLaunching(application)
        #expect(!application.endsEditingOnTouchOutside)
        let main = try #require(application.windows.first { $0.identifier == "main" })
        let form = try #require(main.rootViewController?.presentedViewController as? DemoFormController)
        let name = form.name, pin = form.pin
        #expect(name.isFirstResponder && application.keyboard.isVisible)
        func tap(_ point: Point) {
            clock.advance(by: 0.5)
            let touch = Touch(screen: Screen.main, location: point, timestamp: clock.now)
            application.sendEvent(Event(touches: [touch], timestamp: clock.now))
            clock.advance(by: 0.06)
            touch.update(phase: .ended, location: point, timestamp: clock.now)
            application.sendEvent(Event(touches: [touch], timestamp: clock.now))
        }
        // A field's tap stays the field's.
        tap(pin.convert(Point(x: pin.bounds.midX, y: pin.bounds.midY), to: nil))
        #expect(pin.isFirstResponder && application.keyboard.isVisible)
        // The form's empty middle, above the keyboard.
        tap(Point(x: 900, y: 300))
        #expect(application.firstResponder == nil && !application.keyboard.isVisible)
    }
}
