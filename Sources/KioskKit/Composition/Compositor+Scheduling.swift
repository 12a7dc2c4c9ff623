import Dispatch

/// The frame scheduler: when each screen composes (changes, the frame clock's ticks at vblank or by
/// timer, display links and animations, pacing on outputs without vblank times, idle: nothing).
extension Compositor {
    // MARK: Scheduling

    /// The output finished showing the last frame of `screen`; the next one may start. `timestamp` is the
    /// vblank time it was shown at (DRM's page-flip event on a CRTC with vblank interrupts); nil for outputs
    /// that have none, whose flips complete whenever they do.
    public func framePresented(on screen: Screen, at timestamp: TimeInterval? = nil) {
        guard let state = states[ObjectIdentifier(screen)] else { return }
        if state.inFlightMovesPlanesOnly {
            application.instrumentation.post(.planesPresented(screen, vblank: timestamp))
        } else {
            application.instrumentation.post(.presented(screen, vblank: timestamp))
        }
        state.inFlight = false
        state.inFlightMovesPlanesOnly = false
        state.presentsAtVBlank = timestamp != nil
        // Without a vblank time the frame counts as shown when it was due: a period after its tick.
        let shown = timestamp ?? max(application.clock.now, (state.lastTick ?? -.infinity) + refreshPeriod(of: screen))
        application.animator.frameShown(on: screen, at: shown)
        if needsTicks(screen) {
            // Animating: a vblank is the frame clock, so the frames lock onto the display's refresh even
            // when the first tick came from the timer at another phase. Without a vblank time, the timer
            // ticks a period after the last tick: an output whose flips complete at once (DRM drivers
            // without vblank interrupts, fbdev, headless) would otherwise draw as fast as the CPU allows.
            if let timestamp, timestamp > state.lastTick ?? -.infinity {
                tick(screen, at: timestamp)
            } else {
                ensureTicking(screen)
            }
        } else if state.needsFrame {
            scheduleRun()
        }
    }

    // MARK: Frame clock

    /// The time between two frames of `screen` (its mode's refresh; 60 Hz when it has none).
    public func refreshPeriod(of screen: Screen) -> TimeInterval {
        guard let rate = screen.currentMode?.refreshRate, rate > 0 else { return 1.0 / 60 }
        return 1 / rate
    }

    /// Whether `screen` needs a frame per refresh: it is on, and an animation moves on it or a display link
    /// follows it. A screen that is off shows nothing: a repeating animation must not wake the kiosk every
    /// refresh all night (it goes on where it would be when the screen comes on).
    func needsTicks(_ screen: Screen) -> Bool {
        guard screen.powerState == .on else { return false }
        return application.displayLinks.contains { $0.screen === screen && $0.isActive }
            || application.animator.isAnimating(on: screen)
    }

    /// Whether a frame-clock tick is waiting on its timer (tests: after an animation ends, none is).
    public func isTickScheduled(on screen: Screen) -> Bool { states[ObjectIdentifier(screen)]?.tickTimer != nil }

    /// Makes sure a tick will come for `screen` if it needs one: after the frame in flight lands, or from
    /// the refresh-period timer, not earlier than one period after the last tick.
    func ensureTicking(_ screen: Screen) {
        guard screen.isConnected, needsTicks(screen) else { return }
        let state = state(for: screen)
        guard state.tickTimer == nil, !state.inFlight else { return }
        let (now, period) = (application.clock.now, refreshPeriod(of: screen))
        var deadline = max(now, (state.lastTick ?? -.infinity) + period)
        if let last = state.lastTick, now > last + period, now < last + 3 * period {
            // A frame that took longer than a period: the next tick keeps to the refresh's beat, as a
            // display shows a late frame at its next refresh, instead of following at once.
            deadline = last + period * ((now - last) / period).rounded(.up)
        }
        if let earliest = earliestNextFrame(on: screen, state: state) {
            // The last frame may be one a change made after the last tick: the next a period after it.
            deadline = max(deadline, earliest)
        }
        state.tickTimer = application.clock.schedule(at: deadline) { [weak self, weak screen] in
            guard let self, let screen, let state = self.states[ObjectIdentifier(screen)] else { return }
            state.tickTimer = nil
            if let earliest = self.earliestNextFrame(on: screen, state: state), earliest > deadline + 1e-9 {
                // A change made a frame after this tick was set (a late flip landed, and the run loop
                // composed what waited): the tick moves to a period after that frame.
                self.ensureTicking(screen)
                return
            }
            self.tick(screen, at: deadline)
        }
    }

