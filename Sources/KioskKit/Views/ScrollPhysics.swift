import Glibc

/// The motion of a scroll view along one axis, as pure functions of time: momentum that decays as
/// UIKit's (`decelerationRate` is the fraction of the velocity kept per millisecond), the rubber band
/// past an edge, and the spring that brings an overshoot back. The scroll view samples them at each
/// frame's target time; tests check them against their formulas.
enum ScrollPhysics {
    /// The resistance of the rubber band (UIKit's feel: 0.55).
    static let rubberBandCoefficient = 0.55
    /// The spring that brings an overshoot back, and settles pages: critically damped, with this natural
    /// frequency (rad/s); a 3000 pt/s fling past the edge overshoots by v / (ω·e) ≈ 92 pt.
    static let springFrequency = 12.0
    /// Momentum stops when less than this much distance (points) is left.
    static let restDistance = 0.5
    /// A spring is at rest within this distance (points) and speed (points per second).
    static let springRestDistance = 0.5
    static let springRestSpeed = 5.0

    /// Where a finger dragging `overshoot` points past an edge puts the content, for a view `dimension`
    /// points long: `(1 - 1 / (x·c / d + 1)) · d`, less and less as it goes (never more than `d`).
    static func rubberBand(_ overshoot: Double, dimension: Double) -> Double {
        guard dimension > 0 else { return 0 }
        let sign: Double = overshoot < 0 ? -1 : 1
        let x = abs(overshoot)
        return sign * (1 - 1 / (x * rubberBandCoefficient / dimension + 1)) * dimension
    }

    /// Momentum from `velocity` (points per second) after `time` seconds, with `rate` per millisecond:
    /// v(t) = v0 · rate^(1000 t), offset(t) = v0 · (rate^(1000 t) − 1) / (1000 ln rate).
    struct Deceleration: Equatable {
        var velocity: Double
        var rate: Double

        private var perSecond: Double { 1000 * log(rate) }

        func distance(at time: Double) -> Double { velocity * (pow(rate, 1000 * time) - 1) / perSecond }
        func velocity(at time: Double) -> Double { velocity * pow(rate, 1000 * time) }
        /// Where it would come to rest.
        var totalDistance: Double { -velocity / perSecond }
        /// When less than `restDistance` is left to go.
        var duration: Double {
            let speed = abs(velocity)
            let restSpeed = restDistance * abs(perSecond)
            guard speed > restSpeed else { return 0 }
            return log(restSpeed / speed) / perSecond
        }
    }

    /// A critically damped spring toward zero from `displacement` moving at `velocity`:
    /// x(t) = (x0 + (v0 + ω x0) t) e^(−ω t).
    struct Spring: Equatable {
        var displacement: Double
        var velocity: Double
        var frequency = ScrollPhysics.springFrequency

        func position(at time: Double) -> Double {
            (displacement + (velocity + frequency * displacement) * time) * exp(-frequency * time)
        }

        func velocity(at time: Double) -> Double {
            let a = displacement, b = velocity + frequency * displacement
            return (b - frequency * (a + b * time)) * exp(-frequency * time)
        }

        func isAtRest(at time: Double) -> Bool {
            abs(position(at: time)) < springRestDistance && abs(velocity(at: time)) < springRestSpeed
        }
    }

    /// The page a drag released at `offset` with `velocity` settles on: the next one in the direction of
    /// a fling, else the nearest, within `0...lastPage`.
    static func page(forOffset offset: Double, velocity: Double, pageLength: Double, lastPage: Int) -> Int {
        guard pageLength > 0 else { return 0 }
        let position = offset / pageLength
        let page: Double
        if velocity > flingVelocity {
            page = floor(position) + 1
        } else if velocity < -flingVelocity {
            page = ceil(position) - 1
        } else {
            page = position.rounded()
        }
        return min(max(Int(page), 0), max(lastPage, 0))
    }

    /// A release faster than this (points per second) flings to the next page.
    static let flingVelocity = 300.0
}

extension ScrollPhysics.Deceleration {
    /// The momentum that comes to rest `distance` away.
    init(distance: Double, rate: Double) {
        self.init(velocity: -distance * 1000 * log(rate), rate: rate)
    }
}
