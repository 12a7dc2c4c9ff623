import Dispatch
import Geometry
import ImageDecoding

/// Reading an image off the main thread, at the size it is shown at.
extension Image {
    /// Reads `path` on a thread of its own and returns the image on the main actor: a 12-megapixel photo
    /// takes a tenth of a second or more to decode, which on the main thread would hold frames back.
    /// `fitting` (pixels) decodes a JPEG at the smallest DCT scale that still covers that size on both
    /// sides (`DecodingOptions.fitting`), so it never exists at its full size in memory.
    @MainActor public static func load(
        contentsOfFile path: String, fitting: Size? = nil, limits: DecodingLimits = DecodingLimits()
    ) async throws(ImageDecodingError) -> Image {
        let options = DecodingOptions(
            fitting: fitting.map { (Int($0.width.rounded(.up)), Int($0.height.rounded(.up))) }, limits: limits)
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<DecodedContents, Never>) in
            let work: @Sendable () -> Void = {
                let contents = DecodedContents(
                    Result { () throws(ImageDecodingError) in try ImageDecoder.read(contentsOfFile: path, options: options) })
                continuation.resume(returning: contents)
            }
            if !BackgroundThread.start(work) { work() }
        }
        return Image(contents: try result.contents.get(), path: path)
    }
}

/// A file's contents handed from the thread that decoded them to the main actor. `@unchecked Sendable`:
/// the decoding thread lets go of them when it hands them over, and never touches them again, so only
/// one thread ever has them.
private struct DecodedContents: @unchecked Sendable {
    let contents: Result<ImageDecoder.Contents, ImageDecodingError>

    init(_ contents: Result<ImageDecoder.Contents, ImageDecodingError>) { self.contents = contents }
}
