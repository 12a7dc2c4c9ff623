import Testing

@testable import KioskKit

/// Auto Layout's constraints and anchors against hand-solved layouts: what UIKit would lay out for the same
/// constraints, the problems it reports, and passes run only when something changed.
@MainActor @Suite(.serialized)
struct AutoLayoutTests {
    @Test func anchorsPlaceAView() {
        let bed = LayoutBed()
        let box = bed.constrainedView("box")
        LayoutConstraint.activate([
            box.leadingAnchor.constraint(equalTo: bed.container.leadingAnchor, constant: 20),
            box.topAnchor.constraint(equalTo: bed.container.topAnchor, constant: 10),
            box.widthAnchor.constraint(equalToConstant: 100),
            box.heightAnchor.constraint(equalTo: box.widthAnchor, multiplier: 0.5),
        ])
        bed.layout()
        #expect(box.frame.short == "20 10 100 50")
        #expect(bed.takeProblems().isEmpty)
        #expect(bed.container.constraints.count == 2 && box.constraints.count == 2)
    }

    @Test func trailingBottomAndCentres() {
        let bed = LayoutBed()
        let corner = bed.constrainedView("corner")
        let middle = bed.constrainedView("middle")
        LayoutConstraint.activate([
            corner.trailingAnchor.constraint(equalTo: bed.container.trailingAnchor, constant: -10),
            corner.bottomAnchor.constraint(equalTo: bed.container.bottomAnchor, constant: -20),
            corner.widthAnchor.constraint(equalToConstant: 50), corner.heightAnchor.constraint(equalToConstant: 30),
            middle.centerXAnchor.constraint(equalTo: bed.container.centerXAnchor),
            middle.centerYAnchor.constraint(equalTo: bed.container.centerYAnchor, constant: 5),
            middle.widthAnchor.constraint(equalTo: bed.container.widthAnchor, multiplier: 0.5),
            middle.heightAnchor.constraint(equalTo: corner.heightAnchor, multiplier: 2, constant: 10),
        ])
        bed.layout()
        #expect(corner.frame.short == "340 250 50 30")
        #expect(middle.frame.short == "100 120 200 70")
    }

    /// The NSLayoutConstraint initializer, left and right, and an inequality winning over an optional size.
    @Test func theInitializerAndInequalities() {
        let bed = LayoutBed()
        let bar = bed.constrainedView("bar")
        LayoutConstraint.activate([
            LayoutConstraint(
                item: bar, attribute: .left, relatedBy: .equal, toItem: bed.container, attribute: .left, multiplier: 1, constant: 30),
            LayoutConstraint(item: bar, attribute: .top, relatedBy: .equal, toItem: bed.container, attribute: .top),
            LayoutConstraint(item: bar, attribute: .height, relatedBy: .equal, toItem: nil, attribute: .notAnAttribute, constant: 44),
            // At most the container's width minus 60, and would like to be 500 wide (750 loses to required).
            LayoutConstraint(
                item: bar, attribute: .right, relatedBy: .lessThanOrEqual, toItem: bed.container, attribute: .right, constant: -30),
            with(bar.widthAnchor.constraint(equalToConstant: 500)) { $0.priority = .defaultHigh },
            // A weaker wish for less does not pull it back.
            with(bar.widthAnchor.constraint(lessThanOrEqualToConstant: 100)) { $0.priority = .defaultLow },
        ])
        bed.layout()
        #expect(bar.frame.short == "30 0 340 44")
        #expect(bed.takeProblems().isEmpty)
    }

    /// Optional constraints are met by priority: of two that cannot both hold, the higher wins whatever the
    /// order they were added in, and the lower one holds again when the higher goes.
    @Test func priorityDecidesBetweenOptionalConstraints() {
        let bed = LayoutBed()
        let box = bed.constrainedView("box")
        let low = with(box.widthAnchor.constraint(equalToConstant: 80)) { $0.priority = 300 }
        let high = with(box.widthAnchor.constraint(equalToConstant: 120)) { $0.priority = 700 }
        LayoutConstraint.activate([
            high, low, box.leadingAnchor.constraint(equalTo: bed.container.leadingAnchor),
            box.topAnchor.constraint(equalTo: bed.container.topAnchor), box.heightAnchor.constraint(equalToConstant: 10),
        ])
        bed.layout()
        #expect(box.frame.width == 120)
        high.isActive = false
        bed.layout()
        #expect(box.frame.width == 80)
        // Raised above the other: it wins (a change of an optional priority re-weighs it).
        high.priority = 200
        high.isActive = true
        bed.layout()
        #expect(box.frame.width == 80)
        high.priority = 900
        bed.layout()
        #expect(box.frame.width == 120)
    }

