/// WebP through libwebp: to be written (the skeleton's placeholder).
enum WebPDecoder {
    static func decode(_ bytes: [UInt8], name: String, options: DecodingOptions) throws(ImageDecodingError) -> DecodedImage {
        throw ImageDecodingError(path: name, format: .webp, reason: "not written yet")
    }
}
