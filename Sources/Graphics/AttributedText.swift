/// Text with attributes on its runs (UIKit's `NSAttributedString` role, named so as not to clash with
/// Foundation's `AttributedString` in an app that imports both): fonts and weights, colours, a background
/// colour, underline, strikethrough, kerning and a baseline offset per run, and one paragraph style for the
/// whole, drawn through pango's attributes. Build it by appending runs: `AttributedText("Gate ") +
/// AttributedText("B12", attributes: .init(font: .boldSystemFont(ofSize: 17)))`. Attributes a run leaves
/// unset come from the view showing it (a label's font and colour).
public struct AttributedText: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// How a run is drawn; nil and zero leave the view's own.
    public struct Attributes: Hashable, Sendable {
        public var font: Font?
        public var foregroundColor: Color?
        public var backgroundColor: Color?
        public var underlineStyle: UnderlineStyle
        public var strikethrough: Bool
        /// Extra room after each character, in points (as `NSAttributedString.Key.kern`).
        public var kern: Double
        /// How far above the baseline the run sits, in points; negative is below.
        public var baselineOffset: Double

        public init(
            font: Font? = nil, foregroundColor: Color? = nil, backgroundColor: Color? = nil, underlineStyle: UnderlineStyle = .none,
            strikethrough: Bool = false, kern: Double = 0, baselineOffset: Double = 0
        ) {
            self.font = font
            self.foregroundColor = foregroundColor
            self.backgroundColor = backgroundColor
            self.underlineStyle = underlineStyle
            self.strikethrough = strikethrough
            self.kern = kern
            self.baselineOffset = baselineOffset
        }
    }

    /// As `NSUnderlineStyle`'s single and double.
    public enum UnderlineStyle: Hashable, Sendable {
        case none, single, double
    }

    /// The paragraphs' layout (as `NSParagraphStyle`); nil: the view's.
    public struct ParagraphStyle: Hashable, Sendable {
        public var alignment: TextAlignment?
        /// Extra room between lines, in points.
        public var lineSpacing: Double
        public var lineBreakMode: LineBreakMode?
        /// The indent of every line but a paragraph's first, and of the first, in points from the leading edge.
        public var headIndent: Double
        public var firstLineHeadIndent: Double

        public init(
            alignment: TextAlignment? = nil, lineSpacing: Double = 0, lineBreakMode: LineBreakMode? = nil, headIndent: Double = 0,
            firstLineHeadIndent: Double = 0
        ) {
            self.alignment = alignment
            self.lineSpacing = lineSpacing
            self.lineBreakMode = lineBreakMode
            self.headIndent = headIndent
            self.firstLineHeadIndent = firstLineHeadIndent
        }
    }

    /// A stretch of the text with one set of attributes: its place in UTF-8 bytes (what pango indexes by).
    public struct Run: Hashable, Sendable {
        public let utf8Range: Range<Int>
        public let attributes: Attributes
    }

    public private(set) var string: String
    public private(set) var runs: [Run]
    public var paragraphStyle: ParagraphStyle?

    public init(_ string: String, attributes: Attributes = Attributes(), paragraphStyle: ParagraphStyle? = nil) {
        self.string = string
        runs = string.isEmpty ? [] : [Run(utf8Range: 0..<string.utf8.count, attributes: attributes)]
        self.paragraphStyle = paragraphStyle
    }

    public init(stringLiteral value: String) { self.init(value) }

    /// Appends another's runs (its paragraph style is this one's if this has none).
    public mutating func append(_ other: AttributedText) {
        let offset = string.utf8.count
        string += other.string
        runs += other.runs.map {
            Run(utf8Range: ($0.utf8Range.lowerBound + offset)..<($0.utf8Range.upperBound + offset), attributes: $0.attributes)
        }
        if paragraphStyle == nil { paragraphStyle = other.paragraphStyle }
    }

    public static func + (lhs: AttributedText, rhs: AttributedText) -> AttributedText {
        var result = lhs
        result.append(rhs)
        return result
    }

    public var description: String { string }
}
