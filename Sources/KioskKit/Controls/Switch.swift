/// An on/off switch (as `UISwitch`): a rounded track and a round thumb that slides from one end to the
/// other, the track taking `onTintColor` when on. A tap toggles it; a finger that moves on it slides the
/// thumb instead, to the side of the switch the finger is over (even outside it), and the switch takes the
/// thumb's side when the finger lifts. A touch that leaves the value changed sends `.valueChanged` once, as
/// it ends; `isOn` and `setOn(_:animated:)` change it without sending anything, as UIKit's do. While a
/// finger is on it the thumb stretches towards the middle.
///
/// Drawn at UIKit's size, 51 x 31 points (`standardSize`, its `intrinsicContentSize`, and the size of a
/// switch made with a zero frame), centred in its bounds. UIKit ignores a frame's size; here a larger frame
/// is a larger touch area, and the touch area is never smaller than 44 x 44 points around its centre.
@MainActor
open class Switch: Control {
    override open var tracedValue: String? { String(isOn) }

    /// The track's size, UIKit's.
    public static let standardSize = Size(width: 51, height: 31)
    /// The thumb's travel (and the track's colour change), about UISwitch's.
    public static let animationDuration: TimeInterval = 0.25
    /// How far a finger moves before it slides the thumb rather than tapping.
    static let slideDistance: Double = 4
    /// The thumb's inset in the track, and how much wider it gets while pressed.
    static let thumbInset: Double = 2, pressedStretch: Double = 7

    /// UIKit's system green, the track's colour when on unless `onTintColor` is set.
    public static let defaultOnTintColor = Color(red: 52.0 / 255, green: 199.0 / 255, blue: 89.0 / 255)
    /// The track's colour when off (UIKit's light track fill).
    public static let offTrackColor = Color(red: 233.0 / 255, green: 233.0 / 255, blue: 234.0 / 255)

    /// Whether it is on. Set, it moves there at once, sending nothing (`setOn(_:animated:)` to animate).
    open var isOn: Bool {
        get { on }
        set { setOn(newValue, animated: false) }
    }
    /// The track's colour when on; nil: `defaultOnTintColor`.
    open var onTintColor: Color? { didSet { if onTintColor != oldValue { updateAppearance(animated: false) } } }
    /// The thumb's colour; nil: white.
    open var thumbTintColor: Color? { didSet { if thumbTintColor != oldValue { updateAppearance(animated: false) } } }

    private var on = false
    /// The track and the thumb (tests read where they are).
    let track = View(), thumb = View()
    /// The touch that started on it, from its start to its end or cancellation.
    private weak var touch: Touch?
    /// Where that touch went down (this view's coordinates) and the value it found.
    private var touchStart = Point.zero
    private var valueAtTouchDown = false
    /// The side the moving finger has put the thumb on (true: on); nil while the touch is a tap.
    private var slidSide: Bool?

    override public init(frame: Rect = .zero) {
        let size = frame.size == .zero ? Self.standardSize : frame.size
        super.init(frame: Rect(x: frame.minX, y: frame.minY, width: size.width, height: size.height))
        for part in [track, thumb] {
            part.isUserInteractionEnabled = false
            addSubview(part)
        }
        track.cornerRadius = Self.standardSize.height / 2
        thumb.borderWidth = 0.5
        updateAppearance(animated: false)
    }

    /// Moves it to `on`, animated over `animationDuration` or at once; sends nothing.
    open func setOn(_ on: Bool, animated: Bool) {
        guard on != self.on else { return }
        self.on = on
        updateAppearance(animated: animated)
    }

    override open var intrinsicContentSize: Size { Self.standardSize }
    override open func sizeThatFits(_ size: Size) -> Size { Self.standardSize }

    /// Its bounds, grown to at least 44 x 44 points around the centre.
    override open func point(inside point: Point, with event: Event?) -> Bool {
        touchTarget(growingWidth: true).contains(point)
    }

    override open var isHighlighted: Bool { didSet { if isHighlighted != oldValue { updateAppearance(animated: true) } } }

    override open var isEnabled: Bool {
        didSet {
            guard isEnabled != oldValue else { return }
            // Disabled under a finger, Control has cancelled its touch: the value stays what it found.
            if !isEnabled { touch = nil }
            slidSide = nil
            updateAppearance(animated: false)
        }
    }

