import Testing

@testable import Graphics

/// `AttributedText` drawn through pango's attributes: runs in UTF-8 bytes, and each attribute seen in what
/// is measured or drawn (a bold run wider, a red run red where it is, a background behind it, a line under
/// or through it, kerning wider, a raised run higher, spacing taller, an indent further in).
@Suite struct AttributedTextTests {
    static let font = Font.system(size: 24)

    static func layout(_ text: AttributedText, width: Double? = nil) -> TextLayout {
        TextLayout(text: text.string, font: font, width: width, attributes: text)
    }

    static func draw(_ layout: TextLayout) -> Bitmap {
        let bitmap = Bitmap(width: 320, height: 120)
        DrawingContext(bitmap: bitmap).draw(layout, at: Point(x: 0, y: 0))
        return bitmap
    }

    /// The rows and columns with ink: (minX, minY, maxX, maxY).
    static func ink(_ bitmap: Bitmap) -> (Int, Int, Int, Int) {
        var box = (Int.max, Int.max, -1, -1)
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width where bitmap.pixel(x: x, y: y) >> 24 != 0 {
                box = (min(box.0, x), min(box.1, y), max(box.2, x), max(box.3, y))
            }
        }
        return box
    }

    @Test func runsAreUTF8Ranges() {
        let text = AttributedText("Gate ") + AttributedText("B12", attributes: .init(font: .boldSystemFont(ofSize: 24))) + " → München"
        #expect(text.string == "Gate B12 → München")
        #expect(text.runs.map(\.utf8Range) == [0..<5, 5..<8, 8..<21])
        #expect(text.runs[1].attributes.font?.weight == .bold && text.runs[2].attributes == .init())
    }

    @Test func fontsKerningAndRunsChangeTheSize() {
        let plain = Self.layout("Departures").size.width
        #expect(Self.layout(AttributedText("Departures", attributes: .init(font: .boldSystemFont(ofSize: 24)))).size.width > plain)
        let kerned = Self.layout(AttributedText("Departures", attributes: .init(kern: 3))).size.width
        #expect(abs(kerned - plain - 30) <= 3, "10 characters 3 points apart: \(kerned - plain)")
        let big = Self.layout(AttributedText("De") + AttributedText("parture", attributes: .init(font: .system(size: 40))))
        #expect(big.size.height > Self.layout("Departures").size.height)
    }

    @Test func aColouredRunIsThatColourWhereItIs() {
        let layout = Self.layout(AttributedText("MM") + AttributedText("MM", attributes: .init(foregroundColor: .red)))
        let bitmap = Self.draw(layout)
        let half = Int(layout.size.width / 2)
        func red(_ x: Int, _ y: Int) -> Bool {
            let pixel = bitmap.pixel(x: x, y: y)
            return pixel >> 24 == 0xFF && pixel >> 16 & 0xFF == 0xFF && pixel & 0xFFFF == 0
        }
        let redColumns = Set((0..<bitmap.width).filter { x in (0..<bitmap.height).contains { red(x, $0) } })
        #expect(!redColumns.isEmpty && redColumns.allSatisfy { $0 >= half - 1 }, "red only in the second half")
    }

    @Test func aBackgroundFillsBehindItsRun() {
        let bitmap = Self.draw(Self.layout(AttributedText("ab", attributes: .init(backgroundColor: .blue))))
        #expect(bitmap.pixel(x: 1, y: 2) == Color.blue.premultipliedARGB32, "behind the first letter, above its ink")
    }

    @Test func linesUnderAndThroughAddInk() {
        func inkCount(_ attributes: AttributedText.Attributes) -> Int {
            Self.draw(Self.layout(AttributedText("ooo", attributes: attributes))).inkPixelCount
        }
        let plain = inkCount(.init())
        #expect(inkCount(.init(underlineStyle: .single)) > plain + 20)
        #expect(inkCount(.init(underlineStyle: .double)) > inkCount(.init(underlineStyle: .single)))
        #expect(inkCount(.init(strikethrough: true)) > plain + 20)
        // The underline is below the letters' ink, the strikethrough within it.
        let under = Self.ink(Self.draw(Self.layout(AttributedText("ooo", attributes: .init(underlineStyle: .single)))))
        #expect(under.3 > Self.ink(Self.draw(Self.layout("ooo"))).3)
    }

    @Test func aRaisedRunSitsHigher() {
        let layout = Self.layout(AttributedText("x") + AttributedText("x", attributes: .init(baselineOffset: 8)))
        let bitmap = Self.draw(layout)
        let half = Int(layout.size.width / 2)
        func top(_ columns: Range<Int>) -> Int {
            (0..<bitmap.height).first { y in columns.contains { bitmap.pixel(x: $0, y: y) >> 24 != 0 } } ?? -1
        }
        let first = top(0..<half), second = top(half..<bitmap.width)
        #expect(abs(first - second - 8) <= 1, "8 points up: \(first) and \(second)")
    }

    @Test func theParagraphStyleSpacesAndIndents() {
        let lines = "one two three four five six"
        let plain = Self.layout(AttributedText(lines), width: 120)
        let spaced = Self.layout(AttributedText(lines, paragraphStyle: .init(lineSpacing: 10)), width: 120)
        #expect(plain.lineCount > 1 && spaced.lineCount == plain.lineCount)
        #expect(abs(spaced.size.height - plain.size.height - 10 * Double(plain.lineCount - 1)) < 1)
        let indented = Self.layout(AttributedText(lines, paragraphStyle: .init(headIndent: 30, firstLineHeadIndent: 30)), width: 150)
        #expect(Self.ink(Self.draw(indented)).0 >= 30 && Self.ink(Self.draw(indented)).2 <= 150)
        let hanging = Self.layout(AttributedText(lines, paragraphStyle: .init(headIndent: 30)), width: 150)
        #expect(Self.ink(Self.draw(hanging)).0 < 5, "the first line at the edge, the others 30 in")
    }
}
