import KioskTesting
import Testing

@testable import KioskKit

/// `Label.adjustsFontSizeToFitWidth` as UILabel's: the largest size down to `minimumScaleFactor` of the
/// font's at which the text fits, nothing shrunk with a factor of 0, truncated when even the smallest does
/// not fit, a label of several lines fitted to its height and lines; the intrinsic size the full text's.
@MainActor
@Suite(.serialized)
struct LabelFittingTests {
    static let departure = "Departures to Amsterdam"
    static let longer = "Departures to Amsterdam Centraal"

    static func label(_ text: String = departure, width: Double = 140, height: Double = 30, factor: Double = 0.5) -> Label {
        let label = Label(text: text, font: .system(size: 17), frame: Rect(x: 0, y: 0, width: width, height: height))
        label.adjustsFontSizeToFitWidth = true
        label.minimumScaleFactor = factor
        return label
    }

    static func width(_ text: String, _ size: Double) -> Double {
        TextLayout(text: text, font: .system(size: size)).size.width
    }

    @Test func aLineTooWideShrinksToTheLargestSizeThatFits() {
        _ = RenderBed()
        let label = Self.label()
        #expect(Self.width(Self.departure, 17) > 140, "the test's text is too wide at full size")
        let size = label.fittingFont(in: label.bounds.size).size
        #expect(size >= 8.5 && size < 17)
        #expect(Self.width(Self.departure, size) <= 140 && Self.width(Self.departure, size + Label.fittingPrecision) > 140)
        #expect(label.intrinsicContentSize.width == Self.width(Self.departure, 17).rounded(.up), "the full text's")
    }

    @Test func nothingShrinksWithoutAFactorOrWhenTheTextFits() {
        _ = RenderBed()
        #expect(Self.label(factor: 0).fittingFont(in: Size(width: 140, height: 30)).size == 17, "UIKit's 0: the font's own size")
        #expect(Self.label(factor: 1).fittingFont(in: Size(width: 140, height: 30)).size == 17)
        #expect(Self.label("Gate 4").fittingFont(in: Size(width: 140, height: 30)).size == 17)
        let off = Self.label()
        off.adjustsFontSizeToFitWidth = false
        #expect(off.fittingFont(in: off.bounds.size).size == 17)
    }

    @Test func tooWideEvenAtTheSmallestItIsTruncatedThere() {
        _ = RenderBed()
        let label = Self.label(Self.longer, factor: 0.6)
        #expect(Self.width(Self.longer, 17 * 0.6) > 140)
        #expect(label.fittingFont(in: label.bounds.size).size == 17 * 0.6)
    }

    @Test func severalLinesShrinkUntilTheyFitTheHeightAndTheLines() {
        _ = RenderBed()
        let label = Self.label(Self.longer, width: 120, height: 36)
        label.numberOfLines = 2
        #expect(TextLayout(text: Self.longer, font: .system(size: 17), width: 120).lineCount > 2)
        let font = label.fittingFont(in: label.bounds.size)
        let layout = TextLayout(text: Self.longer, font: font, width: 120)
        #expect(font.size < 17 && layout.lineCount <= 2 && layout.size.height <= 36)
    }

    /// Truncated at full size, shrunk to fit, and shrunk to the smallest and truncated; each shrunk line
    /// on the full-size line's baseline.
    @Test func theLook() throws {
        let r = RenderBed(width: 160, height: 110)
        let window = r.bed.window("main")
        window.backgroundColor = .white
        for (index, (text, factor)) in [(Self.departure, 0.0), (Self.departure, 0.5), (Self.longer, 0.7)].enumerated() {
            let label = Self.label(text, width: 150, factor: factor)
            label.frame.origin = Point(x: 5, y: 5 + Double(index) * 34)
            label.backgroundColor = Color(white: 0.93)
            window.addSubview(label)
        }
        try expectGolden(r.render(), named: "label-fitting")
    }
}
