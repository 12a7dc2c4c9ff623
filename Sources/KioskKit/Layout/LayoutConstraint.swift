import ConstraintSolver

/// A relation between two attributes of layout items (views or layout guides) that Auto Layout keeps, as
/// `NSLayoutConstraint`: `firstItem.firstAttribute relation secondItem.secondAttribute * multiplier +
/// constant`, at a `priority`. Made inactive; `isActive = true` (or `activate(_:)`) adds it to the
/// layout of the items' window, held by their nearest common ancestor (`View.constraints`).
///
/// As UIKit: changing `constant` of an active constraint re-solves incrementally before the next frame;
/// a constraint whose items have no common ancestor is refused (logged, naming both, and left inactive);
/// a required one that cannot hold with the others is broken (logged once, naming it and the required
/// constraints on its items) and held again when a change lets it; taking a view out of its superview
/// deactivates the constraints between its subtree and the views outside it.
@MainActor
public final class LayoutConstraint: @MainActor CustomStringConvertible {
    /// The part of an item a constraint relates (UIKit's raw values).
    public enum Attribute: Int, Sendable, CustomStringConvertible {
        case notAnAttribute = 0
        case left, right, top, bottom, leading, trailing, width, height, centerX, centerY
        case lastBaseline, firstBaseline
        case leftMargin, rightMargin, topMargin, bottomMargin, leadingMargin, trailingMargin
        case centerXWithinMargins, centerYWithinMargins

        public var description: String {
            switch self {
            case .notAnAttribute: "notAnAttribute"
            case .left: "left"
            case .right: "right"
            case .top: "top"
            case .bottom: "bottom"
            case .leading: "leading"
            case .trailing: "trailing"
            case .width: "width"
            case .height: "height"
            case .centerX: "centerX"
            case .centerY: "centerY"
            case .lastBaseline: "lastBaseline"
            case .firstBaseline: "firstBaseline"
            case .leftMargin: "leftMargin"
            case .rightMargin: "rightMargin"
            case .topMargin: "topMargin"
            case .bottomMargin: "bottomMargin"
            case .leadingMargin: "leadingMargin"
            case .trailingMargin: "trailingMargin"
            case .centerXWithinMargins: "centerXWithinMargins"
            case .centerYWithinMargins: "centerYWithinMargins"
            }
        }

        /// Which way the attribute measures: along x, along y, or a size (width or height).
        enum Kind: Equatable { case xPosition, yPosition, width, height, none }

        var kind: Kind {
            switch self {
            case .left, .right, .leading, .trailing, .centerX, .leftMargin, .rightMargin, .leadingMargin,
                .trailingMargin, .centerXWithinMargins:
                .xPosition
            case .top, .bottom, .centerY, .lastBaseline, .firstBaseline, .topMargin, .bottomMargin,
                .centerYWithinMargins:
                .yPosition
            case .width: .width
            case .height: .height
            case .notAnAttribute: .none
            }
        }

        /// The attribute of the item's `layoutMarginsGuide` a margin attribute stands for; nil for the others.
        var withoutMargin: Attribute? {
            switch self {
            case .leftMargin: .left
            case .rightMargin: .right
            case .topMargin: .top
            case .bottomMargin: .bottom
            case .leadingMargin: .leading
            case .trailingMargin: .trailing
            case .centerXWithinMargins: .centerX
            case .centerYWithinMargins: .centerY
            default: nil
            }
        }
    }

    /// How the first attribute relates to the second (UIKit's raw values).
    public enum Relation: Int, Sendable {
        case lessThanOrEqual = -1
        case equal = 0
        case greaterThanOrEqual = 1

        var symbol: String {
            switch self {
            case .lessThanOrEqual: "<="
            case .equal: "=="
            case .greaterThanOrEqual: ">="
            }
        }
    }

    /// Held weakly, as UIKit's: the views hold their constraints, not the other way round.
    weak var first: (any LayoutItem)?
    weak var second: (any LayoutItem)?
    public var firstItem: AnyObject? { first }
    public var secondItem: AnyObject? { second }
    public let firstAttribute: Attribute
    public let relation: Relation
    public let secondAttribute: Attribute
    public let multiplier: Double