    /// One frame of the frame clock: display links are called and animations move to the time the frame
    /// will be shown (`timestamp` plus a period), then the frame is composed.
    func tick(_ screen: Screen, at timestamp: TimeInterval) {
        let state = state(for: screen)
        state.tickTimer?.cancel()
        state.tickTimer = nil
        let period = refreshPeriod(of: screen)
        state.lastTick = timestamp
        let target = timestamp + period
        for link in application.displayLinks where link.screen === screen {
            link.frame(timestamp: timestamp, target: target, period: period)
        }
        application.animator.advance(to: target, frameOf: screen)
        if state.needsFrame, !state.inFlight, screen.powerState == .on {
            composeFrame(on: screen, state: state, reportedDamage: nil, tick: timestamp)
        }
        // No frame went out (nothing changed, or the output showed it at once): what it would have shown
        // counts as shown at its time, and the timer ticks next.
        if !state.inFlight {
            application.animator.frameShown(on: screen, at: target)
            ensureTicking(screen)
        }
    }

    /// Composes now every screen that has changes and no frame in flight (tests call it directly; the run
    /// loop calls `composePendingFrames(paced: true)` once per turn after changes).
    public func composePendingFrames() { composePendingFrames(paced: false) }

    /// `paced`: a screen whose output has no vblank times (its flips complete whenever they do) gets no
    /// frame sooner than a refresh period after its last one: its changes wait for the frame clock's next
    /// tick, or for a timer at that time, as a display with vblank interrupts would make them wait for its
    /// next vblank. Without this a stream of changes (a finger moving) made frames as fast as they could
    /// be composed: 8.8 to 11 ms apart on virtio-gpu at 75 Hz.
    func composePendingFrames(paced: Bool) {
        frameScheduled = false
        for screen in application.connectedScreens {
            let state = state(for: screen)
            guard state.needsFrame, !state.inFlight, screen.powerState == .on else { continue }
            if paced, holdsBack(screen, state: state) { continue }
            composeFrame(on: screen, state: state, reportedDamage: nil)
        }
    }

    /// Whether `screen`'s changes wait for a period to pass since its last frame (outputs without vblank
    /// times); makes sure something composes them then: the tick already scheduled, or a timer.
    func holdsBack(_ screen: Screen, state: ScreenState) -> Bool {
        guard let due = earliestNextFrame(on: screen, state: state), application.clock.now < due else { return false }
        if state.tickTimer == nil, state.paceTimer == nil {
            state.paceTimer = application.clock.schedule(at: due) { [weak self, weak state] in
                state?.paceTimer = nil
                self?.composePendingFrames(paced: true)
            }
        }
        return true
    }

    /// On an output without vblank times, the earliest a next frame of `screen` may be composed: a refresh
    /// period after the last one shown. nil where flips have vblank times (they pace the frames) and
    /// before the first frame.
    func earliestNextFrame(on screen: Screen, state: ScreenState) -> TimeInterval? {
        guard !state.presentsAtVBlank, let start = state.lastFrameStart else { return nil }
        return start + refreshPeriod(of: screen)
    }

    /// Repaints the whole of `screen` on the next frame. The buffer the last frame was painted into is
    /// forgotten (`scanoutImage` is nil until the next frame): the backends ask for this when they change
    /// a screen's buffers (a new mode, a resumed session), and DRM's are unmapped when they go.
    public func setNeedsFullRepaint(_ screen: Screen) {
        let state = state(for: screen)
        state.fullRepaint = true
        state.inPlaceBuffer = nil
        // The planes are proposed, painted and shown again too (the output may have lost them).
        state.planeTest = nil
        state.planeContents.removeAll()
        scheduleFrame(for: screen)
    }

    /// The planes `screen`'s output offers changed (its display came on screen, a plane was freed): the
    /// next frame proposes them again, and comes now if the last one had views asking for a plane (else
    /// nothing waits for one: a screen that has settled stays so).
    public func setNeedsPlaneAssignment(_ screen: Screen) {
        let state = state(for: screen)
        state.planeTest = nil
        if state.hadPlaneGroups { scheduleFrame(for: screen) }
    }

    /// Composes `screen` now, bringing every view's cache and placement up to date, but painting only
    /// `damage` (logical pixels), whatever really changed: the "lying damage" check of wlroots and weston,
    /// which proves that nothing outside the damage is ever touched.
    public func composeFrame(on screen: Screen, reportingOnly damage: Region) {
        composeFrame(on: screen, state: state(for: screen), reportedDamage: damage)
    }

    func scheduleFrame(for screen: Screen) {
        guard screen.isConnected else { return }
        state(for: screen).needsFrame = true
        scheduleRun()
    }

    func scheduleRun() {
        guard !frameScheduled else { return }
        frameScheduled = true
        // Once per run-loop turn, after the changes of this turn: many changes make one frame.
        DispatchQueue.main.async {
            MainActor.assumeIsolated { self.composePendingFrames(paced: true) }
        }
    }

}
