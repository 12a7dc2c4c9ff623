import DRM
import Dispatch
import KioskKit

extension DRMDisplay {
    func output(for screen: Screen) -> Output? { outputs.values.first { $0.name == screen.name } }

    public func nextBuffer(for screen: Screen) -> FrameBuffer? {
        guard !isPaused, let output = output(for: screen), !output.flipPending else { return nil }
        let back = 1 - output.front
        let age = output.lastPresented[back] == 0 ? 0 : output.frameNumber + 1 - output.lastPresented[back]
        return FrameBuffer(bitmap: output.bitmaps[back], age: age)
    }

    public func present(_ buffer: FrameBuffer, for screen: Screen, damage: Region) {
        present(buffer, for: screen, damage: damage, planes: [])
    }

    /// Shows the frame in `buffer` (nil: the primary plane keeps its frame) and `planes` on their planes,
    /// in one atomic commit (`DRMDisplay+Planes.swift`); a plane that showed a layer and is not among them
    /// is turned off in it.
    public func present(_ buffer: FrameBuffer?, for screen: Screen, damage: Region, planes: [PlaneLayer]) {
        guard let output = output(for: screen) else { return }
        guard buffer != nil || !isPaused else {
            // Planes moved while the session is away (no master): shown again, whole, when it is back.
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    self.compositor?.setNeedsFullRepaint(screen)
                    self.compositor?.framePresented(on: screen)
                }
            }
            return
        }
        var index: Int?
        if let buffer {
            guard let shown = output.bitmaps.firstIndex(where: { $0 === buffer.bitmap }) else { return }
            index = shown
            output.frameNumber += 1
            output.lastPresented[shown] = output.frameNumber
            output.pending = shown
        }
        do {
            if let index, !output.isShown {
                return try showFirstFrame(output, buffer: index, on: screen)
            }
            if usesAtomic, let plane = output.primaryPlane {
                let request = DRMAtomicRequest()
                if let index {
                    try set(request, plane: plane, "FB_ID", UInt64(output.buffers[index].framebuffer.rawValue))
                    // The compositor painted the frame upright where the plane turns it (`rotatesInScanout`).
                    try setScanoutRotation(
                        request, of: output, to: rotatesInScanout(screen.rotation, for: screen) ? screen.rotation : .normal)
                }
                let shown = try set(request, planes: planes, of: output, testOnly: false)
                try card.commit(request, flags: [.nonblocking, .pageFlipEvent])
                output.planesShown(shown, layers: planes, log: log)
            } else if let index {
                try card.pageFlip(output.crtc, to: output.buffers[index].framebuffer)
            } else {
                return
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
        // A timer of the application's clock (a dispatch timer source), which the flip's completion really
        // removes: a cancelled `asyncAfter` still woke the idle kiosk (and dispatch's manager thread) a
        // second after each frame.
        let clock = application.clock
        output.flipTimeout = clock.schedule(at: clock.now + flipTimeout) { [weak self, weak output] in
            guard let self, let output, output.flipPending else { return }
            self.log.error("\(output.name): page flip on \(output.crtc) did not complete within \(self.flipTimeout) s; recovering")
            self.completeFlip(output)
        }
    }

    func readEvents() {
        do {
            try card.handleEvents { event in
                guard let output = outputs.values.first(where: { $0.crtc == event.crtc }) else { return }
                completeFlip(output, vblank: event.timestamp)
            }
        } catch {
            log.error("\(cardName): reading DRM events failed: \(error)")
        }
    }

    /// `vblank`: when the new frame went on screen (the flip event's CLOCK_MONOTONIC time); nil when the
    /// flip was given up on. The compositor hears it only from a CRTC with vblank interrupts: elsewhere it
    /// is just when the flip completed.
    func completeFlip(_ output: Output, vblank: TimeInterval? = nil) {
        output.flipTimeout?.cancel()
        output.flipTimeout = nil
        output.flipPending = false
        if let pending = output.pending { output.front = pending }
        output.pending = nil
        if let screen = screens.first(where: { $0.name == output.name }) {
            compositor?.framePresented(on: screen, at: output.hasVBlank ? vblank : nil)
        }
    }
}

/// A lit output: its CRTC, mode, and two dumb buffers shown in turn.
@MainActor
final class Output {
    let connector: DRMConnectorID
    let name: String
    let crtc: DRMCRTCID
    let mode: DRMModeInfo
    let buffers: [any KMSDumbBuffer]
    /// The dumb buffers as bitmaps the compositor copies into (write-only: scanout memory).
    let bitmaps: [Bitmap]
    var primaryPlane: DRMPlaneID?
    var modeBlob: DRMBlobID?
    /// Whether our buffers are on the CRTC: false from `light` to the first frame, while the display keeps
    /// what it showed (`DRMDisplay+FirstFrame.swift`).
    var isShown = false
    /// Whether the CRTC already showed `mode` for this connector when lit: then it is committed to
    /// without a modeset, unless the driver says one is needed (`needsModeset`).
    var keepsMode = false
    var needsModeset: Bool?
    /// The buffer on screen.
    var front = 0
    /// The buffer waiting for its flip.
    var pending: Int?
    var flipPending = false
    /// Whether the CRTC has vblank interrupts (`drmCrtcGetSequence` works on it): then its flips complete
    /// at a vblank and carry that vblank's time.
    var hasVBlank = true
    var flipTimeout: FrameTimer?
    /// Frames presented on this output; `lastPresented[i]` is the number of the frame buffer i holds (0: none).
    var frameNumber = 0
    var lastPresented = [0, 0]

    init(connector: DRMConnectorID, name: String, crtc: DRMCRTCID, mode: DRMModeInfo, buffers: [any KMSDumbBuffer]) {
        self.connector = connector
        self.name = name
        self.crtc = crtc
        self.mode = mode
        self.buffers = buffers
        bitmaps = buffers.map { Bitmap(wrapping: $0.pixels, width: $0.width, height: $0.height, stride: $0.pitch, format: .xrgb8888) }
    }

    /// What this output's overlay and cursor planes are given (`DRMDisplay+Planes.swift`): the planes the
    /// compositor may use, their buffers, and what has been logged about them.
    var displayPlanes: [DisplayPlane] = []
    var planeBuffers: [UInt32: PlaneBuffers] = [:]
    /// The planes showing a layer now.
    var planesInUse: Set<UInt32> = []
    /// Buffers a plane showed before it got new ones of another size: freed once a commit replaced them.
    var retiredPlaneBuffers: [PlaneBuffers] = []
    var planeNotes: Set<String> = []
    /// The rotation the primary plane turns frames by, checked when lit (`DRMDisplay+Rotation.swift`).
    var scanoutRotation: (rotation: Rotation, value: UInt64)?

    func release() {
        flipTimeout?.cancel()
        for buffer in buffers { buffer.release() }
        for planes in planeBuffers.values { planes.release() }
        for planes in retiredPlaneBuffers { planes.release() }
    }
}
