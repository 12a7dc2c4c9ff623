import Geometry

/// One screen of the headless backend: its name (`HEADLESS-1` unless given, as wlroots names them; a real
/// connector's name to mirror a board's config) and the mode it starts in. Its snapshot is `<name>.png`.
public struct HeadlessScreen: Sendable, Hashable, CustomStringConvertible {
    public var name: String
    public var mode: DisplayMode

    public init(name: String, mode: DisplayMode) {
        self.name = name
        self.mode = mode
    }

    /// How a headless screen is written, for messages.
    public static let validSpelling =
        "WxH, WxH@Hz or NAME=WxH@Hz, e.g. 1920x1080, 1280x800@60 or HDMI-A-1=1920x1080@60 (each side 1 to \(ModeRequest.maximumSide), Hz at least 1 and under \(Int(ModeRequest.maximumRefresh))); NAME of letters, digits, '-', '_' and '.'"

    /// Parses `WxH`, `WxH@Hz` or `NAME=WxH@Hz`; a screen without a name is `HEADLESS-<position>`. The name
    /// becomes a file name in the snapshot folder, so it may only hold letters, digits, `-`, `_` and `.`
    /// (not first), which keeps it inside that folder whatever it is.
    public static func parse(_ text: String, position: Int) -> Result<HeadlessScreen, ParseError> {
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let (name, mode) = parts.count == 2 ? (parts[0], parts[1]) : ("HEADLESS-\(position)", text)
        guard isValidName(name) else { return .failure(.badName(name)) }
        // The config's mode spelling; a headless screen needs a size (not preferred/current/off), 60 Hz when
        // none is given.
        guard case let .size(width, height, refresh)? = ModeRequest(mode) else { return .failure(.badMode(mode)) }
        return .success(HeadlessScreen(name: name, mode: DisplayMode(width: width, height: height, refreshRate: refresh ?? 60)))
    }

    public enum ParseError: Error, Equatable, CustomStringConvertible {
        case badName(String)
        case badMode(String)

        public var description: String {
            switch self {
            case .badName(let name): "\(ConfigKeyPath.quote(name)) cannot name a screen (its snapshot file)"
            case .badMode(let mode): "\(ConfigKeyPath.quote(mode)) is not a size"
            }
        }
    }

    static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first != ".", name.unicodeScalars.count <= 64 else { return false }
        return name.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0))
        }
    }

    /// `HDMI-A-1=1920x1080@60.000`.
    public var description: String { "\(name)=\(mode)" }
}
