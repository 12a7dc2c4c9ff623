/// Why a time zone could not be loaded, naming the file (the path read, or the name given for bytes).
public enum TimeZoneError: Error, Sendable, Hashable {
    /// The name is empty, starts with `/`, contains `..` or a NUL: it would not name a file under the
    /// zone directory, so it is refused before any file is opened.
    case invalidName(String)
    /// `open(2)` failed: `ENOENT` for a zone that does not exist.
    case cannotOpen(file: String, errno: Int32)
    /// `read(2)` failed: `EISDIR` for a name that is a directory of zones (`Europe`).
    case cannotRead(file: String, errno: Int32)
    /// The file is larger than any TZif file (the largest are a few kilobytes), so it is not read on.
    case tooLarge(file: String, limit: Int)
    /// The file does not start with the TZif magic.
    case notTZif(file: String)
    /// The version byte is not one this parser knows (0, `2`, `3` or `4`).
    case unsupportedVersion(file: String, version: UInt8)
    /// The file ends inside the named part.
    case truncated(file: String, part: TZifPart)
    /// The parts are there but contradict each other; the reason says how.
    case malformed(file: String, reason: String)
    /// The file has leap-second records (a `right/` zone), whose times count leap seconds where an
    /// `Instant` does not.
    case leapSecondsUnsupported(file: String)
    /// The footer is not a POSIX TZ string this parser understands; `footer` is its text.
    case badFooter(file: String, footer: String, reason: String)
}

/// A part of a TZif file (RFC 8536 section 3), for `TimeZoneError.truncated`.
public enum TZifPart: String, Sendable, Hashable {
    case header = "header"
    case version1DataBlock = "version 1 data block"
    case version2Header = "version 2+ header"
    case transitionTimes = "transition times"
    case transitionTypes = "transition types"
    case localTimeTypes = "local time type records"
    case designations = "time zone designations"
    case leapSecondRecords = "leap-second records"
    case standardWallIndicators = "standard/wall indicators"
    case universalLocalIndicators = "UT/local indicators"
    case footer = "footer"
}

extension TimeZoneError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .invalidName(let name): "invalid time zone name \"\(name)\""
        case .cannotOpen(let file, let errno): "cannot open \(file): \(errorText(errno))"
        case .cannotRead(let file, let errno): "cannot read \(file): \(errorText(errno))"
        case .tooLarge(let file, let limit): "\(file) is larger than \(limit) bytes, too large for a TZif file"
        case .notTZif(let file): "\(file) is not a TZif file"
        case .unsupportedVersion(let file, let version):
            "\(file) has TZif version byte \((0x21...0x7E).contains(version) ? "\"\(Character(Unicode.Scalar(version)))\"" : "\(version)"), which is not supported"
        case .truncated(let file, let part): "\(file) is truncated in its \(part.rawValue)"
        case .malformed(let file, let reason): "\(file) is malformed: \(reason)"
        case .leapSecondsUnsupported(let file): "\(file) has leap-second records, which are not supported"
        case .badFooter(let file, let footer, let reason): "\(file) has a bad TZ string footer \"\(footer)\": \(reason)"
        }
    }
}
