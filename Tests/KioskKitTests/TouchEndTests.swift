import Testing

@testable import KioskKit

/// A touch that ends is an ended touch, whatever its end does: a button whose action hides the window it is
/// in (an alert's OK) sees its touch end, a listener of `.touchDelivered` (the trace) hears `ended`, and nothing is
/// cancelled.
@MainActor
struct TouchEndTests {
    @Test func aTapThatHidesItsWindowEndsNormally() {
        let bed = TestBed()
        let alert = bed.window("alert", level: .alert)
        let button = Button(title: "OK", frame: Rect(x: 0, y: 0, width: 100, height: 50))
        var tapped = 0
        button.addAction(for: .touchUpInside) { _ in
            tapped += 1
            alert.isHidden = true
        }
        alert.addSubview(button)
        var delivered: [Touch.Phase] = []
        let token = bed.app.instrumentation.observe { if case .touchDelivered(let touch) = $0 { delivered.append(touch.phase) } }
        defer { token.cancel() }
        let touch = bed.touchDown(at: Point(x: 10, y: 10))
        bed.touch(touch, .ended)
        #expect(tapped == 1)
        #expect(alert.isHidden)
        #expect(touch.phase == .ended)
        #expect(delivered == [.began, .ended])
        // A touch still down when its window hides is cancelled, as before.
        alert.isHidden = false
        let held = bed.touchDown(at: Point(x: 10, y: 10), time: 3)
        alert.isHidden = true
        #expect(held.phase == .cancelled)
    }
}
