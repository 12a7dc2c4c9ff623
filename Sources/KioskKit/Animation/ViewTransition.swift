import Geometry
import Graphics

// MARK: - The API (UIKit's, without the UI prefix)

extension View.AnimationOptions {
    /// `transition(from:to:...)` hides the from-view and shows the to-view instead of removing one and
    /// adding the other; both must already be in the container (as UIKit's).
    public static let showHideTransitionViews = View.AnimationOptions(rawValue: 1 << 8)

    /// The view turns about its vertical axis, its left side coming forward, and shows its new state on
    /// the other side. In this software compositor, which composes in 2D without perspective, a flip is a
    /// horizontal scale through zero about the view's centre: the old rendering narrows to no width, then
    /// the new one widens from none, each in half the duration. Seen without perspective the two
    /// directions are the same picture; both are kept so that UIKit code runs unchanged.
    public static let transitionFlipFromLeft = View.AnimationOptions(rawValue: 1 << 20)
    /// As `transitionFlipFromLeft`, the right side coming forward (the same picture without perspective).
    public static let transitionFlipFromRight = View.AnimationOptions(rawValue: 2 << 20)
    /// The old rendering dissolves into the new one: each pixel passes from its old to its new value,
    /// transparent ones too (what was not drawn before fades in, what is not drawn after fades out).
    public static let transitionCrossDissolve = View.AnimationOptions(rawValue: 5 << 20)
    /// As `transitionFlipFromLeft` about the horizontal axis: a vertical scale through zero, top coming forward.
    public static let transitionFlipFromTop = View.AnimationOptions(rawValue: 6 << 20)
    /// As `transitionFlipFromTop`, the bottom coming forward (the same picture without perspective).
    public static let transitionFlipFromBottom = View.AnimationOptions(rawValue: 7 << 20)

    /// A kiosk addition (UIKit has page curls here instead, which this compositor does not draw): the new
    /// rendering slides in from the view's left edge and pushes the old one out by the right, both within
    /// the view's bounds (Core Animation's push transition).
    public static let transitionSlideFromLeft = View.AnimationOptions(rawValue: 8 << 20)
    /// A kiosk addition: the new rendering slides in from the right edge, pushing the old out by the left.
    public static let transitionSlideFromRight = View.AnimationOptions(rawValue: 9 << 20)
    /// A kiosk addition: the new rendering slides in from the top edge, pushing the old out by the bottom.
    public static let transitionSlideFromTop = View.AnimationOptions(rawValue: 10 << 20)
    /// A kiosk addition: the new rendering slides in from the bottom edge, pushing the old out by the top.
    public static let transitionSlideFromBottom = View.AnimationOptions(rawValue: 11 << 20)

    /// The transition the options name (bits 20 to 23, UIKit's field); nil for none, and for UIKit's curls
    /// (3 and 4), which are not drawn.
    var transitionStyle: TransitionStyle? {
        switch (rawValue >> 20) & 0xF {
        case 1, 2: .flip(vertical: false)
        case 5: .crossDissolve
        case 6, 7: .flip(vertical: true)
        case 8: .slide(dx: 1, dy: 0)
        case 9: .slide(dx: -1, dy: 0)
        case 10: .slide(dx: 0, dy: 1)
        case 11: .slide(dx: 0, dy: -1)
        default: nil
        }
    }
}

extension View {
    /// Changes `view`'s subtree with a transition (as `UIView.transition(with:duration:options:animations:completion:)`):
    /// what `view` shows now is kept as its old rendering, `animations` makes its changes at once (they are
    /// not animated themselves, even inside an animation block), and over `duration` seconds the screen
    /// passes from the old rendering to the new one in the way `options` names (`transitionCrossDissolve`,
    /// the flips, the slides), along the options' curve, one frame per display refresh, starting with the
    /// first frame that shows it. Hiding `view` itself in the block fades or flips it away.
    ///
    /// As UIKit without `allowAnimatedContent`, both sides are renderings: the new one is taken when the
    /// first frame of the transition is composed, and changes made to the subtree after that show when the
    /// transition ends. Both are `view`'s bounds: subviews drawn outside them do not show meanwhile. Touches
    /// pass `view` by while it transitions, unless `allowUserInteraction` is given.
    ///
    /// `completion` runs once the transition ends: with true when it ran its course, false when it was
    /// interrupted (another transition of `view` replaced it, or `view` left its window). A `duration` of 0
    /// or less, or animations turned off, makes the changes without a transition and completes with true
    /// on the next turn of the run loop. Options without a transition run the block as
    /// `animate(withDuration:delay:options:animations:completion:)` does.
    public static func transition(
        with view: View, duration: TimeInterval, options: AnimationOptions = [], animations: (() -> Void)?,
        completion: (@MainActor (Bool) -> Void)? = nil
    ) {
        Application.shared.animator.runTransition(
            of: view, duration: duration, options: options, animations: animations ?? {}, completion: completion)
    }

