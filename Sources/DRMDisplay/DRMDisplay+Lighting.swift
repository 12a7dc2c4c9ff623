import DRM
import Glibc
import KioskKit
import Logging

extension DRMDisplay {
    /// Lights one output: buffers of the mode's size, checked with the driver (an atomic TEST_ONLY commit),
    /// then shown: at once with the launch screen painted in (`launchScreen`), else at the app's first
    /// frame on it (`present`), so that what the display showed (the firmware's picture, the boot splash,
    /// the console) stays until then, with no black frame. `modeIndex` is into the connector's modes; nil
    /// keeps the CRTC's current mode. Either way, a CRTC that already shows the mode for this connector is
    /// committed to without a modeset (`DRMDisplay+FirstFrame.swift`). Other outputs are not touched.
    /// Throws what the driver refused; nothing changes then. A screen that is off (`Screen.powerState`:
    /// the schedule, idle, the control socket) gets its mode and buffers but stays dark (`ACTIVE` 0, or
    /// legacy `DPMS` off), at once: after a session switch or a new mode it must not light up.
    func light(connector id: DRMConnectorID, crtc: DRMCRTCID, modeIndex: Int?) throws(DRMError) {
        guard let connector = probed[id] else {
            throw DRMError(operation: "light", errno: ENOENT, detail: "\(id) was not probed")
        }
        let screen = madeScreens.first { $0.name == connector.name }
        let active = screen?.powerState != .off
        let shown = try? card.crtcState(crtc).mode
        let mode: DRMModeInfo
        if let modeIndex {
            mode = connector.modes[modeIndex]
        } else {
            guard let shown else {
                throw DRMError(operation: "drmModeGetCrtc", errno: ENOENT, detail: "\(crtc) has no mode to keep")
            }
            mode = shown
        }
        let buffers = [
            try card.dumbBuffer(width: mode.width, height: mode.height, format: DRMFormat.xrgb8888),
            try card.dumbBuffer(width: mode.width, height: mode.height, format: DRMFormat.xrgb8888),
        ]
        let output = Output(connector: id, name: connector.name, crtc: crtc, mode: mode, buffers: buffers)
        // The connector already on this CRTC, which shows this very mode: no modeset is needed.
        output.keepsMode = shown?.hasSameTimings(as: mode) == true && connector.encoderID.flatMap { card.crtc(ofEncoder: $0) } == crtc
        let old = outputs[id]
        // Shown now: a dark screen (nothing to keep), an output of ours on the CRTC replaced (its buffers are
        // freed below, which would blank the CRTC), or the launch screen. Else at the first frame (an output
        // of ours not yet shown, replaced before its first frame, too).
        let replacesShown = old?.isShown == true
        let rotation = screen?.rotation ?? configuredRotation(of: connector)
        let launch = active && !replacesShown && paintLaunchScreen(on: output, rotation: rotation)
        let showsNow = !active || replacesShown || launch
        if usesAtomic {
            let plane = try primaryPlane(for: crtc)
            output.primaryPlane = plane
            let blob = try card.createModeBlob(mode)
            output.modeBlob = blob
            if checkScanoutRotation(rotation, of: output, connector: connector, active: active), launch {
                // The plane turns it: painted again upright (it just was, so it paints).
                _ = paintLaunchScreen(on: output, rotation: .normal)
            }
            do {
                try commitLighting(output, buffer: 0, connector: connector, active: active, testOnly: true)
                if showsNow { try commitLighting(output, buffer: 0, connector: connector, active: active, testOnly: false) }
            } catch {
                card.destroyBlob(blob)
                for buffer in buffers { buffer.release() }
                throw error
            }
            if let old = old?.modeBlob { card.destroyBlob(old) }
        } else if showsNow {
            do {
                try commitLighting(output, buffer: 0, connector: connector, active: active, testOnly: false)
            } catch {
                for buffer in buffers { buffer.release() }
                throw error
            }
        }
        if let old {
            // The compositor forgets the buffer it last painted into before that memory is unmapped.
            setNeedsFullRepaint(of: old)
            old.release()
        }
        describePlanes(of: output)
        outputs[id] = output
        let how =
            launch ? ", showing the launch screen" : showsNow ? "" : ", showing what it showed until the first frame"
        log.info(
            "\(connector.name): \(active ? "lit" : "set up, off,") \(DisplayMode(mode)) on \(crtc)\(modeIndex == nil ? " (kept the current mode)" : "")\(how)"
        )
        if showsNow { probeVBlank(output) }
    }

