import KioskTesting
import Testing

@testable import KioskKit

/// `Button`'s content by state, as UIButton's: what the current state shows (its own, else the normal
/// state's), the colours derived when none is set, sizes that follow a state's title, and the look of the
/// four states.
@MainActor
@Suite(.serialized)
struct ButtonStateTests {
    static func solid(_ color: Color, width: Int = 4, height: Int = 4) -> Bitmap {
        let bitmap = Bitmap(width: width, height: height, format: .xrgb8888)
        bitmap.fill(color, in: bitmap.bounds)
        return bitmap
    }

    @Test func theCurrentStateShowsItsOwnElseTheNormalOnes() {
        _ = AnimationBed()
        let button = Button(title: "Follow")
        button.setTitle("Following", for: .selected)
        button.setTitle("Unfollow", for: [.selected, .highlighted])
        #expect(button.title == "Follow" && button.title(for: .disabled) == "Follow")
        #expect(button.currentTitle == "Follow" && button.state == .normal)
        button.isSelected = true
        #expect(button.state == .selected && button.currentTitle == "Following")
        button.isHighlighted = true
        #expect(button.currentTitle == "Unfollow")
        button.isSelected = false
        #expect(button.currentTitle == "Follow", "highlighted alone has none of its own")
        button.isHighlighted = false
        button.isEnabled = false
        #expect(button.state == .disabled && button.currentTitle == "Follow")
        let image = Self.solid(.red)
        button.setImage(image, for: .disabled)
        #expect(button.currentImage === image && button.image(for: .normal) == nil)
        button.setTitle(nil, for: .selected)
        #expect(button.title(for: .selected) == "Follow")
    }

    @Test func colorsComeFromTheNormalOneUnlessSet() {
        _ = AnimationBed()
        let button = Button(title: "Buy")
        button.titleColor = .blue
        button.isHighlighted = true
        #expect(button.currentTitleColor == Color.blue.withAlphaComponent(0.6))
        button.highlightedTitleColor = .red
        #expect(button.currentTitleColor == .red && button.titleColor(for: .highlighted) == .red)
        button.isHighlighted = false
        button.isEnabled = false
        #expect(button.currentTitleColor == Color.blue.withAlphaComponent(0.4))
        button.setTitleColor(.gray, for: .disabled)
        #expect(button.currentTitleColor == .gray)
        button.isEnabled = true
        button.isSelected = true
        button.setTitleColor(.green, for: .selected)
        #expect(button.currentTitleColor == .green)
    }

    @Test func aStatesLongerTitleMakesItWider() {
        _ = AnimationBed()
        let button = Button(title: "On")
        button.setTitle("Switched on", for: .selected)
        let normal = button.intrinsicContentSize.width
        button.isSelected = true
        #expect(button.intrinsicContentSize.width > normal)
    }

    @Test func aTapDoesNotSelect() {
        let bed = AnimationBed()
        let button = Button(title: "Tab", frame: Rect(x: 10, y: 10, width: 100, height: 44))
        bed.window.addSubview(button)
        let touch = bed.render.bed.touchDown(at: Point(x: 50, y: 30), time: bed.clock.now)
        #expect(button.state == .highlighted)
        bed.render.bed.touch(touch, .ended, time: bed.clock.now)
        #expect(button.state == .normal && !button.isSelected, "selection is the app's, as UIKit's")
    }

    @Test func theLookOfEachState() throws {
        let r = RenderBed(width: 420, height: 60)
        let window = r.bed.window("main")
        window.backgroundColor = .white
        let states: [(String, (Button) -> Void)] = [
            ("normal", { _ in }), ("highlighted", { $0.isHighlighted = true }), ("selected", { $0.isSelected = true }),
            ("disabled", { $0.isEnabled = false }),
        ]
        for (index, (_, apply)) in states.enumerated() {
            let button = Button(frame: Rect(x: 6 + Double(index) * 103, y: 8, width: 97, height: 44))
            button.font = .system(size: 16, weight: .medium)
            button.setTitle("Follow", for: .normal)
            button.setTitle("Following", for: .selected)
            button.setTitleColor(.white, for: .selected)
            button.setBackgroundImage(Self.solid(Color(white: 0.92)), for: .normal)
            button.setBackgroundImage(Self.solid(Color(rgb: 0x007AFF)), for: .selected)
            button.cornerRadius = 10
            apply(button)
            window.addSubview(button)
        }
        try expectGolden(r.render(), named: "button-states")
    }
}
