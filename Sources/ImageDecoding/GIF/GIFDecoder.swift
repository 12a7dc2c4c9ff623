import CLazyGIF
import Graphics

/// GIF files, still or animated, through giflib (Debian's libgif7, loaded on first use), composited as
/// browsers show them.
///
/// Every frame is a full canvas of the logical screen (`GIFCanvas`): the file's images drawn one over
/// the other with each one's transparent index and disposal method, clipped to the screen. Durations and
/// the loop count follow the browsers too (`GIFTiming`): a delay of 10 ms or less shows for 100 ms, a
/// still has duration 0, a file without a NETSCAPE2.0 extension plays once (`loopCount` 1), one whose
/// extension says N repeats N times after the first play (N + 1), and 0 is forever.
///
/// `DecodingOptions.fitting` is ignored: giflib has no reduced-size decoding (LZW gives every pixel of
/// every row), so a GIF is always decoded at its logical screen's size, which is also `sourceWidth` and
/// `sourceHeight`.
enum GIFDecoder {
    /// Decodes `bytes`, a GIF file; `name` stands for it in errors.
    ///
    /// The sizes are checked before giflib allocates anything: the screen's against `check`, each
    /// image's raster against the pixel limit, and the frames' canvases against `checkAnimation`
    /// (`GIFStructure` reads them from the bytes). Throws for a file giflib cannot read, in
    /// `GifErrorString`'s words ("Failed to read from given file" for a truncated one, "Wrong record
    /// type detected"...), and for an image with no pixels or no colour map. Does not throw where
    /// browsers draw something: an image partly or wholly off the screen is clipped, an index past the
    /// colour map is transparent, a file that lacks only its trailer byte is whole.
    ///
    /// Calls `DGifOpen` (reading from `bytes` through an input function: no file), `DGifSlurp`,
    /// `DGifSavedExtensionToGCB`, `GifErrorString` and, whatever happens once it is open, `DGifCloseFile`.
    static func decode(_ bytes: [UInt8], name: String, options: DecodingOptions) throws(ImageDecodingError) -> DecodedImage {
        func failure(_ reason: String) -> ImageDecodingError { ImageDecodingError(path: name, format: .gif, reason: reason) }
        do {
            try GIFLibrary.shared.load()
        } catch {
            throw failure("\(error)")
        }
        let structure = GIFStructure(bytes)
        if let screen = structure.screen {
            try options.limits.check(width: screen.width, height: screen.height, path: name, format: .gif)
            if structure.imageSizes.count > 1 {
                try options.limits.checkAnimation(
                    frames: structure.imageSizes.count, width: screen.width, height: screen.height, path: name, format: .gif)
            }
        }
        try checkImages(structure.imageSizes, limits: options.limits, failure: failure)

        let source = Unmanaged.passRetained(ByteSource(bytes))
        defer { source.release() }
        var openError: Int32 = 0
        guard let gif = DGifOpen(source.toOpaque(), ByteSource.read, &openError) else {
            throw failure("DGifOpen: " + reason(openError))
        }
        // Frees what giflib allocated; its error (D_GIF_ERR_CLOSE_FAILED, the input failing to close) cannot
        // happen for an input function, and the frames are copies by then.
        defer { _ = DGifCloseFile(gif, nil) }
        // DGifOpen read the screen descriptor that GIFStructure read and the limits were checked on: it
        // fails on a file that ends before its end, so the two agree, but the canvas is not made on trust.
        let width = Int(gif.pointee.SWidth), height = Int(gif.pointee.SHeight)
        guard let screen = structure.screen, screen.width == width, screen.height == height else {
            throw failure("the file ends inside its screen descriptor")
        }

        let count: Int
        if DGifSlurp(gif) == GIF_OK {
            count = Int(gif.pointee.ImageCount)
        } else if structure.lacksOnlyTrailer, gif.pointee.Error == D_GIF_ERR_READ_FAILED,
            Int(gif.pointee.ImageCount) == structure.imageSizes.count
        {
            // giflib failed reading the record after the last block: its images are whole, as browsers
            // show them.
            count = Int(gif.pointee.ImageCount)
        } else {
            throw failure("DGifSlurp: " + reason(gif.pointee.Error))
        }
        guard count > 0 else { throw failure("the file has no image") }
        // GIFStructure saw every image giflib read, unless the two disagree on where the blocks end.
        guard count == structure.imageSizes.count else {
            throw failure("giflib read \(count) images where the blocks hold \(structure.imageSizes.count)")
        }

        var canvas = GIFCanvas(width: width, height: height)
        var frames: [DecodedImage.Frame] = []
        frames.reserveCapacity(count)
        for index in 0..<count {
            let saved = gif.pointee.SavedImages[index]
            let control = graphicsControl(gif, index)
            guard let map = saved.ImageDesc.ColorMap ?? gif.pointee.SColorMap else {
                throw failure("image \(index + 1) of \(count) has no colour map, neither its own nor the file's")
            }
            guard let indices = saved.RasterBits else { throw failure("giflib kept no pixels for image \(index + 1)") }
            let image = GIFCanvas.Image(
                left: Int(saved.ImageDesc.Left), top: Int(saved.ImageDesc.Top),
                width: Int(saved.ImageDesc.Width), height: Int(saved.ImageDesc.Height),
                indices: indices, palette: palette(map.pointee, transparent: Int(control.TransparentColor)),
                disposal: disposal(control.DisposalMode))
            let duration = count == 1 ? 0 : GIFTiming.duration(centiseconds: Int(control.DelayTime))
            frames.append(DecodedImage.Frame(bitmap: canvas.draw(image), duration: duration))
        }
        return DecodedImage(
            format: .gif, frames: frames, loopCount: GIFTiming.loopCount(of: gif), sourceWidth: width, sourceHeight: height)
    }

