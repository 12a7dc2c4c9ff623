import Geometry

/// Where an image view is in its animation.
struct ImageAnimationState {
    /// The frame shown.
    var frame = 0
    /// When the animation's first frame began (the frame clock's time); nil when not playing.
    var start: TimeInterval?
    /// The timer for the next frame change, and whether the view waits to be seen (`SeenPacing`).
    var pacing = SeenPacing()
    /// `stopAnimating()` was called.
    var isStopped = false
}

/// An animated image plays by itself (as in `UIImageView`), paced by the frame clock, and costs nothing
/// while nobody sees it.
///
/// How: `SeenPacing`, one timer per drawn frame, at the time the next frame is due; the view moves on to
/// the frame due then (skipping any that a stall made late), and only while it is composed on screen.
/// A file's loop count is kept (an animated GIF that plays three times stops on its last frame).
extension ImageView {
    /// Whether the image's animation is playing: an animated image plays unless `stopAnimating()` (as
    /// `UIImageView.isAnimating`).
    public var isAnimating: Bool { animation.start != nil }

    /// Plays the animation from its first frame.
    public func startAnimating() {
        animation.isStopped = false
        restartAnimation()
    }

    /// Stops the animation on its first frame (as `UIImageView.stopAnimating()` shows `image`).
    public func stopAnimating() {
        animation.isStopped = true
        restartAnimation()
    }

    /// The frames and their durations, when the image is animated.
    private var animatedFrames: (durations: [Double], loopCount: Int)? {
        guard case .frames(let frames, let loopCount)? = image?.content, frames.count > 1 else { return nil }
        return (frames.map(\.duration), loopCount)
    }

    func imageDidChange() { restartAnimation() }

    func animationWindowDidChange() {
        // Back in a window, the frame due now is drawn when it is composed.
        if window != nil, animation.start != nil { animation.pacing.waitToBeShown() }
    }

    private func restartAnimation() {
        animation.pacing.cancel()
        animation.frame = 0
        animation.start = animatedFrames != nil && !animation.isStopped ? Application.shared.clock.now : nil
        setNeedsDisplay()
    }

    /// A frame was drawn: the timer for the next change, unless one is set or the animation is over.
    func animationDidDraw() {
        guard let start = animation.start, let (durations, loopCount) = animatedFrames else { return }
        guard let due = Self.nextChange(after: Application.shared.clock.now, start: start, durations: durations, loopCount: loopCount)
        else { return }
        animation.pacing.schedule(at: due) { [weak self] in self?.animationTimerFired() }
    }

    private func animationTimerFired() {
        guard animation.pacing.timerFired(in: window) else { return }
        advanceToFrameDue()
        setNeedsDisplay()
    }

    func animationWasComposedOnScreen() {
        guard animation.pacing.composedOnScreen(in: window) else { return }
        advanceToFrameDue()
        markForDrawingInThisFrame()
    }

    private func advanceToFrameDue() {
        guard let start = animation.start, let (durations, loopCount) = animatedFrames else { return }
        animation.frame = Self.frame(at: Application.shared.clock.now, start: start, durations: durations, loopCount: loopCount)
    }

    /// The frame shown at `time` of an animation begun at `start`: the last one once `loopCount` plays
    /// (0: forever) are over. In whole microseconds, so that a timer at a frame's due time shows that frame
    /// however the durations' binary fractions add up.
    static func frame(at time: TimeInterval, start: TimeInterval, durations: [Double], loopCount: Int) -> Int {
        let lengths = durations.map(microseconds), total = lengths.reduce(0, +)
        guard total > 0 else { return 0 }
        let elapsed = max(microseconds(time - start), 0)
        if loopCount > 0, elapsed >= total * Int64(loopCount) { return durations.count - 1 }
        var within = elapsed % total
        for (index, length) in lengths.enumerated() {
            if within < length { return index }
            within -= length
        }
        return durations.count - 1
    }

    /// When the frame shown at `time` gives way to the next, or nil when the animation is over.
    static func nextChange(after time: TimeInterval, start: TimeInterval, durations: [Double], loopCount: Int) -> TimeInterval? {
        let lengths = durations.map(microseconds), total = lengths.reduce(0, +)
        guard total > 0 else { return nil }
        let elapsed = max(microseconds(time - start), 0)
        var end = elapsed / total * total
        for length in lengths {
            end += length
            if end > elapsed { break }
        }
        // The last play's last frame stays: no change is due after it.
        if loopCount > 0, end >= total * Int64(loopCount) { return nil }
        return start + Double(end) / 1e6
    }

    private static func microseconds(_ seconds: Double) -> Int64 { Int64((seconds * 1e6).rounded()) }
}
