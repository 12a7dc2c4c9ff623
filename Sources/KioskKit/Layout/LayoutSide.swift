import ConstraintSolver

/// One side of a constraint as the engine relates it: an item's variables and a plain attribute. A margin
/// attribute of a view is the same edge of its `layoutMarginsGuide`; a baseline is that of the view its
/// `forFirstBaselineLayout` or `forLastBaselineLayout` names.
@MainActor
struct LayoutSide {
    let variables: LayoutItemVariables
    let attribute: LayoutConstraint.Attribute

    /// Resolves `item.attribute` and takes a use of the resolved item's variables in `engine`.
    init(resolving item: any LayoutItem, _ attribute: LayoutConstraint.Attribute, in engine: LayoutEngine) {
        var item = item
        var attribute = attribute
        if let plain = attribute.withoutMargin {
            if let view = item as? View { item = view.layoutMarginsGuide }
            attribute = plain
        }
        if let view = item as? View {
            if attribute == .firstBaseline { item = view.forFirstBaselineLayout }
            if attribute == .lastBaseline { item = view.forLastBaselineLayout }
        }
        variables = engine.retain(item)
        self.attribute = attribute
    }

    /// The attribute as a linear expression of the item's variables.
    func expression() -> Expression {
        let v = variables
        switch attribute {
        case .left, .leading: return Expression(v.minX)
        case .right, .trailing: return v.minX + v.width
        case .centerX: return v.minX + 0.5 * v.width
        case .width: return Expression(v.width)
        case .top: return Expression(v.minY)
        case .bottom: return v.minY + v.height
        case .centerY: return v.minY + 0.5 * v.height
        case .height: return Expression(v.height)
        case .firstBaseline, .lastBaseline:
            // A baseline is a fixed fraction of the height plus an offset from the top (a label centres its
            // text): linear in the view's variables.
            let position = (v.item as? View)?.baselinePosition(last: attribute == .lastBaseline) ?? BaselinePosition.bottom
            return v.minY + position.heightFraction * v.height + position.offset
        default:
            return Expression(v.minX)
        }
    }
}

/// Where a view's baseline is: `minY + heightFraction * height + offset`.
struct BaselinePosition: Hashable, Sendable {
    var heightFraction: Double
    var offset: Double

    init(heightFraction: Double, offset: Double) {
        self.heightFraction = heightFraction
        self.offset = offset
    }

    /// A view without text: its baseline is its bottom edge, as UIKit's.
    static let bottom = BaselinePosition(heightFraction: 1, offset: 0)
}
