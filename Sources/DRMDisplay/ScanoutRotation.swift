import DRM
import KioskKit

/// The value of a primary plane's `rotation` property (`DRM_MODE_ROTATE_*` | `DRM_MODE_REFLECT_*`) that turns
/// a frame by a screen's rotation as the display scans it out, so the compositor hands over the frame upright
/// and copies nothing through the rotation: a pure function of the rotation and the bits the plane offers.
///
/// Only the rotations that keep the buffer's axes: 180 (`rotate-180`, else both reflections), `flipped` (the
/// kiosk mirrors left to right: `reflect-x`) and `flipped-180` (mirrored, then turned: upside down, `reflect-y`,
/// else `rotate-180` with `reflect-x`). A quarter turn would need the buffer in the panel's size turned,
/// which scanout engines take only from tiled buffers (vc4 offers 0, 180 and the reflections).
enum ScanoutRotation {
    static func value(for rotation: Rotation, offered property: DRMProperty) -> UInt64? {
        guard case .bitmask(let cases) = property.kind else { return nil }
        let bits = Dictionary(cases.map { ($0.name, $0.bit) }, uniquingKeysWith: { first, _ in first })
        func mask(_ names: String...) -> UInt64? {
            var value: UInt64 = 0
            for name in names {
                guard let bit = bits[name], bit < 64 else { return nil }
                value |= 1 << bit
            }
            return value
        }
        switch rotation {
        case .normal: return mask("rotate-0")
        case .rotated180: return mask("rotate-180") ?? mask("rotate-0", "reflect-x", "reflect-y")
        case .flipped: return mask("rotate-0", "reflect-x")
        case .flipped180: return mask("rotate-0", "reflect-y") ?? mask("rotate-180", "reflect-x")
        case .rotated90, .rotated270, .flipped90, .flipped270: return nil
        }
    }
}
