import Glibc
import Testing

@_spi(KioskRuntime) @testable import KioskKit

/// Levels and the keyboard's window (reference 002): `Application.windows` is in level order, the last on
/// top, and the keyboard's window has the highest level, in front of every app window whatever level the app
/// sets.
@MainActor
struct WindowLevelTests {
    /// Windows at the three named levels and one above the alert, the keyboard brought up by a field in
    /// the normal window: the keyboard's window reports UIKit's keyboard level and comes last, the array in
    /// level order throughout; the key window stays the app's.
    @Test func theKeyboardsWindowHasTheHighestLevelAndComesLast() throws {
        let text = TextBed()
        let main = text.field()
        main.window!.identifier = "main"
        for (name, level) in [("alert", Window.Level.alert), ("above-alert", .alert + 1), ("status", .statusBar)] {
            let window = Window(frame: Rect(x: 0, y: 0, width: 100, height: 20))
            window.identifier = name
            window.windowLevel = level
            window.isHidden = false
        }
        text.focus(main)
        let keyboard = try #require(text.keyboardWindow)
        #expect(keyboard.windowLevel == .keyboard && Window.Level.keyboard.rawValue == 10_000_000)
        #expect("\(keyboard.windowLevel)" == "keyboard")
        let windows = text.app.windows
        #expect(windows.map(\.displayName) == ["main", "status", "alert", "above-alert", "keyboard"])
        #expect(zip(windows, windows.dropFirst()).allSatisfy { $0.windowLevel <= $1.windowLevel })
        #expect(text.app.keyWindow === main.window)
        // Hidden, it keeps its level and its place.
        main.resignFirstResponder()
        text.settle()
        #expect(keyboard.isHidden && keyboard.windowLevel == .keyboard && text.app.windows.last === keyboard)
    }

    /// An app window set at or above the keyboard's level (10,000,000 and up, infinity) takes the highest
    /// level below it, which it reports, so the array stays in level order and the keyboard stays in front:
    /// drawn over it and taking the touches on it. A level below the keyboard's is kept as set.
    @Test func aLevelAtOrAboveTheKeyboardsStaysBelowIt() throws {
        let text = TextBed()
        let field = text.field()
        let highest = Window.Level(Window.Level.keyboard.rawValue.nextDown)
        let cover = Window(screen: Screen.main)
        cover.identifier = "cover"
        cover.backgroundColor = Color(rgb: 0xFF0000)
        cover.isOpaque = true
        for level in [Window.Level.keyboard, .keyboard + 1, Window.Level(.infinity), Window.Level(.greatestFiniteMagnitude)] {
            cover.windowLevel = level
            #expect(cover.windowLevel == highest, "\(level)")
        }
        cover.windowLevel = .keyboard - 1
        #expect(cover.windowLevel == .keyboard - 1)
        cover.windowLevel = Window.Level(.nan)
        #expect(cover.windowLevel == .normal)
        cover.windowLevel = .keyboard + 1
        // The field's window is below the cover; it edits, and the keyboard comes in front of the cover.
        #expect(field.becomeFirstResponder())
        cover.makeKeyAndVisible()
        text.settle()
        let keyboard = try #require(text.keyboardWindow)
        #expect(text.app.windows.suffix(2).map(\.displayName) == ["cover", "keyboard"])
        let inKeyboard = Point(x: 2, y: keyboard.frame.minY + 2)
        #expect(text.app.hitTest(inKeyboard, on: Screen.main)?.0 === keyboard)
        text.compositor.composePendingFrames()
        let frame = try #require(text.output.lastFrame[Screen.main.name])
        #expect(rgb(frame, 2, Int(keyboard.frame.minY) + 2) == 0xD1D3D9)
        #expect(rgb(frame, 2, 2) == 0xFF0000)
        // Brought to the front of its level again, it is still behind the keyboard.
        cover.makeKeyAndVisible()
        #expect(text.app.windows.last === keyboard)
    }

    /// The keyboard's own window stays at its level whatever an app sets on it (it finds it as
    /// `windows.last`, as UIKit apps do to put a view over the keyboard).
    @Test func theKeyboardsWindowKeepsItsLevel() throws {
        let text = TextBed()
        text.focus(text.field())
        let keyboard = try #require(text.app.windows.last)
        #expect(keyboard === text.keyboardWindow)
        keyboard.windowLevel = .normal
        #expect(keyboard.windowLevel == .keyboard && text.app.windows.last === keyboard)
    }

    /// A window of the runtime's own (the mouse cursor) is drawn over the keyboard, is none of
    /// `Application.windows` (as UIKit's holds no system window), and a touch on it reaches what is under it.
    @Test func anOverlayIsDrawnOverTheKeyboardAndIsNoneOfTheWindows() throws {
        let text = TextBed()
        text.focus(text.field())
        let keyboard = try #require(text.keyboardWindow)
        let overlay = Window(frame: Rect(x: 0, y: keyboard.frame.minY, width: 10, height: 10))
        overlay.isSystemOverlay = true
        overlay.backgroundColor = Color(rgb: 0x00FF00)
        overlay.isOpaque = true
        overlay.isHidden = false
        #expect(!text.app.windows.contains { $0 === overlay } && text.app.windows.last === keyboard)
        #expect(text.app.visibleWindows(on: Screen.main).last === keyboard)
        #expect(text.app.hitTest(Point(x: 5, y: keyboard.frame.minY + 5), on: Screen.main)?.0 === keyboard)
        text.compositor.composePendingFrames()
        let frame = try #require(text.output.lastFrame[Screen.main.name])
        #expect(rgb(frame, 5, Int(keyboard.frame.minY) + 5) == 0x00FF00)
        #expect(rgb(frame, 15, Int(keyboard.frame.minY) + 2) == 0xD1D3D9)
    }
}
