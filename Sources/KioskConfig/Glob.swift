/// Shell-style globs (`fnmatch` without flags) on Unicode characters: device names are UTF-8, and
/// Foundation's `fnmatch` would need a C string per device and per entry.
enum Glob {
    /// Why `pattern` is not a glob, or nil when it is.
    static func problem(in pattern: String) -> String? {
        var characters = Array(pattern)[...]
        while let character = characters.popFirst() {
            if character == "\\" {
                if characters.popFirst() == nil { return "it ends with a lone \"\\\"" }
            } else if character == "[" {
                guard parseClass(&characters) != nil else { return "a \"[\" is not closed by \"]\"" }
            }
        }
        return nil
    }

    static func matches(_ pattern: String, _ text: String) -> Bool {
        matches(Array(pattern)[...], Array(text)[...])
    }

    /// Iterative with one backtrack point per `*` (the classic linear-space algorithm): no recursion, so a
    /// fuzzed pattern of thousands of stars cannot exhaust the stack.
    private static func matches(_ pattern: ArraySlice<Character>, _ text: ArraySlice<Character>) -> Bool {
        var p = pattern.startIndex, t = text.startIndex
        var star: (pattern: Int, text: Int)?
        while t < text.endIndex {
            if p < pattern.endIndex {
                let character = pattern[p]
                if character == "*" {
                    star = (p + 1, t)
                    p += 1
                    continue
                }
                if character == "?" {
                    p += 1
                    t += 1
                    continue
                }
                if character == "[" {
                    var rest = pattern[(p + 1)...]
                    if let set = parseClass(&rest) {
                        if set.contains(text[t]) {
                            p = rest.startIndex
                            t += 1
                            continue
                        }
                    } else if text[t] == "[" {
                        p += 1
                        t += 1
                        continue
                    }
                } else {
                    var literal = character
                    var next = p + 1
                    if character == "\\", next < pattern.endIndex {
                        literal = pattern[next]
                        next += 1
                    }
                    if literal == text[t] {
                        p = next
                        t += 1
                        continue
                    }
                }
            }
            guard let backtrack = star else { return false }
            // Let the last `*` swallow one more character and retry from there.
            star = (backtrack.pattern, backtrack.text + 1)
            p = backtrack.pattern
            t = backtrack.text + 1
        }
        while p < pattern.endIndex, pattern[p] == "*" { p += 1 }
        return p == pattern.endIndex
    }

    /// A `[...]` class after its `[`: leaves `rest` after the `]`. nil when not closed.
    private static func parseClass(_ rest: inout ArraySlice<Character>) -> CharacterClass? {
        var set = CharacterClass()
        if let first = rest.first, first == "!" || first == "^" {
            set.negated = true
            rest = rest.dropFirst()
        }
        var isFirst = true
        while let character = rest.popFirst() {
            // A `]` first in the class is a member, as in fnmatch.
            if character == "]" && !isFirst { return set }
            isFirst = false
            if rest.count >= 2, rest.first == "-", let upper = rest.dropFirst().first, upper != "]" {
                rest = rest.dropFirst(2)
                if character <= upper { set.ranges.append(character...upper) }
            } else {
                set.ranges.append(character...character)
            }
        }
        return nil
    }

    private struct CharacterClass {
        var negated = false
        var ranges: [ClosedRange<Character>] = []

        func contains(_ character: Character) -> Bool {
            ranges.contains { $0.contains(character) } != negated
        }
    }
}
