/// Where a value sits in the config file's tree: `screens.HDMI-A-1.mode`, `touch[0].calibration[2]`.
/// Used both to look a value's line up in the source text and to name it in messages.
struct ConfigKeyPath: Hashable, Sendable, CustomStringConvertible, ExpressibleByArrayLiteral {
    enum Component: Hashable, Sendable {
        case key(String)
        /// An element of an array, or the nth `[[table]]` of an array of tables (0-based, as in jq and JSON paths).
        case index(Int)
    }

    var components: [Component]

    init(_ components: [Component] = []) { self.components = components }

    init(arrayLiteral elements: String...) { components = elements.map(Component.key) }

    var isEmpty: Bool { components.isEmpty }
    var count: Int { components.count }

    func appending(_ key: String) -> ConfigKeyPath { ConfigKeyPath(components + [.key(key)]) }
    func appending(index: Int) -> ConfigKeyPath { ConfigKeyPath(components + [.index(index)]) }

    /// The path without its last `count` components.
    func dropLast(_ count: Int = 1) -> ConfigKeyPath { ConfigKeyPath(Array(components.dropLast(count))) }

    /// TOML spelling: bare keys as written, others quoted (`screens."lobby tv".mode`), indices in brackets.
    var description: String {
        var text = ""
        for component in components {
            switch component {
            case let .key(key):
                if !text.isEmpty { text += "." }
                text += Self.spell(key: key)
            case let .index(index):
                text += "[\(index)]"
            }
        }
        return text
    }

    static func spell(key: String) -> String {
        isBare(key) ? key : quote(key)
    }

    /// TOML's bare key alphabet: `A-Za-z0-9_-`.
    static func isBare(_ key: String) -> Bool {
        !key.isEmpty && key.utf8.allSatisfy(isBareKeyByte)
    }

    static func isBareKeyByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
            true
        default: false
        }
    }

    /// `text` with control characters escaped as in TOML (`\n`, `\u0001`), so a message is one line.
    static func escapeControlCharacters(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// A value as a TOML basic string, for messages. Long values (fuzzed files, pasted garbage) are cut so
    /// a message stays one readable line.
    static func quote(_ text: String, limit: Int = 80) -> String {
        var out = "\""
        var count = 0
        for scalar in text.unicodeScalars {
            if count == limit {
                out += "…"
                break
            }
            count += 1
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default: out += escapeControlCharacters(String(scalar))
            }
        }
        return out + "\""
    }
}
