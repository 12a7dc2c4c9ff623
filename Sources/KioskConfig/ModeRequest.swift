/// What the config (or the command line) asks of a connector's mode: `preferred`, `current`, `off`,
/// `WxH` or `WxH@Hz` (fractional Hz allowed: `1920x1080@59.94`).
public enum ModeRequest: Hashable, Sendable, CustomStringConvertible {
    case preferred
    /// Keep the mode firmware or the boot splash set: no modeset, no flicker.
    case current
    case off
    /// A size, and a refresh rate when given (nil: the highest of that size).
    case size(width: Int, height: Int, refresh: Double?)

    /// The spellings the config accepts, for error messages.
    public static let validSpellings = "preferred, current, off, WxH (e.g. 1920x1080) or WxH@Hz (e.g. 1920x1080@60 or 1920x1080@59.94)"

    public init?(_ text: String) {
        switch text.lowercased() {
        case "preferred": self = .preferred
        case "current": self = .current
        case "off": self = .off
        default:
            let parts = text.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
            let size = parts[0].split(separator: "x", omittingEmptySubsequences: false)
            guard size.count == 2, let width = Int(size[0]), let height = Int(size[1]), width > 0, height > 0 else { return nil }
            var refresh: Double?
            if parts.count == 2 {
                guard let hz = Double(parts[1]), hz.isFinite, hz > 0 else { return nil }
                refresh = hz
            }
            self = .size(width: width, height: height, refresh: refresh)
        }
    }

    public var description: String {
        switch self {
        case .preferred: "preferred"
        case .current: "current"
        case .off: "off"
        case let .size(width, height, refresh):
            refresh.map { "\(width)x\(height)@\(Self.format($0))" } ?? "\(width)x\(height)"
        }
    }

    private static func format(_ hz: Double) -> String {
        hz.rounded() == hz ? String(Int(hz)) : String(hz)
    }
}
