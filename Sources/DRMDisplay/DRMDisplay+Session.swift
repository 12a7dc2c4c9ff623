import KioskKit

/// The seat session going away (a VT switch: no DRM master, nothing may be committed) and coming back.
extension DRMDisplay {
    /// The session went away (VT switch): stop flipping. Call before acknowledging the seat's disable.
    public func pause() {
        isPaused = true
        for output in outputs.values {
            output.flipTimeout?.cancel()
            output.flipPending = false
            output.pending = nil
        }
        log.info("\(cardName): paused (session disabled)")
    }

    /// The session is back: modeset every output again and repaint everything.
    public func resume() {
        isPaused = false
        for (id, output) in outputs {
            let index = probed[id]?.modes.firstIndex(of: output.mode)
            do {
                try light(connector: id, crtc: output.crtc, modeIndex: index)
            } catch {
                log.error("\(output.name): re-modeset after resume failed: \(error)")
            }
            setNeedsFullRepaint(of: output)
        }
        log.info("\(cardName): resumed")
        // Displays plugged in, out or changed while away (their hotplug events were not acted on).
        update(log: hotplugLog)
    }

    /// Has the compositor repaint `output`'s screen whole, and forget the buffer it last painted into
    /// (called too before that output's buffers are unmapped: a new mode, an output turned off).
    func setNeedsFullRepaint(of output: Output) {
        guard let screen = madeScreens.first(where: { $0.name == output.name }) else { return }
        compositor?.setNeedsFullRepaint(screen)
    }
}
