import Geometry

/// The keys of the on-screen keyboard, as data: rows of keys for each page of a language's layout, the
/// accents a long press offers, and where each key goes for a screen size. Pure, so tests read it as tables.
///
/// Every page ends with the keys that finish, at the bottom right: Return, labelled by the field's
/// `returnKeyType`, and in the corner the hide-keyboard key (iPad keyboards have one there). The text pages
/// have them at the end of the bottom row; the pads, which keep the iPhone's digits, in a fourth column,
/// Return three rows tall as a keypad's Enter, so a kiosk without a hardware keyboard can always leave a
/// field.
public struct KeyboardLayout: Sendable {
    /// The languages there are layouts for (the config's `keyboard-layout`).
    public typealias Language = KeyboardLanguage

    /// A page of keys.
    public enum Page: Sendable, Equatable {
        case letters(shifted: Bool)
        case symbols
        case moreSymbols
        case numberPad
        case decimalPad
    }

    /// What a key does.
    public enum Role: Sendable, Equatable {
        case character(String)
        case shift, backspace, returnKey, space
        /// Hides the keyboard (as iPad's key): the first responder is asked to resign.
        case hideKeyboard
        /// To the numbers and symbols page ("123").
        case symbols
        /// Back to the letters ("ABC").
        case letters
        /// To the second symbols page ("#+=").
        case moreSymbols
        /// An empty place (the number pad's bottom left; the places a taller key covers).
        case gap

        /// The key view's identifier: `key.` and the character it types, or its role.
        public var identifier: String {
            switch self {
            case .character(let text): "key.\(text)"
            case .shift: "key.shift"
            case .backspace: "key.backspace"
            case .returnKey: "key.return"
            case .space: "key.space"
            case .hideKeyboard: "key.hideKeyboard"
            case .symbols: "key.symbols"
            case .letters: "key.letters"
            case .moreSymbols: "key.moreSymbols"
            case .gap: "key.gap"
            }
        }
    }

    public struct Key: Sendable, Equatable {
        public let role: Role
        /// Width in letter keys.
        public let width: Double
        /// How many rows the key is tall, from its own down; the rows below hold gaps of its width there.
        public let rows: Int

        public init(role: Role, width: Double, rows: Int = 1) {
            self.role = role
            self.width = width
            self.rows = rows
        }
    }

    public let language: Language

    public init(language: Language) {
        self.language = language
    }

    /// The page a keyboard type starts on.
    public static func firstPage(for type: KeyboardType, shifted: Bool) -> Page {
        switch type {
        case .numberPad: .numberPad
        case .decimalPad: .decimalPad
        case .default, .emailAddress: .letters(shifted: shifted)
        }
    }

    private static func characters(_ text: String) -> [Key] { text.map { Key(role: .character(String($0)), width: 1) } }

    /// The rows of `page`, top to bottom.
    public func rows(of page: Page, for type: KeyboardType) -> [[Key]] {
        switch page {
        case .letters(let shifted):
            let letters: [String] =
                switch language {
                case .en: ["qwertyuiop", "asdfghjkl", "zxcvbnm"]
                case .de: ["qwertzuiopü", "asdfghjklöä", "yxcvbnm"]
                }
            let cased = letters.map { shifted ? $0.uppercased() : $0 }
            let wide = Double(cased[0].count)
            let third = Self.characters(cased[2])
            let side = (wide - Double(third.count)) / 2
            return [
                Self.characters(cased[0]), Self.characters(cased[1]),
                [Key(role: .shift, width: side)] + third + [Key(role: .backspace, width: side)],
                bottomRow(width: wide, type: type, pageKey: .symbols),
            ]
        case .symbols:
            let currency = language == .de ? "€" : "$"
            return [
                Self.characters("1234567890"), Self.characters("-/:;()\(currency)&@\""),
                [Key(role: .moreSymbols, width: 1.5)] + Self.characters(".,?!'").map { Key(role: $0.role, width: 1.4) }
                    + [Key(role: .backspace, width: 1.5)],
                bottomRow(width: 10, type: type, pageKey: .letters),
            ]
        case .moreSymbols:
            let currencies = language == .de ? "$£¥•" : "€£¥•"
            return [
                Self.characters("[]{}#%^*+="), Self.characters("_\\|~<>" + currencies),
                [Key(role: .symbols, width: 1.5)] + Self.characters(".,?!'").map { Key(role: $0.role, width: 1.4) }
                    + [Key(role: .backspace, width: 1.5)],
                bottomRow(width: 10, type: type, pageKey: .letters),
            ]
        case .numberPad, .decimalPad:
            let corner: Role = page == .decimalPad ? .character(language == .de ? "," : ".") : .gap
            // Return three rows tall: the gaps below it in the fourth column are its place.
            let under = Key(role: .gap, width: 1)
            return [
                Self.characters("123") + [Key(role: .returnKey, width: 1, rows: 3)],
                Self.characters("456") + [under],
                Self.characters("789") + [under],
                [corner, .character("0"), .backspace, .hideKeyboard].map { Key(role: $0, width: 1) },
            ]
        }
    }