    /// Refuses an image giflib would allocate too much for, or fail on without a reason: giflib 5.2.1's
    /// `DGifSlurp` fails on a 0-pixel image without setting an error (`GifErrorString` has none).
    private static func checkImages(
        _ sizes: [(width: Int, height: Int)], limits: DecodingLimits, failure: (String) -> ImageDecodingError
    ) throws(ImageDecodingError) {
        for (index, size) in sizes.enumerated() {
            let image = "image \(index + 1) is \(size.width)x\(size.height)"
            guard size.width > 0, size.height > 0 else { throw failure(image + ", which has no pixels") }
            guard size.width * size.height <= limits.maximumPixels else {
                throw failure(image + ", over the limit of \(limits.maximumPixels) pixels")
            }
        }
    }

    /// The image's Graphics Control Block, or the defaults of an image without one (giflib's: no
    /// transparency, no delay, disposal unspecified), also for a malformed one, which browsers ignore.
    private static func graphicsControl(_ gif: UnsafeMutablePointer<GifFileType>, _ index: Int) -> GraphicsControlBlock {
        var control = GraphicsControlBlock()
        guard DGifSavedExtensionToGCB(gif, Int32(index), &control) == GIF_OK else {
            return GraphicsControlBlock(
                DisposalMode: DISPOSAL_UNSPECIFIED, UserInputFlag: false, DelayTime: 0, TransparentColor: NO_TRANSPARENT_COLOR)
        }
        return control
    }

    /// The colour map as canvas words; the transparent index and indices past the map are 0 (drawn as
    /// transparent: Chrome does so for the latter, where the specification says nothing).
    private static func palette(_ map: ColorMapObject, transparent: Int) -> [UInt32] {
        var palette = [UInt32](repeating: 0, count: 256)
        if let colours = map.Colors {
            for index in 0..<min(Int(map.ColorCount), 256) {
                let colour = colours[index]
                palette[index] = 0xFF00_0000 | UInt32(colour.Red) << 16 | UInt32(colour.Green) << 8 | UInt32(colour.Blue)
            }
        }
        if (0..<256).contains(transparent) { palette[transparent] = 0 }
        return palette
    }

    /// GIF89a's disposal methods; 4 to 7 are undefined and kept, but 4, which some old encoders wrote
    /// for "restore to previous", is read as that, as Chrome reads it.
    private static func disposal(_ mode: Int32) -> GIFCanvas.Disposal {
        switch mode {
        case DISPOSE_BACKGROUND: .background
        case DISPOSE_PREVIOUS, 4: .previous
        default: .keep
        }
    }

    /// giflib's words for an error code (`GifErrorString`), which has none for some failures.
    private static func reason(_ code: Int32) -> String {
        GifErrorString(code).map { String(cString: $0) } ?? "giflib failed without saying why (error \(code))"
    }
}

/// The file's bytes as giflib reads them, through `DGifOpen`'s input function: each call copies the
/// next bytes asked for, fewer at the end (giflib then reports a truncated file).
private final class ByteSource {
    let bytes: [UInt8]
    var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The input function; the source is the `UserData` that `DGifOpen` stored in the file.
    static let read: InputFunc = { file, buffer, length in
        guard let file, let buffer, length > 0, let user = file.pointee.UserData else { return 0 }
        let source = Unmanaged<ByteSource>.fromOpaque(user).takeUnretainedValue()
        let count = min(Int(length), source.bytes.count - source.offset)
        guard count > 0 else { return 0 }
        source.bytes.withUnsafeBufferPointer { bytes in
            buffer.update(from: bytes.baseAddress! + source.offset, count: count)
        }
        source.offset += count
        return Int32(count)
    }
}
