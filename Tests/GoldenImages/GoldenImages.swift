import Foundation
import Graphics
import Testing

/// Compares the colour of `image` with `<folder>/<name>.png` (alpha is not compared: an XRGB frame's top
/// byte is undefined). A mismatch or a missing golden writes the actual image beside it as
/// `<name>.actual.png` and records an issue; `KIOSK_RECORD_GOLDEN=1` rewrites the golden instead. Shared by
/// the test targets that keep golden images in their source tree (Graphics, KioskKit).
public func expectGolden(
    _ image: Bitmap, named name: String, in folder: URL, sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let expectedPath = folder.appendingPathComponent("\(name).png").path
    let actualPath = folder.appendingPathComponent("\(name).actual.png").path
    if ProcessInfo.processInfo.environment["KIOSK_RECORD_GOLDEN"] == "1" {
        try image.writePNG(to: expectedPath)
        return
    }
    guard FileManager.default.fileExists(atPath: expectedPath) else {
        try image.writePNG(to: actualPath)
        Issue.record("no golden image \(expectedPath); wrote the actual image to \(actualPath)", sourceLocation: sourceLocation)
        return
    }
    let expected = try Bitmap(contentsOfPNGFile: expectedPath)
    var mismatches = 0
    var first: String?
    if expected.width == image.width && expected.height == image.height {
        for y in 0..<image.height {
            for x in 0..<image.width {
                let a = expected.pixel(x: x, y: y) & 0xFF_FFFF, b = image.pixel(x: x, y: y) & 0xFF_FFFF
                if a != b {
                    mismatches += 1
                    if first == nil { first = "(\(x), \(y)) expected \(hexWord(a)) got \(hexWord(b))" }
                }
            }
        }
    } else {
        first = "size \(image.width)x\(image.height), expected \(expected.width)x\(expected.height)"
        mismatches = 1
    }
    if mismatches > 0 {
        try image.writePNG(to: actualPath)
        let environment = ProcessInfo.processInfo.environment
        let locale = environment["LC_ALL"] ?? environment["LANG"] ?? "unset"
        let message =
            "\(name): \(mismatches) pixels differ, first at \(first!); actual image: \(actualPath) "
            + "(goldens are made with LC_ALL=C.UTF-8, as scripts/test sets; this run has \(locale))"
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
    } else if FileManager.default.fileExists(atPath: actualPath) {
        try? FileManager.default.removeItem(atPath: actualPath)
    }
}

/// `0xFF8000`: how golden mismatches print a pixel.
public func hexWord(_ value: UInt32) -> String { "0x" + String(value, radix: 16, uppercase: true) }
