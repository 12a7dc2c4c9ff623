import Testing

@testable import ImageDecoding

@Suite struct ImageFormatTests {
    @Test(
        arguments: [
            ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0], ImageFormat.png),
            ([0xFF, 0xD8, 0xFF, 0xE0], .jpeg),
            (Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8), .webp),
            (Array("GIF89a".utf8), .gif),
            (Array("GIF87a".utf8), .gif),
            (Array("<svg xmlns='http://www.w3.org/2000/svg'/>".utf8), .svg),
            (Array("\u{FEFF}<?xml version='1.0'?>\n<!-- a logo -->\n<!DOCTYPE svg>\n<svg:svg>".utf8), .svg),
        ] as [([UInt8], ImageFormat)])
    func aFormatIsToldByItsFirstBytes(bytes: [UInt8], format: ImageFormat) {
        #expect(ImageFormat(sniffing: bytes) == format)
    }

    @Test(arguments: [[], Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVE".utf8), Array("<html><svg/>".utf8), Array("GIF8".utf8)] as [[UInt8]])
    func otherBytesAreNoFormat(bytes: [UInt8]) {
        #expect(ImageFormat(sniffing: bytes) == nil)
    }
}