    /// A changed constant re-solves from the last solution in one pass; a frame with no change runs none.
    @Test func aConstantChangeIsOnePassAndNoChangeIsNone() {
        let bed = LayoutBed()
        let box = bed.constrainedView("box")
        let left = box.leadingAnchor.constraint(equalTo: bed.container.leadingAnchor, constant: 10)
        LayoutConstraint.activate([
            left, box.topAnchor.constraint(equalTo: bed.container.topAnchor), box.widthAnchor.constraint(equalToConstant: 50),
            box.heightAnchor.constraint(equalToConstant: 50),
        ])
        bed.layout()
        let passes = bed.passes
        bed.layout()
        bed.layout()
        #expect(bed.passes == passes)
        left.constant = 70
        #expect(box.frame.minX == 10)
        bed.layout()
        #expect(box.frame.minX == 70 && bed.passes == passes + 1)
        bed.layout()
        #expect(bed.passes == passes + 1)
    }

    /// Required constraints that cannot all hold: one is broken and said once, naming it and those it
    /// conflicts with; when the conflicting one goes, the broken one holds.
    @Test func unsatisfiableConstraintsBreakOneAndRecover() {
        let bed = LayoutBed()
        let box = bed.constrainedView("box")
        let narrow = with(box.widthAnchor.constraint(equalToConstant: 100)) { $0.identifier = "narrow" }
        let wide = with(box.widthAnchor.constraint(equalToConstant: 200)) { $0.identifier = "wide" }
        LayoutConstraint.activate([
            box.leadingAnchor.constraint(equalTo: bed.container.leadingAnchor),
            box.topAnchor.constraint(equalTo: bed.container.topAnchor), box.heightAnchor.constraint(equalToConstant: 10), narrow,
            wide,
        ])
        bed.layout()
        #expect(box.frame.width == 100)
        let problems = bed.takeProblems()
        #expect(problems.count == 1)
        #expect(problems.first?.contains("breaking [wide] box.width == 200") == true)
        #expect(problems.first?.contains("[narrow] box.width == 100") == true)
        // Still active (UIKit keeps a broken constraint active), and not said again at the next passes.
        #expect(wide.isActive)
        box.heightAnchor.constraint(greaterThanOrEqualToConstant: 5).isActive = true
        bed.layout()
        #expect(bed.takeProblems().isEmpty)
        narrow.isActive = false
        bed.layout()
        #expect(box.frame.width == 200 && bed.takeProblems().isEmpty)
    }

    /// A constant change that makes a required constraint impossible breaks it, and a change back lets it hold.
    @Test func aConstantThatCannotHoldBreaksTheConstraint() {
        let bed = LayoutBed()
        let box = bed.constrainedView("box")
        let width = box.widthAnchor.constraint(equalToConstant: 50)
        LayoutConstraint.activate([
            box.leadingAnchor.constraint(equalTo: bed.container.leadingAnchor),
            box.topAnchor.constraint(equalTo: bed.container.topAnchor), box.heightAnchor.constraint(equalToConstant: 10),
            box.widthAnchor.constraint(lessThanOrEqualToConstant: 100), width,
        ])
        bed.layout()
        width.constant = 150
        bed.layout()
        #expect(box.frame.width == 100)
        #expect(bed.takeProblems().count == 1)
        width.constant = 60
        bed.layout()
        #expect(box.frame.width == 60)
    }

    @Test func viewsWithNoCommonAncestorAreRefusedByName() {
        let bed = LayoutBed()
        let inside = bed.constrainedView("inside")
        let loose = View()
        loose.identifier = "loose"
        let constraint = inside.leadingAnchor.constraint(equalTo: loose.leadingAnchor)
        constraint.isActive = true
        #expect(!constraint.isActive)
        let problems = bed.takeProblems()
        #expect(problems.count == 1 && problems[0].contains("inside and loose have no common ancestor"))
    }

    @Test func constantsThatAreNotNumbersAreLeftOut() {
        let bed = LayoutBed()
        let box = bed.constrainedView("box")
        LayoutConstraint.activate([
            box.leadingAnchor.constraint(equalTo: bed.container.leadingAnchor, constant: .nan),
            box.leadingAnchor.constraint(equalTo: bed.container.leadingAnchor, constant: 5),
            box.topAnchor.constraint(equalTo: bed.container.topAnchor), box.widthAnchor.constraint(equalToConstant: .infinity),
            box.widthAnchor.constraint(equalToConstant: 10), box.heightAnchor.constraint(equalToConstant: 10),
        ])
        bed.layout()
        #expect(box.frame.short == "5 0 10 10")
        let problems = bed.takeProblems()
        #expect(problems.count == 2 && problems.allSatisfy { $0.contains("is left out") })
    }

    /// What UIKit raises for is refused with a reason: a position equal to a constant, a size related to
    /// a position, x related to y.
    @Test func meaninglessConstraintsAreRefused() {
        let bed = LayoutBed()
        let box = bed.constrainedView("box")
        let made = [
            LayoutConstraint(item: box, attribute: .left, relatedBy: .equal, toItem: nil, attribute: .notAnAttribute, constant: 4),
            LayoutConstraint(item: box, attribute: .width, relatedBy: .equal, toItem: bed.container, attribute: .left),
            LayoutConstraint(item: box, attribute: .top, relatedBy: .equal, toItem: bed.container, attribute: .left),
        ]
        LayoutConstraint.activate(made)
        #expect(made.allSatisfy { !$0.isActive })
        let problems = bed.takeProblems()
        #expect(problems.count == 3)
        #expect(problems[0].contains("cannot be equal to a constant") && problems[1].contains("cannot be related to a position"))
        #expect(problems[2].contains("an x position cannot be related to a y position"))
    }

