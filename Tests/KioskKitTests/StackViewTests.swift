import Testing

@testable import KioskKit

/// A view with a given intrinsic size.
@MainActor
final class SizedView: View {
    var size: Size {
        didSet { invalidateIntrinsicContentSize() }
    }
    init(_ width: Double, _ height: Double, _ identifier: String) {
        size = Size(width: width, height: height)
        super.init(frame: .zero)
        self.identifier = identifier
    }
    override var intrinsicContentSize: Size { size }
}

/// Stack views: the distributions and alignments as tables against UIKit's documented layouts, spacing,
/// custom spacing, margins, hidden views collapsing (animated inside a block), arranged views coming and going.
@MainActor @Suite(.serialized)
struct StackViewTests {
    /// A row of three views (50x20, 100x40, 30x60) in a 400x100 stack at the container's origin.
    static func row(
        _ distribution: StackView.Distribution, _ alignment: StackView.Alignment = .fill, spacing: Double = 10,
        width: Double = 400
    ) -> (LayoutBed, StackView, [SizedView]) {
        let bed = LayoutBed()
        let views = [SizedView(50, 20, "a"), SizedView(100, 40, "b"), SizedView(30, 60, "c")]
        let stack = StackView(arrangedSubviews: views)
        stack.identifier = "stack"
        stack.distribution = distribution
        stack.alignment = alignment
        stack.spacing = spacing
        stack.translatesAutoresizingMaskIntoConstraints = false
        bed.container.addSubview(stack)
        LayoutConstraint.activate([
            stack.leadingAnchor.constraint(equalTo: bed.container.leadingAnchor),
            stack.topAnchor.constraint(equalTo: bed.container.topAnchor), stack.widthAnchor.constraint(equalToConstant: width),
            stack.heightAnchor.constraint(equalToConstant: 100),
        ])
        bed.layout()
        return (bed, stack, views)
    }

    struct DistributionRow: CustomTestStringConvertible, Sendable {
        let distribution: StackView.Distribution
        let width: Double
        /// The views' frames along the axis: x and width each.
        let expected: [String]
        var testDescription: String { "\(distribution) in \(Int(width))" }
    }

    /// 180 points of views and 20 of spacing in 400 (and 150 when squeezed): where UIKit's documentation
    /// puts them (the last view takes a tie).
    @Test(arguments: [
        // fill: the extra 200 goes to the view that hugs least, the last on a tie.
        DistributionRow(distribution: .fill, width: 400, expected: ["0 50", "60 100", "170 230"]),
        // Squeezed by 50: the last view resists least on a tie, down to nothing, then the one before it.
        DistributionRow(distribution: .fill, width: 150, expected: ["0 50", "60 80", "150 0"]),
        // fillEqually: (400 - 20) / 3 each.
        DistributionRow(distribution: .fillEqually, width: 400, expected: ["0 126.667", "136.667 126.667", "273.333 126.667"]),
        // fillProportionally: 380 shared 50:100:30.
        DistributionRow(distribution: .fillProportionally, width: 400, expected: ["0 105.556", "115.556 211.111", "336.667 63.333"]),
        // equalSpacing: the views keep their widths, two equal gaps of (400 - 180) / 2.
        DistributionRow(distribution: .equalSpacing, width: 400, expected: ["0 50", "160 100", "370 30"]),
        // equalCentering: centres 25, ?, 385 equally apart: the middle one centred at 205.
        DistributionRow(distribution: .equalCentering, width: 400, expected: ["0 50", "155 100", "370 30"]),
    ])
    func distributions(row: DistributionRow) {
        let (bed, _, views) = Self.row(row.distribution, width: row.width)
        let spans = views.map { "\(Int($0.frame.minX)) \(Int($0.frame.width))" }
        // Frames have their edges rounded to whole points.
        let expected = row.expected.map { span -> String in
            let numbers = span.split(separator: " ").map { Double($0)! }
            let start = numbers[0].rounded(), end = (numbers[0] + numbers[1]).rounded()
            return "\(Int(start)) \(Int(end - start))"
        }
        #expect(spans == expected)
        #expect(bed.takeProblems().isEmpty)
    }

