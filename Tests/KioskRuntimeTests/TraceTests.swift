import Foundation
import KioskKit
import KioskTesting
import Testing

@testable import KioskRuntime

/// The trace's lines for what happens in the window model: text edits and key presses (never the text),
/// the keyboard, gestures and scrolls (one line per scroll view per frame).
@MainActor
struct TraceTests {
    private func lines(_ path: String) throws -> [[String: Any]] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
    }

    /// A fresh application on an 800x480 screen (manual clock) tracing to a new file, and a key window.
    private func traced() throws -> (Trace, String, Window, InMemoryDisplayBackend) {
        let application = Application.reset()
        application.clock = ManualClock(now: 5)
        let backend = InMemoryDisplayBackend()
        backend.connect("DSI-1", modes: [Screen.Mode(width: 800, height: 480, refreshRate: 60)])
        let path = NSTemporaryDirectory() + "trace-\(getpid())-\(UInt64.random(in: 0...UInt64.max)).jsonl"
        let trace = try Trace(path: path, readFiles: [], application: application)
        let window = Window(screen: Screen.main)
        window.makeKeyAndVisible()
        return (trace, path, window, backend)
    }

    @Test func aSecureEntryReachesTheTraceAsALengthNeverAsText() throws {
        let (trace, path, window, backend) = try traced()
        defer {
            try? FileManager.default.removeItem(atPath: path)
            withExtendedLifetime(backend) {}
        }
        let pin = TextField(frame: Rect(x: 10, y: 10, width: 200, height: 40))
        pin.identifier = "pin"
        pin.isSecureTextEntry = true
        window.addSubview(pin)
        #expect(pin.becomeFirstResponder())
        for digit in "4711" { pin.insertText(String(digit)) }
        pin.deleteBackward()
        pin.resignFirstResponder()
        trace.stop()
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!text.contains("4711") && !text.contains("471"))
        let edits = try lines(path).filter { $0["event"] as? String == "text.edit" }
        #expect(edits.map { $0["length"] as? Int } == [1, 2, 3, 4, 3])
        #expect(edits.allSatisfy { $0["view"] as? String == "pin" && $0["secure"] as? Bool == true })
        let keyboard = try lines(path).filter { ($0["event"] as? String)?.hasPrefix("keyboard.") == true }
        #expect(keyboard.map { $0["event"] as? String } == ["keyboard.show", "keyboard.hide"])
        #expect(keyboard.first?["screen"] as? String == "DSI-1" && keyboard.first?["y"] as? Double == 480 - 44 * 4 - 5 * 5)
    }

    /// `control.value`: a value the user changed (a control's `.valueChanged`, a picker's row), with the
    /// view's identifier; values set from code are not traced.
    @Test func aValueTheUserChangesIsTraced() throws {
        let (trace, path, window, backend) = try traced()
        defer {
            try? FileManager.default.removeItem(atPath: path)
            withExtendedLifetime(backend) {}
        }
        let toggle = Switch(frame: Rect(x: 10, y: 10, width: 0, height: 0))
        toggle.identifier = "wifi"
        window.addSubview(toggle)
        toggle.isOn = true
        toggle.setOn(false, animated: false)
        toggle.sendValueChanged()
        trace.stop()
        let values = try lines(path).filter { $0["event"] as? String == "control.value" }
        #expect(values.count == 1 && values.first?["view"] as? String == "wifi" && values.first?["value"] as? String == "false")
    }

    /// A tap on the on-screen keyboard (or on an app's PIN pad that says so) is traced without its key and
    /// its place, which would spell the PIN; other touches keep both.
    @Test func touchesOnTheKeyboardOrAPINPadKeepTheirKeysSecret() throws {
        let (trace, path, window, backend) = try traced()
        defer {
            try? FileManager.default.removeItem(atPath: path)
            withExtendedLifetime(backend) {}
        }
        let pin = TextField(frame: Rect(x: 10, y: 10, width: 200, height: 40))
        pin.isSecureTextEntry = true
        pin.keyboardType = .numberPad
        window.addSubview(pin)
        #expect(pin.becomeFirstResponder())
        (Application.shared.clock as? ManualClock)?.advance(by: 1)  // the keyboard's slide
        let keyboard = try #require(Application.shared.keyboard.window)
        let four = try #require(keyboard.subviews.first { $0.identifier == "key.4" })
        let pad = View(frame: Rect(x: 300, y: 10, width: 100, height: 100))
        pad.keepsTouchesSecret = true
        let digit = View(frame: Rect(x: 0, y: 0, width: 50, height: 50))
        digit.identifier = "digit-7"
        pad.addSubview(digit)
        window.addSubview(pad)
        let plain = View(frame: Rect(x: 500, y: 10, width: 50, height: 50))
        plain.identifier = "plain"
        window.addSubview(plain)
        for (index, point) in [
            keyboard.convert(four.convert(Point(x: 5, y: 5), to: nil), to: nil as Window?), Point(x: 310, y: 20), Point(x: 510, y: 20),
        ].enumerated() {
            let time = 6 + Double(index)
            let touch = Touch(screen: Screen.main, location: point, timestamp: time)
            Application.shared.sendEvent(Event(touches: [touch], timestamp: time))
            touch.update(phase: .ended, location: point, timestamp: time + 0.1)
            Application.shared.sendEvent(Event(touches: [touch], timestamp: time + 0.1))
        }
        #expect(pin.text.count == 1)
        trace.stop()
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!text.contains("key.4") && !text.contains("digit-7"))
        let touches = try lines(path).filter { $0["event"] as? String == "touch" }
        #expect(touches.map { $0["window"] as? String } == ["keyboard", "keyboard", "Window", "Window", "Window", "Window"])
        #expect(touches.prefix(4).allSatisfy { $0["secret"] as? Bool == true && $0["x"] == nil && $0["y"] == nil && $0["view"] == nil })
        #expect(touches.suffix(2).allSatisfy { $0["view"] as? String == "plain" && $0["x"] as? Double == 510 && $0["secret"] == nil })
    }

    /// A tap on a letter that ends shift (the first, capital letter of a password, autocapitalized) makes
    /// the keyboard rebuild its keys before the touch's end is traced: the key under the finger has left
    /// the keyboard's window by then, and its end must stay secret all the same.
    @Test func aKeyTheKeyboardRebuildsUnderTheFingerStaysSecret() throws {
        let (trace, path, window, backend) = try traced()
        defer {
            try? FileManager.default.removeItem(atPath: path)
            withExtendedLifetime(backend) {}
        }
        let password = TextField(frame: Rect(x: 10, y: 10, width: 200, height: 40))
        password.isSecureTextEntry = true
        window.addSubview(password)
        #expect(password.becomeFirstResponder())
        (Application.shared.clock as? ManualClock)?.advance(by: 1)  // the keyboard's slide
        let keyboard = try #require(Application.shared.keyboard.window)
        let key = try #require(keyboard.subviews.first { $0.identifier == "key.S" })
        let point = keyboard.convert(key.convert(Point(x: 5, y: 5), to: nil), to: nil as Window?)
        let touch = Touch(screen: Screen.main, location: point, timestamp: 6)
        Application.shared.sendEvent(Event(touches: [touch], timestamp: 6))
        touch.update(phase: .ended, location: point, timestamp: 6.1)
        Application.shared.sendEvent(Event(touches: [touch], timestamp: 6.1))
        #expect(password.text == "S")
        #expect(key.superview == nil)  // the keys were rebuilt (shift off)
        trace.stop()
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!text.contains("key.S"))
        let touches = try lines(path).filter { $0["event"] as? String == "touch" }
        #expect(touches.count == 2 && touches.allSatisfy { $0["secret"] as? Bool == true && $0["x"] == nil && $0["view"] == nil })
    }

    /// An existing trace is appended to, never truncated: the trace of a run that crashed survives the
    /// restart (a file that holds anything else is refused: TraceTargetTests).
    @Test func anExistingTraceIsAppendedTo() throws {
        let path = NSTemporaryDirectory() + "trace-kept-\(getpid())-\(UInt64.random(in: 0...UInt64.max)).jsonl"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let earlier = "{\"event\":\"frame\",\"screen\":\"DSI-1\"}\n"
        try earlier.write(toFile: path, atomically: false, encoding: .utf8)
        let application = Application.reset()
        let trace = try Trace(path: path, readFiles: [], application: application)
        let backend = InMemoryDisplayBackend()
        backend.connect("DSI-1", modes: [Screen.Mode(width: 800, height: 480, refreshRate: 60)])
        trace.stop()
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasPrefix(earlier + "{\"event\":"), "\(text)")
    }

    @Test func scrollLinesAreOnePerScrollViewPerFrame() throws {
        let (trace, path, window, backend) = try traced()
        defer {
            try? FileManager.default.removeItem(atPath: path)
            withExtendedLifetime(backend) {}
        }
        let list = ScrollView(frame: window.bounds)
        list.identifier = "list"
        list.contentSize = Size(width: 800, height: 5000)
        window.addSubview(list)
        for y in [10.0, 20, 30] { list.contentOffset = Point(x: 0, y: y) }
        trace.recordFrame(on: Screen.main, number: 1, flip: 1, vblankKnown: true)
        list.contentOffset = Point(x: 0, y: 40)
        trace.recordFrame(on: Screen.main, number: 2, flip: 2, vblankKnown: true)
        trace.recordFrame(on: Screen.main, number: 3, flip: 3, vblankKnown: false, tick: 2.9875, composed: 2.9875)
        trace.stop()
        let events = try lines(path).filter { !($0["event"] as! String).hasPrefix("window.") }.map { line in
            "\(line["event"]!) \(line["y"].map { "\($0)" } ?? "")\(line["number"].map { "\($0)" } ?? "")"
        }
        #expect(events == ["scroll 30", "frame 1", "scroll 40", "frame 2", "frame 3"])
        // A frame a change made has no tick (null); one the frame clock made has the tick's time.
        let frames = try lines(path).filter { $0["event"] as? String == "frame" }
        #expect(frames.map { $0["tick"] is NSNull } == [true, true, false])
        #expect(frames.last?["tick"] as? Double == 2.9875 && frames.last?["vblank"] as? Bool == false)
        // When each was composed, null when not known.
        #expect(frames.map { $0["composed"] is NSNull } == [true, true, false])
        #expect(frames.last?["composed"] as? Double == 2.9875)
    }

    /// Each press delivered is a `key` line, which says whether it typed and names the keys that stand for
    /// no character (Return), but never spells what was typed: not the text, not `1`, `KP_1` or `eacute`.
    @Test func keyLinesNeverSpellWhatWasTyped() throws {
        let application = Application.reset(notificationCenter: NotificationHub())
        application.clock = ManualClock(now: 5)
        let display = InMemoryDisplayBackend()
        display.connect("HDMI-A-1", modes: [Screen.Mode(width: 1280, height: 800, refreshRate: 60)])
        let window = Window(screen: display.screen(named: "HDMI-A-1"))
        window.identifier = "pin-pad"
        window.makeKeyAndVisible()
        let folder = try CommandLineTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("trace.jsonl")
        let trace = try Trace(path: path.path, readFiles: [], application: application)
        // "1" from the digit row, "7" from the keypad (KP_7), "é" composed (eacute), then Return.
        for (keysym, text) in [(UInt32(0x31), "1"), (0xffb7, "7"), (0xe9, "é"), (0xff0d, "")] {
            for phase in [Press.Phase.began, .ended] {
                // Times without the digits typed, which the check below looks for.
                let press = Press(phase: phase, keysym: keysym, text: phase == .began ? text : "", timestamp: 2)
                application.sendEvent(Event(presses: [press], timestamp: 2))
            }
        }
        trace.stop()

        let written = try String(contentsOf: path, encoding: .utf8)
        let keys = written.split(separator: "\n").filter { $0.contains("\"event\":\"key\"") }
        #expect(
            keys == [
                #"{"event":"key","phase":"began","keysym":null,"text":true,"window":"pin-pad","timestamp":2,"delivered":5.000000}"#,
                #"{"event":"key","phase":"ended","keysym":null,"text":false,"window":"pin-pad","timestamp":2,"delivered":5.000000}"#,
                #"{"event":"key","phase":"began","keysym":null,"text":true,"window":"pin-pad","timestamp":2,"delivered":5.000000}"#,
                #"{"event":"key","phase":"ended","keysym":null,"text":false,"window":"pin-pad","timestamp":2,"delivered":5.000000}"#,
                #"{"event":"key","phase":"began","keysym":null,"text":true,"window":"pin-pad","timestamp":2,"delivered":5.000000}"#,
                #"{"event":"key","phase":"ended","keysym":null,"text":false,"window":"pin-pad","timestamp":2,"delivered":5.000000}"#,
                #"{"event":"key","phase":"began","keysym":"Return","text":false,"window":"pin-pad","timestamp":2,"delivered":5.000000}"#,
                #"{"event":"key","phase":"ended","keysym":"Return","text":false,"window":"pin-pad","timestamp":2,"delivered":5.000000}"#,
            ], "\(written)")
        for secret in ["1", "7", "é", "eacute", "KP_"] {
            #expect(!keys.joined().contains(secret), "\(secret) in \(keys)")
        }
    }

    /// A controller's view coming on screen or going is a `controller.appear` or `controller.disappear`
    /// line: its type, its view's name, its window, whether animated: what the system tests follow a push,
    /// a pop and a presentation by.
    @Test func appearingAndDisappearingControllersAreTraced() throws {
        let (trace, path, window, backend) = try traced()
        defer {
            try? FileManager.default.removeItem(atPath: path)
            withExtendedLifetime(backend) {}
        }
        let list = ViewController()
        list.view.identifier = "list"
        let detail = ViewController()
        detail.view.identifier = "detail"
        let navigation = NavigationController(rootViewController: list)
        window.identifier = "main"
        window.rootViewController = navigation
        navigation.pushViewController(detail, animated: false)
        _ = navigation.popViewController(animated: false)
        trace.stop()
        let appearances = try lines(path).filter { ($0["event"] as? String)?.hasPrefix("controller.") == true }
        let summary = appearances.map { "\($0["event"]!) \($0["controller"]!) \($0["view"]!) \($0["window"]!) \($0["animated"]!)" }
        #expect(
            summary == [
                "controller.appear ViewController list main 0", "controller.appear NavigationController View main 0",
                "controller.disappear ViewController list <null> 0", "controller.appear ViewController detail main 0",
                "controller.disappear ViewController detail <null> 0", "controller.appear ViewController list main 0",
            ], "\(summary)")
        #expect(appearances.allSatisfy { $0["at"] as? Double == 5 })
    }
}
