#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Core Animation's `CAMediaTimingFunction`: maps the fraction of an animation's duration that has passed
/// to the fraction of the change that has been made, along a cubic Bézier from (0, 0) to (1, 1) with the
/// control points (x1, y1) and (x2, y2). x is time and y is progress, so a y outside 0…1 overshoots.
///
/// `value(at:)` runs for every animating property on every frame, so the curve's polynomial coefficients
/// are computed once here and evaluating it allocates nothing.
public struct TimingFunction: Hashable, Sendable {
    public let x1: Double
    public let y1: Double
    public let x2: Double
    public let y2: Double

    // x(t) = ((ax·t + bx)·t + cx)·t and likewise y(t): the Bézier in power form (Horner), as WebKit's
    // UnitBezier keeps it, three multiplications per evaluation.
    private let ax: Double, bx: Double, cx: Double
    private let ay: Double, by: Double, cy: Double

    /// `CAMediaTimingFunction(controlPoints:_:_:_:)`. x1 and x2 are clamped to 0…1 (CSS's `cubic-bezier()`
    /// rejects others): only then is x(t) monotone, so that every moment of the animation has one progress.
    /// A non-finite coordinate is replaced by the linear curve's.
    public init(controlPoints x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        self.x1 = x1.isFinite ? min(max(x1, 0), 1) : 0
        self.y1 = y1.isFinite ? y1 : 0
        self.x2 = x2.isFinite ? min(max(x2, 0), 1) : 1
        self.y2 = y2.isFinite ? y2 : 1
        cx = 3 * self.x1
        bx = 3 * (self.x2 - self.x1) - cx
        ax = 1 - cx - bx
        cy = 3 * self.y1
        by = 3 * (self.y2 - self.y1) - cy
        ay = 1 - cy - by
    }

    /// `kCAMediaTimingFunctionLinear`: progress proportional to time.
    public static let linear = TimingFunction(controlPoints: 0, 0, 1, 1)
    /// `kCAMediaTimingFunctionEaseIn`: starts slowly, ends at full speed.
    public static let easeIn = TimingFunction(controlPoints: 0.42, 0, 1, 1)
    /// `kCAMediaTimingFunctionEaseOut`: starts at full speed, slows into the end.
    public static let easeOut = TimingFunction(controlPoints: 0, 0, 0.58, 1)
    /// `kCAMediaTimingFunctionEaseInEaseOut`: the curve of UIKit's `animate(withDuration:)` when no option
    /// names another (`UIView.AnimationCurve.easeInOut`).
    public static let easeInEaseOut = TimingFunction(controlPoints: 0.42, 0, 0.58, 1)

    /// How close x(t) must come to the fraction: WebKit's UnitBezier uses 1e-7, far below what a frame
    /// can show, and Newton's method usually gets there in three or four evaluations.
    static let precision = 1e-7

    /// The progress at `fraction` of the duration (clamped to 0…1): y(t) for the t with x(t) = fraction.
    /// The ends are exact, so an animation starts and finishes precisely at its values.
    public func value(at fraction: Double) -> Double {
        guard fraction > 0 else { return 0 }
        guard fraction < 1 else { return 1 }
        // A curve with y(t) = x(t) (the linear one, or any with its control points on the diagonal) is the
        // identity: skip the solve and return the fraction exactly.
        if x1 == y1 && x2 == y2 { return fraction }
        let t = parameter(forX: fraction)
        return ((ay * t + by) * t + cy) * t
    }

    /// The t in 0…1 with x(t) = x to within `precision`: Newton's method from t = x (exact for a linear x,
    /// close for the usual gentle curves), kept inside a bracket [low, high] that every evaluation narrows.
    /// Where x'(t) vanishes (easeIn near its end, easeOut near its start) Newton would crawl or leave
    /// 0…1, so a step that falls outside the bracket is replaced by bisection, which always converges.
    private func parameter(forX x: Double) -> Double {
        var low = 0.0
        var high = 1.0
        var t = x
        // Bisection alone reaches the precision within 27 halvings; 64 only guards against a loop.
        for _ in 0..<64 {
            let error = ((ax * t + bx) * t + cx) * t - x
            if abs(error) < Self.precision { break }
            if error < 0 { low = t } else { high = t }
            let slope = (3 * ax * t + 2 * bx) * t + cx
            let newton = t - error / slope
            t = slope > 1e-6 && newton > low && newton < high ? newton : 0.5 * (low + high)
        }
        return t
    }
}

