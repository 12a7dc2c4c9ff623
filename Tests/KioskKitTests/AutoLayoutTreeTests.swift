import Graphics
import Testing

@testable import KioskKit

/// Auto Layout in a view tree: constraints following their views in and out of trees, autoresizing masks
/// as constraints, intrinsic sizes with hugging and compression resistance, baselines, a window resized.
@MainActor @Suite(.serialized)
struct AutoLayoutTreeTests {
    /// Removing a view deactivates the constraints between its subtree and the views outside it (UIKit);
    /// those inside it stay active and hold again where the subtree is put back.
    @Test func aRemovedViewsConstraintsDeactivate() {
        let bed = LayoutBed()
        let card = bed.constrainedView("card")
        let title = bed.constrainedView("title", in: card)
        let outside = [
            card.leadingAnchor.constraint(equalTo: bed.container.leadingAnchor, constant: 10),
            card.topAnchor.constraint(equalTo: bed.container.topAnchor, constant: 10),
        ]
        let inside = [
            card.widthAnchor.constraint(equalToConstant: 200), card.heightAnchor.constraint(equalToConstant: 100),
            title.leadingAnchor.constraint(equalTo: card.leadingAnchor, constant: 5),
            title.topAnchor.constraint(equalTo: card.topAnchor, constant: 5),
            title.widthAnchor.constraint(equalTo: card.widthAnchor, constant: -10), title.heightAnchor.constraint(equalToConstant: 20),
        ]
        LayoutConstraint.activate(outside + inside)
        bed.layout()
        #expect(card.frame.short == "10 10 200 100" && title.frame.short == "5 5 190 20")
        card.removeFromSuperview()
        #expect(outside.allSatisfy { !$0.isActive } && inside.allSatisfy(\.isActive))
        // Laid out on its own, it keeps its inside constraints.
        inside[0].constant = 300
        card.layoutIfNeeded()
        #expect(title.frame.short == "5 5 290 20")
        // Into another tree, with new constraints there.
        let other = View(frame: Rect(x: 0, y: 400, width: 500, height: 200))
        bed.window.addSubview(other)
        other.addSubview(card)
        LayoutConstraint.activate([
            card.trailingAnchor.constraint(equalTo: other.trailingAnchor), card.bottomAnchor.constraint(equalTo: other.bottomAnchor),
        ])
        bed.layout()
        #expect(card.frame.short == "200 100 300 100" && title.frame.short == "5 5 290 20")
        #expect(bed.takeProblems().isEmpty)
    }

    /// A subtree built with constraints before it is in a window is laid out once it is.
    @Test func aSubtreeBuiltAwayFromTheWindowJoinsItsEngine() {
        let bed = LayoutBed()
        let panel = View()
        panel.identifier = "panel"
        panel.translatesAutoresizingMaskIntoConstraints = false
        let dot = View()
        dot.translatesAutoresizingMaskIntoConstraints = false
        panel.addSubview(dot)
        LayoutConstraint.activate([
            dot.centerXAnchor.constraint(equalTo: panel.centerXAnchor), dot.centerYAnchor.constraint(equalTo: panel.centerYAnchor),
            dot.widthAnchor.constraint(equalToConstant: 10), dot.heightAnchor.constraint(equalToConstant: 10),
        ])
        bed.container.addSubview(panel)
        LayoutConstraint.activate([
            panel.leadingAnchor.constraint(equalTo: bed.container.leadingAnchor),
            panel.topAnchor.constraint(equalTo: bed.container.topAnchor),
            panel.widthAnchor.constraint(equalToConstant: 100), panel.heightAnchor.constraint(equalToConstant: 60),
        ])
        bed.layout()
        #expect(panel.frame.short == "0 0 100 60" && dot.frame.short == "45 25 10 10")
    }

