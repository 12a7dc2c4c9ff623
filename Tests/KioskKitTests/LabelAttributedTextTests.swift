import KioskTesting
import Testing

@testable import KioskKit

/// `Label.attributedText` as UILabel's: it sets `text`, plain text clears it, its paragraph style wins
/// over the label's alignment, the label's font and colour fill in, and its look.
@MainActor
@Suite(.serialized)
struct LabelAttributedTextTests {
    static let departure =
        AttributedText("Gate ") + AttributedText("B12", attributes: .init(font: .boldSystemFont(ofSize: 20), foregroundColor: .red))

    @Test func itSetsTheTextAndPlainTextClearsIt() {
        _ = RenderBed()
        let label = Label(frame: Rect(x: 0, y: 0, width: 200, height: 30))
        label.attributedText = Self.departure
        #expect(label.text == "Gate B12")
        let plainSize = Label(text: "Gate B12").intrinsicContentSize
        #expect(label.intrinsicContentSize.width > plainSize.width, "the bold run is wider")
        label.text = "Gate C3"
        #expect(label.attributedText == nil)
        label.attributedText = AttributedText("Boarding", paragraphStyle: .init(alignment: .right))
        #expect(label.textLayout(width: 200).alignment == .right, "the paragraph style's alignment")
    }

    @Test func theLook() throws {
        let r = RenderBed(width: 240, height: 130)
        let window = r.bed.window("main")
        window.backgroundColor = .white
        let texts: [AttributedText] = [
            Self.departure + "  " + AttributedText("delayed", attributes: .init(strikethrough: true)),
            AttributedText("Now ") + AttributedText("boarding", attributes: .init(backgroundColor: .yellow, underlineStyle: .single)),
            AttributedText("m") + AttributedText("2", attributes: .init(font: .system(size: 11), baselineOffset: 7))
                + AttributedText("  S P A C E D", attributes: .init(foregroundColor: .blue, kern: 2)),
        ]
        View.performWithoutAnimation {
            for (index, text) in texts.enumerated() {
                let label = Label(frame: Rect(x: 10, y: 8 + Double(index) * 40, width: 220, height: 34))
                label.font = .system(size: 18)
                label.attributedText = text
                window.addSubview(label)
            }
        }
        try expectGolden(r.render(), named: "label-attributed")
    }
}
