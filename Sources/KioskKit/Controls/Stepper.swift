/// A pair of buttons that step a value down and up (as `UIStepper`): − and +, side by side on a rounded
/// plate, 94 x 32 points (UIKit's size, its `intrinsicContentSize`; drawn at the centre of larger bounds),
/// with a touch area at least 44 points tall.
/// A touch on one steps the value by `stepValue` at once; held, it steps again after half a second, then
/// ten times a second, and twenty once it has repeated for two seconds (`autorepeat`). At an end the
/// value stops there and that button is dimmed, unless `wraps`, which goes round to the other end.
/// `.valueChanged` comes with every step (`isContinuous`) or once as the finger lifts; setting `value`
/// sends nothing, as UIKit's.
@MainActor
open class Stepper: Control {
    override open var tracedValue: String? { String(value) }

    /// The plate's size, UIKit's.
    public static let standardSize = Size(width: 94, height: 32)
    /// A held button: the wait before it repeats, the time between repeats, and between them once it
    /// has repeated for `fastAfter`.
    public static let repeatDelay: TimeInterval = 0.5, repeatInterval: TimeInterval = 0.1
    public static let fastRepeatInterval: TimeInterval = 0.05, fastAfter: TimeInterval = 2
    /// The plate (UIKit's light control fill) and its pressed half.
    static let plateColor = Color.tertiarySystemFill
    static let pressedColor = Color(red: 118.0 / 255, green: 118.0 / 255, blue: 128.0 / 255, alpha: 0.24)

    /// The value, within `minimumValue...maximumValue` (pinned there; NaN is `minimumValue`).
    open var value: Double {
        get { current }
        set { current = pinned(newValue) }
    }
    /// The lower end (0). Above the value it moves the value up; above `maximumValue`, that too.
    open var minimumValue = 0.0 {
        didSet {
            if maximumValue < minimumValue { maximumValue = minimumValue }
            current = pinned(current)
        }
    }
    /// The upper end (100). Below the value it moves the value down; below `minimumValue`, that too.
    open var maximumValue = 100.0 {
        didSet {
            if minimumValue > maximumValue { minimumValue = maximumValue }
            current = pinned(current)
        }
    }
    /// How much a step adds or takes (1; a value of 0 or less is refused, as UIKit's, and 1 kept).
    open var stepValue = 1.0 {
        didSet { if !(stepValue > 0) { stepValue = oldValue } }
    }
    /// Whether stepping past an end goes round to the other.
    open var wraps = false { didSet { setNeedsDisplay() } }
    /// Whether a held button repeats.
    open var autorepeat = true
    /// Whether `.valueChanged` comes with each step (true) or once, as the finger lifts (false).
    open var isContinuous = true

    private var current = 0.0 { didSet { if current != oldValue { setNeedsDisplay() } } }
    /// The button under the finger (-1 or +1) while one is held, and when it went down.
    private(set) var pressedDirection: Int?
    private var pressStart: TimeInterval = 0
    private var valueAtTouchDown = 0.0
    private var repeatTimer: FrameTimer?

    override public init(frame: Rect = .zero) {
        let size = frame.size == .zero ? Self.standardSize : frame.size
        super.init(frame: Rect(x: frame.minX, y: frame.minY, width: size.width, height: size.height))
    }

    /// Its bounds, grown to at least 44 points tall around the middle (the plate is 32).
    override open func point(inside point: Point, with event: Event?) -> Bool {
        touchTarget().contains(point)
    }

    override open var intrinsicContentSize: Size { Self.standardSize }
    override open func sizeThatFits(_ size: Size) -> Size { Self.standardSize }

    /// Whether stepping in `direction` can change the value: not at that end, unless it wraps.
    public func canStep(_ direction: Int) -> Bool {
        wraps || (direction < 0 ? current > minimumValue : current < maximumValue)
    }

    private func pinned(_ value: Double) -> Double {
        value.isNaN ? minimumValue : min(max(value, minimumValue), maximumValue)
    }

    // MARK: Tracking

    override open func touchesBegan(_ touches: Set<Touch>, with event: Event) {
        let wasTracking = isTracking
        super.touchesBegan(touches, with: event)
        guard !wasTracking, isTracking, let touch = touches.first else { return }
        let direction = touch.location(in: self).x < bounds.midX ? -1 : 1
        valueAtTouchDown = current
        guard canStep(direction) else { return }
        pressedDirection = direction
        pressStart = Application.shared.clock.now
        setNeedsDisplay()
        step()
        if autorepeat { scheduleRepeat(0) }
    }

