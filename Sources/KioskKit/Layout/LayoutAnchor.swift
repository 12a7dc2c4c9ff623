/// One attribute of a layout item, to make constraints with (as `NSLayoutAnchor`): `a.leadingAnchor
/// .constraint(equalTo: b.leadingAnchor, constant: 20)`. The subclasses keep the axes apart at compile
/// time: an x anchor relates only to x anchors, a y anchor to y anchors, a dimension to dimensions.
/// The constraints come back inactive; activate them (`LayoutConstraint.activate(_:)`).
@MainActor
public class LayoutAnchor<AnchorType: AnyObject> {
    weak var item: AnyObject?
    let attribute: LayoutConstraint.Attribute

    init(item: AnyObject, attribute: LayoutConstraint.Attribute) {
        self.item = item
        self.attribute = attribute
    }

    /// `self == anchor + constant`.
    public func constraint(equalTo anchor: LayoutAnchor<AnchorType>, constant: Double = 0) -> LayoutConstraint {
        make(.equal, anchor, multiplier: 1, constant: constant)
    }

    /// `self >= anchor + constant`.
    public func constraint(greaterThanOrEqualTo anchor: LayoutAnchor<AnchorType>, constant: Double = 0) -> LayoutConstraint {
        make(.greaterThanOrEqual, anchor, multiplier: 1, constant: constant)
    }

    /// `self <= anchor + constant`.
    public func constraint(lessThanOrEqualTo anchor: LayoutAnchor<AnchorType>, constant: Double = 0) -> LayoutConstraint {
        make(.lessThanOrEqual, anchor, multiplier: 1, constant: constant)
    }

    func make(
        _ relation: LayoutConstraint.Relation, _ anchor: LayoutAnchor<AnchorType>?, multiplier: Double, constant: Double
    ) -> LayoutConstraint {
        // An anchor whose item is gone makes a constraint that refuses to activate, saying why.
        let first: AnyObject = item ?? GoneItem()
        let second: AnyObject? = anchor.map { $0.item ?? GoneItem() }
        return LayoutConstraint(
            item: first, attribute: attribute, relatedBy: relation, toItem: second,
            attribute: anchor?.attribute ?? .notAnAttribute, multiplier: multiplier, constant: constant)
    }
}

/// What an anchor of a released item makes constraints with: neither a view nor a guide, so they refuse.
private final class GoneItem {}

/// A horizontal position: leading, trailing, left, right, centre x.
@MainActor
public final class LayoutXAxisAnchor: LayoutAnchor<LayoutXAxisAnchor> {}

/// A vertical position: top, bottom, centre y, the first and last baselines.
@MainActor
public final class LayoutYAxisAnchor: LayoutAnchor<LayoutYAxisAnchor> {}

/// A width or a height, which may also equal a constant or a multiple of another dimension.
@MainActor
public final class LayoutDimension: LayoutAnchor<LayoutDimension> {
    /// `self == constant`.
    public func constraint(equalToConstant constant: Double) -> LayoutConstraint {
        make(.equal, nil, multiplier: 1, constant: constant)
    }

    /// `self >= constant`.
    public func constraint(greaterThanOrEqualToConstant constant: Double) -> LayoutConstraint {
        make(.greaterThanOrEqual, nil, multiplier: 1, constant: constant)
    }

    /// `self <= constant`.
    public func constraint(lessThanOrEqualToConstant constant: Double) -> LayoutConstraint {
        make(.lessThanOrEqual, nil, multiplier: 1, constant: constant)
    }

    /// `self == anchor * multiplier + constant`.
    public func constraint(equalTo anchor: LayoutDimension, multiplier: Double, constant: Double = 0) -> LayoutConstraint {
        make(.equal, anchor, multiplier: multiplier, constant: constant)
    }

    /// `self >= anchor * multiplier + constant`.
    public func constraint(
        greaterThanOrEqualTo anchor: LayoutDimension, multiplier: Double, constant: Double = 0
    ) -> LayoutConstraint {
        make(.greaterThanOrEqual, anchor, multiplier: multiplier, constant: constant)
    }

    /// `self <= anchor * multiplier + constant`.
    public func constraint(
        lessThanOrEqualTo anchor: LayoutDimension, multiplier: Double, constant: Double = 0
    ) -> LayoutConstraint {
        make(.lessThanOrEqual, anchor, multiplier: multiplier, constant: constant)
    }
}

/// The anchors every layout item has (as UIKit's views and layout guides): `View` and `LayoutGuide`.
@MainActor
public protocol LayoutAnchoring: AnyObject {}

extension LayoutAnchoring {
    public var leadingAnchor: LayoutXAxisAnchor { LayoutXAxisAnchor(item: self, attribute: .leading) }
    public var trailingAnchor: LayoutXAxisAnchor { LayoutXAxisAnchor(item: self, attribute: .trailing) }
    public var leftAnchor: LayoutXAxisAnchor { LayoutXAxisAnchor(item: self, attribute: .left) }
    public var rightAnchor: LayoutXAxisAnchor { LayoutXAxisAnchor(item: self, attribute: .right) }
    public var centerXAnchor: LayoutXAxisAnchor { LayoutXAxisAnchor(item: self, attribute: .centerX) }
    public var topAnchor: LayoutYAxisAnchor { LayoutYAxisAnchor(item: self, attribute: .top) }
    public var bottomAnchor: LayoutYAxisAnchor { LayoutYAxisAnchor(item: self, attribute: .bottom) }
    public var centerYAnchor: LayoutYAxisAnchor { LayoutYAxisAnchor(item: self, attribute: .centerY) }
    public var widthAnchor: LayoutDimension { LayoutDimension(item: self, attribute: .width) }
    public var heightAnchor: LayoutDimension { LayoutDimension(item: self, attribute: .height) }
}
