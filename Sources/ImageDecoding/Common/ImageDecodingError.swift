/// An image that could not be read, naming the file and why: `cannot read /srv/kiosk/photo.jpg: JPEG:
/// tjDecompress2: Premature end of JPEG file`, or `... 60000x60000 is 3600000000 pixels, over the limit of
/// 50000000 (a decompression bomb?)`.
public struct ImageDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file, or the name given to decoded bytes.
    public let path: String
    /// The format the file's signature names, nil when it names none.
    public let format: ImageFormat?
    public let reason: String

    public init(path: String, format: ImageFormat?, reason: String) {
        self.path = path
        self.format = format
        self.reason = reason
    }

    public var description: String {
        "cannot read \(path): " + (format.map { "\($0): " } ?? "") + reason
    }
}
