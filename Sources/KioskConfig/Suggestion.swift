/// "Did you mean" for misspelt keys, as compilers and git do: the closest valid word by edit distance, when
/// it is close enough to be a typo and not a different word.
enum Suggestion {
    /// The candidate nearest to `word`, or nil when none is within typo distance: at most a third of the
    /// word's length (at least 1) and less than the whole word (so `z` does not suggest `x`).
    /// `log_level` finds `log-level` and `Rotation` finds `rotation`: case and `_`/`-` are ignored.
    static func closest(to word: String, among candidates: [String]) -> String? {
        // Beyond this length a word is not a typo of a key, and the quadratic distance would cost for nothing.
        guard !word.isEmpty, word.count <= 64 else { return nil }
        let normalized = normalize(word)
        let limit = min(max(1, normalized.count / 3), normalized.count - 1)
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(normalized, normalize(candidate))
            if distance <= limit, distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        return best?.candidate
    }

    private static func normalize(_ word: String) -> [Character] {
        word.lowercased().map { $0 == "_" ? "-" : $0 }
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours
    /// (`rotaiton`) each cost 1.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
