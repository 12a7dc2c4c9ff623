import Glibc
import Testing

@testable import KioskKit

@MainActor
struct KeyboardLayoutTests {
    @Test func keyboardGeometryFollowsTheScreen() {
        for (width, height, keyHeight) in [
            (800.0, 480.0, 44.0), (1280, 800, 68), (480, 800, 68), (1920, 1080, 92), (3840, 2160, 96), (2160, 3840, 96),
        ] {
            let metrics = KeyboardLayout.Metrics(screen: Size(width: width, height: height))
            #expect(metrics.keyHeight == keyHeight, "\(width)x\(height)")
            let layout = KeyboardLayout(language: .de)
            for page in [KeyboardLayout.Page.letters(shifted: false), .symbols, .moreSymbols, .numberPad, .decimalPad] {
                // The places a taller key covers are gaps, which show no key.
                let frames = layout.frames(of: page, for: .emailAddress, width: width, metrics: metrics).filter { $0.key.role != .gap }
                // Inside the keyboard, none overlapping, and at least as big as a fingertip (44 points).
                #expect(frames.allSatisfy { $0.frame.minX >= 0 && $0.frame.maxX <= width && $0.frame.maxY <= metrics.height })
                #expect(frames.allSatisfy { $0.frame.width >= 30 && $0.frame.height >= 44 }, "\(width)x\(height) \(page)")
                for (i, a) in frames.enumerated() {
                    for b in frames[(i + 1)...] { #expect(!a.frame.intersects(b.frame) || a.frame.intersection(b.frame).isEmpty) }
                }
            }
        }
    }

    @Test func layoutsAsTables() {
        let en = KeyboardLayout(language: .en), de = KeyboardLayout(language: .de)
        func ids(_ layout: KeyboardLayout, _ page: KeyboardLayout.Page, _ type: KeyboardType = .default) -> [String] {
            layout.rows(of: page, for: type).map {
                $0.map { $0.role.identifier.replacingOccurrences(of: "key.", with: "") }.joined(separator: " ")
            }
        }
        #expect(
            ids(en, .letters(shifted: false)) == [
                "q w e r t y u i o p", "a s d f g h j k l", "shift z x c v b n m backspace", "symbols space return hideKeyboard",
            ])
        #expect(
            ids(de, .letters(shifted: true)) == [
                "Q W E R T Z U I O P Ü", "A S D F G H J K L Ö Ä", "shift Y X C V B N M backspace", "symbols space return hideKeyboard",
            ])
        #expect(ids(en, .letters(shifted: false), .emailAddress).last == "symbols @ space . return hideKeyboard")
        #expect(ids(de, .moreSymbols).last == "letters space return hideKeyboard")
        #expect(ids(de, .symbols)[1] == "- / : ; ( ) € & @ \"")
        // The pads: iPhone's digits, then Return three rows tall (the gaps below it are its place) and the hide key.
        #expect(ids(en, .numberPad) == ["1 2 3 return", "4 5 6 gap", "7 8 9 gap", "gap 0 backspace hideKeyboard"])
        #expect(ids(de, .decimalPad) == ["1 2 3 return", "4 5 6 gap", "7 8 9 gap", ", 0 backspace hideKeyboard"])
        #expect(en.rows(of: .numberPad, for: .numberPad)[0].map(\.rows) == [1, 1, 1, 3])
        #expect(de.accents(for: "s").first == "ß" && en.accents(for: "E") == ["È", "É", "Ê", "Ë", "Ē", "Ė", "Ę"])
    }
}