    struct AlignmentRow: CustomTestStringConvertible, Sendable {
        let alignment: StackView.Alignment
        /// The views' y and height.
        let expected: [String]
        var testDescription: String { "\(alignment)" }
    }

    @Test(arguments: [
        AlignmentRow(alignment: .fill, expected: ["0 100", "0 100", "0 100"]),
        AlignmentRow(alignment: .top, expected: ["0 20", "0 40", "0 60"]),
        AlignmentRow(alignment: .center, expected: ["40 20", "30 40", "20 60"]),
        AlignmentRow(alignment: .bottom, expected: ["80 20", "60 40", "40 60"]),
        // Views without text: their baselines are their bottoms, lined up on the first view's.
        AlignmentRow(alignment: .firstBaseline, expected: ["y 20", "y-20 40", "y-40 60"]),
    ])
    func alignments(row: AlignmentRow) {
        let (bed, _, views) = Self.row(.fill, row.alignment)
        if row.alignment == .firstBaseline {
            #expect(Set(views.map(\.frame.maxY)).count == 1 && views.allSatisfy { $0.frame.minY >= 0 && $0.frame.maxY <= 100 })
        } else {
            #expect(views.map { "\(Int($0.frame.minY)) \(Int($0.frame.height))" } == row.expected)
        }
        #expect(bed.takeProblems().isEmpty)
    }

    /// A column of labels on their baselines is not a thing (UIKit: rows only): it lays out as fill.
    @Test func aColumnTakesBaselineAlignmentAsFill() {
        let bed = LayoutBed()
        let stack = StackView(arrangedSubviews: [SizedView(50, 20, "a"), SizedView(80, 30, "b")])
        stack.axis = .vertical
        stack.alignment = .lastBaseline
        stack.translatesAutoresizingMaskIntoConstraints = false
        bed.container.addSubview(stack)
        LayoutConstraint.activate([
            stack.leadingAnchor.constraint(equalTo: bed.container.leadingAnchor),
            stack.topAnchor.constraint(equalTo: bed.container.topAnchor), stack.widthAnchor.constraint(equalToConstant: 200),
        ])
        bed.layout()
        #expect(stack.arrangedSubviews.map(\.frame.short) == ["0 0 200 20", "0 20 200 30"])
        #expect(stack.frame.short == "0 0 200 50")
    }

    /// With nothing sizing it, a stack is as long as its views and spacing and as tall as the tallest.
    @Test func aStackSizesItselfFromItsViews() {
        let bed = LayoutBed()
        let stack = StackView(arrangedSubviews: [SizedView(50, 20, "a"), SizedView(100, 40, "b")])
        stack.alignment = .center
        stack.spacing = 8
        stack.translatesAutoresizingMaskIntoConstraints = false
        bed.container.addSubview(stack)
        LayoutConstraint.activate([
            stack.leadingAnchor.constraint(equalTo: bed.container.leadingAnchor, constant: 5),
            stack.topAnchor.constraint(equalTo: bed.container.topAnchor, constant: 5),
        ])
        bed.layout()
        #expect(stack.frame.short == "5 5 158 40")
        #expect(stack.arrangedSubviews.map(\.frame.short) == ["0 10 50 20", "58 0 100 40"])
        #expect(!stack.hasAmbiguousLayout && bed.takeProblems().isEmpty)
    }

    @Test func customSpacingAndMargins() {
        let (bed, stack, views) = Self.row(.equalSpacing)
        stack.distribution = .fill
        stack.setCustomSpacing(30, after: views[0])
        #expect(stack.customSpacing(after: views[0]) == 30 && stack.customSpacing(after: views[1]) == StackView.spacingUseDefault)
        stack.isLayoutMarginsRelativeArrangement = true
        stack.directionalLayoutMargins = DirectionalEdgeInsets(top: 5, leading: 20, bottom: 5, trailing: 20)
        bed.layout()
        #expect(views.map(\.frame.short) == ["20 5 50 90", "100 5 100 90", "210 5 170 90"])
        stack.setCustomSpacing(StackView.spacingUseDefault, after: views[0])
        bed.layout()
        #expect(views[1].frame.minX == 80)
    }

