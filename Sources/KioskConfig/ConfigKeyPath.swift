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

    static func spell(key: String) -> String { TOML.spell(key: key) }

    /// A value as a TOML basic string, for messages. Long values (fuzzed files, pasted garbage) are cut so
    /// a message stays one readable line.
    static func quote(_ text: String, limit: Int = 80) -> String { TOML.quote(text, limit: limit) }
}