    /// The amount added to the second attribute; changing it on an active constraint re-solves the
    /// layout incrementally before the next frame.
    public var constant: Double {
        didSet {
            guard constant != oldValue else { return }
            engine?.constantDidChange(of: self)
        }
    }

    /// 1 to 1000. As UIKit, an active constraint cannot change between required and optional (that is
    /// logged and the old priority kept); between optional levels it can.
    public var priority: LayoutPriority = .required {
        didSet {
            guard priority != oldValue else { return }
            let clamped = LayoutPriority(min(max(priority.rawValue, 1), 1000))
            if clamped != priority {
                priority = clamped
                return
            }
            if isActive, (priority == .required) != (oldValue == .required) {
                LayoutEngine.report(
                    "cannot change the priority of active constraint \(self) from \(oldValue) to \(priority): "
                        + "between required and optional it is changed only while the constraint is inactive")
                priority = oldValue
                return
            }
            engine?.priorityDidChange(of: self)
        }
    }

    /// A name for logs (as UIKit's `identifier`), printed before the relation.
    public var identifier: String?

    // MARK: Where the constraint is

    /// The view whose `constraints` hold this one while it is active: the items' nearest common ancestor.
    weak var holder: View?
    /// The engine the constraint is in (that of the holder's tree), and its constraint there.
    weak var engine: LayoutEngine?
    var solverConstraint: SolverConstraintState = .none
    /// Its items as the engine relates them (a margin as the margins guide's edge, a baseline on the view
    /// that gives it), each holding its variables while the constraint is in the engine.
    var sides: [LayoutSide] = []
    /// The solver expression's constant apart from `constant` (the baselines' offsets).
    var expressionOffset = 0.0
    /// Whether breaking it was logged: once, as UIKit.
    var breakWasReported = false

    /// Whether the constraint takes part in layout. Activating it puts it on the items' nearest common
    /// ancestor (refused, and logged, when they have none); deactivating it takes it off.
    public var isActive: Bool {
        get { holder != nil }
        set {
            if newValue { activate() } else { deactivate() }
        }
    }

    // MARK: Making constraints

    /// `item.attribute relation toItem.attribute * multiplier + constant` (as
    /// `NSLayoutConstraint(item:attribute:relatedBy:toItem:attribute:multiplier:constant:)`). The items are
    /// views or layout guides; `toItem` is nil, with `.notAnAttribute`, for a size equal to a constant.
    public init(
        item: AnyObject, attribute: Attribute, relatedBy relation: Relation, toItem: AnyObject?,
        attribute secondAttribute: Attribute, multiplier: Double = 1, constant: Double = 0
    ) {
        first = item as? any LayoutItem
        second = toItem as? any LayoutItem
        firstAttribute = attribute
        self.relation = relation
        self.secondAttribute = toItem == nil ? .notAnAttribute : secondAttribute
        self.multiplier = multiplier
        self.constant = constant
        unusableItems = (item is any LayoutItem ? [] : [item]) + (toItem.map { $0 is any LayoutItem ? [] : [$0] } ?? [])
    }

    /// Items given that are neither views nor layout guides (the initializer takes any object, as UIKit's).
    private let unusableItems: [AnyObject]

    /// Activates each (as `NSLayoutConstraint.activate(_:)`).
    public static func activate(_ constraints: [LayoutConstraint]) {
        for constraint in constraints { constraint.isActive = true }
    }

    /// Deactivates each (as `NSLayoutConstraint.deactivate(_:)`).
    public static func deactivate(_ constraints: [LayoutConstraint]) {
        for constraint in constraints { constraint.isActive = false }
    }

    // MARK: Activation

