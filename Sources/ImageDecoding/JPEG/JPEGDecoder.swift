/// JPEG through TurboJPEG: to be written (the skeleton's placeholder).
enum JPEGDecoder {
    static func decode(_ bytes: [UInt8], name: String, options: DecodingOptions) throws(ImageDecodingError) -> DecodedImage {
        throw ImageDecodingError(path: name, format: .jpeg, reason: "not written yet")
    }
}
