import DRM
import KioskKit

/// Rotation by the primary plane (`rotation` property, `ScanoutRotation`): where the driver offers the
/// screen's rotation and accepts it in the lighting commit (TEST_ONLY), the compositor hands over frames
/// upright and the display turns them; else the compositor copies each frame through the rotation, as on
/// drivers without the property (virtio-gpu, bochs, vkms in 6.1). Said once per output either way.
extension DRMDisplay {
    public func rotatesInScanout(_ rotation: Rotation, for screen: Screen) -> Bool {
        guard usesAtomic, let output = output(for: screen) else { return false }
        return output.scanoutRotation?.rotation == rotation
    }

    /// Whether `output`'s primary plane turns frames by `rotation`: offered, and its lighting commit with it
    /// passes a TEST_ONLY. Remembered in `output.scanoutRotation`.
    func checkScanoutRotation(_ rotation: Rotation, of output: Output, connector: DRMConnector, active: Bool) -> Bool {
        output.scanoutRotation = nil
        guard rotation != .normal, let property = rotationProperty(of: output) else { return false }
        guard let value = ScanoutRotation.value(for: rotation, offered: property) else {
            output.note("\(output.name): its plane cannot turn frames by \(rotation); the compositor turns them", log: log)
            return false
        }
        output.scanoutRotation = (rotation, value)
        do {
            try commitLighting(output, buffer: 0, connector: connector, active: active, testOnly: true)
        } catch {
            output.scanoutRotation = nil
            output.note(
                "\(output.name): the driver refused turning frames by \(rotation) on its plane (\(error)); the compositor turns them",
                log: log)
            return false
        }
        output.note(
            "\(output.name): its plane turns frames by \(rotation) (rotation \(value)); the compositor copies none through it", log: log)
        return true
    }

    /// Sets the primary plane's `rotation` to turn by `rotation` (rotate-0 for normal), where it has one.
    func setScanoutRotation(_ request: DRMAtomicRequest, of output: Output, to rotation: Rotation) throws(DRMError) {
        guard let plane = output.primaryPlane, let property = rotationProperty(of: output) else { return }
        let value =
            rotation == output.scanoutRotation?.rotation
            ? output.scanoutRotation?.value : ScanoutRotation.value(for: .normal, offered: property)
        guard let value else { return }
        try request.set(object: plane.rawValue, property: property.id, value: value)
    }

    private func rotationProperty(of output: Output) -> DRMProperty? {
        guard let plane = output.primaryPlane else { return nil }
        return planes.first { $0.id == plane }?.property(named: "rotation")
    }
}