/// The timing of UIKit's `animate(withDuration:delay:usingSpringWithDamping:initialSpringVelocity:options:
/// animations:completion:)`: a damped harmonic oscillator
///
///     x'' + 2ζω·x' + ω²·x = 0,    x(0) = 1,    x'(0) = −initialVelocity
///
/// where x is the distance still to go as a fraction of the whole (1 at the start, 0 at rest), ζ the
/// damping ratio and ω the natural frequency. The progress is 1 − x.
///
/// UIKit does not publish its constants (how it turns a duration into a stiffness, or when it calls a
/// spring finished), so this is the definition the project uses. UIKit documents `duration` as the
/// animation's whole duration, so ω is chosen as the smallest natural frequency for which the motion is
/// settled at `duration`: from then on the oscillator's envelope (a bound on |x| for every later time) is
/// at most `settlingThreshold`, 0.1% of the distance, and the animation can end there with a jump no
/// person can see. The search runs once, in `init`; `value(at:)` is a closed form.
public struct SpringTiming: Hashable, Sendable {
    /// ζ: below 1 the motion oscillates about the target (each swing smaller), 1 is the quickest approach
    /// without overshoot (critical damping), above 1 it creeps in (over-damped). UIKit takes 0…1.
    public let dampingRatio: Double
    /// In UIKit's unit: 1 is the whole distance per second, toward the target (x'(0) = −initialVelocity),
    /// which is how a pan gesture's speed carries into the spring that finishes it.
    public let initialVelocity: Double
    /// Seconds from the start until the motion is settled and `value(at:)` is exactly 1.
    public let duration: Double
    /// ω in radians per second, derived from the other three: see `settlingFrequency`.
    public let naturalFrequency: Double

    /// The envelope's bound at `duration`: 0.1% of the distance, one pixel of a 1000-pixel move.
    public static let settlingThreshold = 0.001

    // What value(at:) needs, computed once: ζω (the decay rate of the envelope), k = x'(0) + ζω·x(0) (the
    // coefficient of the sine-like term in every regime), ωd = ω√(1 − ζ²) when under-damped or
    // γ = ω√(ζ² − 1) when over-damped (0 at critical damping), and the over-damped slow mode's rate.
    private let decayRate: Double
    private let sineCoefficient: Double
    private let frequency: Double
    private let slowRate: Double

    /// `dampingRatio` is raised to at least 0.01 (UIKit accepts 0, which would never settle) and at most
    /// 100; a zero, negative or non-finite `duration` makes the animation jump to its end.
    public init(dampingRatio: Double, initialVelocity: Double, duration: Double) {
        let zeta = dampingRatio.isNaN ? 1 : min(max(dampingRatio, 0.01), 100)
        let velocity = initialVelocity.isFinite ? initialVelocity : 0
        var duration = duration.isFinite && duration > 0 ? duration : 0
        var omega = Double.infinity
        if duration > 0 {
            omega = Self.settlingFrequency(zeta: zeta, velocity: velocity, duration: duration)
            if !omega.isFinite { duration = 0 }  // only for durations near the ends of Double's range
        }
        self.dampingRatio = zeta
        self.initialVelocity = velocity
        self.duration = duration
        naturalFrequency = omega
        // Without a duration value(at:) never reaches the closed forms; zeros keep NaN out of ==.
        let finite = omega.isFinite ? omega : 0
        decayRate = zeta * finite
        sineCoefficient = zeta * finite - velocity
        frequency = finite * abs((1 - zeta) * (1 + zeta)).squareRoot()
        slowRate = Self.slowRate(zeta: zeta, omega: finite)
    }

    /// The progress 1 − x(t) at `time` seconds from the start: 0 until the animation starts, above 1
    /// while an under-damped spring overshoots, and exactly 1 from `duration` on (where |x| is at most
    /// `settlingThreshold`), so the animation ends precisely on its target value.
    public func value(at time: Double) -> Double {
        guard time < duration else { return 1 }
        guard time > 0 else { return 0 }
        return 1 - displacement(at: time)
    }

    /// x(t) in closed form, with k = x'(0) + ζω = ζω − v. Each regime is written so that it stays accurate
    /// as ζ approaches 1, where the textbook forms divide by a vanishing ωd or γ, or subtract two huge
    /// modes from each other.
    private func displacement(at t: Double) -> Double {
        let k = sineCoefficient
        if dampingRatio < 1 {
            // Under-damped: x(t) = e^(−ζωt)·(cos ωd·t + k·sin(ωd·t)/ωd), with ωd = ω√(1 − ζ²).
            let wd = frequency
            return exp(-decayRate * t) * (cos(wd * t) + k * sin(wd * t) / wd)
        } else if dampingRatio == 1 {
            // Critically damped: x(t) = e^(−ωt)·(1 + k·t), with k = ω − v.
            return exp(-decayRate * t) * (1 + k * t)
        } else {
            // Over-damped: x(t) = e^(−ζωt)·(cosh γt + k·sinh(γt)/γ), with γ = ω√(ζ² − 1). Written with the
            // slow mode e^(−(ζω − γ)t) factored out, so nothing overflows and sinh comes from expm1.
            let gamma = frequency
            let slow = exp(-slowRate * t)
            return slow * (1 + exp(-2 * gamma * t)) / 2 + k * slow * -expm1(-2 * gamma * t) / (2 * gamma)
        }
    }

