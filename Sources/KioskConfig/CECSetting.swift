/// A screen's HDMI-CEC adapter (`[screens.NAME] cec`, `--cec NAME=VALUE`): which `/dev/cecN` puts its TV in
/// standby and wakes it.
public enum CECSetting: Sendable, Hashable, CustomStringConvertible {
    /// The adapter the kernel ties to the screen's connector (`CEC_ADAP_G_CONNECTOR_INFO`), if any.
    case auto
    /// No HDMI-CEC for this screen.
    case off
    /// This adapter, whatever connector it belongs to (USB adapters, and adapters the kernel ties to none).
    case device(String)

    /// `auto`, `off` or an absolute device path (`/dev/cec0`); nil for anything else.
    public init?(spelling: String) {
        switch spelling.lowercased() {
        case "auto": self = .auto
        case KioskConfiguration.offSpelling: self = .off
        default:
            guard spelling.hasPrefix("/"), spelling.count > 1 else { return nil }
            self = .device(spelling)
        }
    }

    public static let validSpellings = "auto, off, or an adapter's device path (/dev/cec0)"

    public var description: String {
        switch self {
        case .auto: "auto"
        case .off: KioskConfiguration.offSpelling
        case .device(let path): path
        }
    }
}
