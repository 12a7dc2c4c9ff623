/// What a GIF file declares, read from its bytes without decoding them: the logical screen's size and
/// each image's size, so the limits are checked before giflib allocates anything.
///
/// `DGifSlurp` decodes every image in one call and allocates each one's raster (a byte a pixel, at the
/// size its descriptor claims, up to 65535x65535 whatever the screen's size) as it meets it: the number
/// of frames and their sizes must be known before it is called. This walks the blocks (GIF89a, section
/// 15 on): the header, the logical screen descriptor and its colour table, then extensions and images,
/// each a chain of sub-blocks skipped by their lengths. It decodes nothing and stops at the trailer or at
/// the first byte that is not a block; giflib reports what is wrong with the file.
struct GIFStructure {
    /// The logical screen, nil when the file ends before its descriptor.
    var screen: (width: Int, height: Int)?
    /// Each image's size, in file order, up to the end of the file or the first defect.
    var imageSizes: [(width: Int, height: Int)] = []
    /// Whether the bytes end between two blocks, before the trailer: every image is whole, only the
    /// trailer (one byte, 0x3B) is missing, which browsers do not mind and `DGifSlurp` fails on.
    var lacksOnlyTrailer = false

    init(_ bytes: [UInt8]) {
        var reader = Reader(bytes: bytes, offset: 6)  // after "GIF89a"
        guard let width = reader.word(), let height = reader.word(), let flags = reader.byte(), reader.skip(2) else {
            return
        }
        screen = (width, height)
        guard reader.skipColourTable(flags: flags) else { return }
        while true {
            guard let introducer = reader.byte() else {
                lacksOnlyTrailer = true
                return
            }
            switch introducer {
            case 0x21:  // an extension: its label, then its sub-blocks
                guard reader.skip(1), reader.skipSubBlocks() else { return }
            case 0x2C:  // an image descriptor: left, top, width, height, flags
                guard reader.skip(4), let width = reader.word(), let height = reader.word(), let flags = reader.byte() else {
                    return
                }
                imageSizes.append((width, height))
                // The colour table, the LZW code size, then the data's sub-blocks.
                guard reader.skipColourTable(flags: flags), reader.skip(1), reader.skipSubBlocks() else { return }
            default:  // the trailer (0x3B), or garbage
                return
            }
        }
    }

    /// Little-endian reads that fail (nil, false) at the end of the bytes instead of trapping.
    private struct Reader {
        let bytes: [UInt8]
        var offset: Int

        mutating func byte() -> Int? {
            guard offset < bytes.count else { return nil }
            defer { offset += 1 }
            return Int(bytes[offset])
        }

        mutating func word() -> Int? {
            guard let low = byte(), let high = byte() else { return nil }
            return low | high << 8
        }

        mutating func skip(_ count: Int) -> Bool {
            offset += count
            return offset <= bytes.count
        }

        /// A colour table follows a descriptor whose flags have the top bit set: 3 x 2^(size + 1) bytes.
        mutating func skipColourTable(flags: Int) -> Bool {
            flags & 0x80 == 0 || skip(3 << ((flags & 7) + 1))
        }

        /// Sub-blocks, each a length byte and that many bytes, up to a zero length.
        mutating func skipSubBlocks() -> Bool {
            while let length = byte() {
                if length == 0 { return true }
                guard skip(length) else { return false }
            }
            return false
        }
    }
}
