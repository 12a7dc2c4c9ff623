import Dispatch
import DRM
import Foundation
import KioskKit
import Logging

/// The DRM/KMS display backend: each connector of one card is a `Screen`. It reads connectors, lights
/// the outputs the runtime decided on (atomic with a TEST_ONLY check first, or legacy `SetCrtc`), and
/// shows frames with two dumb buffers per output, page-flipped on vblank; the flip event allows the next
/// frame. It decides nothing: which mode and which CRTC is the runtime's policy.
@MainActor
public final class DRMDisplay: DisplayBackend, FrameOutput {
    /// A connector as read now, with what the runtime needs to decide about it.
    public struct Connector {
        public let info: DRMConnector
        /// The modes as the window model sees them, in the kernel's order (parallel to `info.modes`).
        public let modes: [Screen.Mode]
        public let preferredIndex: Int?
        /// The CRTC driving it now and that CRTC's mode (lit by firmware, the console or us).
        public let currentCRTC: DRMCRTCID?
        public let currentMode: Screen.Mode?
        public let edid: EDID?
        /// The `panel orientation` property as a rotation, when the kernel sets it.
        public let panelOrientation: Rotation?
        /// `link-status` is `Bad`: the link needs a new modeset.
        public let linkStatusBad: Bool

        public var name: String { info.name }
    }

    /// One output to light: a connector, a CRTC and a mode (nil: keep the CRTC's current mode, no modeset).
    public struct OutputPlan {
        public var connector: DRMConnectorID
        public var crtc: DRMCRTCID
        public var modeIndex: Int?

        public init(connector: DRMConnectorID, crtc: DRMCRTCID, modeIndex: Int?) {
            self.connector = connector
            self.crtc = crtc
            self.modeIndex = modeIndex
        }
    }

    public let device: DRMDevice
    /// `card0`.
    public let cardName: String
    /// Whether modesetting goes through atomic commits (else the legacy API).
    public let usesAtomic: Bool
    public weak var compositor: Compositor?
    /// How long a page flip may take before it is declared lost and recovered.
    public var flipTimeout: TimeInterval = 1

    private var screensByName: [String: Screen] = [:]
    private var outputs: [DRMConnectorID: Output] = [:]
    private var lastProbe: [DRMConnectorID: Connector] = [:]
    private var initialCRTCs: [DRMCRTCState] = []
    private var initialConnectorsOfCRTC: [DRMCRTCID: [DRMConnectorID]] = [:]
    private var planes: [DRMPlane] = []
    private var crtcProperties: [DRMCRTCID: [String: DRMPropertyID]] = [:]
    private var eventSource: (any DispatchSourceRead)?
    private var isPaused = false
    private let log = Logger(label: "kiosk.drm")

    /// Takes over `device` (already DRM master, normally opened through libseat); `atomic` asks for atomic
    /// modesetting, which is used when the driver supports it. Records the CRTC state found, to restore it.
    public init(device: DRMDevice, cardName: String, atomic: Bool) throws(DRMError) {
        self.device = device
        self.cardName = cardName
        usesAtomic = atomic && device.enableAtomic()
        let resources = try device.resources()
        initialCRTCs = resources.crtcs.compactMap { try? device.crtcState($0) }
        for id in resources.connectors {
            guard let connector = try? device.connector(id), let encoder = connector.encoderID,
                  let crtc = device.crtc(ofEncoder: encoder) else { continue }
            initialConnectorsOfCRTC[crtc, default: []].append(id)
        }
        if usesAtomic {
            planes = (try? device.planes()) ?? []
            for crtc in resources.crtcs {
                let properties = (try? device.crtcProperties(crtc)) ?? []
                crtcProperties[crtc] = Dictionary(properties.map { ($0.name, $0.id) }, uniquingKeysWith: { first, _ in first })
            }
        }
        log.info("\(cardName): driver \(device.driverName ?? "?"), \(usesAtomic ? "atomic" : "legacy") modesetting, \(resources.connectors.count) connectors, \(resources.crtcs.count) CRTCs")
        let source = DispatchSource.makeReadSource(fileDescriptor: device.fileDescriptor, queue: .main)
        source.setEventHandler { [weak self] in
            MainActor.assumeIsolated { self?.readEvents() }
        }
        source.resume()
        eventSource = source
    }

