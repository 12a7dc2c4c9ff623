import Geometry

/// The EXIF orientation of a JPEG (TIFF tag 0x0112 of the APP1 "Exif" segment's first IFD): how the
/// stored pixels are turned for display, 1 to 8, as cameras and phones write it instead of turning the
/// pixels themselves.
///
/// Written here rather than taken from libexif: the kiosk reads one 16-bit value, and libexif parses
/// every tag and maker note of a file that may come from anywhere, a far larger surface for one number.
/// The walk is bounds-checked at every step, and anything malformed reads as 1 (as stored).
struct ExifOrientation: Equatable, Sendable {
    /// 1 (as stored) to 8.
    let value: Int

    static let upright = ExifOrientation(value: 1)

    init(value: Int) { self.value = (1...8).contains(value) ? value : 1 }

    /// The orientation in the JPEG `bytes`: the first APP1 segment that starts "Exif\0\0" before the
    /// first scan, else upright.
    init(jpeg bytes: [UInt8]) {
        var offset = 2  // after SOI
        while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
            let marker = bytes[offset + 1]
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) || marker == 0xFF {
                offset += marker == 0xFF ? 1 : 2  // markers without a length (and fill bytes)
                continue
            }
            if marker == 0xDA || marker == 0xD9 { break }  // the scan (or the end): EXIF comes before
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length >= 2, offset + 2 + length <= bytes.count else { break }
            if marker == 0xE1, let found = Self.orientation(inExif: bytes[(offset + 4)..<(offset + 2 + length)]) {
                self.init(value: found)
                return
            }
            offset += 2 + length
        }
        self = .upright
    }

    /// Tag 0x0112 in an APP1 payload ("Exif\0\0", then a TIFF header and IFD0), or nil.
    private static func orientation(inExif segment: ArraySlice<UInt8>) -> Int? {
        let data = Array(segment)
        guard data.count >= 14, Array(data[0..<6]) == Array("Exif\0\0".utf8) else { return nil }
        let tiff = 6
        let little: Bool
        switch (data[tiff], data[tiff + 1]) {
        case (0x49, 0x49): little = true  // "II"
        case (0x4D, 0x4D): little = false  // "MM"
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= data.count else { return nil }
            return little ? Int(data[at]) | Int(data[at + 1]) << 8 : Int(data[at]) << 8 | Int(data[at + 1])
        }
        func u32(_ at: Int) -> Int? {
            guard let low = u16(little ? at : at + 2), let high = u16(little ? at + 2 : at) else { return nil }
            return high << 16 | low
        }
        guard u16(tiff + 2) == 42, let ifd = u32(tiff + 4), let count = u16(tiff + ifd) else { return nil }
        for entry in 0..<count {
            let at = tiff + ifd + 2 + entry * 12
            guard let tag = u16(at) else { return nil }
            // Type 3 (SHORT), count 1: the value is the first two bytes of the value field.
            if tag == 0x0112 { return u16(at + 2) == 3 ? u16(at + 8) : nil }
        }
        return nil
    }

    /// Whether width and height swap for display (orientations 5 to 8 turn a quarter).
    var swapsSides: Bool { value >= 5 }

    /// The transform from stored pixel space (`width` x `height`) to display space.
    func transform(width: Int, height: Int) -> AffineTransform {
        let w = Double(width), h = Double(height)
        switch value {
        case 2: return AffineTransform(a: -1, b: 0, c: 0, d: 1, tx: w, ty: 0)  // mirrored left to right
        case 3: return AffineTransform(a: -1, b: 0, c: 0, d: -1, tx: w, ty: h)  // turned half
        case 4: return AffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: h)  // mirrored top to bottom
        case 5: return AffineTransform(a: 0, b: 1, c: 1, d: 0, tx: 0, ty: 0)  // transposed
        case 6: return AffineTransform(a: 0, b: 1, c: -1, d: 0, tx: h, ty: 0)  // turned a quarter clockwise
        case 7: return AffineTransform(a: 0, b: -1, c: -1, d: 0, tx: h, ty: w)  // transversed
        case 8: return AffineTransform(a: 0, b: -1, c: 1, d: 0, tx: 0, ty: w)  // turned a quarter anticlockwise
        default: return .identity
        }
    }
}
