import Glibc

/// A moment in time as whole seconds since 1970-01-01T00:00:00 UTC, leap seconds not counted (POSIX
/// time, what `time(2)` returns); a picker works in whole seconds, so there is no fraction.
public struct Instant: Sendable, Hashable, Comparable {
    /// Negative before 1970.
    public let secondsSinceEpoch: Int64

    /// The instant some seconds after 1970-01-01T00:00:00 UTC.
    public init(secondsSinceEpoch: Int64) {
        self.secondsSinceEpoch = secondsSinceEpoch
    }

    /// The system clock's current time, truncated to the second.
    public static func now() -> Instant {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Instant(secondsSinceEpoch: Int64(time.tv_sec))
    }

    /// The instant some seconds later (earlier when negative).
    public func adding(seconds: Int64) -> Instant {
        Instant(secondsSinceEpoch: secondsSinceEpoch + seconds)
    }

    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.secondsSinceEpoch < rhs.secondsSinceEpoch }
}

/// The UTC reading in ISO 8601 (`2024-03-31T01:00:00Z`), or the bare count where the day count would not
/// fit an `Int` (only on a 32-bit target, beyond ±5.8 million years).
extension Instant: CustomStringConvertible {
    public var description: String {
        let (days, _) = floorDivide(secondsSinceEpoch, by: secondsPerDay)
        guard days >= Int64(Int.min), days <= Int64(Int.max) else { return "@\(secondsSinceEpoch)" }
        return "\(CivilDateTime(secondsSinceEpoch: secondsSinceEpoch))Z"
    }
}

let secondsPerDay: Int64 = 86_400

/// Quotient rounded down and a remainder in `0..<divisor` (divisor positive): Swift's `/` and `%` truncate
/// toward zero, which would put times before 1970 on the wrong day. Total for every `Int64`.
func floorDivide(_ value: Int64, by divisor: Int64) -> (quotient: Int64, remainder: Int64) {
    let (quotient, remainder) = value.quotientAndRemainder(dividingBy: divisor)
    return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
}
