import DRM
import Foundation
import Logging
import Udev

/// Finding the DRM card to drive: every `/dev/dri/card*` in natural order (card2 before card10), skipping
/// nodes that cannot modeset, have no connectors or no dumb buffers, each rejection logged with its reason.
enum DRMCards {
    /// The DRM card nodes udev knows (subsystem `drm`, `card*`), natural order; `/dev/dri` when udev
    /// cannot be read.
    static func nodes() -> [String] {
        if let udev = try? Udev(), let cards = try? udev.devices(subsystem: "drm", sysname: "card[0-9]*") {
            return cards.compactMap(\.devnode)
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/dri")) ?? []
        return names.filter { $0.hasPrefix("card") && Int($0.dropFirst(4)) != nil }
            .sorted { Int($0.dropFirst(4))! < Int($1.dropFirst(4))! }
            .map { "/dev/dri/\($0)" }
    }

    /// Why `device` cannot be the kiosk's card, or nil when it can.
    static func rejection(of device: DRMDevice) -> String? {
        guard device.isKMS else { return "not a modesetting device (render-only)" }
        guard let resources = try? device.resources() else { return "drmModeGetResources failed" }
        guard !resources.connectors.isEmpty else { return "has no connectors" }
        guard !resources.crtcs.isEmpty else { return "has no CRTCs" }
        guard device.supportsDumbBuffers else { return "cannot allocate dumb buffers" }
        return nil
    }

    /// `card0` for `/dev/dri/card0`.
    static func name(of path: String) -> String { URL(fileURLWithPath: path).lastPathComponent }
}
