/// GIF through giflib: to be written (the skeleton's placeholder).
enum GIFDecoder {
    static func decode(_ bytes: [UInt8], name: String, options: DecodingOptions) throws(ImageDecodingError) -> DecodedImage {
        throw ImageDecodingError(path: name, format: .gif, reason: "not written yet")
    }
}