    /// Replaces `fromView` by `toView` with a transition of their container, `fromView`'s superview (as
    /// `UIView.transition(from:to:duration:options:completion:)`): `toView` takes `fromView`'s place among
    /// the container's subviews and `fromView` is removed from it, or with `showHideTransitionViews`,
    /// where both must be in the container already, `fromView` is hidden and `toView` shown. The rest is
    /// `transition(with:duration:options:animations:completion:)` of the container. A `fromView` without a
    /// superview has no container: `toView` is not added anywhere (it is only shown, with
    /// `showHideTransitionViews`), and `completion` runs with true on the next turn of the run loop.
    public static func transition(
        from fromView: View, to toView: View, duration: TimeInterval, options: AnimationOptions = [],
        completion: (@MainActor (Bool) -> Void)? = nil
    ) {
        let showsAndHides = options.contains(.showHideTransitionViews)
        let swap = {
            if showsAndHides {
                fromView.isHidden = true
                toView.isHidden = false
            } else if let container = fromView.superview, toView !== fromView {
                container.insertSubview(toView, belowSubview: fromView)
                fromView.removeFromSuperview()
            }
        }
        guard let container = fromView.superview else {
            performWithoutAnimation(swap)
            if let completion { Application.shared.animator.runLater { completion(true) } }
            return
        }
        transition(with: container, duration: duration, options: options, animations: swap, completion: completion)
    }
}

// MARK: - The engine

/// How a transition composes its two renderings.
enum TransitionStyle: Equatable {
    /// Pixel by pixel, old·(1 − p) + new·p.
    case crossDissolve
    /// The old rendering scaled through zero about the centre in the first half, the new one in the second:
    /// horizontally, or vertically.
    case flip(vertical: Bool)
    /// Both renderings moving by the view's size along (dx, dy), each −1, 0 or 1: the old one out, the new
    /// one in from the other side.
    case slide(dx: Double, dy: Double)
}

/// One transition of a view: its style, its renderings (the old one taken when it began, the new one at
/// its first frame), the cross-fade made of them, and the stand-ins whose places on screen the
/// compositor compares from frame to frame as it does views' (ObjectIdentifier keys of its placements).
@MainActor
final class ViewTransition {
    let style: TransitionStyle
    let old: Bitmap?
    /// Taken by the compositor when it first shows the transition (`hasNew`), after the frame's layout.
    var new: Bitmap?
    var hasNew = false
    /// Stand-ins for the old and new renderings in the compositor's placements: never in a window.
    let oldSide = View()
    let newSide = View()
    /// The cross-fade's pixels, and the 8-bit weight of the new side they were made with.
    private var blend: Bitmap?
    private var blendWeight = -1

    init(style: TransitionStyle, old: Bitmap?) {
        self.style = style
        self.old = old
    }

    /// The cross-fade at `progress` (nil: neither side has pixels), and whether its pixels changed since
    /// the last call: the bitmap is kept and redrawn, so the compositor damages it itself.
    ///
    /// The weights are complementary 8-bit masks (`w/255` and `(255 − w)/255`), as pixman applies them, so
    /// a pixel that is the same on both sides stays exactly that, and the ends are the renderings themselves.
    func crossDissolve(at progress: Double) -> (bitmap: Bitmap, changed: Bool)? {
        let weight = Int((min(max(progress, 0), 1) * 255).rounded())
        if weight == blendWeight, let blend { return (blend, false) }
        let width = max(old?.width ?? 0, new?.width ?? 0), height = max(old?.height ?? 0, new?.height ?? 0)
        guard width > 0, height > 0 else { return nil }
        let bitmap: Bitmap
        if let blend, blend.width == width, blend.height == height {
            bitmap = blend
            bitmap.fill(.clear, operation: .source, in: Region(bitmap.bounds))
        } else {
            bitmap = Bitmap(width: width, height: height, format: .argb32Premultiplied)
        }
        // ADD of both through complementary masks: the cross-fade, where either side is transparent too.
        if let old { bitmap.composite(old, operation: .add, destination: old.bounds, opacity: Double(255 - weight) / 255) }
        if let new { bitmap.composite(new, operation: .add, destination: new.bounds, opacity: Double(weight) / 255) }
        blend = bitmap
        blendWeight = weight
        return (bitmap, true)
    }
}

extension Animator {
    /// `View.transition(with:...)`: the old rendering, the block's changes at once, then the transition's
    /// progress from 0 to 1 as an animation of `view` (`AnimatableProperty.transition`), which the
    /// compositor shows in place of `view`'s subtree while it runs.
    func runTransition(
        of view: View, duration: TimeInterval, options: View.AnimationOptions, animations: () -> Void,
        completion: (@MainActor (Bool) -> Void)?
    ) {
        guard let style = options.transitionStyle else {
            // No transition named: UIKit runs the block in an animation block of those options.
            return run(
                AnimationParameters(duration: duration, delay: 0, options: options, timing: .curve(options.timingFunction)),
                animations: animations, completion: completion)
        }
        guard View.areAnimationsEnabled, duration > 0 else {
            View.performWithoutAnimation(animations)
            if let completion { runLater { completion(true) } }
            return
        }
        // What the screen shows of it now, before the block changes it (mid-way through a transition it
        // replaces, that one's picture).
        let old = view.screenShowingIt == nil ? nil : application.changeObserver?.snapshot(of: view)
        View.performWithoutAnimation(animations)
        // A transition starts from its old rendering, whatever the screen showed of one it replaces.
        var options = options
        options.remove(.beginFromCurrentState)
        let group = AnimationGroup(
            parameters: AnimationParameters(duration: duration, delay: 0, options: options, timing: .curve(options.timingFunction)),
            begin: clock.now, completion: completion)
        group.transition = ViewTransition(style: style, old: old)
        add(view, .transition, from: .scalar(0), to: .scalar(1), group: group)
        began(group)
    }
}
