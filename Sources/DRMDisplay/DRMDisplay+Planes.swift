import DRM
import Glibc
import KioskKit
import Logging

/// The overlay and cursor planes of each lit output's CRTC, handed to the compositor (`FrameOutput`):
/// described as it needs them (`planes(for:)`), proposals checked with an atomic TEST_ONLY commit
/// (`accepts`), and shown with the frame in one commit (`present`, `DRMDisplay+Frames.swift`). Each plane
/// has two dumb buffers of its own: new pixels go into the one not on screen. What an output uses, and what
/// the driver refused, is logged once per output. The legacy API has no planes: there the compositor
/// composes everything, as on fbdev.
extension DRMDisplay {
    public func planes(for screen: Screen) -> [DisplayPlane] {
        // Not before the first frame: that one is the lighting commit (`showFirstFrame`).
        guard usesAtomic, !isPaused, let output = output(for: screen), output.isShown else { return [] }
        return output.displayPlanes
    }

    public func accepts(_ layers: [PlaneLayer], for screen: Screen) -> Bool {
        guard usesAtomic, !isPaused, let output = output(for: screen), let primary = output.primaryPlane else { return false }
        do {
            let request = DRMAtomicRequest()
            try set(request, plane: primary, "FB_ID", UInt64(output.buffers[output.front].framebuffer.rawValue))
            _ = try set(request, planes: layers, of: output, testOnly: true)
            try card.commit(request, flags: [.testOnly])
            return true
        } catch {
            output.note(
                "\(output.name): the driver refused \(layers.map(Self.describe).joined(separator: " and ")) (\(error)); "
                    + (layers.count > 1 ? "trying fewer planes" : "composed instead"), log: log)
            return false
        }
    }

    /// The planes this output's CRTC can use, as the compositor sees them: overlay and cursor planes that no
    /// other output of ours has, in a format the kiosk draws. Logged once per output.
    func describePlanes(of output: Output) {
        guard usesAtomic else {
            output.note("\(output.name): every layer composed (the legacy modesetting API has no planes)", log: log)
            return
        }
        let taken = Set(outputs.values.filter { $0.connector != output.connector }.flatMap { $0.displayPlanes.map(\.id) })
        let cursor = card.cursorSize
        output.displayPlanes = Self.displayPlanes(
            of: planes, crtc: output.crtc, taken: taken, cursorSize: DisplayPlane.BufferSize(width: cursor.width, height: cursor.height),
            modeSize: DisplayPlane.BufferSize(width: output.mode.width, height: output.mode.height))
        let list = output.displayPlanes.map { "\($0)\($0.requiredSize.map { " (\($0.width)x\($0.height))" } ?? "")" }
        output.note(
            "\(output.name): \(list.isEmpty ? "no overlay or cursor planes on \(output.crtc): every layer composed" : "planes for layers on \(output.crtc): \(list.joined(separator: ", "))")",
            log: log)
    }

    /// The planes a CRTC can use, as the compositor sees them (pure): overlay and cursor planes that can be
    /// on `crtc` and are not `taken` by another output, in a format the kiosk draws (ARGB8888 where its blend
    /// is premultiplied, XRGB8888), stacked by `zpos` (else overlays, then the cursor), a cursor plane at the
    /// driver's cursor size, none larger than the mode.
    nonisolated static func displayPlanes(
        of planes: [DRMPlane], crtc: DRMCRTCID, taken: Set<UInt32>, cursorSize: DisplayPlane.BufferSize,
        modeSize: DisplayPlane.BufferSize
    ) -> [DisplayPlane] {
        planes.compactMap { plane in
            guard plane.kind != .primary, plane.possibleCRTCs.contains(crtc), !taken.contains(plane.id.rawValue) else { return nil }
            var formats: Set<PixelFormat> = []
            // ARGB8888 blends premultiplied under the default `pixel blend mode` (and where there is no such
            // property): pixman's a8r8g8b8, what the compositor paints. Set again in each commit.
            if plane.formats.contains(DRMFormat.argb8888), plane.property(named: "pixel blend mode").map(Self.offersPremultiplied) ?? true {
                formats.insert(.argb32Premultiplied)
            }
            if plane.formats.contains(DRMFormat.xrgb8888) { formats.insert(.xrgb8888) }
            guard !formats.isEmpty else { return nil }
            let kind: DisplayPlane.Kind = plane.kind == .cursor ? .cursor : .overlay
            // Without zpos, drivers stack overlays over the primary and the cursor over them.
            let zOrder = plane.zpos.map { Int(clamping: $0) } ?? (kind == .cursor ? 2 : 1)
            return DisplayPlane(
                id: plane.id.rawValue, kind: kind, formats: formats, zOrder: zOrder,
                requiredSize: kind == .cursor ? cursorSize : nil,
                maximumSize: modeSize)
        }
    }

