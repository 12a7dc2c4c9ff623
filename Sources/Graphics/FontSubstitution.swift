import Synchronization

/// Families asked for that fontconfig has no font of (neither installed nor registered with
/// `Font.register(fileAt:)`): pango then draws in whatever fontconfig's rules pick, silently, so each is
/// told once per process, with the family drawn instead, to `handler` (the kiosk logs it).
public enum FontSubstitution {
    /// What is told of a substitution: the family asked for and the one drawn instead.
    public typealias Handler = @Sendable (_ requested: String, _ used: String) -> Void

    /// A family asked for and the one drawn instead.
    public struct Substitution: Hashable, Sendable {
        public let requested: String
        public let used: String
    }

    private static let state = Mutex<(handler: Handler?, checked: Set<String>, told: [Substitution])>((nil, [], []))

    /// Every substitution told so far, in order (each family once: as many as the families an app names).
    public static var substitutions: [Substitution] { state.withLock { $0.told } }

    /// Called once per family that is not there, on the thread laying the text out; nil: nothing is told.
    public static var handler: Handler? {
        get { state.withLock { $0.handler } }
        set { state.withLock { $0.handler = newValue } }
    }

    /// fontconfig's generic families and CSS's, which name no font of their own: always some other family.
    static let genericFamilies: Set<String> = [
        "sans", "sans-serif", "serif", "monospace", "mono", "system-ui", "emoji", "cursive", "fantasy", "math",
    ]

    /// Checks `family` the first time it is asked for: a list of families (`"Inter, Sans"`) or a generic one
    /// is the app's own fallback, and not checked.
    static func checkOnce(_ family: String) {
        let key = family.lowercased()
        guard !genericFamilies.contains(key), !family.utf8.contains(UInt8(ascii: ",")),
            state.withLock({ $0.checked.insert(key).inserted })
        else { return }
        guard let used = PangoThreadContext.resolvedFamily(family), used.lowercased() != key else { return }
        let handler = state.withLock { state in
            state.told.append(Substitution(requested: family, used: used))
            return state.handler
        }
        handler?(family, used)
    }
}
