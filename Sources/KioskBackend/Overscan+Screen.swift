import KioskConfig
import KioskKit

extension Screen {
    /// Takes the screen's `overscan` setting, which every display backend applies where it applies the
    /// rotation: the safe area of the screen's windows leaves it out.
    public func apply(overscan: Overscan) {
        overscanInsets = EdgeInsets(
            top: Double(overscan.top), left: Double(overscan.left), bottom: Double(overscan.bottom), right: Double(overscan.right))
    }
}
