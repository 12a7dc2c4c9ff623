import KioskKit
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A timing function with a name for the test report, and its control points kept apart from the struct so
/// the reference below computes from the numbers, not from the code under test.
struct NamedCurve: Sendable, CustomTestStringConvertible {
    let name: String
    let controlPoints: (x1: Double, y1: Double, x2: Double, y2: Double)
    let curve: TimingFunction

    var testDescription: String { name }

    static let named = [
        NamedCurve("linear", .linear, 0, 0, 1, 1),
        NamedCurve("easeIn", .easeIn, 0.42, 0, 1, 1),
        NamedCurve("easeOut", .easeOut, 0, 0, 0.58, 1),
        NamedCurve("easeInEaseOut", .easeInEaseOut, 0.42, 0, 0.58, 1),
    ]

    /// Curves a designer might type: overshooting ones (y outside 0…1), Core Animation's `default`, and a
    /// steep middle where x'(t) nearly vanishes.
    static let custom = [
        NamedCurve("easeOutBack", 0.34, 1.56, 0.64, 1),
        NamedCurve("easeInOutBack", 0.68, -0.55, 0.265, 1.55),
        NamedCurve("anticipate", 0.36, -0.6, 0.6, 0.4),
        NamedCurve("caDefault", 0.25, 0.1, 0.25, 1),
        NamedCurve("steepMiddle", 0.9, 0, 0.1, 1),
    ]

    init(_ name: String, _ curve: TimingFunction, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        self.name = name
        self.controlPoints = (x1, y1, x2, y2)
        self.curve = curve
    }

    init(_ name: String, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        self.init(name, TimingFunction(controlPoints: x1, y1, x2, y2), x1, y1, x2, y2)
    }

    /// The progress at `fraction` by brute force: the Bézier sampled at 200,001 evenly spaced parameters in
    /// Bernstein form, and y interpolated linearly between the two samples whose x bracket the fraction. No
    /// solver, so it cannot share a mistake with Newton's method.
    func referenceProgress(at fraction: Double) -> Double {
        let (x1, y1, x2, y2) = controlPoints
        let samples = 200_000
        func point(_ t: Double) -> (x: Double, y: Double) {
            let s = 1 - t
            let b1 = 3 * s * s * t, b2 = 3 * s * t * t, b3 = t * t * t
            return (b1 * x1 + b2 * x2 + b3, b1 * y1 + b2 * y2 + b3)
        }
        var previous = point(0)
        if fraction <= previous.x { return previous.y }
        for i in 1...samples {
            let current = point(Double(i) / Double(samples))
            if current.x >= fraction {
                let weight = (fraction - previous.x) / (current.x - previous.x)
                return previous.y + weight * (current.y - previous.y)
            }
            previous = current
        }
        return previous.y
    }
}

let tenths = (0...10).map { Double($0) / 10 }

@Suite struct TimingFunctionTests {
    @Test(arguments: NamedCurve.named, tenths)
    func namedCurveMatchesSampledBezier(_ named: NamedCurve, fraction: Double) {
        #expect(abs(named.curve.value(at: fraction) - named.referenceProgress(at: fraction)) <= 1e-5)
    }

    @Test(arguments: NamedCurve.custom, tenths)
    func customCurveMatchesSampledBezier(_ named: NamedCurve, fraction: Double) {
        #expect(abs(named.curve.value(at: fraction) - named.referenceProgress(at: fraction)) <= 1e-5)
    }

    /// Progress never goes back on a curve whose y control points are within 0…1. A step of 1e-4 is a
    /// thousand times the solver's precision in x, so solver error cannot reverse a step.
    @Test(arguments: NamedCurve.named)
    func namedCurveIsMonotonic(_ named: NamedCurve) {
        var previous = named.curve.value(at: 0)
        for i in 1...10_000 {
            let value = named.curve.value(at: Double(i) / 10_000)
            #expect(value >= previous, "at \(Double(i) / 10_000)")
            previous = value
        }
    }

    /// The control points (0.42, 0) and (0.58, 1) mirror each other through (0.5, 0.5), so the second half
    /// of the motion replays the first backwards.
    @Test(arguments: (0...20).map { Double($0) / 20 })
    func easeInEaseOutIsSymmetric(fraction: Double) {
        let curve = TimingFunction.easeInEaseOut
        #expect(abs(curve.value(at: fraction) + curve.value(at: 1 - fraction) - 1) <= 1e-6)
    }

    @Test(arguments: NamedCurve.named + NamedCurve.custom)
    func endsAreExactAndClamped(_ named: NamedCurve) {
        let curve = named.curve
        #expect(curve.value(at: 0) == 0 && curve.value(at: 1) == 1)
        #expect(curve.value(at: -0.5) == 0 && curve.value(at: 2) == 1 && curve.value(at: .nan) == 0)
    }

