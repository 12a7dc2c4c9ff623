import Foundation
import Testing

@testable import KioskKit

@MainActor @Suite(.serialized)
struct ScreenTests {
    @Test func screensListsConnectedOnesMainFirst() {
        let bed = TestBed(screens: ["HDMI-A-1", "DP-1", "HDMI-A-2"])
        #expect(Screen.screens.map(\.name) == ["HDMI-A-1", "DP-1", "HDMI-A-2"])
        #expect(Screen.main.name == "HDMI-A-1")
        bed.app.preferredMainScreenName = "DP-1"
        #expect(Screen.screens.map(\.name) == ["DP-1", "HDMI-A-1", "HDMI-A-2"])
        bed.backend.disconnect("DP-1")
        #expect(Screen.main.name == "HDMI-A-1" && Screen.screens.map(\.name) == ["HDMI-A-1", "HDMI-A-2"])
        bed.backend.connect("DP-1", modes: [Modes.hd])
        #expect(Screen.main.name == "DP-1")
        // Everything unplugged: main is the last main screen, disconnected.
        for name in ["HDMI-A-1", "DP-1", "HDMI-A-2"] { bed.backend.disconnect(name) }
        #expect(Screen.screens.map(\.name) == ["DP-1"] && Screen.main.name == "DP-1" && !Screen.main.isConnected)
    }

    @Test func modesAndBounds() throws {
        let bed = TestBed(screens: [])
        let screen = bed.backend.connect("HDMI-A-1", modes: Modes.standard, preferred: Modes.fullHD, current: Modes.hd)
        #expect(screen.availableModes == Modes.standard)
        #expect(screen.preferredMode == Modes.fullHD && screen.currentMode == Modes.hd)
        #expect(screen.bounds == Rect(x: 0, y: 0, width: 1280, height: 720))
        #expect(Modes.wxga.description == "1280x800@59.810" && Modes.wxga.pixelAspectRatio == 1)
        _ = bed.takeLog()
        screen.currentMode = Modes.fullHD50
        #expect(screen.currentMode == Modes.fullHD50 && screen.bounds.size == Size(width: 1920, height: 1080))
        #expect(bed.backend.appliedModes.map(\.mode) == [Modes.fullHD50])
        #expect(bed.takeLog() == ["screen.mode HDMI-A-1"])
        // Setting the mode it already has changes nothing.
        screen.currentMode = Modes.fullHD50
        #expect(bed.takeLog().isEmpty)
        screen.rotation = .rotated90
        #expect(screen.bounds.size == Size(width: 1080, height: 1920))
        #expect(bed.takeLog() == ["screen.mode HDMI-A-1"])
    }

    @Test func aModeTheScreenDoesNotOfferIsAClearError() {
        let bed = TestBed(screens: [])
        let screen = bed.backend.connect("HDMI-A-1", modes: [Modes.fullHD, Modes.hd])
        let bogus = Screen.Mode(width: 800, height: 600, refreshRate: 75)
        #expect(throws: ScreenError.modeNotAvailable(screen: "HDMI-A-1", requested: bogus, available: [Modes.fullHD, Modes.hd])) {
            try screen.setCurrentMode(bogus)
        }
        let error = ScreenError.modeNotAvailable(screen: "HDMI-A-1", requested: bogus, available: [Modes.fullHD, Modes.hd])
        #expect(
            error.description
                == "HDMI-A-1: mode 800x600@75.000 is not offered by this display; it offers: 1920x1080@60.000, 1280x720@60.000")
        // The property form refuses too and keeps the mode.
        screen.currentMode = bogus
        #expect(screen.currentMode == Modes.fullHD)
        _ = bed.takeLog()
        bed.backend.disconnect("HDMI-A-1")
        #expect(throws: ScreenError.notConnected(screen: "HDMI-A-1")) { try screen.setCurrentMode(Modes.hd) }
    }

    @Test func aFailingBackendKeepsTheOldMode() {
        struct Refused: Error {}
        let bed = TestBed(screens: [])
        let screen = bed.backend.connect("HDMI-A-1", modes: [Modes.fullHD, Modes.hd])
        bed.backend.failure = Refused()
        #expect(throws: ScreenError.self) { try screen.setCurrentMode(Modes.hd) }
        #expect(screen.currentMode == Modes.fullHD)
    }

    @Test func connectAndDisconnectNotificationsAndIdentity() {
        let bed = TestBed(screens: [])
        let first = bed.backend.connect("HDMI-A-1", modes: [Modes.fullHD])
        bed.backend.disconnect("HDMI-A-1")
        bed.backend.disconnect("HDMI-A-1")
        let again = bed.backend.connect("HDMI-A-1", modes: [Modes.hd])
        #expect(first === again)
        #expect(again.bounds.size == Size(width: 1280, height: 720))
        bed.backend.changeModes("HDMI-A-1", modes: [Modes.fullHD, Modes.hd], current: Modes.fullHD)
        bed.backend.changeModes("HDMI-A-1", modes: [Modes.fullHD, Modes.hd, Modes.wxga], current: Modes.fullHD)
        #expect(
            bed.takeLog() == [
                "screen.connect HDMI-A-1", "screen.disconnect HDMI-A-1", "screen.connect HDMI-A-1",
                "screen.mode HDMI-A-1",
            ])
        #expect(again.availableModes.count == 3)
    }

    @Test func fullScreenWindowsFollowTheirScreensModeAndRotation() {
        let bed = TestBed()
        let window = bed.window("full")
        let fixed = bed.window("fixed", frame: Rect(x: 10, y: 10, width: 100, height: 100))
        let content = View(frame: Rect(x: 0, y: 0, width: 1920, height: 1080))
        content.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        window.addSubview(content)
        Screen.main.currentMode = Modes.hd
        #expect(window.frame == Rect(x: 0, y: 0, width: 1280, height: 720))
        #expect(content.frame == Rect(x: 0, y: 0, width: 1280, height: 720))
        #expect(fixed.frame == Rect(x: 10, y: 10, width: 100, height: 100))
        Screen.main.rotation = .rotated270
        #expect(window.frame.size == Size(width: 720, height: 1280) && content.frame.size == window.frame.size)
        // A window given an explicit frame stops following.
        window.frame = Rect(x: 0, y: 0, width: 300, height: 300)
        Screen.main.rotation = .normal
        #expect(window.frame.size == Size(width: 300, height: 300) && !window.fillsScreen)
    }

    @Test func movingAWindowToAnotherScreen() {
        let bed = TestBed(screens: ["HDMI-A-1", "HDMI-A-2"])
        bed.backend.changeModes("HDMI-A-2", modes: [Modes.hd], current: Modes.hd)
        let window = bed.window("w")
        let view = RecordingView(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        window.addSubview(view)
        bed.touchDown(at: Point(x: 1, y: 1))
        window.screen = bed.screen("HDMI-A-2")
        #expect(view.calls == ["began 1", "cancelled 1"])
        #expect(window.frame.size == Size(width: 1280, height: 720))
        #expect(bed.app.visibleWindows(on: bed.screen("HDMI-A-2")).first === window)
        #expect(bed.app.visibleWindows(on: bed.screen("HDMI-A-1")).isEmpty)
    }
}