    /// ζω − γ = ω(ζ − √(ζ² − 1)), the over-damped slow mode's rate, computed as ω/(ζ + √(ζ² − 1)) because
    /// the difference loses every digit for a large ζ. 0 when not over-damped (unused there).
    private static func slowRate(zeta: Double, omega: Double) -> Double {
        zeta > 1 ? omega / (zeta + (zeta * zeta - 1).squareRoot()) : 0
    }

    /// sup over s ≥ t of s·e^(−a·s): the ramp rises until s = 1/a and falls after it.
    private static func rampBound(rate a: Double, from t: Double) -> Double {
        let s = max(t, 1 / a)
        return s * exp(-a * s)
    }

    /// The envelope at time t: a bound on |x(s)| for every s ≥ t (not only at t), so that "settled at t"
    /// means it stays settled.
    ///
    /// Under-damped, two bounds and the smaller counts: the classic one e^(−ζωt)·√(1 + (k/ωd)²) (the
    /// amplitude of cos + (k/ωd)·sin), tight for light damping; and e^(−ζωt) + |k|·sup s·e^(−ζωs) (from
    /// |sin(ωd·s)/ωd| ≤ s), needed because the classic one grows without limit as ωd → 0. Near ζ = 1 the
    /// second takes over, and it meets the critically damped bound, so ω does not jump at ζ = 1.
    ///
    /// Critically damped: e^(−ωt) + |k|·sup s·e^(−ωs), which is |x| itself when k ≥ 0 and t ≥ 1/ω.
    ///
    /// Over-damped: e^(−ζωt)·cosh γt + |k|·sup e^(−ζωs)·sinh(γs)/γ, the last peaking where
    /// tanh(γs) = γ/(ζω). Not |c₁|·e^(r₁t) + |c₂|·e^(r₂t) from the two modes: for a fast enough initial
    /// velocity the slow mode's coefficient passes through zero at one ω, which would make a narrow window
    /// of "settled" frequencies far below the others, and ω would jump when the velocity changed a little.
    ///
    /// Bisection relies on "settled" switching from false to true once as ω grows. That holds for these
    /// bounds over everything a kiosk uses: checked numerically over ζ 0.01…100, velocities −20…300 and
    /// durations 0.05…10 s, with ω on a 0.1% grid.
    private static func envelope(zeta: Double, omega: Double, velocity: Double, time t: Double) -> Double {
        let decay = zeta * omega
        let k = decay - velocity
        if zeta < 1 {
            let wd = omega * (1 - zeta * zeta).squareRoot()
            let phase = exp(-decay * t) * (1 + (k / wd) * (k / wd)).squareRoot()
            let ramp = exp(-decay * t) + abs(k) * rampBound(rate: decay, from: t)
            return min(phase, ramp)
        } else if zeta == 1 {
            return exp(-omega * t) + abs(k) * rampBound(rate: omega, from: t)
        } else {
            let gamma = omega * (zeta * zeta - 1).squareRoot()
            let slow = slowRate(zeta: zeta, omega: omega)
            let cosh = exp(-slow * t) * (1 + exp(-2 * gamma * t)) / 2
            let peak = max(t, atanh(gamma / decay) / gamma)
            let sinh = exp(-slow * peak) * -expm1(-2 * gamma * peak) / (2 * gamma)
            return cosh + abs(k) * sinh
        }
    }

    /// The smallest ω whose envelope at `duration` is within `settlingThreshold`, by bisection. ω = 1/T
    /// (one radian by the end) is never settled: every envelope above is then at least e^(−1)/2. Doubling
    /// from there brackets the answer, and bisection narrows the bracket to the last bits of a Double;
    /// about 60 evaluations of closed forms, a few microseconds once per animation.
    private static func settlingFrequency(zeta: Double, velocity: Double, duration: Double) -> Double {
        func isSettled(_ omega: Double) -> Bool {
            envelope(zeta: zeta, omega: omega, velocity: velocity, time: duration) <= settlingThreshold
        }
        var low = 1 / duration
        var high = 2 * low
        while !isSettled(high) && high.isFinite {
            low = high
            high *= 2
        }
        while true {
            let middle = 0.5 * (low + high)
            guard middle > low && middle < high else { break }
            if isSettled(middle) { high = middle } else { low = middle }
        }
        return high
    }
}