    @Test func linearIsTheIdentity() {
        for fraction in [0.1, 0.25, 1.0 / 3, 0.5, 0.9, 0.999] {
            #expect(TimingFunction.linear.value(at: fraction) == fraction)
        }
    }

    /// y control points outside 0…1 carry the progress past the ends: a "back" curve dips below 0 before it
    /// starts and rises above 1 before it lands.
    @Test func overshootingCurvesLeaveZeroToOne() {
        let samples = (1..<1000).map { Double($0) / 1000 }
        let easeOutBack = TimingFunction(controlPoints: 0.34, 1.56, 0.64, 1)
        #expect(samples.map(easeOutBack.value(at:)).max()! > 1.05)
        let easeInOutBack = TimingFunction(controlPoints: 0.68, -0.55, 0.265, 1.55)
        #expect(samples.map(easeInOutBack.value(at:)).min()! < -0.05)
        #expect(samples.map(easeInOutBack.value(at:)).max()! > 1.05)
    }

    /// x outside 0…1 would make time run backwards along the curve (two progresses for one moment), so it
    /// is clamped as CSS's cubic-bezier() requires.
    @Test func timeControlPointsAreClamped() {
        let curve = TimingFunction(controlPoints: -0.5, 0.2, 1.5, 0.8)
        #expect(curve == TimingFunction(controlPoints: 0, 0.2, 1, 0.8))
        #expect(curve.x1 == 0 && curve.x2 == 1 && curve.y1 == 0.2 && curve.y2 == 0.8)
    }

    @Test func namedControlPointsAreCoreAnimations() {
        #expect(TimingFunction.easeInEaseOut == TimingFunction(controlPoints: 0.42, 0, 0.58, 1))
        #expect(TimingFunction.easeIn == TimingFunction(controlPoints: 0.42, 0, 1, 1))
        #expect(TimingFunction.easeOut == TimingFunction(controlPoints: 0, 0, 0.58, 1))
        #expect(TimingFunction.linear == TimingFunction(controlPoints: 0, 0, 1, 1))
    }
}

/// One row of the spring table.
struct SpringCase: Sendable, CustomTestStringConvertible {
    let dampingRatio: Double
    let velocity: Double
    let duration: Double

    var spring: SpringTiming { SpringTiming(dampingRatio: dampingRatio, initialVelocity: velocity, duration: duration) }
    var testDescription: String { "ζ \(dampingRatio), v \(velocity), \(duration) s" }

    static let all = [0.1, 0.3, 0.5, 0.7, 1, 1.5].flatMap { dampingRatio in
        [0.0, 1, 5].flatMap { velocity in
            [0.3, 1].map { SpringCase(dampingRatio: dampingRatio, velocity: velocity, duration: $0) }
        }
    }
}

/// x'' + 2ζω·x' + ω²·x = 0 from x(0) = 1, x'(0) = −v, integrated by classical fourth-order Runge–Kutta
/// in `steps` equal steps: x after each step (and at 0), from t = 0 to `until`. Independent of the closed forms.
func integrateOscillator(dampingRatio zeta: Double, omega: Double, velocity: Double, until end: Double, steps: Int) -> [Double] {
    func acceleration(_ x: Double, _ u: Double) -> Double { -2 * zeta * omega * u - omega * omega * x }
    let h = end / Double(steps)
    var x = 1.0
    var u = -velocity
    var positions = [x]
    for _ in 0..<steps {
        let (k1x, k1u) = (u, acceleration(x, u))
        let (k2x, k2u) = (u + h / 2 * k1u, acceleration(x + h / 2 * k1x, u + h / 2 * k1u))
        let (k3x, k3u) = (u + h / 2 * k2u, acceleration(x + h / 2 * k2x, u + h / 2 * k2u))
        let (k4x, k4u) = (u + h * k3u, acceleration(x + h * k3x, u + h * k3u))
        x += h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x)
        u += h / 6 * (k1u + 2 * k2u + 2 * k3u + k4u)
        positions.append(x)
    }
    return positions
}

@Suite struct SpringTimingTests {
    /// 500 steps per twentieth of the duration: ω·h stays below 0.01 even for ζ 0.1 over 0.3 s (ω ≈ 230),
    /// so the integration's own error is far below the tolerance.
    static let stepsPerFrame = 500

    @Test(arguments: SpringCase.all)
    func matchesRungeKutta(_ row: SpringCase) {
        let spring = row.spring
        let positions = integrateOscillator(
            dampingRatio: row.dampingRatio, omega: spring.naturalFrequency, velocity: row.velocity, until: row.duration,
            steps: 20 * Self.stepsPerFrame)
        for k in 0..<20 {
            let time = Double(k) * row.duration / 20
            #expect(abs(spring.value(at: time) - (1 - positions[k * Self.stepsPerFrame])) <= 1e-4, "at \(time) s")
        }
    }