    override open func layoutSubviews() {
        super.layoutSubviews()
        // Where the state has them (an animation on its way there goes on: the values are the same).
        track.frame = trackFrame
        thumb.frame = thumbFrame(on: shownSide, pressed: isHighlighted)
    }

    override open func touchesBegan(_ touches: Set<Touch>, with event: Event) {
        let wasTracking = isTracking
        super.touchesBegan(touches, with: event)
        guard !wasTracking, isTracking, let first = touches.first else { return }
        touch = first
        touchStart = first.location(in: self)
        valueAtTouchDown = on
        slidSide = nil
    }

    override open func touchesMoved(_ touches: Set<Touch>, with event: Event) {
        super.touchesMoved(touches, with: event)
        guard let touch, touches.contains(touch) else { return }
        let location = touch.location(in: self)
        if slidSide == nil, abs(location.x - touchStart.x) < Self.slideDistance, abs(location.y - touchStart.y) < Self.slideDistance {
            return
        }
        let side = location.x >= bounds.midX
        guard side != slidSide else { return }
        slidSide = side
        updateAppearance(animated: true)
    }

    override open func touchesEnded(_ touches: Set<Touch>, with event: Event) {
        guard let touch, touches.contains(touch) else { return super.touchesEnded(touches, with: event) }
        // A tap toggles where it lifts inside (UIKit's touch area: `point(inside:)`); a slide takes its side.
        let inside = point(inside: touch.location(in: self), with: event)
        let value = slidSide ?? (inside ? !valueAtTouchDown : valueAtTouchDown)
        finish(with: value)
        super.touchesEnded(touches, with: event)
        if on != valueAtTouchDown { sendValueChanged() }
    }

    override open func touchesCancelled(_ touches: Set<Touch>, with event: Event) {
        if let touch, touches.contains(touch) { finish(with: valueAtTouchDown) }
        super.touchesCancelled(touches, with: event)
    }

    /// The touch is over: the switch takes `value` (animated), and no side is slid to any more.
    private func finish(with value: Bool) {
        touch = nil
        slidSide = nil
        on = value
        updateAppearance(animated: true)
    }

    /// The side the thumb is on: where a slide put it, else the value.
    private var shownSide: Bool { slidSide ?? on }

    /// The track, `standardSize` centred in the bounds (on whole points).
    private var trackFrame: Rect { centred(Self.standardSize) }

    /// The thumb at the end of the track for `on`, stretched towards the middle while `pressed`.
    func thumbFrame(on: Bool, pressed: Bool) -> Rect {
        let track = trackFrame
        let diameter = track.height - 2 * Self.thumbInset
        let width = pressed ? diameter + Self.pressedStretch : diameter
        let x = on ? track.maxX - Self.thumbInset - width : track.minX + Self.thumbInset
        return Rect(x: x, y: track.minY + Self.thumbInset, width: width, height: diameter)
    }

    /// The track's colour, the thumb's place and the dimming for the current state, animated or at once.
    private func updateAppearance(animated: Bool) {
        let side = shownSide, pressed = isHighlighted
        let onColor = onTintColor ?? Self.defaultOnTintColor
        let changes = {
            self.track.backgroundColor = side ? onColor : Self.offTrackColor
            self.thumb.backgroundColor = self.thumbTintColor ?? .white
            self.thumb.cornerRadius = (Self.standardSize.height - 2 * Self.thumbInset) / 2
            self.thumb.frame = self.thumbFrame(on: side, pressed: pressed)
            // UIKit's disabled switch is the whole of it at half opacity, as one layer: the track at half,
            // the thumb over it whole (at half on its own, the track would show through it), its edge faint.
            self.track.alpha = self.isEnabled ? 1 : 0.5
            self.thumb.borderColor = Color(white: 0, alpha: self.isEnabled ? 0.12 : 0.06)
        }
        if animated {
            View.animate(
                withDuration: Self.animationDuration, options: [.beginFromCurrentState, .allowUserInteraction], animations: changes)
        } else {
            // At once means on the screen too: a slide still under way stops where the state now is.
            for part in [track, thumb] { Application.shared.animator.removeAnimations(inside: part) }
            changes()
        }
    }
}