    /// A hidden view leaves the row and its spacing with it; hidden inside an animation block, the others
    /// slide to their places in that animation.
    @Test func aHiddenViewCollapsesAndAnimates() {
        let animation = AnimationBed(width: 400, height: 100)
        let views = [SizedView(50, 20, "a"), SizedView(100, 40, "b"), SizedView(30, 60, "c")]
        let stack = StackView(arrangedSubviews: views)
        stack.spacing = 10
        stack.alignment = .top
        stack.translatesAutoresizingMaskIntoConstraints = false
        animation.window.addSubview(stack)
        LayoutConstraint.activate([
            stack.leadingAnchor.constraint(equalTo: animation.window.leadingAnchor),
            stack.topAnchor.constraint(equalTo: animation.window.topAnchor),
        ])
        animation.window.layoutIfNeeded()
        #expect(views[2].frame.minX == 170 && stack.frame.width == 200)
        View.animate(withDuration: 1, options: .curveLinear) { views[1].isHidden = true }
        #expect(views[2].frame.minX == 60 && stack.frame.width == 90)
        #expect(views[2].presentationFrame.minX == 170)
        animation.advance(by: 0.5)
        #expect(abs(views[2].presentationFrame.minX - 115) <= 110 * animation.period + 1e-9)
        animation.advance(by: 1)
        #expect(views[2].presentationFrame.minX == 60)
        // Shown again outside a block: at the next pass, at once.
        views[1].isHidden = false
        animation.window.layoutIfNeeded()
        #expect(views[2].frame.minX == 170 && views[2].presentationFrame.minX == 170)
    }

    /// Arranged views come and go: removeArrangedSubview keeps the subview (UIKit), removeFromSuperview
    /// takes it out of the arrangement, insertArrangedSubview puts one where asked.
    @Test func arrangedViewsComeAndGo() {
        let (bed, stack, views) = Self.row(.fill, .top)
        stack.removeArrangedSubview(views[0])
        bed.layout()
        #expect(stack.arrangedSubviews.count == 2 && views[0].superview === stack)
        #expect(views[1].frame.minX == 0)
        views[2].removeFromSuperview()
        #expect(stack.arrangedSubviews.map(\.displayName) == ["b"])
        let inserted = SizedView(40, 10, "d")
        stack.insertArrangedSubview(inserted, at: 0)
        #expect(!inserted.translatesAutoresizingMaskIntoConstraints && inserted.superview === stack)
        bed.layout()
        #expect(stack.arrangedSubviews.map(\.displayName) == ["d", "b"])
        #expect(inserted.frame.short == "0 0 40 10" && views[1].frame.short == "50 0 350 40")
        // An intrinsic size that changes moves the others.
        inserted.size = Size(width: 60, height: 10)
        bed.layout()
        #expect(views[1].frame.short == "70 0 330 40")
        #expect(bed.takeProblems().isEmpty)
    }

    @Test func aVerticalStackOfLabels() {
        let bed = LayoutBed()
        let title = Label(text: "Welcome", font: .system(size: 28))
        let subtitle = Label(text: "Tap to check in")
        let stack = StackView(arrangedSubviews: [title, subtitle])
        stack.axis = .vertical
        stack.alignment = .center
        stack.spacing = 12
        stack.translatesAutoresizingMaskIntoConstraints = false
        bed.container.addSubview(stack)
        LayoutConstraint.activate([
            stack.centerXAnchor.constraint(equalTo: bed.container.centerXAnchor),
            stack.centerYAnchor.constraint(equalTo: bed.container.centerYAnchor),
        ])
        bed.layout()
        let titleSize = title.intrinsicContentSize, subtitleSize = subtitle.intrinsicContentSize
        #expect(stack.frame.height == titleSize.height + 12 + subtitleSize.height)
        #expect(stack.frame.width == max(titleSize.width, subtitleSize.width))
        #expect(abs(title.frame.midX - stack.bounds.midX) <= 0.5 && abs(subtitle.frame.midX - stack.bounds.midX) <= 0.5)
        #expect(bed.takeProblems().isEmpty)
    }
}
