/// The file formats the decoders read, told by the file's first bytes (its signature), never by its name:
/// a JPEG saved as `photo.png` is read as the JPEG it is.
public enum ImageFormat: String, Sendable, CaseIterable, CustomStringConvertible {
    case png = "PNG"
    case jpeg = "JPEG"
    case webp = "WebP"
    case gif = "GIF"
    case svg = "SVG"

    /// The format whose signature `bytes` start with, or nil. SVG has none: it is XML whose first element
    /// (after an optional BOM, declaration, comments and doctype) is `<svg`, looked for in the first 4 KiB.
    public init?(sniffing bytes: some Collection<UInt8>) {
        let head = Array(bytes.prefix(4096))
        func starts(_ signature: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + signature.count && Array(head[offset..<offset + signature.count]) == signature
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if starts([0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if starts(Array("RIFF".utf8)), starts(Array("WEBP".utf8), at: 8) {
            self = .webp
        } else if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) {
            self = .gif
        } else if Self.looksLikeSVG(head) {
            self = .svg
        } else {
            return nil
        }
    }

    public var description: String { rawValue }

    /// Whether the text's first element is `<svg` (a namespace prefix allowed: `<svg:svg`).
    private static func looksLikeSVG(_ head: [UInt8]) -> Bool {
        var text = String(decoding: head, as: UTF8.self)[...]
        if text.hasPrefix("\u{FEFF}") { text = text.dropFirst() }
        while true {
            text = text.drop { $0.isWhitespace }
            if text.hasPrefix("<?") || text.hasPrefix("<!--") || text.hasPrefix("<!") {
                let end = text.hasPrefix("<!--") ? "-->" : ">"
                // Not `firstRange(of:)`: _StringProcessing's, which links the regex engine in (Commands.swift).
                guard let close = text.indices.first(where: { text[$0...].hasPrefix(end) }) else { return false }
                text = text[close...].dropFirst(end.count)
                continue
            }
            guard text.hasPrefix("<") else { return false }
            let name = text.dropFirst().prefix { !$0.isWhitespace && $0 != ">" && $0 != "/" }
            return name == "svg" || name.hasSuffix(":svg")
        }
    }
}
