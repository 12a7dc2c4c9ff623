import Testing

@testable import KioskKit

/// Display power in the window model: an off screen keeps its windows, gets no frames, swallows the touch
/// and the key that reach it (telling the wake handler), and is repainted whole when it comes back.
@MainActor
struct PowerTests {
    @Test func anOffScreenComposesNothingAndIsRepaintedWholeWhenOn() throws {
        let render = RenderBed()
        let window = Window(screen: Screen.main)
        window.backgroundColor = .white
        window.makeKeyAndVisible()
        let view = CountingView(frame: Rect(x: 10, y: 10, width: 50, height: 50), color: .red)
        window.addSubview(view)
        render.render()
        let before = render.output.presented.count
        try render.screen.setPower(.off, reason: "test")
        #expect(render.screen.powerState == .off && render.screen.isConnected)
        #expect(render.bed.backend.powerLog == ["Virtual-1 off"])
        #expect(Screen.screens.contains { $0 === render.screen })
        view.center.x += 20
        view.setNeedsDisplay()
        render.compositor.composePendingFrames()
        #expect(render.output.presented.count == before)
        try render.screen.setPower(.on)
        render.compositor.composePendingFrames()
        #expect(render.output.presented.count == before + 1)
        #expect(render.output.presented.last!.damage.extents == PixelRect(x: 0, y: 0, width: 320, height: 240))
        #expect(rgb(render.output.lastFrame["Virtual-1"]!, 50, 30) == 0xFF0000)
    }

    @Test func theTouchThatWakesAScreenReachesNoWindowTheNextOneDoes() throws {
        let bed = TestBed()
        var woken: [String] = []
        bed.app.wakeHandler = { screen in
            woken.append(screen.name)
            try? screen.setPower(.on, reason: "input")
        }
        let window = bed.window("w")
        let recorder = RecordingView(frame: Rect(x: 0, y: 0, width: 500, height: 500))
        window.addSubview(recorder)
        try Screen.main.setPower(.off)
        let waking = bed.touchDown(at: Point(x: 100, y: 100))
        bed.touch(waking, .moved, at: Point(x: 110, y: 100))
        bed.touch(waking, .ended)
        #expect(woken == ["HDMI-A-1"] && Screen.main.powerState == .on)
        #expect(recorder.calls.isEmpty && waking.view == nil)
        let next = bed.touchDown(at: Point(x: 100, y: 100), time: 3)
        bed.touch(next, .ended, time: 4)
        #expect(recorder.calls == ["began 1", "ended 1"])
    }

    @Test func aKeyWhileTheFocusedScreenIsOffWakesItAndTypesNothing() throws {
        let bed = TestBed()
        var woken = 0
        bed.app.wakeHandler = { screen in
            woken += 1
            try? screen.setPower(.on)
        }
        let window = bed.window("w")
        let field = TextField(frame: Rect(x: 0, y: 0, width: 200, height: 40))
        window.addSubview(field)
        bed.app.keyboard.mode = .never
        field.becomeFirstResponder()
        try Screen.main.setPower(.off)
        bed.app.sendEvent(Event(presses: [Press(phase: .began, keysym: 0x61, text: "a", timestamp: 1)], timestamp: 1))
        bed.app.sendEvent(Event(presses: [Press(phase: .ended, keysym: 0x61, text: "", timestamp: 1)], timestamp: 1))
        #expect(woken == 1 && field.text.isEmpty)
        bed.app.sendEvent(Event(presses: [Press(phase: .began, keysym: 0x62, text: "b", timestamp: 2)], timestamp: 2))
        #expect(field.text == "b")
    }

    @Test func brightnessNeedsABacklight() throws {
        let bed = TestBed()
        let screen = Screen.main
        #expect(!screen.hasBacklight && screen.brightness == 1)
        #expect(throws: ScreenError.noBacklight(screen: "HDMI-A-1")) { try screen.setBrightness(0.5) }
        screen.brightness = 0.3
        #expect(screen.brightness == 1)
        bed.backend.backlights = ["HDMI-A-1"]
        var notes = 0
        let observation = bed.center.addObserver(forName: Screen.brightnessDidChangeNotification) { _ in notes += 1 }
        screen.brightness = 0.4
        screen.brightness = 7
        #expect(screen.brightness == 1 && notes == 2)
        #expect(bed.backend.powerLog == ["HDMI-A-1 brightness 0.4", "HDMI-A-1 brightness 1.0"])
        withExtendedLifetime(observation) {}
    }

    /// The level a backend reads from the backlight: recorded before the screen connects, announced after;
    /// a screen that loses its backlight reports 1 again.
    @Test func theBackendTellsTheLevelItReads() throws {
        let bed = TestBed()
        bed.backend.backlights = ["DSI-1"]
        var notes: [Double] = []
        let observation = bed.center.addObserver(forName: Screen.brightnessDidChangeNotification) { note in
            notes.append((note.object as? Screen)?.brightness ?? -1)
        }
        let panel = bed.backend.screen(named: "DSI-1")
        panel.update(brightness: 0.6)
        #expect(panel.brightness == 0.6 && notes.isEmpty)
        bed.backend.connect("DSI-1", modes: [Screen.Mode(width: 800, height: 480, refreshRate: 60)])
        panel.update(brightness: 0.25)
        panel.update(brightness: 0.25)
        panel.update(brightness: 9)
        #expect(notes == [0.25, 1] && bed.backend.powerLog.isEmpty)
        // A backend that refuses: the level stays, and the error says what was asked.
        bed.backend.failure = ScreenError.notConnected(screen: "test")
        #expect(
            throws: ScreenError.brightnessFailed(
                screen: "DSI-1", value: 0.5, reason: "test: cannot set a mode, the screen is not connected")
        ) {
            try panel.setBrightness(0.5)
        }
        #expect(panel.brightness == 1)
        bed.backend.failure = nil
        panel.update(brightness: 0.5)
        bed.backend.backlights = []
        #expect(panel.brightness == 1)
        withExtendedLifetime(observation) {}
    }
}
