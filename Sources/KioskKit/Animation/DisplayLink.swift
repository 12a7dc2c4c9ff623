import Geometry

/// A callback once per frame of a screen, in step with its display (as `CADisplayLink`): on DRM each frame
/// follows the page flip of the one before, `timestamp` being the flip's vblank time; on fbdev and
/// headless, which have no flip events, a timer at the mode's refresh rate stands in. While any link is
/// added and not paused its screen makes one frame per refresh; when none is, no timer runs.
///
///     let link = DisplayLink(screen: .main) { link in
///         progressView.value += link.targetTimestamp - link.timestamp
///     }
///     link.add()
///     ...
///     link.invalidate()
@MainActor
public final class DisplayLink {
    /// The screen whose frames it follows.
    public let screen: Screen
    /// Released by `invalidate()`, as `CADisplayLink` releases its target: a link its owner's closure
    /// captures holds no cycle once invalidated.
    private var callback: (@MainActor (DisplayLink) -> Void)?

    /// The time of the frame last shown (CLOCK_MONOTONIC seconds: the vblank on DRM).
    public private(set) var timestamp: TimeInterval = 0
    /// When the frame being prepared now will be shown: lay out and animate for this time.
    /// `targetTimestamp - timestamp` is the time each call covers (1/30 s at `preferredFramesPerSecond` 30).
    public private(set) var targetTimestamp: TimeInterval = 0
    /// The time between two frames of the screen's mode (1/60 s at 60 Hz).
    public private(set) var duration: TimeInterval = 0

    /// Calls per second wanted; 0 (the default) means every frame. The link then skips frames to come
    /// as close as the display's rate allows (30 on a 60 Hz display calls every other frame).
    public var preferredFramesPerSecond = 0

    /// A paused link is not called and keeps no frames coming.
    public var isPaused = false {
        didSet { if !isPaused, isAdded { Application.shared.changeObserver?.framesRequested() } }
    }

    /// Added and not yet invalidated.
    public private(set) var isAdded = false
    private var lastCall: TimeInterval?

    /// A link for `screen` that calls `callback` each frame once added.
    public init(screen: Screen = .main, _ callback: @escaping @MainActor (DisplayLink) -> Void) {
        self.screen = screen
        self.callback = callback
    }

    /// Starts the calls (as `add(to: .main, forMode: .common)`): the application keeps the link until
    /// `invalidate()`.
    public func add() {
        guard !isAdded, callback != nil else { return }
        isAdded = true
        Application.shared.displayLinks.append(self)
        Application.shared.changeObserver?.framesRequested()
    }

    /// Stops the calls for good and lets the link go, and the callback with what it captured.
    public func invalidate() {
        callback = nil
        guard isAdded else { return }
        isAdded = false
        Application.shared.displayLinks.removeAll { $0 === self }
    }

    /// Whether it wants frames now.
    var isActive: Bool { isAdded && !isPaused }

    /// A frame of its screen begins at `timestamp`, to be shown at `target`.
    func frame(timestamp: TimeInterval, target: TimeInterval, period: TimeInterval) {
        guard isActive, let callback else { return }
        var frames = 1.0
        if preferredFramesPerSecond > 0 {
            let interval = 1 / Double(preferredFramesPerSecond)
            // Skip frames until the wanted interval has (nearly: half a period early is the nearest frame) passed.
            if let lastCall, timestamp - lastCall < interval - period / 2 { return }
            frames = max((interval / period).rounded(), 1)
        }
        lastCall = timestamp
        self.timestamp = timestamp
        // The display's frames this call stands for: the next call comes that much later.
        targetTimestamp = target + (frames - 1) * period
        duration = period
        callback(self)
    }
}

extension Screen {
    /// A display link for this screen (as `UIScreen.displayLink(withTarget:selector:)`); call `add()` on it.
    public func displayLink(_ callback: @escaping @MainActor (DisplayLink) -> Void) -> DisplayLink {
        DisplayLink(screen: self, callback)
    }
}
