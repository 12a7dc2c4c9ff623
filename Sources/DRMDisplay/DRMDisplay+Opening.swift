import DRM
import KioskBackend
import Logging

/// Finding and opening the card for `init(context:)`: the real path, which the unit tests' in-memory card
/// (`KMSCard`) skips. udev lists the cards (or the configuration names one), the seat opens each in turn,
/// and the first that can drive a display is taken.
extension DRMDisplay {
    /// A card opened through the seat that can drive a display: what `init(context:)` is made from.
    struct OpenedCard {
        var device: DRMDevice
        var path: String
        var session: any DeviceSession
        var seatDevice: OpenedDevice
        var usesAtomic: Bool
        var resources: (crtcs: [DRMCRTCID], connectors: [DRMConnectorID])
    }

    /// Opens the configured `drm-device`, else the first usable card udev lists; each card skipped is
    /// logged with why. A named card that cannot be used is `.failed`, none usable `.unavailable`.
    static func openCard(_ context: BackendContext) throws(BackendError) -> OpenedCard {
        let configuration = context.configuration
        let named = configuration.drmDevice
        let candidates = named.map { [$0] } ?? DRMCards.nodes()
        guard !candidates.isEmpty else { throw .unavailable(name, "no DRM card (udev lists no drm card*)") }
        let session = try context.session()
        var rejections: [String] = []
        for path in candidates {
            let opened: OpenedDevice
            do { opened = try session.openDevice(path: path) } catch {
                rejections.append("\(path): \(error.reason)")
                continue
            }
            let device = DRMDevice(fileDescriptor: opened.fileDescriptor, path: path)
            if let reason = DRMCards.rejection(of: device) {
                rejections.append("\(path): \(reason)")
                session.closeDevice(opened)
                continue
            }
            let atomic = !configuration.noAtomic && device.enableAtomic()
            let resources: (crtcs: [DRMCRTCID], connectors: [DRMConnectorID])
            do { resources = try device.resources() } catch {
                rejections.append("\(path): \(error)")
                session.closeDevice(opened)
                continue
            }
            for rejection in rejections { Logger(label: "kiosk.drm").info("skipped \(rejection)") }
            return OpenedCard(device: device, path: path, session: session, seatDevice: opened, usesAtomic: atomic, resources: resources)
        }
        let reason = rejections.isEmpty ? "no usable DRM card" : rejections.joined(separator: "; ")
        if named != nil { throw .failed(name, reason) }
        throw .unavailable(name, "no usable DRM card among \(candidates.joined(separator: ", ")): \(reason)")
    }
}
