import Dispatch
import KioskBackend
import KioskKit

/// What the runtime does with the compositor's frames, heard through the application's instrumentation
/// (where the trace and the power manager listen too).
extension KioskRuntime {
    /// A frame composed: the launch screen goes once every screen has one, systemd hears READY=1. A frame
    /// on the display: the trace's `frame` line (`planes` when only planes moved); after the first, input
    /// starts once the screens settled, or a second later.
    func observeFrames(of compositor: Compositor, display: any DisplayBackend, launchScreen: LaunchScreen?) -> InstrumentationToken {
        application.instrumentation.observe { [weak self] event in
            guard let self else { return }
            switch event {
            case .frameComposed:
                if let launchScreen, !launchScreen.isReleased,
                    application.connectedScreens.allSatisfy({ compositor.framesComposed(on: $0) > 0 })
                {
                    launchScreen.release()
                }
                self.reached(.firstFrame)
                self.service.ready(status: self.statusLine())
            case .planesPresented(let screen, let vblank):
                self.trace?.recordPlanes(on: screen, planes: compositor.planesInUse(on: screen), flip: vblank ?? application.clock.now)
            case .presented(let screen, let vblank):
                self.trace?.recordFrame(
                    on: screen, number: compositor.framesComposed(on: screen), flip: vblank ?? application.clock.now,
                    vblankKnown: vblank != nil, tick: compositor.tick(ofLastFrameOn: screen),
                    composed: compositor.compositionTime(ofLastFrameOn: screen))
                let isFirstFlip = self.timeline.milliseconds(.firstFlip) == nil
                if isFirstFlip { self.reached(.firstFlip) }
                guard display.drivesDisplays, !self.inputRequested else { return }
                if isFirstFlip {
                    // The first frame is on the display: input, which it did not need, comes once the launch's
                    // animations are on it too (InputStartPolicy), or a second later whatever animates.
                    let clock = application.clock
                    self.inputDeadline = clock.schedule(at: clock.now + InputStartPolicy.latestDelay) { [weak self] in
                        self?.requestInput(
                            because: "a second after the first frame, the screens not settled (an animation or a frame still in flight)")
                    }
                }
                let others = application.connectedScreens.filter { $0 !== screen }.map {
                    InputStartPolicy.ScreenState(
                        needsFrame: compositor.needsFrame(on: $0), frameInFlight: compositor.isFrameInFlight(on: $0))
                }
                if InputStartPolicy.hasSettled(
                    isAnimating: application.isAnimating, landedNeedsFrame: compositor.needsFrame(on: screen), others: others)
                {
                    // On the next turn: this one is still delivering the frame's flip.
                    DispatchQueue.main.async {
                        MainActor.assumeIsolated { self.requestInput(because: "the screens settled after the first frame") }
                    }
                }
            default: break
            }
        }
    }
}