    /// Page key, space, Return and the hide key; an email keyboard puts "@" and "." beside the space.
    private func bottomRow(width: Double, type: KeyboardType, pageKey: Role) -> [Key] {
        let side = 2.0, hide = 1.5
        let finish = [Key(role: .returnKey, width: side), Key(role: .hideKeyboard, width: hide)]
        if type == .emailAddress {
            return [
                Key(role: pageKey, width: side), Key(role: .character("@"), width: 1),
                Key(role: .space, width: width - 2 * side - hide - 2), Key(role: .character("."), width: 1),
            ] + finish
        }
        return [Key(role: pageKey, width: side), Key(role: .space, width: width - 2 * side - hide)] + finish
    }

    /// The letters a long press on `character` offers (its accented forms), uppercase when it is.
    public func accents(for character: String) -> [String] {
        let lower = character.lowercased()
        let base: [String: String] = [
            "a": "àáâäæãåā", "c": "çćč", "e": "èéêëēėę", "i": "îïíīįì", "l": "ł", "n": "ñń", "o": "ôöòóœøōõ",
            "s": language == .de ? "ßśš" : "śšß", "u": "ûüùúū", "y": "ÿ", "z": "žźż",
        ]
        guard let accents = base[lower] else { return [] }
        let isUpper = character != lower
        // ß has no capital in everyday text; it stays as it is on the shifted page.
        return accents.map { isUpper && $0 != "ß" ? String($0).uppercased() : String($0) }
    }

    // MARK: Geometry

    /// Sizes for a screen: keys about 8.5 % of the screen's height (44 to 96 points: a fingertip on small
    /// panels, not a palm on 4K ones), gaps 12 % of a key, keys no wider than 1.6 times their height (on a
    /// wide screen the keyboard is centred, not stretched).
    public struct Metrics: Sendable, Equatable {
        public let keyHeight: Double
        public let gap: Double
        public let height: Double

        public init(screen: Size) {
            keyHeight = min(max((screen.height * 0.085).rounded(), 44), 96)
            gap = (keyHeight * 0.12).rounded()
            height = 4 * keyHeight + 5 * gap
        }
    }

    /// Where each key of `page` goes in a keyboard `width` points wide (keyboard coordinates), row by row.
    public func frames(of page: Page, for type: KeyboardType, width: Double, metrics: Metrics) -> [(key: Key, frame: Rect)] {
        let rows = rows(of: page, for: type)
        let gap = metrics.gap
        // The widest row decides the unit (a letter key's width); narrower rows are centred.
        let units = rows.map { $0.reduce(0) { $0 + $1.width } }.max() ?? 1
        let keys = Double(rows.map(\.count).max() ?? 1)
        let isPad = page == .numberPad || page == .decimalPad
        let widest = metrics.keyHeight * (isPad ? 4 : 1.6)
        let unit = max(min((width - gap * (keys + 1)) / units, widest), 1)
        var placed: [(Key, Rect)] = []
        for (index, row) in rows.enumerated() {
            let rowWidth = row.reduce(0) { $0 + $1.width * unit } + gap * Double(row.count - 1)
            var x = ((width - rowWidth) / 2).rounded()
            let y = gap + Double(index) * (metrics.keyHeight + gap)
            for key in row {
                let keyWidth = (key.width * unit).rounded()
                let height = metrics.keyHeight * Double(key.rows) + gap * Double(key.rows - 1)
                placed.append((key, Rect(x: x, y: y, width: keyWidth, height: height)))
                x += keyWidth + gap
            }
        }
        return placed
    }
}