    @Test(arguments: SpringCase.all)
    func startsAtZeroAndEndsExactlyAtOne(_ row: SpringCase) {
        let spring = row.spring
        #expect(spring.value(at: 0) == 0 && spring.value(at: -1) == 0)
        #expect(spring.value(at: row.duration) == 1 && spring.value(at: row.duration + 1) == 1)
    }

    /// Settled means the oscillator stays within 0.1% of the target from `duration` on, checked by
    /// integrating on to three durations. Just before `duration` the motion may still be slightly further
    /// (|x| shrinks toward the bound), so the jump to exactly 1 at `duration` is at most the threshold.
    @Test(arguments: SpringCase.all)
    func isSettledFromDurationOn(_ row: SpringCase) {
        let spring = row.spring
        let positions = integrateOscillator(
            dampingRatio: row.dampingRatio, omega: spring.naturalFrequency, velocity: row.velocity, until: 3 * row.duration,
            steps: 60 * Self.stepsPerFrame)
        let afterDuration = positions[(20 * Self.stepsPerFrame)...]
        #expect(afterDuration.map(abs).max()! <= 0.001 + 1e-9)
        #expect(abs(1 - spring.value(at: row.duration.nextDown)) <= 0.001 + 1e-9)
    }

    @Test(arguments: SpringCase.all.filter { $0.dampingRatio < 1 })
    func underDampedOvershoots(_ row: SpringCase) {
        let spring = row.spring
        let peak = (1..<2000).map { spring.value(at: Double($0) * row.duration / 2000) }.max()!
        #expect(peak > 1)
    }

    /// From rest, critical and over-damped springs approach the target from one side only.
    @Test(arguments: SpringCase.all.filter { $0.dampingRatio >= 1 && $0.velocity == 0 })
    func dampedFromRestNeverOvershoots(_ row: SpringCase) {
        let spring = row.spring
        var previous = 0.0
        for i in 1...2000 {
            let value = spring.value(at: Double(i) * row.duration / 2000)
            #expect(value <= 1 && value >= previous)
            previous = value
        }
    }

    /// From rest the under-damped envelope is e^(−ζωt)/√(1 − ζ²), so ωT = ln(1000/√(1 − ζ²))/ζ exactly.
    @Test(arguments: [0.1, 0.3, 0.5, 0.7], [0.3, 1.0])
    func underDampedFrequencyFromRest(dampingRatio: Double, duration: Double) {
        let spring = SpringTiming(dampingRatio: dampingRatio, initialVelocity: 0, duration: duration)
        let expected = log(1000 / (1 - dampingRatio * dampingRatio).squareRoot()) / dampingRatio / duration
        #expect(abs(spring.naturalFrequency / expected - 1) <= 1e-9)
    }

    /// From rest a critical or over-damped spring only creeps in, so its envelope is the motion itself: x(T)
    /// is exactly the threshold, and a softer spring (1% lower ω) is not yet there, so ω is the smallest.
    @Test(arguments: [1.0, 1.5, 3], [0.3, 1.0])
    func dampedFrequencyFromRestIsTheSmallest(dampingRatio: Double, duration: Double) {
        let omega = SpringTiming(dampingRatio: dampingRatio, initialVelocity: 0, duration: duration).naturalFrequency
        let atDuration = integrateOscillator(dampingRatio: dampingRatio, omega: omega, velocity: 0, until: duration, steps: 20_000)
        #expect(abs(atDuration.last! - 0.001) <= 1e-8)
        let softer = integrateOscillator(dampingRatio: dampingRatio, omega: 0.99 * omega, velocity: 0, until: duration, steps: 20_000)
        #expect(softer.last! > 0.001)
    }

    /// Damping ratios just either side of 1 give nearly the same spring (the bounds meet at critical damping).
    @Test func frequencyIsContinuousAcrossCriticalDamping() {
        let critical = SpringTiming(dampingRatio: 1, initialVelocity: 1, duration: 0.5).naturalFrequency
        for dampingRatio in [0.99999, 1.00001] {
            let omega = SpringTiming(dampingRatio: dampingRatio, initialVelocity: 1, duration: 0.5).naturalFrequency
            #expect(abs(omega / critical - 1) <= 1e-3)
        }
    }

    @Test func inputsAreSanitized() {
        #expect(SpringTiming(dampingRatio: 0, initialVelocity: 0, duration: 1).dampingRatio == 0.01)
        #expect(SpringTiming(dampingRatio: -1, initialVelocity: .nan, duration: 1).initialVelocity == 0)
        let instant = SpringTiming(dampingRatio: 0.5, initialVelocity: 0, duration: 0)
        let copy = instant  // no NaN among the stored values, so equality holds
        #expect(instant.value(at: 0) == 1 && instant.value(at: 1) == 1 && instant == copy)
        #expect(SpringTiming(dampingRatio: 0.5, initialVelocity: 0, duration: -2) == instant)
    }
}
