/// Which responder each held key's press went to, so that its release goes there too (UIKit's
/// `UIPress.responder`: the first responder when the press began), and the presses of a responder that
/// leaves its window are cancelled (`pressesCancelled`), their releases then going nowhere.
@MainActor
struct PressPairing {
    private struct Held {
        weak var responder: Responder?
        let press: Press
    }

    /// By key (`key(of:)`).
    private var held: [UInt64: Held] = [:]
    /// Keys whose press was cancelled: their release is swallowed.
    private var cancelled: Set<UInt64> = []

    /// The kernel's key code when known, else the keysym: what pairs a release with its press.
    private static func key(of press: Press) -> UInt64 {
        press.keyCode != 0 ? UInt64(press.keyCode) : (1 << 32) | UInt64(press.keysym)
    }

    mutating func began(_ press: Press, by responder: Responder) {
        let key = Self.key(of: press)
        cancelled.remove(key)
        held[key] = Held(responder: responder, press: press)
    }

    /// Where the release of `press` goes: the responder its press went to (nil: nowhere, its press was
    /// cancelled); `fallback` when its press was not seen (it went down before this responder chain had it).
    mutating func responder(forRelease press: Press, fallback: Responder) -> Responder? {
        let key = Self.key(of: press)
        if cancelled.remove(key) != nil { return nil }
        guard let entry = held.removeValue(forKey: key) else { return fallback }
        return entry.responder ?? fallback
    }

    /// Takes out the presses held by responders whose view is in `view`'s subtree (they leave their
    /// window), by responder.
    mutating func cancel(inside view: View) -> [(Responder, Set<Press>)] {
        guard !held.isEmpty else { return [] }
        var found: [(Responder, Press)] = []
        for (key, entry) in held {
            guard let responder = entry.responder, responder.firstResponderView?.isDescendant(of: view) == true else { continue }
            held[key] = nil
            cancelled.insert(key)
            found.append((responder, entry.press))
        }
        return Self.grouped(found)
    }

    /// The presses of each responder, one set each, in the order the responders first come.
    static func grouped(_ pairs: [(Responder, Press)]) -> [(Responder, Set<Press>)] {
        var groups: [(Responder, Set<Press>)] = []
        for (responder, press) in pairs {
            if let index = groups.firstIndex(where: { $0.0 === responder }) {
                groups[index].1.insert(press)
            } else {
                groups.append((responder, [press]))
            }
        }
        return groups
    }
}
