/// One `[[touch]]` entry: which input devices it covers, the screen their touches go to, and optionally a
/// calibration matrix for the digitizer.
public struct TouchConfiguration: Sendable, Equatable {
    /// How an entry picks its devices.
    public enum Match: Sendable, Hashable, CustomStringConvertible {
        /// A glob on the device name libinput reports (`ILITEK*`): `*`, `?` and `[...]` as in the shell.
        case name(String)
        /// The USB/HID vendor and product IDs, written in hex (`222a:0001`) as lsusb and udev print them.
        case vendorProduct(vendor: UInt16, product: UInt16)
        /// A path udev knows the device by: its node or a link under `/dev/input/` (`/dev/input/event3`,
        /// `/dev/input/by-path/...`), its syspath (`/sys/...`), or its `ID_PATH` (`platform-3f204000.spi-cs-1`,
        /// `pci-0000:00:14.0-usb-0:2:1.0`), which is stable across reboots.
        case path(String)

        /// How `match` can be written, for messages.
        public static let validSpellings =
            "a device name glob (e.g. \"ILITEK*\"), \"vendor:product\" in hex (e.g. \"222a:0001\"), or a device path (\"/dev/input/...\", \"/sys/...\", or a udev ID_PATH starting with pci-, platform-, usb-, acpi- or virtio-)"

        /// The prefixes of udev `ID_PATH` values (the bus the device hangs off), and of the absolute paths
        /// udev knows a device by (devnode, `/dev/input/by-path` links, syspath). The one parser for the
        /// file's `match` and the command line's `--touch`.
        static let idPathPrefixes = ["pci-", "platform-", "usb-", "acpi-", "virtio-"]
        static let absolutePathPrefixes = ["/dev/input/", "/sys/"]

        /// Parses the config spelling, or says why it cannot.
        public static func parse(_ text: String) -> Result<Match, MatchError> {
            if text.isEmpty { return .failure(.empty) }
            if let ids = vendorProduct(text) { return .success(.vendorProduct(vendor: ids.vendor, product: ids.product)) }
            if text.hasPrefix("/") {
                let isDevicePath = absolutePathPrefixes.contains { text.hasPrefix($0) && text.count > $0.count }
                return isDevicePath ? .success(.path(text)) : .failure(.notDevicePath)
            }
            if idPathPrefixes.contains(where: text.hasPrefix) { return .success(.path(text)) }
            if let problem = Glob.problem(in: text) { return .failure(.badGlob(problem)) }
            return .success(.name(text))
        }

        public enum MatchError: Error, Equatable {
            case empty
            case notDevicePath
            case badGlob(String)

            /// What is wrong with `text`, for messages.
            public func message(for text: String) -> String {
                switch self {
                case .empty: "empty"
                case .notDevicePath: "\(ConfigKeyPath.quote(text)) is not under /dev/input/ or /sys/"
                case let .badGlob(reason): "\(ConfigKeyPath.quote(text)) is not a glob: \(reason)"
                }
            }
        }

        /// `vvvv:pppp`: four hex digits each, as lsusb and udev's `ID_VENDOR_ID`/`ID_MODEL_ID` print them.
        private static func vendorProduct(_ text: String) -> (vendor: UInt16, product: UInt16)? {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, parts.allSatisfy({ $0.count == 4 && $0.allSatisfy(\.isHexDigit) }),
                let vendor = UInt16(parts[0], radix: 16), let product = UInt16(parts[1], radix: 16)
            else { return nil }
            return (vendor, product)
        }

        /// Whether a device is covered: `name` is libinput's device name, matched by `Glob` (on characters, so
        /// `Caf?` matches `Café`); `paths` are its device node, its syspath, udev `DEVLINKS` and `ID_PATH`
        /// (a path entry matches any of them exactly).
        public func matches(name: String, vendor: UInt16, product: UInt16, paths: [String]) -> Bool {
            switch self {
            case let .name(pattern): Glob.matches(pattern, name)
            case let .vendorProduct(v, p): v == vendor && p == product
            case let .path(path): paths.contains(path)
            }
        }

        /// The config spelling.
        public var description: String {
            switch self {
            case let .name(pattern): pattern
            case let .vendorProduct(vendor, product): Self.hex(vendor) + ":" + Self.hex(product)
            case let .path(path): path
            }
        }

        private static func hex(_ value: UInt16) -> String {
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: 4 - digits.count) + digits
        }
    }

    public var match: Match
    /// A connector name or the label of a screen of the file.
    public var screen: String
    /// `a b c d e f`, the first two rows of the 3x3 matrix libinput applies to normalized coordinates
    /// (`LIBINPUT_CALIBRATION_MATRIX`); nil: the device's own (udev) or identity.
    public var calibration: [Double]?
    /// Where the entry starts in the file (its `[[touch]]` header); nil when not from a file.
    public var location: FilePosition?

    /// Made by the command line's `--touch` rather than the file: such rules come before the file's.
    public var isFromCommandLine = false

    /// The line where the entry starts.
    public var line: Int? { location?.line }

    /// The rule without where it was written (see `ScreenConfiguration.ignoringWhereWritten`).
    public var ignoringWhereWritten: TouchConfiguration {
        var copy = self
        copy.location = nil
        return copy
    }

    public init(match: Match, screen: String, calibration: [Double]? = nil, location: FilePosition? = nil) {
        self.match = match
        self.screen = screen
        self.calibration = calibration
        self.location = location
    }
}