    // MARK: Reading connectors

    /// Reads every connector again (a real probe: the kernel asks the displays).
    public func probe() throws(DRMError) -> [Connector] {
        let resources = try device.resources()
        var result: [Connector] = []
        for id in resources.connectors {
            let info: DRMConnector
            do { info = try device.connector(id, crtcs: resources.crtcs) } catch {
                log.warning("\(cardName): skipping \(id): \(error)")
                continue
            }
            let modes = info.modes.map { Screen.Mode(width: $0.width, height: $0.height, refreshRate: $0.refreshRate, isInterlaced: $0.isInterlaced) }
            var currentCRTC: DRMCRTCID?
            var currentMode: Screen.Mode?
            if let output = outputs[id] {
                currentCRTC = output.crtc
                currentMode = output.screenMode
            } else if let encoder = info.encoderID, let crtc = device.crtc(ofEncoder: encoder),
                      let state = try? device.crtcState(crtc), let mode = state.mode {
                currentCRTC = crtc
                currentMode = Screen.Mode(width: mode.width, height: mode.height, refreshRate: mode.refreshRate, isInterlaced: mode.isInterlaced)
            }
            let connector = Connector(info: info, modes: modes, preferredIndex: info.modes.firstIndex { $0.isPreferred },
                                      currentCRTC: currentCRTC, currentMode: currentMode, edid: device.edid(of: info),
                                      panelOrientation: Self.rotation(panelOrientation: info.property(named: "panel orientation")?.enumName),
                                      linkStatusBad: info.property(named: "link-status")?.enumName == "Bad")
            lastProbe[id] = connector
            result.append(connector)
        }
        return result
    }

    /// The kernel's `panel orientation` names as rotations that turn the content upright.
    static func rotation(panelOrientation: String?) -> Rotation? {
        switch panelOrientation {
        case "Normal": .normal
        case "Upside Down": .rotated180
        case "Left Side Up": .rotated90
        case "Right Side Up": .rotated270
        default: nil
        }
    }

    /// The `Screen` of a connector name, the same object for the life of the process.
    public func screen(named name: String) -> Screen {
        if let screen = screensByName[name] { return screen }
        let screen = Screen(name: name, backend: self)
        screensByName[name] = screen
        return screen
    }

    /// The outputs lit now: connector → CRTC and connector name.
    public var litOutputs: [DRMConnectorID: (crtc: DRMCRTCID, name: String)] { outputs.mapValues { ($0.crtc, $0.name) } }

    /// The mode lit on a connector, as the window model sees it.
    public func litMode(of connector: DRMConnectorID) -> Screen.Mode? { outputs[connector]?.screenMode }

    // MARK: Lighting outputs

