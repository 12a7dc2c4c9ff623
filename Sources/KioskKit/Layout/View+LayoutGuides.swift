/// A view's layout guides (as `UIView`'s): its margins, its safe area, the on-screen keyboard's place, and
/// the guides an app adds. The system guides sit at insets the view computes (View+SafeArea.swift); the
/// engine makes their constraints from those insets and checks them at each pass
/// (`LayoutEngine.checkSystemGuides`), so a guide follows a status bar shown, a margin changed or the
/// keyboard sliding in: a change of them only asks for a pass.
extension View {
    // MARK: Margins

    /// The space a view keeps inside its edges for its content (as `UIView.layoutMargins`): 8 points on
    /// each side by default. Constraints to the margin attributes (`leadingMargin`) and to
    /// `layoutMarginsGuide` keep to it.
    public var layoutMargins: EdgeInsets {
        get { layoutStateIfMade?.layoutMargins ?? ViewLayoutState.defaultLayoutMargins }
        set {
            guard newValue != layoutMargins else { return }
            layoutState.layoutMargins = newValue
            layoutMarginsDidChange()
            setNeedsLayout()
        }
    }

    /// `layoutMargins` by reading direction (as `UIView.directionalLayoutMargins`). Leading is left and
    /// trailing right: the toolkit lays out left to right until right-to-left languages come.
    public var directionalLayoutMargins: DirectionalEdgeInsets {
        get {
            let margins = layoutMargins
            return DirectionalEdgeInsets(top: margins.top, leading: margins.left, bottom: margins.bottom, trailing: margins.right)
        }
        set { layoutMargins = EdgeInsets(top: newValue.top, left: newValue.leading, bottom: newValue.bottom, right: newValue.trailing) }
    }

    /// Whether the margins are measured from the safe area rather than from the edges (as UIKit's, true by
    /// default): a view under a status bar keeps its margins below it.
    public var insetsLayoutMarginsFromSafeArea: Bool {
        get { layoutStateIfMade?.insetsLayoutMarginsFromSafeArea ?? true }
        set {
            guard newValue != insetsLayoutMarginsFromSafeArea else { return }
            layoutState.insetsLayoutMarginsFromSafeArea = newValue
            setNeedsLayout()
        }
    }

    /// The guide at the view's margins.
    public var layoutMarginsGuide: LayoutGuide {
        systemGuide(.layoutMargins, \.layoutMarginsGuide)
    }

    /// The insets `layoutMarginsGuide` sits at: the margins, inside the safe area where it asks so.
    var layoutMarginsForGuide: EdgeInsets {
        let margins = layoutMargins
        guard insetsLayoutMarginsFromSafeArea else { return margins }
        let safe = safeAreaInsets
        return EdgeInsets(
            top: margins.top + safe.top, left: margins.left + safe.left, bottom: margins.bottom + safe.bottom,
            right: margins.right + safe.right)
    }

    // MARK: Safe area and keyboard

    /// The guide inside the view's safe area (`safeAreaInsets`).
    public var safeAreaLayoutGuide: LayoutGuide {
        systemGuide(.safeArea, \.safeAreaLayoutGuide)
    }

    /// The guide where the on-screen keyboard covers the view (as `UIView.keyboardLayoutGuide`): as wide as
    /// the view, its bottom at the view's bottom, as tall as the keyboard's part over the view, and never
    /// less than the safe area's bottom inset, so its top is the safe area's bottom while the keyboard is
    /// away. It slides with the keyboard: constrain a field's bottom to its top to keep the field in sight.
    public var keyboardLayoutGuide: LayoutGuide {
        systemGuide(.keyboard, \.keyboardLayoutGuide)
    }

    /// The keyboard guide's insets: all of the view above the keyboard (or the safe area's bottom) is out.
    var keyboardGuideInsets: EdgeInsets {
        let height = min(max(keyboardOverlap, safeAreaInsets.bottom), bounds.height)
        return EdgeInsets(top: bounds.height - height, left: 0, bottom: 0, right: 0)
    }

    // MARK: An app's guides

    /// The guides added with `addLayoutGuide(_:)`.
    public var layoutGuides: [LayoutGuide] { layoutStateIfMade?.guides ?? [] }

    /// Adds `guide` to the view, so its anchors can be constrained with the view's and its subviews' (as
    /// `UIView.addLayoutGuide(_:)`); a guide belongs to one view at a time.
    public func addLayoutGuide(_ guide: LayoutGuide) {
        guard guide.role == .app else { return }
        if let owner = guide.owningView {
            guard owner !== self else { return }
            owner.removeLayoutGuide(guide)
        }
        layoutState.guides.append(guide)
        guide.setOwningView(self)
    }

    /// Removes `guide`: the constraints naming it deactivate.
    public func removeLayoutGuide(_ guide: LayoutGuide) {
        guard guide.owningView === self, let state = layoutStateIfMade else { return }
        for constraint in guide.layoutReferences { constraint.isActive = false }
        state.guides.removeAll { $0 === guide }
        guide.setOwningView(nil)
    }

    /// The view's guide in `slot`, made on first use.
    private func systemGuide(_ role: LayoutGuide.Role, _ slot: ReferenceWritableKeyPath<ViewLayoutState, LayoutGuide?>) -> LayoutGuide {
        let state = layoutState
        if let guide = state[keyPath: slot] { return guide }
        let guide = LayoutGuide(role: role, owningView: self)
        state[keyPath: slot] = guide
        return guide
    }
}

/// Distances inward from the edges of a rectangle by reading direction (as `NSDirectionalEdgeInsets`).
public struct DirectionalEdgeInsets: Hashable, Sendable {
    public var top: Double
    public var leading: Double
    public var bottom: Double
    public var trailing: Double

    public init(top: Double = 0, leading: Double = 0, bottom: Double = 0, trailing: Double = 0) {
        self.top = top
        self.leading = leading
        self.bottom = bottom
        self.trailing = trailing
    }

    public static let zero = DirectionalEdgeInsets()
}
