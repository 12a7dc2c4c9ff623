/// How a file is decoded.
public struct DecodingOptions: Sendable, Equatable {
    /// Decode at a reduced size when the image is shown smaller: the smallest size the decoder can produce
    /// cheaply that still covers this many pixels on both sides (JPEG's DCT scaling, 1/8 to 7/8), so a
    /// 12-megapixel photo shown at 1280x800 never exists at its full size in memory. Nil: full size.
    /// Formats without cheap scaling decode at full size.
    public var fitting: (width: Int, height: Int)?
    public var limits: DecodingLimits
    /// Apply a JPEG's EXIF orientation (true, as every camera app and browser does), or show the pixels as
    /// stored.
    public var appliesOrientation: Bool

    public init(fitting: (width: Int, height: Int)? = nil, limits: DecodingLimits = DecodingLimits(), appliesOrientation: Bool = true) {
        self.fitting = fitting
        self.limits = limits
        self.appliesOrientation = appliesOrientation
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.fitting?.width == b.fitting?.width && a.fitting?.height == b.fitting?.height && a.limits == b.limits
            && a.appliesOrientation == b.appliesOrientation
    }
}
