/// A seeded generator (SplitMix64) for the tests' random inputs: the same seed gives the same numbers on
/// every run, toolchain and machine (the system generator does not), so a failing seed fails again.
public struct SplitMix64: RandomNumberGenerator {
    public private(set) var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound`; a bound of 0 or less gives 0. (Modulo bias does not matter to a test.)
    public mutating func next(upperBound bound: Int) -> Int {
        bound <= 0 ? 0 : Int(next() % UInt64(bound))
    }

    /// A number in `range`.
    public mutating func integer(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + next(upperBound: range.count)
    }
}
