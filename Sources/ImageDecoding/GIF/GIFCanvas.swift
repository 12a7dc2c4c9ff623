import Graphics

/// The logical screen a GIF's images are drawn on, one after the other, as browsers draw them: each
/// image over what the earlier ones left, then disposed of as its Graphics Control Block says before
/// the next is drawn. Each frame of a `DecodedImage` is a copy of the canvas after one image.
///
/// The canvas starts transparent (browsers do not paint the background colour the screen descriptor
/// names), and pixels are 0xAARRGGBB words; a GIF's are opaque or transparent, so premultiplied is the
/// same as straight.
struct GIFCanvas {
    /// What happens to an image's pixels once its frame has been shown (the GCB's disposal method).
    enum Disposal {
        /// 0 (unspecified) and 1 (do not dispose): the next image is drawn over this one.
        case keep
        /// 2: the image's rectangle is cleared to transparent. The specification says to the background
        /// colour; browsers clear it (Chrome, Firefox and Safari alike), and files are made for them.
        case background
        /// 3: the canvas goes back to what it was before the image was drawn.
        case previous
    }

    /// One image of the file, as giflib decoded it (`SavedImage`), in screen coordinates.
    struct Image {
        var left: Int
        var top: Int
        var width: Int
        var height: Int
        /// `width * height` colour indices, row by row, top to bottom (de-interlaced: `DGifSlurp` does).
        var indices: UnsafePointer<UInt8>
        /// A word for each of the 256 indices: its opaque colour, or 0 to leave the canvas as it is (the
        /// transparent index, and indices past the colour map, which browsers show as transparent).
        var palette: [UInt32]
        var disposal: Disposal
    }

    let width: Int
    let height: Int
    private var pixels: [UInt32]

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        pixels = [UInt32](repeating: 0, count: width * height)
    }

    /// Draws `image`, returns the frame it makes (a new bitmap), then disposes of the image.
    mutating func draw(_ image: Image) -> Bitmap {
        let before = image.disposal == .previous ? pixels : nil
        // Only the part of the image on the screen is drawn: an image may lie partly or wholly outside
        // it, which browsers clip (the descriptor's position and size are 16-bit, unchecked by giflib).
        let columns = Self.clip(image.left, image.width, to: width)
        let rows = Self.clip(image.top, image.height, to: height)
        if !columns.isEmpty, !rows.isEmpty {
            let screenWidth = width
            image.palette.withUnsafeBufferPointer { palette in
                pixels.withUnsafeMutableBufferPointer { canvas in
                    for y in rows {
                        let row = image.indices + (y - image.top) * image.width
                        for x in columns {
                            let colour = palette[Int(row[x - image.left])]
                            if colour != 0 { canvas[y * screenWidth + x] = colour }
                        }
                    }
                }
            }
        }
        let frame = bitmap()
        switch image.disposal {
        case .keep:
            break
        case .background:
            for y in rows {
                for x in columns { pixels[y * width + x] = 0 }
            }
        case .previous:
            pixels = before!
        }
        return frame
    }

    /// The part of `start..<start + length` in `0..<limit`, empty (not a reversed range, which traps)
    /// for an image wholly off that side of the screen.
    private static func clip(_ start: Int, _ length: Int, to limit: Int) -> Range<Int> {
        let lower = min(max(start, 0), limit)
        return lower..<max(lower, min(start + length, limit))
    }

    /// A copy of the canvas, row by row (a bitmap's rows are `stride` bytes apart).
    private func bitmap() -> Bitmap {
        let bitmap = Bitmap(width: width, height: height, format: .argb32Premultiplied)
        let rowBytes = width * 4
        let stride = bitmap.stride
        pixels.withUnsafeBytes { canvas in
            bitmap.withUnsafeMutableBytes { target in
                for y in 0..<height {
                    (target.baseAddress! + y * stride).copyMemory(from: canvas.baseAddress! + y * rowBytes, byteCount: rowBytes)
                }
            }
        }
        return bitmap
    }
}