    /// Lights one output: buffers of the mode's size, then an atomic commit (TEST_ONLY first) or
    /// `SetCrtc`. Other outputs are not touched. Throws what the driver refused; nothing changes then.
    public func light(_ plan: OutputPlan) throws(DRMError) {
        guard let connector = lastProbe[plan.connector] else {
            throw DRMError(operation: "light", errno: ENOENT, detail: "\(plan.connector) was not probed")
        }
        let mode: DRMModeInfo
        if let index = plan.modeIndex {
            mode = connector.info.modes[index]
        } else {
            // Keep what the CRTC shows: read its mode; our buffers replace the framebuffer without a modeset
            // only on the atomic path (legacy SetCrtc with the same mode is also flicker-free on most drivers).
            guard let current = try device.crtcState(plan.crtc).mode else {
                throw DRMError(operation: "drmModeGetCrtc", errno: ENOENT, detail: "\(plan.crtc) has no mode to keep")
            }
            mode = current
        }
        let buffers = [try device.createDumbBuffer(width: mode.width, height: mode.height),
                       try device.createDumbBuffer(width: mode.width, height: mode.height)]
        let output = Output(connector: plan.connector, name: connector.name, crtc: plan.crtc, mode: mode, buffers: buffers)
        if usesAtomic {
            let plane = try primaryPlane(for: plan.crtc)
            output.primaryPlane = plane
            let blob = try device.createModeBlob(mode)
            do {
                let request = try atomicRequest(lighting: output, plane: plane, modeBlob: blob, connector: connector.info)
                try device.commit(request, flags: [.testOnly, .allowModeset])
                try device.commit(request, flags: [.allowModeset])
            } catch {
                device.destroyBlob(blob)
                throw error
            }
            if let old = outputs[plan.connector]?.modeBlob { device.destroyBlob(old) }
            output.modeBlob = blob
        } else {
            try device.setCRTC(plan.crtc, framebuffer: buffers[0].framebuffer, connectors: [plan.connector], mode: mode)
        }
        outputs[plan.connector]?.release()
        outputs[plan.connector] = output
        log.info("\(connector.name): lit \(mode) on \(plan.crtc)\(plan.modeIndex == nil ? " (kept the current mode)" : "")")
    }

    /// Turns an output off and frees its buffers.
    public func turnOff(_ connectorID: DRMConnectorID) {
        guard let output = outputs.removeValue(forKey: connectorID) else { return }
        do {
            if usesAtomic, let plane = output.primaryPlane {
                let request = DRMAtomicRequest()
                try set(request, connector: connectorID, "CRTC_ID", 0)
                try set(request, crtc: output.crtc, "ACTIVE", 0)
                try set(request, crtc: output.crtc, "MODE_ID", 0)
                try set(request, plane: plane, "FB_ID", 0)
                try set(request, plane: plane, "CRTC_ID", 0)
                try device.commit(request, flags: [.allowModeset])
            } else {
                try device.setCRTC(output.crtc, framebuffer: nil, connectors: [], mode: nil)
            }
        } catch {
            // A connector that vanished may refuse; its CRTC is reused or restored later anyway.
            log.warning("\(output.name): turning off \(output.crtc) failed: \(error)")
        }
        if let blob = output.modeBlob { device.destroyBlob(blob) }
        output.release()
        log.info("\(output.name): off, \(output.crtc) released")
    }

    private func primaryPlane(for crtc: DRMCRTCID) throws(DRMError) -> DRMPlaneID {
        let used = Set(outputs.values.compactMap { $0.crtc == crtc ? nil : $0.primaryPlane })
        if let plane = planes.first(where: { $0.isPrimary && $0.possibleCRTCs.contains(crtc) && !used.contains($0.id) }) {
            return plane.id
        }
        throw DRMError(operation: "primaryPlane", errno: ENOENT, detail: "no free primary plane for \(crtc)")
    }

    private func atomicRequest(lighting output: Output, plane: DRMPlaneID, modeBlob: DRMBlobID,
                               connector: DRMConnector) throws(DRMError) -> DRMAtomicRequest {
        let request = DRMAtomicRequest()
        let width = UInt64(output.mode.width), height = UInt64(output.mode.height)
        try set(request, connector: connector.id, "CRTC_ID", UInt64(output.crtc.rawValue))
        try set(request, crtc: output.crtc, "MODE_ID", UInt64(modeBlob.rawValue))
        try set(request, crtc: output.crtc, "ACTIVE", 1)
        try set(request, plane: plane, "FB_ID", UInt64(output.buffers[0].framebuffer.rawValue))
        try set(request, plane: plane, "CRTC_ID", UInt64(output.crtc.rawValue))
        // Source coordinates are 16.16 fixed point.
        for (name, value) in [("SRC_X", 0), ("SRC_Y", 0), ("SRC_W", width << 16), ("SRC_H", height << 16),
                              ("CRTC_X", 0), ("CRTC_Y", 0), ("CRTC_W", width), ("CRTC_H", height)] as [(String, UInt64)] {
            try set(request, plane: plane, name, value)
        }
        return request
    }

