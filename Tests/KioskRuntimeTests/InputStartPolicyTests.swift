import Testing

@testable import KioskRuntime

/// When input starts at launch: once no animation is in flight and every screen's last frame is composed
/// and on the display.
struct InputStartPolicyTests {
    typealias State = InputStartPolicy.ScreenState

    static let settled = State(needsFrame: false, frameInFlight: false)

    @Test(arguments: [
        // One screen: its frame landed.
        (false, false, [State](), true),
        (true, false, [], false),  // the launch's animation is still in flight
        (false, true, [], false),  // it landed, but a change waits for the next frame (the end state's)
        // Two screens.
        (false, false, [settled], true),
        (false, false, [State(needsFrame: false, frameInFlight: true)], false),  // the other's frame is not on it yet
        (false, false, [State(needsFrame: true, frameInFlight: false)], false),  // the other has a frame to compose
        (true, false, [settled], false),
    ])
    func settles(isAnimating: Bool, landedNeedsFrame: Bool, others: [State], expected: Bool) {
        #expect(InputStartPolicy.hasSettled(isAnimating: isAnimating, landedNeedsFrame: landedNeedsFrame, others: others) == expected)
    }

    @Test func aPerpetualAnimationWaitsASecondAtMost() {
        #expect(InputStartPolicy.latestDelay == 1.0)
    }
}
