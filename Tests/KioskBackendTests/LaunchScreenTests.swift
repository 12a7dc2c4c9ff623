import Foundation
import KioskKit
import PNG
import Testing

@testable import KioskBackend

/// The launch screen read with libpng from files cairo wrote, and painted centred, upright in a rotation,
/// scaled down to fit, on black.
@MainActor
struct LaunchScreenTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("launch-screen-\(getpid())")

    /// A 40x20 picture: the left half opaque red, the right half blue at half alpha.
    func writePicture(width: Int = 40, height: Int = 20, named name: String = "picture.png") throws -> String {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let bitmap = Bitmap(width: width, height: height, format: .argb32Premultiplied)
        bitmap.fill(
            Color(red: 1, green: 0, blue: 0), operation: .source, in: PixelRect(x: 0, y: 0, width: Int32(width / 2), height: Int32(height)))
        bitmap.fill(
            Color(red: 0, green: 0, blue: 1, alpha: 0.5), operation: .source,
            in: PixelRect(x: Int32(width / 2), y: 0, width: Int32(width - width / 2), height: Int32(height)))
        let path = folder.appendingPathComponent(name).path
        try bitmap.writePNG(to: path)
        return path
    }

    func frame(width: Int, height: Int) -> Bitmap {
        let frame = Bitmap(width: width, height: height, format: .xrgb8888)
        frame.fill(
            Color(red: 1, green: 1, blue: 1), operation: .source, in: PixelRect(x: 0, y: 0, width: Int32(width), height: Int32(height)))
        return frame
    }

    @Test func libpngReadsStraightBGRA() throws {
        let image = try PNGImage(contentsOfFile: try writePicture())
        #expect(image.width == 40 && image.height == 20)
        #expect(Array(image.bgra[0..<4]) == [0, 0, 255, 255])
        let right = (5 * 40 + 30) * 4
        // cairo un-premultiplies 128/255 blue at alpha 128 back to 255.
        #expect(Array(image.bgra[right..<right + 4]) == [255, 0, 0, 128])
    }

    @Test func unreadableFilesSayWhy() throws {
        #expect(throws: PNGError.self) { try PNGImage(contentsOfFile: "/nonexistent/launch.png") }
        do {
            _ = try PNGImage(contentsOfFile: "/nonexistent/launch.png")
        } catch {
            #expect(error.description == "cannot read /nonexistent/launch.png: png_image_begin_read_from_file: No such file or directory")
        }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let text = folder.appendingPathComponent("not.png").path
        try Data("not a picture".utf8).write(to: URL(fileURLWithPath: text))
        #expect(throws: PNGError.self) { try PNGImage(contentsOfFile: text) }
        let frame = frame(width: 10, height: 10)
        #expect(!LaunchScreen(path: text).paint(into: frame, rotation: .normal))
        #expect(frame.pixel(x: 0, y: 0) & 0xFF_FFFF == 0xFF_FFFF)  // untouched
    }

    @Test func centredOnBlack() throws {
        let launch = LaunchScreen(path: try writePicture())
        let frame = frame(width: 100, height: 60)
        #expect(launch.paint(into: frame, rotation: .normal))
        #expect(frame.pixel(x: 0, y: 0) & 0xFF_FFFF == 0)
        #expect(frame.pixel(x: 29, y: 20) & 0xFF_FFFF == 0)
        #expect(frame.pixel(x: 30, y: 20) & 0xFF_FFFF == 0xFF_0000)
        #expect(frame.pixel(x: 49, y: 39) & 0xFF_FFFF == 0xFF_0000)
        #expect(frame.pixel(x: 50, y: 20) & 0xFF_FFFF == 0x80)  // half blue over black
        #expect(frame.pixel(x: 69, y: 39) & 0xFF_FFFF == 0x80)
        #expect(frame.pixel(x: 70, y: 20) & 0xFF_FFFF == 0)
        #expect(frame.pixel(x: 50, y: 40) & 0xFF_FFFF == 0)
    }

    @Test func uprightInTheScreensRotation() throws {
        let launch = LaunchScreen(path: try writePicture())
        // A panel 60 wide and 100 high turned a quarter clockwise: the logical screen is 100x60 as above,
        // and its (x, y) is the panel's (59 - y, x).
        let frame = frame(width: 60, height: 100)
        #expect(launch.paint(into: frame, rotation: .rotated90))
        #expect(frame.pixel(x: 59 - 20, y: 30) & 0xFF_FFFF == 0xFF_0000)
        #expect(frame.pixel(x: 59 - 20, y: 50) & 0xFF_FFFF == 0x80)
        #expect(frame.pixel(x: 59 - 19, y: 30) & 0xFF_FFFF == 0)
        #expect(frame.pixel(x: 59 - 40, y: 30) & 0xFF_FFFF == 0)
    }

    @Test func scaledDownToFitNeverUp() throws {
        let launch = LaunchScreen(path: try writePicture(width: 200, height: 100, named: "big.png"))
        let frame = frame(width: 100, height: 60)
        #expect(launch.paint(into: frame, rotation: .normal))
        // Half size: 100x50 at y 5.
        #expect(frame.pixel(x: 10, y: 4) & 0xFF_FFFF == 0)
        #expect(frame.pixel(x: 10, y: 5) & 0xFF_FFFF == 0xFF_0000)
        #expect(frame.pixel(x: 90, y: 54) & 0xFF_FFFF == 0x80)
        #expect(frame.pixel(x: 90, y: 55) & 0xFF_FFFF == 0)
    }

    @Test func notShownAgainOnceReleased() throws {
        let launch = LaunchScreen(path: try writePicture())
        launch.release()
        #expect(launch.isReleased)
        #expect(!launch.paint(into: frame(width: 100, height: 60), rotation: .normal))
    }

    @Test func readOnAThreadOfItsOwnTheSamePicture() throws {
        let path = try writePicture()
        let early = LaunchScreen(path: path), late = LaunchScreen(path: path)
        early.startReading()
        let a = frame(width: 100, height: 60), b = frame(width: 100, height: 60)
        #expect(early.paint(into: a, rotation: .normal) && late.paint(into: b, rotation: .normal))
        for (x, y) in [(0, 0), (30, 20), (50, 20), (69, 39), (70, 20)] {
            #expect(a.pixel(x: x, y: y) & 0xFF_FFFF == b.pixel(x: x, y: y) & 0xFF_FFFF)
        }
        // Released while it is still being read (no display lit before the app's first frame): nothing leaks or waits.
        let unused = LaunchScreen(path: path)
        unused.startReading()
        unused.release()
        #expect(!unused.paint(into: frame(width: 10, height: 10), rotation: .normal))
        let broken = LaunchScreen(path: "/nonexistent/launch.png")
        broken.startReading()
        #expect(!broken.paint(into: frame(width: 10, height: 10), rotation: .normal))
    }
}
