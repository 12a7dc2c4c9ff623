import Foundation
import Glibc
import Testing

@testable import Graphics

/// `Font.register(fileAt:)` through fontconfig's application fonts: a family no installed font has is
/// drawn in a substitute (told once to `FontSubstitution.handler`) until its file is registered, then in
/// its own glyphs; files that are missing or not fonts are refused, naming the file.
@Suite(.serialized) struct FontRegistrationTests {
    /// DejaVu Serif (fonts-dejavu-core) under another family name of the same length, written into the
    /// name table in place (ASCII and UTF-16BE records): a font no system has, with known glyphs.
    static func renamedSerif(in folder: String) throws -> String {
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf")))
        let replacements = [
            (Array("DejaVu Serif".utf8), Array("Kiosk Serifs".utf8)),
            (
                Array("DejaVu Serif".utf16).flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] },
                Array("Kiosk Serifs".utf16).flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
            ),
        ]
        var replaced = 0
        for (old, new) in replacements {
            var index = 0
            while index + old.count <= bytes.count {
                if bytes[index..<index + old.count].elementsEqual(old) {
                    bytes.replaceSubrange(index..<index + old.count, with: new)
                    replaced += 1
                    index += old.count
                } else {
                    index += 1
                }
            }
        }
        #expect(replaced >= 2, "the family's name records were found")
        let path = folder + "/KioskSerifs.ttf"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func draw(_ text: String, family: String) -> Bitmap {
        let layout = TextLayout(text: text, font: Font(family: family, size: 24))
        let bitmap = Bitmap(width: 200, height: 40)
        DrawingContext(bitmap: bitmap).draw(layout, at: Point(x: 2, y: 2))
        return bitmap
    }

    @Test func aRegisteredFileIsDrawnByItsFamilyNameAndAnUnknownFamilyIsToldOnce() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-fonts-\(getpid())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func told() -> [String] {
            FontSubstitution.substitutions.filter { $0.requested.lowercased() == "kiosk serifs" }.map { "\($0.requested) -> \($0.used)" }
        }
        let before = Self.draw("Kiosk 42", family: "Kiosk Serifs")
        _ = Self.draw("again", family: "kiosk serifs")
        let substitute = try #require(PangoThreadContext.resolvedFamily("Kiosk Serifs"))
        #expect(substitute != "Kiosk Serifs" && told() == ["Kiosk Serifs -> \(substitute)"], "told once, whatever the case")

        let families = try Font.register(fileAt: Self.renamedSerif(in: folder))
        #expect(families == ["Kiosk Serifs"])
        #expect(PangoThreadContext.resolvedFamily("Kiosk Serifs") == "Kiosk Serifs")
        let after = Self.draw("Kiosk 42", family: "Kiosk Serifs")
        #expect(after.allPixels == Self.draw("Kiosk 42", family: "DejaVu Serif").allPixels, "DejaVu Serif's glyphs")
        #expect(after.allPixels != before.allPixels, "not the substitute's")
        #expect(told().count == 1)
    }

    @Test func aMissingFileOrOneThatIsNoFontIsRefusedNamingIt() {
        #expect(throws: FontRegistrationError.self) { try Font.register(fileAt: "/nonexistent/Inter.ttf") }
        do {
            try Font.register(fileAt: "/nonexistent/Inter.ttf")
        } catch {
            #expect(error.reason == .unreadable(errno: ENOENT))
            #expect(error.description == "font file /nonexistent/Inter.ttf: cannot be read: No such file or directory")
        }
        do {
            try Font.register(fileAt: "/etc/hostname")
            Issue.record("a text file registered as a font")
        } catch {
            #expect(error.reason == .notAFont && error.path == "/etc/hostname")
        }
    }

    /// Generic families and lists of them are the app's own fallback: nothing is told.
    @Test func genericFamiliesAreNotTold() {
        let families = ["Serif", "monospace", "Nowhere Sans, Sans"]
        for family in families { _ = Self.draw("x", family: family) }
        #expect(!FontSubstitution.substitutions.contains { families.contains($0.requested) })
    }
}