    /// Adds `layers` to `request` on their planes of `output` (their buffers made as needed; new pixels
    /// copied into the buffer not on screen unless `testOnly`), and turns off the planes in use that are not
    /// among them. Returns the buffer each plane shows after the commit.
    func set(_ request: DRMAtomicRequest, planes layers: [PlaneLayer], of output: Output, testOnly: Bool) throws(DRMError)
        -> [UInt32: Int]
    {
        var shown: [UInt32: Int] = [:]
        for layer in layers {
            let plane = DRMPlaneID(rawValue: layer.plane.id)
            let destination = layer.destination
            let buffers = try planeBuffers(for: layer, of: output)
            var index = buffers.front ?? 0
            if !testOnly, let content = layer.content {
                index = buffers.front.map { 1 - $0 } ?? 0
                buffers.bitmaps[index].composite(content, operation: .source, destination: buffers.bitmaps[index].bounds)
            }
            shown[layer.plane.id] = index
            let width = UInt64(destination.width), height = UInt64(destination.height)
            try set(request, plane: plane, "FB_ID", UInt64(buffers.buffers[index].framebuffer.rawValue))
            try set(request, plane: plane, "CRTC_ID", UInt64(output.crtc.rawValue))
            // Source coordinates are 16.16 fixed point; CRTC_X and _Y are signed (a cursor past the left edge).
            for (name, value) in [
                ("SRC_X", 0), ("SRC_Y", 0), ("SRC_W", width << 16), ("SRC_H", height << 16),
                ("CRTC_X", UInt64(bitPattern: Int64(destination.x))), ("CRTC_Y", UInt64(bitPattern: Int64(destination.y))),
                ("CRTC_W", width), ("CRTC_H", height),
            ] as [(String, UInt64)] {
                try set(request, plane: plane, name, value)
            }
            if let blend = planes.first(where: { $0.id == plane })?.property(named: "pixel blend mode"),
                let premultiplied = Self.premultipliedValue(of: blend)
            {
                try request.set(object: plane.rawValue, property: blend.id, value: premultiplied)
            }
        }
        for id in output.planesInUse where shown[id] == nil {
            try set(request, plane: DRMPlaneID(rawValue: id), "FB_ID", 0)
            try set(request, plane: DRMPlaneID(rawValue: id), "CRTC_ID", 0)
        }
        return shown
    }

    /// The two buffers of `layer`'s plane, made again when its size or format changed.
    private func planeBuffers(for layer: PlaneLayer, of output: Output) throws(DRMError) -> PlaneBuffers {
        let width = Int(layer.destination.width), height = Int(layer.destination.height)
        let format = layer.format == .argb32Premultiplied ? DRMFormat.argb8888 : DRMFormat.xrgb8888
        if let buffers = output.planeBuffers[layer.plane.id], buffers.width == width, buffers.height == height, buffers.format == format {
            return buffers
        }
        let made = [
            try card.dumbBuffer(width: width, height: height, format: format),
            try card.dumbBuffer(width: width, height: height, format: format),
        ]
        // The old ones stay until the commit that replaces them has shown: a plane in use keeps its buffer.
        if let old = output.planeBuffers[layer.plane.id] { output.retiredPlaneBuffers.append(old) }
        let buffers = PlaneBuffers(buffers: made, format: format, pixelFormat: layer.format)
        output.planeBuffers[layer.plane.id] = buffers
        return buffers
    }

    static func describe(_ layer: PlaneLayer) -> String {
        "a \(layer.destination.width)x\(layer.destination.height) layer on \(layer.plane)"
    }

    nonisolated static func offersPremultiplied(_ property: DRMProperty) -> Bool { premultipliedValue(of: property) != nil }

    nonisolated static func premultipliedValue(of property: DRMProperty) -> UInt64? {
        guard case .enumeration(let cases) = property.kind else { return nil }
        return cases.first { $0.name == "Pre-multiplied" }?.value
    }
}

/// A plane's two dumb buffers and what the compositor draws them as.
@MainActor
final class PlaneBuffers {
    let buffers: [any KMSDumbBuffer]
    let bitmaps: [Bitmap]
    /// The fourcc of their framebuffers.
    let format: UInt32
    var width: Int { buffers[0].width }
    var height: Int { buffers[0].height }
    /// The buffer on screen; nil before the first commit that showed one.
    var front: Int?

    init(buffers: [any KMSDumbBuffer], format: UInt32, pixelFormat: PixelFormat) {
        self.buffers = buffers
        self.format = format
        bitmaps = buffers.map { Bitmap(wrapping: $0.pixels, width: $0.width, height: $0.height, stride: $0.pitch, format: pixelFormat) }
    }

    func release() { for buffer in buffers { buffer.release() } }
}

extension Output {
    /// After a commit: `shown` is the buffer each plane shows now; planes not in it are off.
    func planesShown(_ shown: [UInt32: Int], layers: [PlaneLayer], log: Logger) {
        for layer in layers where !planesInUse.contains(layer.plane.id) {
            note("\(name): \(DRMDisplay.describe(layer)), composing nothing for it", log: log)
        }
        for (id, index) in shown { planeBuffers[id]?.front = index }
        for id in planesInUse where shown[id] == nil { planeBuffers[id]?.front = nil }
        planesInUse = Set(shown.keys)
        for old in retiredPlaneBuffers { old.release() }
        retiredPlaneBuffers.removeAll()
    }

    /// Logs `message` the first time this output says it.
    func note(_ message: String, log: Logger) {
        guard planeNotes.insert(message).inserted else { return }
        log.info("\(message)")
    }
}