    /// Turns off a CRTC something else lit (the console) on a connector the kiosk does not drive; `stop()`
    /// puts the console back, as it does every CRTC state found at start.
    func darken(_ connector: DRMConnectorID, name: String, crtc: DRMCRTCID, log: Logger) {
        do {
            try switchOff(connector: connector, crtc: crtc, plane: usesAtomic ? try primaryPlane(for: crtc) : nil)
            log.info("\(name): turned dark (lit by something else on \(crtc); the kiosk does not drive it)")
        } catch {
            log.error("\(name): turning off \(crtc), which something else lit, failed: \(error); it shows what it showed")
        }
    }

    /// Turns an output off and frees its buffers.
    func turnOff(_ id: DRMConnectorID) {
        guard let output = outputs.removeValue(forKey: id) else { return }
        do {
            try switchOff(
                connector: id, crtc: output.crtc, plane: output.primaryPlane,
                planesInUse: output.planesInUse.map { DRMPlaneID(rawValue: $0) })
        } catch {
            // A connector that vanished may refuse; its CRTC is reused or restored later anyway.
            log.warning("\(output.name): turning off \(output.crtc) failed: \(error)")
        }
        if let blob = output.modeBlob { card.destroyBlob(blob) }
        setNeedsFullRepaint(of: output)
        output.release()
        log.info("\(output.name): off, \(output.crtc) released")
    }

    /// Turns `crtc` off: with `plane` on the atomic path, the connector and the plane (and the overlay and
    /// cursor planes in use) taken off it in the same commit; else (legacy, or no plane known) `SetCrtc` with no framebuffer.
    private func switchOff(connector: DRMConnectorID, crtc: DRMCRTCID, plane: DRMPlaneID?, planesInUse: [DRMPlaneID] = []) throws(DRMError)
    {
        guard usesAtomic, let plane else {
            return try card.setCRTC(crtc, framebuffer: nil, x: 0, y: 0, connectors: [], mode: nil)
        }
        let request = DRMAtomicRequest()
        try set(request, connector: connector, "CRTC_ID", 0)
        try set(request, crtc: crtc, "ACTIVE", 0)
        try set(request, crtc: crtc, "MODE_ID", 0)
        try set(request, plane: plane, "FB_ID", 0)
        try set(request, plane: plane, "CRTC_ID", 0)
        for other in planesInUse {
            try set(request, plane: other, "FB_ID", 0)
            try set(request, plane: other, "CRTC_ID", 0)
        }
        try card.commit(request, flags: [.allowModeset])
    }

    /// App code set `screen.currentMode`: modeset that output with the matching mode on its CRTC.
    public func apply(_ mode: Screen.Mode, to screen: Screen) throws {
        guard let (id, output) = outputs.first(where: { $0.value.name == screen.name }), let connector = probed[id],
            let index = connector.modes.firstIndex(where: { DisplayMode($0) == mode })
        else {
            throw DRMError(operation: "apply", errno: ENOENT, detail: "\(screen.name) is not lit or does not offer \(mode)")
        }
        try light(connector: id, crtc: output.crtc, modeIndex: index)
    }

