/// Sessions: the app's own idle timer, apart from display power. A visitor walks away; after a while
/// without input the kiosk goes back to its start screen (dismisses what is presented, pops to the root)
/// or shows its attract loop, as every commercial kiosk shell does.
extension Application {
    /// Posted once `sessionIdleTimeout` seconds have passed without input (`object`: the application;
    /// `userInfo["timeout"]`: the timeout, in seconds), on `notificationCenter`. Once per idle period: the
    /// next touch or key starts a new session, whose idle period posts it again.
    nonisolated public static let sessionDidBecomeIdleNotification = NotificationName("KioskApplicationSessionDidBecomeIdleNotification")

    /// Seconds without input (a touch, a key or its repeat, on any screen: the input that also keeps the
    /// displays awake) after which the session is idle; nil or 0 (or less): never. The runtime sets it from
    /// the configuration's `session-timeout` at start, and again on a reload that changes that setting;
    /// set here in code, it counts from now.
    ///
    /// Separate from display power (`idle-timeout`): a screen that blanks while the session runs keeps it
    /// running, and the session's end turns no screen off. One timer while it counts: none while the session
    /// is idle, and input in between only notes its time, so a moving finger sets no timers.
    public var sessionIdleTimeout: TimeInterval? {
        get { session.timeout }
        set { session.timeout = newValue }
    }

    /// Called when the session becomes idle, before `sessionDidBecomeIdleNotification` is posted: where a
    /// kiosk puts its way back to the start screen.
    ///
    ///     Application.shared.sessionIdleTimeout = 120
    ///     Application.shared.onSessionIdle = { [weak self] in self?.showStartScreen() }
    public var onSessionIdle: (@MainActor () -> Void)? {
        get { session.onIdle }
        set { session.onIdle = newValue }
    }

    /// Whether the session is idle: its timeout passed since the last input, and no input came since.
    public var isSessionIdle: Bool { session.isIdle }
}

/// The session's idle timer: the time of the last input, and one timer at the moment the session would be
/// idle. Input only notes its time; the timer, when it comes, finds the input since and is set again for
/// the rest, so a stream of touch moves costs a clock read each, not a timer each. Idle, nothing is set
/// until the next input, which starts the next period.
@MainActor
final class SessionIdleTimer {
    unowned let application: Application
    var timeout: TimeInterval? {
        didSet { if seconds(timeout) != seconds(oldValue) { restart() } }
    }
    var onIdle: (@MainActor () -> Void)?
    private(set) var isIdle = false
    private var lastInput: TimeInterval = 0
    private var timer: FrameTimer?

    init(application: Application) { self.application = application }

    /// The timeout in effect: nil when off.
    private func seconds(_ timeout: TimeInterval?) -> TimeInterval? {
        guard let timeout, timeout.isFinite, timeout > 0 else { return nil }
        return timeout
    }

    /// A touch, key or key repeat came (before it is routed): the idle period starts again from now.
    func inputArrived() {
        guard let seconds = seconds(timeout) else { return }
        let clock = application.clock
        lastInput = clock.now
        isIdle = false
        if timer == nil { arm(at: lastInput + seconds) }
    }

    /// The timeout changed: off, or counting from now. An idle session stays idle (it posted for this
    /// period) until input starts the next.
    private func restart() {
        timer?.cancel()
        timer = nil
        guard let seconds = seconds(timeout) else {
            isIdle = false
            return
        }
        guard !isIdle else { return }
        lastInput = application.clock.now
        arm(at: lastInput + seconds)
    }

    private func arm(at deadline: TimeInterval) {
        timer = application.clock.schedule(at: deadline) { [weak self] in self?.deadlineCame() }
    }

    private func deadlineCame() {
        timer = nil
        guard let seconds = seconds(timeout), !isIdle else { return }
        let due = lastInput + seconds
        // Input came since the timer was set: the rest of the period from it (a nanosecond early counts as
        // due, as a timer set for a sum of times may fire a hair before it).
        guard application.clock.now + 1e-9 >= due else { return arm(at: due) }
        isIdle = true
        application.instrumentation.post(.sessionDidBecomeIdle(timeout: seconds))
        onIdle?()
        application.notificationCenter.post(
            name: Application.sessionDidBecomeIdleNotification, object: application, userInfo: ["timeout": seconds])
    }
}
