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
    public static let validSpellings =
        "preferred, current, off, WxH (e.g. 1920x1080) or WxH@Hz (e.g. 1920x1080@60 or 1920x1080@59.94), each side 1 to \(maximumSide), Hz at least 1 and under \(Int(maximumRefresh))"
    /// The largest side a mode may have: any display's (DRM's own limits are below), and what a frame in
    /// memory (pixman, cairo: 32767) can be.
    public static let maximumSide = 16384
    /// Refresh rates are at least 1 Hz and under this.
    public static let maximumRefresh = 1000.0

    public init?(_ text: String) {
        switch text.lowercased() {
        case "preferred": self = .preferred
        case "current": self = .current
        case KioskConfiguration.offSpelling: self = .off
        default:
            let parts = text.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
            let size = parts[0].split(separator: "x", omittingEmptySubsequences: false)
            guard size.count == 2, let width = Int(size[0]), let height = Int(size[1]), (1...Self.maximumSide).contains(width),
                (1...Self.maximumSide).contains(height)
            else { return nil }
            var refresh: Double?
            if parts.count == 2 {
                // A headless screen's frame clock runs at it: a rate near 0 would be a frame every century.
                guard let hz = Double(parts[1]), hz >= 1, hz < Self.maximumRefresh else { return nil }
                refresh = hz
            }
            self = .size(width: width, height: height, refresh: refresh)
        }
    }

    public var description: String {
        switch self {
        case .preferred: "preferred"
        case .current: "current"
        case .off: KioskConfiguration.offSpelling
        case let .size(width, height, refresh):
            refresh.map { "\(width)x\(height)@\(Self.format($0))" } ?? "\(width)x\(height)"
        }
    }

    private static func format(_ hz: Double) -> String {
        hz.rounded() == hz ? String(Int(hz)) : String(hz)
    }
}
