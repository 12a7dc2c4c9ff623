/// What the controls drawn at a fixed size share: the smallest touch target, and their standard size
/// placed in bounds that may be larger.
extension Control {
    /// UIKit's smallest touch target, in points on a side.
    public static let minimumTouchTarget = 44.0

    /// The bounds grown about their centre to at least `minimumTouchTarget` tall, and wide too when
    /// `growingWidth`: the touch area (`point(inside:)`) of a control drawn smaller than a finger.
    func touchTarget(growingWidth: Bool = false) -> Rect {
        let width = growingWidth ? max(bounds.width, Self.minimumTouchTarget) : bounds.width
        let height = max(bounds.height, Self.minimumTouchTarget)
        return Rect(x: bounds.midX - width / 2, y: bounds.midY - height / 2, width: width, height: height)
    }

    /// `size` centred in the bounds, on whole points: where a control of a standard size draws itself.
    func centred(_ size: Size) -> Rect {
        Rect(
            x: (bounds.midX - size.width / 2).rounded(), y: (bounds.midY - size.height / 2).rounded(), width: size.width,
            height: size.height)
    }
}

extension Color {
    /// UIKit's light control plate (`tertiarySystemFill`): a stepper's, a segmented control's.
    static let tertiarySystemFill = Color(red: 118.0 / 255, green: 118.0 / 255, blue: 128.0 / 255, alpha: 0.12)
    /// UIKit's `systemGray5`: the empty part of a progress view's and a slider's track.
    static let systemGray5 = Color(red: 229.0 / 255, green: 229.0 / 255, blue: 234.0 / 255)
}
