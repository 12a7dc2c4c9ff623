/// A control for a value in a range (as `UISlider`): a thumb on a track, the part before the thumb in
/// `minimumTrackTintColor` (by default the tint), the rest in `maximumTrackTintColor`. A finger that goes
/// down on the thumb drags it, keeping where on the thumb it took hold (the thumb does not jump under the
/// finger), and the value follows; `.valueChanged` is sent as it changes (`isContinuous`, the default) or
/// once when the finger lifts. Setting `value` or `setValue(_:animated:)` sends nothing, as UIKit's.
///
/// A touch on the track away from the thumb does nothing, as in UIKit; `movesToTouchOnTrack` (a kiosk
/// option, off by default) makes it move the thumb there and drag it from there. Its intrinsic height is
/// 31 points (the thumb is 28), its width the layout's; the touch area is at least 44 points tall.
@MainActor
open class Slider: Control {
    override open var tracedValue: String? { String(value) }

    /// The thumb's diameter, the track's thickness, and how far past the thumb a touch still takes it.
    public static let thumbDiameter = 28.0, trackHeight = 4.0, thumbTouchMargin = 10.0
    /// How long `setValue(_:animated: true)` takes.
    public static let animationDuration: TimeInterval = 0.25
    /// The track beyond the thumb unless `maximumTrackTintColor` is set (UIKit's light track fill).
    public static let defaultMaximumTrackTintColor = Color.systemGray5

    /// The value, within `minimumValue...maximumValue` (pinned there; NaN is `minimumValue`).
    open var value: Float {
        get { current }
        set { setValue(newValue, animated: false) }
    }
    /// The lower end. Above the value, it moves the value up; above `maximumValue`, that too.
    open var minimumValue: Float = 0 {
        didSet {
            if maximumValue < minimumValue { maximumValue = minimumValue }
            setValue(current, animated: false)
            setNeedsLayout()
        }
    }
    /// The upper end. Below the value, it moves the value down; below `minimumValue`, that too.
    open var maximumValue: Float = 1 {
        didSet {
            if minimumValue > maximumValue { minimumValue = maximumValue }
            setValue(current, animated: false)
            setNeedsLayout()
        }
    }
    /// Whether `.valueChanged` comes as the thumb moves (true) or once, as the finger lifts (false).
    open var isContinuous = true
    /// A kiosk option: a touch on the track away from the thumb moves the thumb there and drags it. UIKit's
    /// slider ignores it (false, the default).
    open var movesToTouchOnTrack = false
    /// The track before the thumb; nil: the tint.
    open var minimumTrackTintColor: Color? { didSet { updateColors() } }
    /// The track after the thumb; nil: `defaultMaximumTrackTintColor`.
    open var maximumTrackTintColor: Color? { didSet { updateColors() } }
    /// The thumb; nil: white.
    open var thumbTintColor: Color? { didSet { updateColors() } }

    private var current: Float = 0
    /// The track's two parts and the thumb (tests read where they are).
    let minimumTrack = View(), maximumTrack = View(), thumb = View()
    /// The touch dragging the thumb, how far right of the thumb's centre it took hold, and the value it found.
    private weak var dragTouch: Touch?
    private var grip = 0.0
    private var valueAtTouchDown: Float = 0

    override public init(frame: Rect = .zero) {
        super.init(frame: frame)
        for part in [maximumTrack, minimumTrack, thumb] {
            part.isUserInteractionEnabled = false
            addSubview(part)
        }
        for track in [minimumTrack, maximumTrack] { track.cornerRadius = Self.trackHeight / 2 }
        thumb.cornerRadius = Self.thumbDiameter / 2
        thumb.borderWidth = 0.5
        updateColors()
        placeParts()
    }

    /// Moves to `value` (pinned to the range), the thumb sliding there over `animationDuration` when
    /// `animated`; sends nothing.
    open func setValue(_ value: Float, animated: Bool) {
        let pinned = value.isNaN ? minimumValue : min(max(value, minimumValue), maximumValue)
        guard pinned != current || !animated else { return }
        current = pinned
        if animated {
            View.animate(withDuration: Self.animationDuration, options: [.beginFromCurrentState, .allowUserInteraction]) {
                self.placeParts()
            }
        } else {
            // At once means on the screen too: a slide still under way stops where the value now is.
            for part in [minimumTrack, maximumTrack, thumb] { Application.shared.animator.removeAnimations(inside: part) }
            placeParts()
        }
    }

    override open var intrinsicContentSize: Size { Size(width: View.noIntrinsicMetric, height: 31) }
    override open func sizeThatFits(_ size: Size) -> Size { Size(width: size.width, height: 31) }

