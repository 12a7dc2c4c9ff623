import Testing

@testable import Udev

@Suite struct UdevNaturalOrderTests {
    @Test(arguments: [
        ("card2", "card10"),
        ("card0", "card1"),
        ("event9", "event10"),
        ("card0-HDMI-A-2", "card0-HDMI-A-10"),
        ("card1-DP-1", "card10-DP-1"),
        ("card", "card0"),
        ("a1b2", "a1b10"),
        ("tty", "ttyS0"),
        ("", "a"),
        ("card007", "card8"),
        ("card01", "card1"),  // equal by value: byte order decides, so the order stays total
        ("x18446744073709551616", "x18446744073709551617"),  // digit runs longer than any integer type
    ])
    func ordersNumbersByValue(smaller: String, larger: String) {
        #expect(Udev.naturalOrder(smaller, larger))
        #expect(!Udev.naturalOrder(larger, smaller))
    }

    @Test(arguments: ["card0", "", "card0-HDMI-A-1", "007"])
    func isIrreflexive(name: String) {
        #expect(!Udev.naturalOrder(name, name))
    }

    @Test func sortsLikeAPersonWould() {
        let shuffled = ["card10", "card2", "renderD128", "card1", "card0", "card11", "renderD129"]
        #expect(
            shuffled.sorted(by: Udev.naturalOrder)
                == ["card0", "card1", "card2", "card10", "card11", "renderD128", "renderD129"])
    }
}
