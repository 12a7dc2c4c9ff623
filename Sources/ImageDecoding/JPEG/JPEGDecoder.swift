import CLazyJPEG
import Geometry
import Graphics

/// JPEG through libjpeg-turbo's TurboJPEG API: decoded straight into the bitmap (no intermediate copy),
/// at a reduced size when asked (libjpeg's DCT scaling, which decodes fewer coefficients rather than
/// scaling full-size pixels down), then turned by its EXIF orientation.
enum JPEGDecoder {
    /// Decodes `bytes`. The libjpeg defaults djpeg also uses: the accurate integer DCT and fancy
    /// upsampling, so the pixels equal `djpeg`'s (`djpeg -scale M/N` for a reduced size).
    /// Calls `tjInitDecompress`, `tjDecompressHeader3`, `tjGetScalingFactors`, `tjDecompress2`,
    /// `tjGetErrorStr2`, `tjGetErrorCode` and `tjDestroy`.
    static func decode(_ bytes: [UInt8], name: String, options: DecodingOptions) throws(ImageDecodingError) -> DecodedImage {
        func failure(_ reason: String) -> ImageDecodingError { ImageDecodingError(path: name, format: .jpeg, reason: reason) }
        do {
            try JPEGLibrary.shared.load()
        } catch {
            throw failure(error.description)
        }
        guard let handle = tjInitDecompress() else { throw failure("tjInitDecompress: \(errorText(nil))") }
        defer { _ = tjDestroy(handle) }
        var warnings: [String] = []
        /// A call's -1: thrown when fatal, else a warning (see below).
        func check(_ status: Int32, _ operation: String) throws(ImageDecodingError) {
            guard status != 0 else { return }
            let reason = errorText(handle)
            // libjpeg decodes past a warning and fills what is missing with grey. Its "Premature end of JPEG
            // file" (JWRN_JPEG_EOF: the file was cut) and "Corrupt JPEG data: premature end of data
            // segment" (JWRN_HIT_MARKER: the data ran out before the picture did) leave part of the picture
            // grey, which is refused: half a photo on a kiosk is an error to fix, not a picture. Other
            // warnings (extraneous bytes, which many cameras write) leave a whole image and are passed on.
            // (Not `contains(_:)` of a string: _StringProcessing's, which links the regex engine in, see
            // Commands.swift.)
            let lowered = reason.lowercased()
            let cut = lowered.indices.contains { lowered[$0...].hasPrefix("premature end") }
            guard tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue), !cut else {
                throw failure("\(operation): \(reason)")
            }
            if !warnings.contains(reason) { warnings.append(reason) }
        }

        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let header = bytes.withUnsafeBufferPointer {
            tjDecompressHeader3(handle, $0.baseAddress, UInt($0.count), &width, &height, &subsampling, &colorspace)
        }
        try check(header, "tjDecompressHeader3")
        let orientation = options.appliesOrientation ? ExifOrientation(jpeg: bytes) : .upright
        let factor = scalingFactor(width: Int(width), height: Int(height), orientation: orientation, fitting: options.fitting)
        let outWidth = Int(kiosk_tj_scaled(width, factor)), outHeight = Int(kiosk_tj_scaled(height, factor))
        try options.limits.check(width: outWidth, height: outHeight, path: name, format: .jpeg)

        // TJPF_BGRA: little-endian 0xAARRGGBB words with alpha 0xff, which `.xrgb8888` takes as opaque.
        let stored = Bitmap(width: outWidth, height: outHeight, format: .xrgb8888)
        let status = bytes.withUnsafeBufferPointer { jpeg in
            stored.withUnsafeMutableBytes { pixels in
                tjDecompress2(
                    handle, jpeg.baseAddress, UInt(jpeg.count), pixels.baseAddress!.assumingMemoryBound(to: UInt8.self),
                    Int32(outWidth), Int32(stored.stride), Int32(outHeight), Int32(TJPF_BGRA.rawValue), 0)
            }
        }
        try check(status, "tjDecompress2")
        let shown = orient(stored, orientation)
        return DecodedImage(
            format: .jpeg, frames: [.init(bitmap: shown, duration: 0)], sourceWidth: Int(width), sourceHeight: Int(height),
            warnings: warnings)
    }

    /// TurboJPEG's last error, of `handle` or of the thread when nil.
    private static func errorText(_ handle: tjhandle?) -> String {
        tjGetErrorStr2(handle).map { String(cString: $0) } ?? "unknown error"
    }

    /// The smallest of TurboJPEG's scaling factors no larger than 1 whose result still covers `fitting`
    /// on both sides (in display orientation: a quarter-turned photo's stored sides are swapped), else 1.
    static func scalingFactor(
        width: Int, height: Int, orientation: ExifOrientation, fitting: (width: Int, height: Int)?
    ) -> tjscalingfactor {
        let full = tjscalingfactor(num: 1, denom: 1)
        guard var target = fitting, target.width > 0, target.height > 0 else { return full }
        if orientation.swapsSides { target = (target.height, target.width) }
        var count: Int32 = 0
        guard let factors = tjGetScalingFactors(&count) else { return full }
        var best = full
        for factor in UnsafeBufferPointer(start: factors, count: Int(count)) where factor.num < factor.denom {
            let scaledWidth = Int(kiosk_tj_scaled(Int32(width), factor)), scaledHeight = Int(kiosk_tj_scaled(Int32(height), factor))
            guard scaledWidth >= target.width, scaledHeight >= target.height else { continue }
            if factor.num * best.denom < best.num * factor.denom { best = factor }
        }
        return best
    }

    /// The bitmap turned for display. A quarter turn or mirror maps pixel centres onto pixel centres, so
    /// pixman copies the pixels exactly (`Bitmap.composite(_:transform:)`).
    private static func orient(_ stored: Bitmap, _ orientation: ExifOrientation) -> Bitmap {
        guard orientation != .upright else { return stored }
        let shown =
            orientation.swapsSides
            ? Bitmap(width: stored.height, height: stored.width, format: .xrgb8888)
            : Bitmap(width: stored.width, height: stored.height, format: .xrgb8888)
        shown.composite(stored, transform: orientation.transform(width: stored.width, height: stored.height))
        return shown
    }
}