    override open func touchesEnded(_ touches: Set<Touch>, with event: Event) {
        super.touchesEnded(touches, with: event)
        if !isTracking { release() }
    }

    override open func touchesCancelled(_ touches: Set<Touch>, with event: Event) {
        super.touchesCancelled(touches, with: event)
        if !isTracking { release() }
    }

    override open var isEnabled: Bool {
        didSet {
            guard isEnabled != oldValue else { return }
            // Disabled under a finger: Control has cancelled its touch; the steps made stay.
            if !isEnabled { release() }
            setNeedsDisplay()
        }
    }

    override open func didMoveToWindow() {
        super.didMoveToWindow()
        // A held button that leaves the screen stops repeating (its touch will not end here).
        if window == nil { release() }
    }

    /// The finger lifted, or the touch went: no more repeats, and the one `.valueChanged` of a
    /// non-continuous stepper.
    private func release() {
        repeatTimer?.cancel()
        repeatTimer = nil
        guard pressedDirection != nil else { return }
        pressedDirection = nil
        setNeedsDisplay()
        if !isContinuous, current != valueAtTouchDown { sendValueChanged() }
    }

    /// One step in the pressed direction: the value moves (or wraps), sent when continuous.
    private func step() {
        guard let direction = pressedDirection, canStep(direction) else { return }
        var next = current + Double(direction) * stepValue
        if wraps {
            if next > maximumValue { next = minimumValue } else if next < minimumValue { next = maximumValue }
        }
        let before = current
        current = pinned(next)
        if isContinuous, current != before { sendValueChanged() }
    }

    /// When repeat `index` (from 0) of a held button comes, after the press: `repeatDelay`, then one each
    /// `repeatInterval` until `fastAfter` of them, then one each `fastRepeatInterval`. Each from the press,
    /// not from the last, so no rounding adds up.
    static func repeatTime(_ index: Int) -> TimeInterval {
        let slow = Int((fastAfter / repeatInterval).rounded())
        guard index > slow else { return repeatDelay + Double(index) * repeatInterval }
        return repeatDelay + fastAfter + Double(index - slow) * fastRepeatInterval
    }

    private func scheduleRepeat(_ index: Int) {
        repeatTimer = Application.shared.clock.schedule(at: pressStart + Self.repeatTime(index)) { [weak self] in
            // Held at an end it cannot pass, it stops repeating: nothing would change.
            guard let self, let direction = self.pressedDirection, self.canStep(direction) else { return }
            self.step()
            self.scheduleRepeat(index + 1)
        }
    }

    // MARK: Drawing

    /// The plate, `standardSize` centred in the bounds (on whole points).
    var plateFrame: Rect { centred(Self.standardSize) }

    override open func draw(_ rect: Rect) {
        guard let context = DrawingContext.current else { return }
        let plate = plateFrame, half = plate.width / 2
        context.fillRoundedRect(plate, radius: 8, color: Self.plateColor)
        if let direction = pressedDirection {
            context.save()
            context.clip(toRoundedRect: plate, radius: 8)
            let pressed = Rect(x: direction < 0 ? plate.minX : plate.midX, y: plate.minY, width: half, height: plate.height)
            context.fill(pressed, color: Self.pressedColor)
            context.restore()
        }
        // The divider, and the two signs as bars (no font: the same on every board).
        context.fill(Rect(x: plate.midX - 0.5, y: plate.minY + 8, width: 1, height: plate.height - 16), color: Color(white: 0, alpha: 0.15))
        for direction in [-1, 1] {
            let center = Point(x: plate.minX + half * (direction < 0 ? 0.5 : 1.5), y: plate.midY)
            let enabled = isEnabled && canStep(direction)
            let color = Color(white: 0, alpha: enabled ? 1 : 0.25)
            context.fill(Rect(x: center.x - 7, y: center.y - 1, width: 14, height: 2), color: color)
            if direction > 0 { context.fill(Rect(x: center.x - 1, y: center.y - 7, width: 2, height: 14), color: color) }
        }
    }
}
