import Glibc

/// One input event: the touches of one frame of one device, a key press, or another event without a
/// position (as `UIEvent`).
@MainActor
public final class Event {
    public enum Kind: Sendable, Equatable {
        case touches
        case presses
        /// An event without a position, named for logs (`"power-button"`); goes to the key window.
        case other(String)
    }

    public let kind: Kind
    /// Seconds since boot on the kernel's monotonic clock (input events carry it).
    public let timestamp: TimeInterval
    public let allTouches: Set<Touch>
    public let allPresses: Set<Press>

    public init(touches: Set<Touch>, timestamp: TimeInterval) {
        kind = .touches
        self.timestamp = timestamp
        allTouches = touches
        allPresses = []
    }

    public init(presses: Set<Press>, timestamp: TimeInterval) {
        kind = .presses
        self.timestamp = timestamp
        allTouches = []
        allPresses = presses
    }

    public init(other name: String, timestamp: TimeInterval) {
        kind = .other(name)
        self.timestamp = timestamp
        allTouches = []
        allPresses = []
    }

    /// Whether the event has a position: touch events are routed by where they happen, the others go to the key window.
    public var hasPosition: Bool { kind == .touches }

    public func touches(for view: View) -> Set<Touch> { allTouches.filter { $0.view === view } }
    public func touches(for window: Window) -> Set<Touch> { allTouches.filter { $0.window === window } }
}

/// A key press: the xkbcommon keysym and the text it types (as `UIPress` with its `UIKey`).
@MainActor
public final class Press: Hashable {
    public enum Phase: Sendable { case began, ended }

    public let phase: Phase
    /// The keysym (`XKB_KEY_Return` = 0xff0d), layout applied.
    public let keysym: UInt32
    /// The UTF-8 text the key types, empty for keys that type nothing.
    public let text: String
    public let timestamp: TimeInterval
    /// The kernel's code of the key (`KEY_A` = 30), 0 when unknown: it pairs a release with its press.
    public let keyCode: UInt32
    /// Whether holding the key repeats it (the keymap says; `Application.keyRepeat` says how).
    public let repeats: Bool

    public init(phase: Phase, keysym: UInt32, text: String, timestamp: TimeInterval, keyCode: UInt32 = 0, repeats: Bool = false) {
        self.phase = phase
        self.keysym = keysym
        self.text = text
        self.timestamp = timestamp
        self.keyCode = keyCode
        self.repeats = repeats
    }

    nonisolated public static func == (lhs: Press, rhs: Press) -> Bool { lhs === rhs }
    nonisolated public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
