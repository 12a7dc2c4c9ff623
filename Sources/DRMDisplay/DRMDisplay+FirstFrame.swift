import DRM
import Dispatch
import Glibc
import KioskKit

/// How an output first comes on screen: the launch screen at once, or the app's first frame, with no
/// modeset where the CRTC already shows the mode (`light`, then `present`). Weston, wlroots and plymouth do
/// the same: the picture the firmware, the boot splash or the console left stays until there is another.
extension DRMDisplay {
    /// The commit that puts `output` on its CRTC showing buffer `index` (or only checks it: `testOnly`).
    /// Where the CRTC already shows the output's mode for its connector (`keepsMode`), without
    /// `ALLOW_MODESET` first: the kernel refuses that commit if it would need a modeset, so one that passes
    /// changes only the framebuffer, at the next vblank, with no blank frame (said in the log once). A
    /// refusal falls back to a modeset. Legacy: `SetCrtc` (which the kernel also does without a modeset
    /// when the mode is unchanged), then `DPMS` off for a dark screen.
    func commitLighting(
        _ output: Output, buffer index: Int, connector: DRMConnector, active: Bool, testOnly: Bool
    ) throws(DRMError) {
        guard usesAtomic, let plane = output.primaryPlane, let blob = output.modeBlob else {
            guard !testOnly else { return }
            try card.setCRTC(
                output.crtc, framebuffer: output.buffers[index].framebuffer, x: 0, y: 0, connectors: [output.connector], mode: output.mode)
            if !active, let dpms = connector.property(named: "DPMS")?.id {
                do { try card.setConnectorProperty(output.connector, dpms, to: 3) } catch {
                    log.error("\(connector.name): stays lit, DPMS off failed: \(error)")
                }
            }
            return
        }
        let request = try atomicRequest(lighting: output, buffer: index, plane: plane, modeBlob: blob, connector: connector, active: active)
        let test: DRMAtomicRequest.Flags = testOnly ? [.testOnly] : []
        if output.keepsMode && output.needsModeset != true {
            do {
                try card.commit(request, flags: test)
                if !testOnly {
                    log.info("\(connector.name): on \(output.crtc) without a modeset (it already showed \(DisplayMode(output.mode)))")
                }
                output.needsModeset = false
                return
            } catch {
                log.info("\(connector.name): \(output.crtc) needs a modeset after all (\(error))")
                output.needsModeset = true
            }
        }
        try card.commit(request, flags: test.union(.allowModeset))
    }

    /// Paints the launch screen into the output's first buffer, upright in `rotation` (the screen's, or
    /// normal where the plane turns the frame). False when there is none or it cannot be read.
    func paintLaunchScreen(on output: Output, rotation: Rotation) -> Bool {
        guard let launchScreen else { return false }
        return launchScreen.paint(into: output.bitmaps[0], rotation: rotation)
    }

    /// The rotation a connector's screen gets, as the configuration or the panel gives it.
    func configuredRotation(of connector: DRMConnector) -> Rotation {
        screenSettings[connector.name].rotation ?? Self.rotation(panelOrientation: connector.panelOrientation) ?? .normal
    }

    /// The app's first frame on an output lit without being shown (`light`): the lighting commit with
    /// that frame's buffer, blocking as a modeset is; its completion is heard on the next turn, as a
    /// flip's event would be. Throws what the driver refused.
    func showFirstFrame(_ output: Output, buffer index: Int, on screen: Screen) throws(DRMError) {
        guard let connector = probed[output.connector] else {
            throw DRMError(operation: "light", errno: ENOENT, detail: "\(output.connector) was not probed")
        }
        try commitLighting(output, buffer: index, connector: connector, active: screen.powerState != .off, testOnly: false)
        probeVBlank(output)
        log.info("\(output.name): the app's first frame is on \(output.crtc)")
        output.flipPending = true
        DispatchQueue.main.async {
            MainActor.assumeIsolated {
                self.completeFlip(output)
                // Its planes are offered from now on (`planes(for:)`): views that asked for one move there.
                if !output.displayPlanes.isEmpty { self.compositor?.setNeedsPlaneAssignment(screen) }
            }
        }
    }

    /// Marks the output shown and asks whether its CRTC has vblank interrupts (once it shows our buffer).
    func probeVBlank(_ output: Output) {
        output.isShown = true
        do {
            _ = try card.vblank(of: output.crtc)
        } catch {
            // Such a driver completes a flip at once, stamped with the time it completed: taken as a vblank,
            // that would start the next frame at once and draw faster than the display refreshes.
            output.hasVBlank = false
            log.info("\(output.name): \(output.crtc) has no vblank interrupts (\(error)); frames are paced by a timer at the refresh rate")
        }
    }
}
