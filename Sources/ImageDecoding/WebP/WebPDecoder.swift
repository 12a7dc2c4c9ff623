import CLazyWebP
import Graphics

/// WebP, still or animated, through libwebpdemux's animation decoder, which reads a still image as one
/// frame and gives every frame as a full canvas (each frame blended onto the canvas and disposed as the
/// file says), premultiplied in the kiosk's byte order (`MODE_bgrA`).
enum WebPDecoder {
    /// Decodes `bytes`, its size checked from the bitstream's header before the decoder allocates its
    /// canvas. `options.fitting` does not apply: libwebp's scaled decoding resamples the full decode, so it
    /// saves nothing. Calls `WebPGetFeaturesInternal`, `WebPAnimDecoderOptionsInitInternal`,
    /// `WebPAnimDecoderNewInternal`, `WebPAnimDecoderGetInfo`, `WebPAnimDecoderGetNext`,
    /// `WebPAnimDecoderHasMoreFrames` and `WebPAnimDecoderDelete`.
    static func decode(_ bytes: [UInt8], name: String, options: DecodingOptions) throws(ImageDecodingError) -> DecodedImage {
        func failure(_ reason: String) -> ImageDecodingError { ImageDecodingError(path: name, format: .webp, reason: reason) }
        do {
            try WebPLibrary.shared.load()
        } catch {
            throw failure(error.description)
        }
        var features = WebPBitstreamFeatures()
        let status = bytes.withUnsafeBufferPointer {
            WebPGetFeaturesInternal($0.baseAddress, $0.count, &features, kiosk_webp_decoder_abi_version())
        }
        guard status == VP8_STATUS_OK else { throw failure("WebPGetFeatures: \(describe(status))") }
        let width = Int(features.width), height = Int(features.height)
        try options.limits.check(width: width, height: height, path: name, format: .webp)

        var decoderOptions = WebPAnimDecoderOptions()
        guard WebPAnimDecoderOptionsInitInternal(&decoderOptions, kiosk_webp_demux_abi_version()) != 0 else {
            throw failure("WebPAnimDecoderOptionsInit: the library's ABI is not the one compiled against")
        }
        decoderOptions.color_mode = MODE_bgrA
        decoderOptions.use_threads = 0
        return try bytes.withUnsafeBufferPointer { (buffer) throws(ImageDecodingError) -> DecodedImage in
            var data = WebPData(bytes: buffer.baseAddress, size: buffer.count)
            guard let decoder = WebPAnimDecoderNewInternal(&data, &decoderOptions, kiosk_webp_demux_abi_version()) else {
                throw failure("WebPAnimDecoderNew: the file is truncated or corrupt")
            }
            defer { WebPAnimDecoderDelete(decoder) }
            var info = WebPAnimInfo()
            guard WebPAnimDecoderGetInfo(decoder, &info) != 0 else { throw failure("WebPAnimDecoderGetInfo failed") }
            let canvasWidth = Int(info.canvas_width), canvasHeight = Int(info.canvas_height)
            try options.limits.check(width: canvasWidth, height: canvasHeight, path: name, format: .webp)
            try options.limits.checkAnimation(
                frames: Int(info.frame_count), width: canvasWidth, height: canvasHeight, path: name, format: .webp)
            // An opaque still image is `.xrgb8888` (its alpha bytes are 0xff), as a JPEG is.
            let format: PixelFormat = features.has_alpha == 0 && info.frame_count == 1 ? .xrgb8888 : .argb32Premultiplied
            var frames: [DecodedImage.Frame] = []
            var previousEnd: Int32 = 0
            while WebPAnimDecoderHasMoreFrames(decoder) != 0 {
                var canvas: UnsafeMutablePointer<UInt8>?
                var end: Int32 = 0
                guard WebPAnimDecoderGetNext(decoder, &canvas, &end) != 0, let canvas else {
                    throw failure("WebPAnimDecoderGetNext: frame \(frames.count + 1) of \(info.frame_count) is truncated or corrupt")
                }
                let bitmap = Bitmap(width: canvasWidth, height: canvasHeight, format: format)
                bitmap.withUnsafeMutableBytes { pixels in
                    for row in 0..<canvasHeight {
                        (pixels.baseAddress! + row * bitmap.stride)
                            .copyMemory(from: canvas + row * canvasWidth * 4, byteCount: canvasWidth * 4)
                    }
                }
                let duration = info.frame_count == 1 ? 0 : FrameDuration.seconds(milliseconds: Int(end - previousEnd))
                frames.append(.init(bitmap: bitmap, duration: duration))
                previousEnd = end
            }
            guard !frames.isEmpty else { throw failure("the file has no frame") }
            return DecodedImage(
                format: .webp, frames: frames, loopCount: Int(info.loop_count), sourceWidth: canvasWidth, sourceHeight: canvasHeight)
        }
    }

    /// libwebp's status code in words.
    private static func describe(_ status: VP8StatusCode) -> String {
        switch status {
        case VP8_STATUS_OUT_OF_MEMORY: "out of memory"
        case VP8_STATUS_INVALID_PARAM: "invalid parameter"
        case VP8_STATUS_BITSTREAM_ERROR: "the bitstream is corrupt"
        case VP8_STATUS_UNSUPPORTED_FEATURE: "a feature this libwebp does not support"
        case VP8_STATUS_SUSPENDED: "suspended"
        case VP8_STATUS_USER_ABORT: "aborted"
        case VP8_STATUS_NOT_ENOUGH_DATA: "the file is truncated (not enough data)"
        default: "status \(status.rawValue)"
        }
    }
}