    /// Why the constraint cannot take part in layout as made, or nil (UIKit raises for these).
    var problem: String? {
        if let item = unusableItems.first { return "\(type(of: item)) is neither a view nor a layout guide" }
        guard first != nil else { return "its first item is gone" }
        let firstKind = firstAttribute.kind
        if firstKind == .none { return "its first attribute is notAnAttribute" }
        if second == nil {
            if secondAttribute != .notAnAttribute { return "a second attribute without a second item" }
            if firstKind == .xPosition || firstKind == .yPosition {
                return "a position (\(firstAttribute)) cannot be equal to a constant"
            }
            return nil
        }
        let secondKind = secondAttribute.kind
        let sizes: [Attribute.Kind] = [.width, .height]
        if sizes.contains(firstKind) != sizes.contains(secondKind) {
            return "a size (\(sizes.contains(firstKind) ? firstAttribute : secondAttribute)) cannot be related to a position"
        }
        if !sizes.contains(firstKind), firstKind != secondKind {
            return "an x position cannot be related to a y position"
        }
        if !sizes.contains(firstKind), multiplier == 0 {
            return "a multiplier of 0 makes a position (\(firstAttribute)) equal to a constant"
        }
        return nil
    }

    private func activate() {
        guard holder == nil else { return }
        if let problem {
            LayoutEngine.report("cannot activate constraint \(self): \(problem)")
            return
        }
        guard let first, let firstView = first.layoutOwnerView else {
            LayoutEngine.report("cannot activate constraint \(self): its layout guide is not in a view")
            return
        }
        var ancestor = firstView
        if let second {
            guard let secondView = second.layoutOwnerView else {
                LayoutEngine.report("cannot activate constraint \(self): its layout guide is not in a view")
                return
            }
            guard let common = firstView.nearestCommonAncestor(with: secondView) else {
                LayoutEngine.report(
                    "cannot activate constraint \(self): \(firstView.layoutName) and \(secondView.layoutName) "
                        + "have no common ancestor")
                return
            }
            ancestor = common
        }
        LayoutEngine.inUse = true
        holder = ancestor
        ancestor.layoutState.heldConstraints.append(self)
        first.layoutReferences.append(self)
        if let second, second !== first { second.layoutReferences.append(self) }
        ancestor.rootView.layoutEngineMakingIt().install(self)
    }

    private func deactivate() {
        guard let holder else { return }
        engine?.uninstall(self)
        holder.layoutState.heldConstraints.removeAll { $0 === self }
        self.holder = nil
        first?.layoutReferences.removeAll { $0 === self }
        second?.layoutReferences.removeAll { $0 === self }
    }

    // MARK: The solver's form

    /// Whether a side is a baseline, which moves when the view's text does.
    var usesBaseline: Bool { sides.contains { $0.attribute == .firstBaseline || $0.attribute == .lastBaseline } }

    /// `first - multiplier * second - constant` (relation 0), from the sides; nil when it has none.
    func solverExpression() -> Expression? {
        guard let firstSide = sides.first else { return nil }
        var made = firstSide.expression()
        if sides.count > 1 { made = made - multiplier * sides[1].expression() }
        expressionOffset = made.constant
        made.constant -= constant
        return made
    }

    // MARK: Describing

    public var description: String {
        func name(_ item: (any LayoutItem)?) -> String { item?.layoutName ?? "(gone)" }
        var text = identifier.map { "[\($0)] " } ?? ""
        text += "\(name(first)).\(firstAttribute) \(relation.symbol) "
        if let second {
            text += "\(name(second)).\(secondAttribute)"
            if multiplier != 1 { text += " * \(Self.format(multiplier))" }
            if constant != 0 { text += " \(constant < 0 ? "-" : "+") \(Self.format(abs(constant)))" }
        } else {
            text += Self.format(constant)
        }
        if priority != .required { text += " @\(priority)" }
        return text
    }

    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

/// Where an active constraint is in its engine's solver.
enum SolverConstraintState {
    /// Not in a solver: inactive, or waiting for the next layout pass to be added.
    case none
    /// Added: it holds (a required one) or counts in the objective (an optional one).
    case added(Constraint)
    /// Required, and refused as unsatisfiable: tried again when another constraint goes.
    case broken
}
