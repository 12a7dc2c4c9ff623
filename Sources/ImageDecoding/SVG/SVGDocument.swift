import Graphics

/// An SVG document drawn at the size it is shown at (librsvg): the skeleton's placeholder.
public final class SVGDocument {
    public init(contentsOfFile path: String, limits: DecodingLimits = DecodingLimits()) throws(ImageDecodingError) {
        throw ImageDecodingError(path: path, format: .svg, reason: "not written yet")
    }

    public init(bytes: [UInt8], name: String, baseFolder: String?, limits: DecodingLimits = DecodingLimits()) throws(ImageDecodingError) {
        throw ImageDecodingError(path: name, format: .svg, reason: "not written yet")
    }

    public var intrinsicSize: (width: Double, height: Double)? { nil }

    public func render(width: Int, height: Int) throws(ImageDecodingError) -> Bitmap {
        throw ImageDecodingError(path: "", format: .svg, reason: "not written yet")
    }
}
