@_exported import CivilTime
@_exported import Graphics
@_exported import KioskTypes
import Logging

// The names Foundation has too, re-exported by scoped imports, which take precedence over a whole-module
// import: an app that imports Foundation beside KioskKit gets these, unambiguous, and compiles unchanged
// (Foundation's are `Foundation.IndexPath`, `Foundation.AffineTransform`).
// And what an app names when it reads images (`Image(contentsOfFile:options:)`, its errors and limits).
@_exported import struct Geometry.AffineTransform
@_exported import struct ImageDecoding.DecodingLimits
@_exported import struct ImageDecoding.DecodingOptions
@_exported import struct ImageDecoding.ImageDecodingError
@_exported import enum ImageDecoding.ImageFormat
@_exported import struct KioskTypes.IndexPath

/// Loggers of the window model. Labels follow the runtime's `kiosk.<area>` scheme.
enum Log {
    static let app = Logger(label: "kiosk.app")
    static let screen = Logger(label: "kiosk.screen")
}