    private func set(_ request: DRMAtomicRequest, connector: DRMConnectorID, _ name: String, _ value: UInt64) throws(DRMError) {
        guard let property = lastProbe[connector]?.info.property(named: name)?.id else {
            throw DRMError(operation: "drmModeAtomicAddProperty", errno: ENOENT, detail: "\(connector) has no \(name)")
        }
        try request.set(object: connector.rawValue, property: property, value: value)
    }

    private func set(_ request: DRMAtomicRequest, crtc: DRMCRTCID, _ name: String, _ value: UInt64) throws(DRMError) {
        guard let property = crtcProperties[crtc]?[name] else {
            throw DRMError(operation: "drmModeAtomicAddProperty", errno: ENOENT, detail: "\(crtc) has no \(name)")
        }
        try request.set(object: crtc.rawValue, property: property, value: value)
    }

    private func set(_ request: DRMAtomicRequest, plane: DRMPlaneID, _ name: String, _ value: UInt64) throws(DRMError) {
        guard let property = planes.first(where: { $0.id == plane })?.properties.first(where: { $0.name == name })?.id else {
            throw DRMError(operation: "drmModeAtomicAddProperty", errno: ENOENT, detail: "\(plane) has no \(name)")
        }
        try request.set(object: plane.rawValue, property: property, value: value)
    }

    // MARK: DisplayBackend

    /// App code set `screen.currentMode`: modeset that output with the matching mode on its CRTC.
    public func apply(_ mode: Screen.Mode, to screen: Screen) throws {
        guard let (id, output) = outputs.first(where: { $0.value.name == screen.name }), let connector = lastProbe[id],
              let index = connector.modes.firstIndex(of: mode) else {
            throw DRMError(operation: "apply", errno: ENOENT, detail: "\(screen.name) is not lit or does not offer \(mode)")
        }
        try light(OutputPlan(connector: id, crtc: output.crtc, modeIndex: index))
    }

    // MARK: FrameOutput

    public func nextBuffer(for screen: Screen) -> FrameBuffer? {
        guard !isPaused, let output = outputs.values.first(where: { $0.name == screen.name }), !output.flipPending else { return nil }
        let back = 1 - output.front
        let age = output.lastPresented[back] == 0 ? 0 : output.frameNumber + 1 - output.lastPresented[back]
        return FrameBuffer(bitmap: output.bitmaps[back], age: age)
    }

