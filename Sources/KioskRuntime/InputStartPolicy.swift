import Geometry

/// When the runtime opens the input devices at start. Their set-up (libinput and xkbcommon loaded, the
/// devices opened, the keymap and Compose table compiled) holds the main thread for 0.3 to 0.5 s on the
/// software-emulated test bed, so it waits until the launch is on the display: the first frame, and the
/// frame that shows the end of the launch's animations (the demo's alert fades in), so that the set-up
/// does not stall them. An app that animates from its start on (a spinner) gets its input at
/// `latestDelay` after the first frame at the latest.
enum InputStartPolicy {
    /// How long after the first frame is on the display input starts whatever still animates.
    static let latestDelay: TimeInterval = 1.0

    /// A connected screen as a frame lands: whether it has changes not yet composed, and whether a frame
    /// of it is still in flight.
    struct ScreenState: Equatable, Sendable {
        var needsFrame: Bool
        var frameInFlight: Bool
    }

    /// Whether the screens have settled as a frame lands: no view animation in flight, and every screen's
    /// last frame composed and on the display. `others` are the connected screens but the one whose
    /// frame just landed (`landedNeedsFrame`: whether that one already has changes for another frame).
    static func hasSettled(isAnimating: Bool, landedNeedsFrame: Bool, others: [ScreenState]) -> Bool {
        !isAnimating && !landedNeedsFrame && others.allSatisfy { !$0.needsFrame && !$0.frameInFlight }
    }
}
