import Testing

@testable import Graphics

/// Emoji are drawn in colour from Noto Color Emoji (fonts-noto-color-emoji, which scripts/setup installs):
/// pango picks it for the emoji's characters whatever the font asked for, and cairo draws its colour
/// bitmaps, so the pixels are coloured, not one colour's coverage.
@Suite struct EmojiTests {
    @Test func anEmojiIsDrawnInColour() throws {
        let layout = TextLayout(text: "🍎 🌍", font: .system(size: 32))
        #expect(layout.unknownGlyphCount == 0, "a font has the emoji")
        let bitmap = Bitmap(width: 120, height: 60)
        DrawingContext(bitmap: bitmap).draw(layout, at: Point(x: 4, y: 4))
        let opaque = bitmap.allPixels.filter { $0 >> 24 == 0xFF }
        // Premultiplied ARGB: an opaque pixel's channels as they are.
        func red(_ pixel: UInt32) -> Int { Int(pixel >> 16 & 0xFF) }
        func green(_ pixel: UInt32) -> Int { Int(pixel >> 8 & 0xFF) }
        func blue(_ pixel: UInt32) -> Int { Int(pixel & 0xFF) }
        let reds = opaque.filter { red($0) > 150 && green($0) < 90 && blue($0) < 90 }
        let blueOrGreen = opaque.filter { (blue($0) > 120 || green($0) > 120) && red($0) < 100 }
        #expect(reds.count > 50 && blueOrGreen.count > 50, "\(reds.count) red, \(blueOrGreen.count) blue or green")
    }
}