    /// A view that keeps `translatesAutoresizingMaskIntoConstraints` stays where its frame and mask put it
    /// (its mask as constraints), and constrained views can be placed against it.
    @Test func autoresizingMasksAreConstraints() {
        let bed = LayoutBed()
        let sidebar = View(frame: Rect(x: 0, y: 0, width: 100, height: 300))
        sidebar.identifier = "sidebar"
        sidebar.autoresizingMask = [.flexibleHeight]
        let banner = View(frame: Rect(x: 100, y: 0, width: 300, height: 50))
        banner.identifier = "banner"
        banner.autoresizingMask = [.flexibleWidth, .flexibleBottomMargin]
        bed.container.addSubview(sidebar)
        bed.container.addSubview(banner)
        let content = bed.constrainedView("content")
        LayoutConstraint.activate([
            content.leadingAnchor.constraint(equalTo: sidebar.trailingAnchor, constant: 10),
            content.topAnchor.constraint(equalTo: banner.bottomAnchor, constant: 10),
            content.trailingAnchor.constraint(equalTo: banner.trailingAnchor),
            content.bottomAnchor.constraint(equalTo: sidebar.bottomAnchor),
        ])
        bed.layout()
        #expect(sidebar.frame.short == "0 0 100 300" && banner.frame.short == "100 0 300 50")
        #expect(content.frame.short == "110 60 290 240")
        // The container grows: the masks share the change out, and the constraints follow.
        bed.container.frame = Rect(x: 0, y: 0, width: 600, height: 400)
        bed.layout()
        #expect(sidebar.frame.short == "0 0 100 400" && banner.frame.short == "100 0 500 50")
        #expect(content.frame.short == "110 60 490 340")
        // A frame set by hand on a translating view is where it stays.
        banner.frame = Rect(x: 100, y: 20, width: 500, height: 50)
        bed.layout()
        #expect(content.frame.short == "110 80 490 320")
        #expect(bed.takeProblems().isEmpty)
    }

    /// A constrained view's frame set by hand is taken back at the next pass (the constraints decide).
    @Test func aConstrainedViewsFrameComesBack() {
        let bed = LayoutBed()
        let box = bed.constrainedView("box")
        LayoutConstraint.activate([
            box.leadingAnchor.constraint(equalTo: bed.container.leadingAnchor, constant: 5),
            box.topAnchor.constraint(equalTo: bed.container.topAnchor), box.widthAnchor.constraint(equalToConstant: 20),
            box.heightAnchor.constraint(equalToConstant: 20),
        ])
        bed.layout()
        box.frame = Rect(x: 50, y: 50, width: 5, height: 5)
        bed.layout()
        #expect(box.frame.short == "5 0 20 20")
    }

    /// Two labels between the container's edges: the one that hugs less grows; squeezed, the one that
    /// resists less gives way.
    @Test func huggingAndCompressionResistance() {
        let bed = LayoutBed()
        let name = Label(text: "Name")
        let value = Label(text: "A long value")
        for (label, identifier) in [(name, "name"), (value, "value")] {
            label.identifier = identifier
            label.translatesAutoresizingMaskIntoConstraints = false
            bed.container.addSubview(label)
        }
        let trailing = value.trailingAnchor.constraint(equalTo: bed.container.trailingAnchor)
        LayoutConstraint.activate([
            name.leadingAnchor.constraint(equalTo: bed.container.leadingAnchor),
            value.leadingAnchor.constraint(equalTo: name.trailingAnchor, constant: 8), trailing,
            name.topAnchor.constraint(equalTo: bed.container.topAnchor), value.topAnchor.constraint(equalTo: bed.container.topAnchor),
        ])
        name.setContentHuggingPriority(.defaultHigh, for: .horizontal)
        bed.layout()
        let nameSize = name.intrinsicContentSize, valueSize = value.intrinsicContentSize
        #expect(nameSize.width > 0 && valueSize.width > nameSize.width)
        #expect(name.frame.width == nameSize.width && name.frame.height == nameSize.height)
        #expect(value.frame.minX == nameSize.width + 8 && value.frame.maxX == 400)
        // Too narrow for both: the value resists less and is squeezed; the name keeps its width.
        trailing.isActive = false
        value.trailingAnchor.constraint(equalTo: bed.container.leadingAnchor, constant: nameSize.width + 20).isActive = true
        value.setContentCompressionResistancePriority(.defaultLow, for: .horizontal)
        bed.layout()
        #expect(name.frame.width == nameSize.width && value.frame.width == 12)
        // New text: a new intrinsic size.
        name.text = "A much longer name"
        bed.layout()
        #expect(name.frame.width == name.intrinsicContentSize.width && name.frame.width > nameSize.width)
        #expect(bed.takeProblems().isEmpty)
    }

