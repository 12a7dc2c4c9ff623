import Foundation
import Graphics
import Testing

@testable import ImageDecoding

/// SVG through librsvg, against librsvg's own rsvg-convert (`scripts/setup test` installs librsvg2-bin):
/// the pixels at the size shown, the intrinsic size, what a document may reference, and the limits.
@Suite struct SVGDocumentTests {
    /// A 100x50 logo: a gradient, a stroked circle with alpha, text-free so no font is involved.
    static let logo = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!-- a comment before the root -->
        <svg xmlns="http://www.w3.org/2000/svg" width="100" height="50" viewBox="0 0 100 50">
          <defs><linearGradient id="g" x1="0" x2="1"><stop offset="0" stop-color="#0057b8"/>
            <stop offset="1" stop-color="#ffd700"/></linearGradient></defs>
          <rect x="5" y="5" width="90" height="40" rx="8" fill="url(#g)"/>
          <circle cx="50" cy="25" r="15" fill="#c00" fill-opacity="0.5" stroke="#fff" stroke-width="3"/>
        </svg>
        """

    /// The folder with `name` holding `text`.
    static func file(_ name: String, _ text: String, in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url
    }

    /// rsvg-convert's rendering of `svg` at `width` x `height`, premultiplied as ours are.
    static func reference(_ svg: URL, width: Int, height: Int) throws -> ReferenceTools.Pixels {
        let png = svg.deletingPathExtension().appendingPathExtension("reference.png")
        try ReferenceTools.run("rsvg-convert", ["-w", "\(width)", "-h", "\(height)", "-o", png.path, svg.path])
        let convert = try #require(Reference.convert, "ImageMagick's convert (scripts/setup test)")
        return ReferenceTools.premultiplied(try ReferenceTools.netpbm(ReferenceTools.run(convert, [png.path, "-depth", "8", "pam:-"])))
    }

    @Test(arguments: [(100, 50), (300, 150), (37, 18)])
    func aDocumentIsDrawnAtTheSizeShownAsRsvgConvertDrawsIt(width: Int, height: Int) throws {
        let folder = try ReferenceTools.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let svg = try Self.file("logo.svg", Self.logo, in: folder)
        let document = try SVGDocument(contentsOfFile: svg.path)
        let bitmap = try document.render(width: width, height: height)
        #expect(bitmap.width == width && bitmap.height == height && !bitmap.isOpaque)
        let difference = ReferenceTools.largestDifference(
            ReferenceTools.premultipliedPixels(of: bitmap), try Self.reference(svg, width: width, height: height))
        // rsvg-convert's PNG holds straight alpha: premultiplying it again rounds by up to 1 a channel.
        #expect(difference != nil && difference! <= 1, "largest difference \(String(describing: difference))")
        #expect(bitmap.pixel(x: 0, y: 0) == 0, "transparent where nothing is drawn")
    }

    @Test func theDocumentIsScaledToTheSizeAskedAsABitmapIs() throws {
        let document = try SVGDocument(bytes: Array(Self.logo.utf8), name: "logo.svg", baseFile: nil)
        // 200x200 for a 2:1 logo: its 90x40 rectangle at (5, 5) becomes 180x160 at (10, 20).
        let bitmap = try document.render(width: 200, height: 200)
        #expect(bitmap.pixel(x: 100, y: 17) == 0 && bitmap.pixel(x: 100, y: 182) == 0 && bitmap.pixel(x: 7, y: 100) == 0)
        #expect(bitmap.pixel(x: 100, y: 23) >> 24 == 0xFF && bitmap.pixel(x: 13, y: 100) >> 24 == 0xFF)
    }

    @Test func aDocumentWithoutAnIntrinsicSizeIsDrawnInItsOwnUnits() throws {
        // Percentages and no viewBox: nothing to scale from, so a user unit stays a pixel.
        let text = #"<svg xmlns="http://www.w3.org/2000/svg" width="100%" height="100%"><rect width="20" height="10"/></svg>"#
        let bitmap = try SVGDocument(bytes: Array(text.utf8), name: "plain.svg", baseFile: nil).render(width: 200, height: 200)
        #expect(bitmap.pixel(x: 19, y: 9) >> 24 == 0xFF && bitmap.pixel(x: 21, y: 5) == 0 && bitmap.pixel(x: 5, y: 11) == 0)
    }

    @Test(
        arguments: [
            (#"width="2in" height="1in""#, 192.0, 96.0),
            (#"width="120" height="30" viewBox="0 0 10 10""#, 120, 30),
            (#"viewBox="0 0 64 48""#, 64, 48),
            (#"width="50%" height="50%" viewBox="0 0 20 10""#, 20, 10),
        ] as [(String, Double, Double)])
    func theIntrinsicSizeIsInCSSPixels(attributes: String, width: Double, height: Double) throws {
        let text = #"<svg xmlns="http://www.w3.org/2000/svg" \#(attributes)><rect width="10" height="10"/></svg>"#
        let size = try #require(try SVGDocument(bytes: Array(text.utf8), name: "a.svg", baseFile: nil).intrinsicSize)
        #expect(size.width == width && size.height == height)
    }

    @Test func withoutASizeOrAViewBoxThereIsNoIntrinsicSize() throws {
        let text = #"<svg xmlns="http://www.w3.org/2000/svg" width="100%"><rect width="10" height="10"/></svg>"#
        #expect(try SVGDocument(bytes: Array(text.utf8), name: "a.svg", baseFile: nil).intrinsicSize == nil)
    }

    @Test func onlyFilesInTheDocumentsFolderAndDataURLsAreReferenced() throws {
        let top = try ReferenceTools.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: top) }
        let folder = top.appendingPathComponent("app")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("icons"), withIntermediateDirectories: true)
        let red = Bitmap(width: 4, height: 4, format: .xrgb8888)
        red.fill(.red, in: red.bounds)
        try red.writePNG(to: folder.appendingPathComponent("icons/red.png").path)
        try red.writePNG(to: top.appendingPathComponent("outside.png").path)
        let greenBitmap = Bitmap(width: 2, height: 2, format: .xrgb8888)
        greenBitmap.fill(.green, in: greenBitmap.bounds)
        try greenBitmap.writePNG(to: top.appendingPathComponent("green.png").path)
        let green = try Data(contentsOf: top.appendingPathComponent("green.png")).base64EncodedString()
        let svg = try Self.file(
            "page.svg",
            """
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="40" height="10">
              <image x="0" width="10" height="10" href="icons/red.png"/>
              <image x="10" width="10" height="10" href="../outside.png"/>
              <image x="20" width="10" height="10" href="\(top.path)/outside.png"/>
              <image x="30" width="10" height="10" preserveAspectRatio="none" href="data:image/png;base64,\(green)"/>
            </svg>
            """, in: folder)
        let bitmap = try SVGDocument(contentsOfFile: svg.path).render(width: 40, height: 10)
        #expect(bitmap.pixel(x: 5, y: 5) == 0xFFFF_0000, "a file below the document's folder is drawn")
        #expect(bitmap.pixel(x: 15, y: 5) == 0, "`..` is not followed")
        #expect(bitmap.pixel(x: 25, y: 5) == 0, "an absolute path elsewhere is not followed")
        #expect(bitmap.pixel(x: 35, y: 5) >> 8 & 0xFF > 0xF0, "a data: URL is drawn")
    }

    @Test func aDocumentOfMoreThanTheElementLimitIsRefused() throws {
        let elements = String(repeating: "<g/>", count: SVGDocument.maximumElements)
        let text = #"<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1">\#(elements)</svg>"#
        let error = #expect(throws: ImageDecodingError.self) {
            _ = try SVGDocument(bytes: Array(text.utf8), name: "many.svg", baseFile: nil)
        }
        #expect(error?.reason.hasPrefix("\(SVGDocument.maximumElements + 1) elements") == true, "\(String(describing: error))")
        #expect(SVGDocument.countElements(Array("<?xml?><!-- <a> --><svg><g/></g></svg>".utf8)) == 3)
    }

    @Test func entityExpansionIsRefused() throws {
        var text = #"<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a0 "lollollollollol">"#
        for level in 1...9 { text += "<!ENTITY a\(level) \"" + String(repeating: "&a\(level - 1);", count: 10) + "\">" }
        text += #"]><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text>&a9;</text></svg>"#
        #expect(throws: ImageDecodingError.self) { _ = try SVGDocument(bytes: Array(text.utf8), name: "laughs.svg", baseFile: nil) }
    }

    @Test func brokenDocumentsAreRefusedWithLibrsvgsReason() throws {
        let error = #expect(throws: ImageDecodingError.self) {
            _ = try SVGDocument(bytes: Array(#"<svg xmlns="http://www.w3.org/2000/svg"><rect"#.utf8), name: "cut.svg", baseFile: nil)
        }
        #expect(error?.path == "cut.svg" && error?.format == .svg)
        #expect(error?.reason.hasPrefix("rsvg_handle_new_from_stream_sync: ") == true && error!.reason.count > 36)
    }

    @Test func theDecoderReadsAnSVGAsADocument() throws {
        let folder = try ReferenceTools.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let svg = try Self.file("logo.png", Self.logo, in: folder)  // by content, not by name
        guard case .vector(let document) = try ImageDecoder.read(contentsOfFile: svg.path) else {
            Issue.record("not read as a document")
            return
        }
        #expect(document.intrinsicSize?.width == 100 && document.intrinsicSize?.height == 50)
        #expect(throws: ImageDecodingError.self) { _ = try ImageDecoder.decode(contentsOfFile: svg.path) }
    }
}
