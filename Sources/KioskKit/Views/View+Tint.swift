/// The tint, as UIKit's: one colour that a view tree's controls highlight with (a button's title, a
/// progress view's fill), set once at the top (a window, a screen's root view) and inherited by every view
/// below that sets none.
extension View {
    /// UIKit's system blue: the tint of a view tree that sets none.
    public static let defaultTintColor = Color(red: 0, green: 122.0 / 255, blue: 1)

    /// This view's tint (as `UIView.tintColor`): the one it was given, else its superview's, up to its
    /// window; `defaultTintColor` where none of them sets one. Set to nil, the view inherits again. A
    /// change reaches the view and every view below it that inherits it, through `tintColorDidChange()`.
    public var tintColor: Color! {
        get {
            var view: View? = self
            while let current = view {
                if let tint = current.ownTintColor { return tint }
                view = current.superview
            }
            return View.defaultTintColor
        }
        set {
            guard newValue != ownTintColor else { return }
            let old: Color = tintColor
            ownTintColor = newValue
            tintMayHaveChanged(from: old)
        }
    }

    /// The view's tint was `old` before a change to it or to where it is: when it differs now, this view
    /// and those below it that inherit it are told, parents first.
    func tintMayHaveChanged(from old: Color) {
        let tint = tintColor!
        guard tint != old else { return }
        tellTintDidChange()
    }

    private func tellTintDidChange() {
        tintColorDidChange()
        for subview in subviews where subview.ownTintColor == nil { subview.tellTintDidChange() }
    }
}