    /// Labels of different fonts aligned on their first baselines: the baselines are level, as drawn.
    @Test func firstBaselinesAlign() {
        let bed = LayoutBed()
        let big = Label(text: "Total", font: .system(size: 32))
        let small = Label(text: "incl. VAT", font: .system(size: 14))
        for label in [big, small] {
            label.translatesAutoresizingMaskIntoConstraints = false
            bed.container.addSubview(label)
        }
        LayoutConstraint.activate([
            big.leadingAnchor.constraint(equalTo: bed.container.leadingAnchor), big.topAnchor.constraint(equalTo: bed.container.topAnchor),
            small.leadingAnchor.constraint(equalTo: big.trailingAnchor, constant: 8),
            small.firstBaselineAnchor.constraint(equalTo: big.firstBaselineAnchor),
        ])
        bed.layout()
        func baseline(_ label: Label) -> Double {
            let layout = label.textLayout(width: nil)
            return label.frame.minY + ((label.bounds.height - layout.size.height) / 2) + layout.baseline
        }
        #expect(abs(baseline(big) - baseline(small)) < 1)
        #expect(small.frame.minY > big.frame.minY)
        // A view without text has its baseline at its bottom.
        let line = bed.constrainedView("line")
        LayoutConstraint.activate([
            line.lastBaselineAnchor.constraint(equalTo: big.lastBaselineAnchor),
            line.leadingAnchor.constraint(equalTo: small.trailingAnchor),
            line.widthAnchor.constraint(equalToConstant: 10), line.heightAnchor.constraint(equalToConstant: 2),
        ])
        bed.layout()
        #expect(abs(line.frame.maxY - baseline(big)) < 1)
    }

    /// A label of several lines wraps at its width for its height (UIKit's two-pass layout of it).
    @Test func aMultilineLabelGetsTheHeightOfItsWidth() {
        let bed = LayoutBed()
        let label = Label(text: "Check-in is from three in the afternoon, and check-out is until eleven in the morning.")
        label.numberOfLines = 0
        label.translatesAutoresizingMaskIntoConstraints = false
        bed.container.addSubview(label)
        LayoutConstraint.activate([
            label.leadingAnchor.constraint(equalTo: bed.container.leadingAnchor, constant: 20),
            label.trailingAnchor.constraint(equalTo: bed.container.trailingAnchor, constant: -20),
            label.topAnchor.constraint(equalTo: bed.container.topAnchor),
        ])
        bed.layout()
        let oneLine = Label(text: "Check-in").sizeThatFits(.zero).height
        #expect(label.frame.width == 360)
        #expect(label.frame.height == label.sizeThatFits(Size(width: 360, height: 0)).height && label.frame.height > oneLine)
    }

    @Test func buttonImageViewAndTextFieldHaveIntrinsicSizes() {
        let button = Button(title: "Check in")
        #expect(button.intrinsicContentSize == button.sizeThatFits(.zero) && button.intrinsicContentSize.width > 0)
        let image = ImageView()
        #expect(image.intrinsicContentSize == Size(width: View.noIntrinsicMetric, height: View.noIntrinsicMetric))
        image.image = Image(bitmap: Bitmap(width: 12, height: 7))
        #expect(image.intrinsicContentSize == Size(width: 12, height: 7))
        let field = TextField()
        let empty = field.intrinsicContentSize
        field.placeholder = "Booking code"
        let placeheld = field.intrinsicContentSize
        field.text = "AB12"
        #expect(empty.height == placeheld.height && empty.height > 18 && placeheld.width > empty.width)
        #expect(field.intrinsicContentSize.width < placeheld.width)
        #expect(View().intrinsicContentSize == Size(width: View.noIntrinsicMetric, height: View.noIntrinsicMetric))
    }

    /// A window that fills its screen follows a rotation, and the constraints lay its content out again.
    @Test func aRotatedScreensWindowIsLaidOutAgain() {
        let bed = TestBed()
        let window = bed.window("main")
        let footer = View()
        footer.translatesAutoresizingMaskIntoConstraints = false
        window.addSubview(footer)
        LayoutConstraint.activate([
            footer.leadingAnchor.constraint(equalTo: window.leadingAnchor),
            footer.trailingAnchor.constraint(equalTo: window.trailingAnchor),
            footer.bottomAnchor.constraint(equalTo: window.bottomAnchor), footer.heightAnchor.constraint(equalToConstant: 60),
        ])
        window.layoutIfNeeded()
        #expect(footer.frame.short == "0 1020 1920 60")
        bed.screen("HDMI-A-1").rotation = .rotated90
        window.layoutIfNeeded()
        #expect(footer.frame.short == "0 1860 1080 60")
    }
}