    /// Blanks an output or lights it again, keeping its mode, CRTC and buffers: atomic `ACTIVE` 0/1 (what
    /// DPMS maps to on atomic drivers), else the connector's legacy `DPMS` property (3 off, 0 on).
    public func setPower(_ on: Bool, for screen: Screen) throws {
        guard let (id, output) = outputs.first(where: { $0.value.name == screen.name }) else {
            throw DRMError(operation: "setPower", errno: ENOENT, detail: "\(screen.name) is not lit")
        }
        if usesAtomic {
            let request = DRMAtomicRequest()
            try set(request, crtc: output.crtc, "ACTIVE", on ? 1 : 0)
            try card.commit(request, flags: [.allowModeset])
        } else {
            guard let dpms = probed[id]?.property(named: "DPMS")?.id else {
                throw DRMError(operation: "setPower", errno: ENOTSUP, detail: "\(screen.name) has no DPMS property")
            }
            try card.setConnectorProperty(id, dpms, to: on ? 0 : 3)
        }
        log.info("\(output.name): \(on ? "on" : "off") (\(usesAtomic ? "ACTIVE" : "DPMS") on \(output.crtc))")
    }

    private func primaryPlane(for crtc: DRMCRTCID) throws(DRMError) -> DRMPlaneID {
        let used = Set(outputs.values.compactMap { $0.crtc == crtc ? nil : $0.primaryPlane })
        if let plane = planes.first(where: { $0.isPrimary && $0.possibleCRTCs.contains(crtc) && !used.contains($0.id) }) {
            return plane.id
        }
        throw DRMError(operation: "primaryPlane", errno: ENOENT, detail: "no free primary plane for \(crtc)")
    }

    func atomicRequest(
        lighting output: Output, buffer index: Int, plane: DRMPlaneID, modeBlob: DRMBlobID,
        connector: DRMConnector, active: Bool
    ) throws(DRMError) -> DRMAtomicRequest {
        let request = DRMAtomicRequest()
        let width = UInt64(output.mode.width), height = UInt64(output.mode.height)
        try set(request, connector: connector.id, "CRTC_ID", UInt64(output.crtc.rawValue))
        try set(request, crtc: output.crtc, "MODE_ID", UInt64(modeBlob.rawValue))
        try set(request, crtc: output.crtc, "ACTIVE", active ? 1 : 0)
        try set(request, plane: plane, "FB_ID", UInt64(output.buffers[index].framebuffer.rawValue))
        try set(request, plane: plane, "CRTC_ID", UInt64(output.crtc.rawValue))
        try setScanoutRotation(request, of: output, to: output.scanoutRotation?.rotation ?? .normal)
        // Source coordinates are 16.16 fixed point.
        for (name, value) in [
            ("SRC_X", 0), ("SRC_Y", 0), ("SRC_W", width << 16), ("SRC_H", height << 16),
            ("CRTC_X", 0), ("CRTC_Y", 0), ("CRTC_W", width), ("CRTC_H", height),
        ] as [(String, UInt64)] {
            try set(request, plane: plane, name, value)
        }
        return request
    }

    func set(_ request: DRMAtomicRequest, connector: DRMConnectorID, _ name: String, _ value: UInt64) throws(DRMError) {
        guard let property = probed[connector]?.property(named: name)?.id else {
            throw DRMError(operation: "drmModeAtomicAddProperty", errno: ENOENT, detail: "\(connector) has no \(name)")
        }
        try request.set(object: connector.rawValue, property: property, value: value)
    }

    func set(_ request: DRMAtomicRequest, crtc: DRMCRTCID, _ name: String, _ value: UInt64) throws(DRMError) {
        guard let property = crtcProperties[crtc]?[name] else {
            throw DRMError(operation: "drmModeAtomicAddProperty", errno: ENOENT, detail: "\(crtc) has no \(name)")
        }
        try request.set(object: crtc.rawValue, property: property, value: value)
    }

    func set(_ request: DRMAtomicRequest, plane: DRMPlaneID, _ name: String, _ value: UInt64) throws(DRMError) {
        guard let property = planes.first(where: { $0.id == plane })?.properties.first(where: { $0.name == name })?.id else {
            throw DRMError(operation: "drmModeAtomicAddProperty", errno: ENOENT, detail: "\(plane) has no \(name)")
        }
        try request.set(object: plane.rawValue, property: property, value: value)
    }
}