    public func present(_ buffer: FrameBuffer, for screen: Screen, damage: Region) {
        guard let output = outputs.values.first(where: { $0.name == screen.name }),
              let index = output.bitmaps.firstIndex(where: { $0 === buffer.bitmap }) else { return }
        output.frameNumber += 1
        output.lastPresented[index] = output.frameNumber
        output.pending = index
        do {
            if usesAtomic, let plane = output.primaryPlane {
                let request = DRMAtomicRequest()
                try set(request, plane: plane, "FB_ID", UInt64(output.buffers[index].framebuffer.rawValue))
                try device.commit(request, flags: [.nonblocking, .pageFlipEvent])
            } else {
                try device.pageFlip(output.crtc, to: output.buffers[index].framebuffer)
            }
        } catch {
            // Lost master (a session switch) or a driver hiccup: no event will come; let the next frame
            // start so nothing waits forever, and repaint it whole.
            log.error("\(output.name): page flip failed: \(error)")
            output.pending = nil
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    self.compositor?.setNeedsFullRepaint(screen)
                    self.compositor?.framePresented(on: screen)
                }
            }
            return
        }
        output.flipPending = true
        let timeout = DispatchWorkItem { [weak self, weak output] in
            MainActor.assumeIsolated {
                guard let self, let output, output.flipPending else { return }
                self.log.error("\(output.name): page flip on \(output.crtc) did not complete within \(self.flipTimeout) s; recovering")
                self.completeFlip(output)
            }
        }
        output.flipTimeout = timeout
        DispatchQueue.main.asyncAfter(deadline: .now() + flipTimeout, execute: timeout)
    }

    private func readEvents() {
        do {
            try device.handleEvents { event in
                guard let output = outputs.values.first(where: { $0.crtc == event.crtc }) else { return }
                completeFlip(output)
            }
        } catch {
            log.error("\(cardName): reading DRM events failed: \(error)")
        }
    }

    private func completeFlip(_ output: Output) {
        output.flipTimeout?.cancel()
        output.flipTimeout = nil
        output.flipPending = false
        if let pending = output.pending { output.front = pending }
        output.pending = nil
        if let screen = screensByName[output.name] { compositor?.framePresented(on: screen) }
    }

    // MARK: Session

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
            let index = lastProbe[id]?.info.modes.firstIndex(of: output.mode)
            do {
                try light(OutputPlan(connector: id, crtc: output.crtc, modeIndex: index))
            } catch {
                log.error("\(output.name): re-modeset after resume failed: \(error)")
            }
            if let screen = screensByName[output.name] { compositor?.setNeedsFullRepaint(screen) }
        }
        log.info("\(cardName): resumed")
    }

    // MARK: Shutdown

    /// Puts back the CRTC state found at start (the console's framebuffer and mode), then frees our
    /// buffers, in that order so the console never shows a removed framebuffer.
    public func restoreInitialState() {
        eventSource?.cancel()
        eventSource = nil
        for state in initialCRTCs {
            do {
                if let framebuffer = state.framebuffer, let mode = state.mode {
                    try device.setCRTC(state.id, framebuffer: framebuffer, x: state.x, y: state.y,
                                       connectors: initialConnectorsOfCRTC[state.id] ?? [], mode: mode)
                } else if outputs.values.contains(where: { $0.crtc == state.id }) {
                    try device.setCRTC(state.id, framebuffer: nil, connectors: [], mode: nil)
                }
            } catch {
                log.warning("\(cardName): restoring \(state.id) failed: \(error)")
            }
        }
        for output in outputs.values {
            if let blob = output.modeBlob { device.destroyBlob(blob) }
            output.release()
        }
        outputs.removeAll()
        log.info("\(cardName): restored the display state found at start")
    }
}

/// A lit output: its CRTC, mode, and two dumb buffers shown in turn.
@MainActor
final class Output {
    let connector: DRMConnectorID
    let name: String
    let crtc: DRMCRTCID
    let mode: DRMModeInfo
    let buffers: [DRMDumbBuffer]
    /// The dumb buffers as bitmaps the compositor copies into (write-only: scanout memory).
    let bitmaps: [Bitmap]
    var primaryPlane: DRMPlaneID?
    var modeBlob: DRMBlobID?
    /// The buffer on screen.
    var front = 0
    /// The buffer waiting for its flip.
    var pending: Int?
    var flipPending = false
    var flipTimeout: DispatchWorkItem?
    /// Frames presented on this output; `lastPresented[i]` is the number of the frame buffer i holds (0: none).
    var frameNumber = 0
    var lastPresented = [0, 0]

    init(connector: DRMConnectorID, name: String, crtc: DRMCRTCID, mode: DRMModeInfo, buffers: [DRMDumbBuffer]) {
        self.connector = connector
        self.name = name
        self.crtc = crtc
        self.mode = mode
        self.buffers = buffers
        bitmaps = buffers.map { Bitmap(wrapping: $0.pixels, width: $0.width, height: $0.height, stride: $0.pitch, format: .xrgb8888) }
    }

    var screenMode: Screen.Mode {
        Screen.Mode(width: mode.width, height: mode.height, refreshRate: mode.refreshRate, isInterlaced: mode.isInterlaced)
    }

    func release() {
        flipTimeout?.cancel()
        for buffer in buffers { buffer.release() }
    }
}