    @Test func descriptionsReadAsUIKitsDo() {
        let bed = LayoutBed()
        let box = bed.constrainedView("box")
        let constraint = with(box.leadingAnchor.constraint(equalTo: bed.container.trailingAnchor, constant: -20)) {
            $0.identifier = "gap"
            $0.priority = .defaultHigh
        }
        #expect(constraint.description == "[gap] box.leading == container.trailing - 20 @750")
        #expect(
            box.widthAnchor.constraint(equalTo: bed.container.widthAnchor, multiplier: 0.5).description
                == "box.width == container.width * 0.5")
    }

    /// A required constraint cannot become optional while active (UIKit raises), and the reverse neither.
    @Test func anActiveConstraintKeepsBeingRequiredOrOptional() {
        let bed = LayoutBed()
        let box = bed.constrainedView("box")
        let width = box.widthAnchor.constraint(equalToConstant: 10)
        width.isActive = true
        width.priority = .defaultHigh
        #expect(width.priority == .required)
        #expect(bed.takeProblems().count == 1)
        width.isActive = false
        width.priority = .defaultHigh
        #expect(width.priority == .defaultHigh && bed.takeProblems().isEmpty)
    }

    /// `hasAmbiguousLayout` finds a view free to move, and `exerciseAmbiguityInLayout` moves it.
    @Test func ambiguity() {
        let bed = LayoutBed()
        let fixed = bed.constrainedView("fixed")
        let loose = bed.constrainedView("loose")
        LayoutConstraint.activate([
            fixed.leadingAnchor.constraint(equalTo: bed.container.leadingAnchor),
            fixed.topAnchor.constraint(equalTo: bed.container.topAnchor),
            fixed.widthAnchor.constraint(equalToConstant: 20), fixed.heightAnchor.constraint(equalToConstant: 20),
            loose.topAnchor.constraint(equalTo: bed.container.topAnchor), loose.widthAnchor.constraint(equalToConstant: 20),
            loose.heightAnchor.constraint(equalToConstant: 20),
            loose.leadingAnchor.constraint(greaterThanOrEqualTo: fixed.trailingAnchor, constant: 10),
        ])
        bed.layout()
        #expect(!fixed.hasAmbiguousLayout)
        #expect(loose.hasAmbiguousLayout)
        let before = loose.frame.minX
        loose.exerciseAmbiguityInLayout()
        bed.layout()
        #expect(loose.frame.minX != before && loose.frame.minX >= 30)
        #expect(!View().hasAmbiguousLayout)
    }

    /// `updateConstraints` runs for the views that asked, deepest first, before the pass solves.
    @Test func updateConstraintsRunsDeepestFirst() {
        final class Updating: View {
            var calls: (String) -> Void = { _ in }
            override func updateConstraints() {
                calls(displayName)
                super.updateConstraints()
            }
        }
        let bed = LayoutBed()
        var order: [String] = []
        let outer = Updating()
        outer.identifier = "outer"
        let inner = Updating()
        inner.identifier = "inner"
        for view in [outer, inner] { view.calls = { order.append($0) } }
        bed.container.addSubview(outer)
        outer.addSubview(inner)
        outer.setNeedsUpdateConstraints()
        inner.setNeedsUpdateConstraints()
        #expect(inner.needsUpdateConstraints())
        bed.layout()
        #expect(order == ["inner", "outer"] && !inner.needsUpdateConstraints())
        bed.layout()
        #expect(order.count == 2)
    }

    /// A `layoutSubviews` that changes a constraint at every pass cannot hang the frame: the pass gives up
    /// after its rounds, and says so once.
    @Test func aLayoutThatNeverSettlesIsBoundedAndSaidOnce() {
        final class Restless: View {
            var width: LayoutConstraint?
            override func layoutSubviews() {
                width?.constant += 1
            }
        }
        let bed = LayoutBed()
        let restless = Restless()
        restless.translatesAutoresizingMaskIntoConstraints = false
        bed.container.addSubview(restless)
        let width = restless.widthAnchor.constraint(equalToConstant: 10)
        restless.width = width
        LayoutConstraint.activate([
            width, restless.heightAnchor.constraint(equalToConstant: 10),
            restless.leadingAnchor.constraint(equalTo: bed.container.leadingAnchor),
            restless.topAnchor.constraint(equalTo: bed.container.topAnchor),
        ])
        bed.layout()
        bed.layout()
        let problems = bed.takeProblems()
        #expect(problems.count == 1 && problems[0].contains("did not settle"))
    }
}