    /// Its bounds, grown to at least 44 points tall around the middle.
    override open func point(inside point: Point, with event: Event?) -> Bool {
        touchTarget().contains(point)
    }

    override open func layoutSubviews() {
        super.layoutSubviews()
        placeParts()
    }

    override open func tintColorDidChange() {
        super.tintColorDidChange()
        updateColors()
    }

    override open var isEnabled: Bool {
        didSet {
            guard isEnabled != oldValue else { return }
            // Disabled under a finger, Control has cancelled its touch: the value stays where it was.
            if !isEnabled { dragTouch = nil }
            updateColors()
        }
    }

    // MARK: Tracking

    override open func touchesBegan(_ touches: Set<Touch>, with event: Event) {
        let wasTracking = isTracking
        super.touchesBegan(touches, with: event)
        guard !wasTracking, isTracking, let touch = touches.first else { return }
        let location = touch.location(in: self)
        let center = thumbCenterX(for: current)
        valueAtTouchDown = current
        if abs(location.x - center) <= Self.thumbDiameter / 2 + Self.thumbTouchMargin {
            grip = location.x - center
        } else if movesToTouchOnTrack {
            grip = 0
            follow(to: location.x)
        } else {
            return
        }
        dragTouch = touch
    }

    override open func touchesMoved(_ touches: Set<Touch>, with event: Event) {
        super.touchesMoved(touches, with: event)
        guard let dragTouch, touches.contains(dragTouch) else { return }
        follow(to: dragTouch.location(in: self).x - grip)
    }

    override open func touchesEnded(_ touches: Set<Touch>, with event: Event) {
        let ended = dragTouch.map { touches.contains($0) } ?? false
        if ended { dragTouch = nil }
        super.touchesEnded(touches, with: event)
        if ended, !isContinuous, current != valueAtTouchDown { sendValueChanged() }
    }

    override open func touchesCancelled(_ touches: Set<Touch>, with event: Event) {
        if let dragTouch, touches.contains(dragTouch) { self.dragTouch = nil }
        super.touchesCancelled(touches, with: event)
    }

    /// The thumb's centre goes to `x` (pinned to the track): the value there, sent when continuous.
    private func follow(to x: Double) {
        let before = current
        setValue(value(atThumbCenterX: x), animated: false)
        if isContinuous, current != before { sendValueChanged() }
    }

    // MARK: Geometry

    /// Where the thumb's centre can go: half a thumb in from each end.
    private var travel: (start: Double, length: Double) {
        let start = bounds.minX + Self.thumbDiameter / 2
        return (start, max(bounds.width - Self.thumbDiameter, 0))
    }

    /// The thumb's centre for `value`.
    func thumbCenterX(for value: Float) -> Double {
        let span = Double(maximumValue - minimumValue)
        let fraction = span > 0 ? Double(value - minimumValue) / span : 0
        return travel.start + travel.length * fraction
    }

    /// The value whose thumb centre is at `x`, pinned to the range.
    func value(atThumbCenterX x: Double) -> Float {
        let (start, length) = travel
        let fraction = length > 0 ? min(max((x - start) / length, 0), 1) : 0
        return minimumValue + Float(fraction) * (maximumValue - minimumValue)
    }

    private func placeParts() {
        let midY = bounds.midY, center = thumbCenterX(for: current)
        let trackY = midY - Self.trackHeight / 2
        maximumTrack.frame = Rect(x: bounds.minX, y: trackY, width: bounds.width, height: Self.trackHeight)
        minimumTrack.frame = Rect(x: bounds.minX, y: trackY, width: max(center - bounds.minX, 0), height: Self.trackHeight)
        thumb.frame = Rect(
            x: center - Self.thumbDiameter / 2, y: midY - Self.thumbDiameter / 2, width: Self.thumbDiameter,
            height: Self.thumbDiameter)
    }

    private func updateColors() {
        minimumTrack.backgroundColor = minimumTrackTintColor ?? tintColor
        maximumTrack.backgroundColor = maximumTrackTintColor ?? Self.defaultMaximumTrackTintColor
        thumb.backgroundColor = thumbTintColor ?? .white
        // As UIKit's disabled slider, the whole of it at half opacity as one layer: the tracks at half, the
        // thumb over them whole with its edge faint.
        for track in [minimumTrack, maximumTrack] { track.alpha = isEnabled ? 1 : 0.5 }
        thumb.borderColor = Color(white: 0, alpha: isEnabled ? 0.15 : 0.07)
    }
}
