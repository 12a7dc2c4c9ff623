import Foundation
import ImageDecoding
import Testing

@testable import KioskKit

/// `Image` from files and from the app's resources, read by content, off the main thread when asked.
@MainActor
@Suite(.serialized)
struct ImageTests {
    /// A folder with a red 30x20 PNG saved as `logo.png`, the same bytes as `photo.jpg` (a wrong
    /// extension), an animated GIF and a file that is no image.
    static func resources() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-image-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let bitmap = Bitmap(width: 30, height: 20, format: .xrgb8888)
        bitmap.fill(.red, in: bitmap.bounds)
        try bitmap.writePNG(to: folder.appendingPathComponent("logo.png").path)
        try FileManager.default.copyItem(at: folder.appendingPathComponent("logo.png"), to: folder.appendingPathComponent("photo.jpg"))
        let gif = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("ImageDecodingTests/Fixtures/gif/delays.gif")
        try FileManager.default.copyItem(at: gif, to: folder.appendingPathComponent("spinner.gif"))
        try Data("not an image".utf8).write(to: folder.appendingPathComponent("notes.png"))
        return folder
    }

    @Test func aFileIsReadByItsContentNotItsName() throws {
        let folder = try Self.resources()
        defer { try? FileManager.default.removeItem(at: folder) }
        let image = try Image(contentsOfFile: folder.appendingPathComponent("photo.jpg").path)
        #expect(image.format == .png && image.size == Size(width: 30, height: 20) && image.images == nil && image.duration == 0)
        let error = #expect(throws: ImageDecodingError.self) {
            _ = try Image(contentsOfFile: folder.appendingPathComponent("notes.png").path)
        }
        #expect(error?.reason.hasPrefix("not an image of a known format") == true)
    }

    @Test func anAnimatedGIFHasItsFramesAndDuration() throws {
        let folder = try Self.resources()
        defer { try? FileManager.default.removeItem(at: folder) }
        let image = try Image(contentsOfFile: folder.appendingPathComponent("spinner.gif").path)
        #expect(image.format == .gif && (image.images?.count ?? 0) > 1 && image.duration > 0)
    }

    @Test func namedImagesComeFromTheResourceFoldersAndAreKept() throws {
        let folder = try Self.resources()
        defer { try? FileManager.default.removeItem(at: folder) }
        let saved = Image.resourceFolders
        defer { Image.resourceFolders = saved }
        Image.resourceFolders = ["/nonexistent", folder.path]
        let logo = try #require(Image(named: "logo"))
        #expect(logo.size == Size(width: 30, height: 20))
        #expect(Image(named: "logo")?.content.isSame(as: logo.content) == true, "read once, then kept")
        #expect(Image(named: "spinner.gif")?.images != nil)
        #expect(Image(named: "missing") == nil)
        #expect(Image(named: "notes.png") == nil)
        #expect(Image(named: "../etc/passwd") == nil && Image(named: "/etc/passwd") == nil)
    }

    @Test func theResourceFoldersAreBesideTheExecutable() {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        let folder = (executable as NSString).deletingLastPathComponent
        let program = (executable as NSString).lastPathComponent
        #expect(
            ImageDecoding.ImageResources.defaultFolders
                == [folder + "/Resources", (folder as NSString).deletingLastPathComponent + "/share/" + program])
    }

    @Test func anImageLoadsAsynchronouslyAndFailsWithItsReason() async throws {
        let folder = try Self.resources()
        defer { try? FileManager.default.removeItem(at: folder) }
        let image = try await Image.load(
            contentsOfFile: folder.appendingPathComponent("logo.png").path, fitting: Size(width: 10, height: 10))
        #expect(image.size == Size(width: 30, height: 20))
        await #expect(throws: ImageDecodingError.self) {
            _ = try await Image.load(contentsOfFile: folder.appendingPathComponent("none.png").path)
        }
    }
}

extension Image.Content {
    /// Whether both hold the same first bitmap (the same object).
    func isSame(as other: Image.Content) -> Bool {
        guard case .frames(let a, _) = self, case .frames(let b, _) = other else { return false }
        return a[0].bitmap === b[0].bitmap
    }
}
