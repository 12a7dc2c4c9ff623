import Geometry
import KioskConfig

/// The mode policy of the field (weston, wlroots, Qt eglfs): configured > preferred > current > largest.
/// A pure function so every rule has a table test.
public enum ModePolicy {
    /// What to do with a connector.
    public enum Decision: Equatable, Sendable {
        /// Light `offered[index]`.
        case set(index: Int)
        /// Keep the mode the CRTC shows now, without a modeset.
        case keepCurrent
        case off
    }

    /// The decision, and a problem to report when the request could not be followed as written.
    public struct Outcome: Equatable, Sendable {
        public var decision: Decision
        public var problem: String?
    }

    /// Chooses for connector `connector` among `offered` (the kernel's order), with `preferred` the index
    /// of the mode the display prefers and `current` the mode lit now (firmware, boot splash), if any.
    ///
    /// - `WxH`: the highest refresh of that size; `WxH@Hz`: that refresh, else the nearest of that size.
    ///   Progressive modes win over interlaced ones at the same refresh. A size not offered is a problem
    ///   that names the connector and lists the offered modes; then the defaults apply.
    /// - `current` keeps the lit mode (no modeset); with nothing lit, the defaults apply.
    /// - default (nil or `preferred`): the preferred mode, else the current one, else the largest
    ///   (area, then refresh).
    public static func choose(
        _ request: ModeRequest?, offered: [DisplayMode], preferred: Int?, current: DisplayMode?,
        connector: String
    ) -> Outcome {
        guard !offered.isEmpty else {
            if request == .off { return Outcome(decision: .off) }
            if request == .current, current != nil { return Outcome(decision: .keepCurrent) }
            return Outcome(decision: .off, problem: "\(connector): the display offers no modes; it stays dark")
        }
        switch request {
        case .off:
            return Outcome(decision: .off)
        case .current:
            if current != nil { return Outcome(decision: .keepCurrent) }
            return Outcome(decision: fallback(offered: offered, preferred: preferred, current: nil))
        case let .size(width, height, refresh):
            let candidates = offered.indices.filter { offered[$0].width == width && offered[$0].height == height }
            guard !candidates.isEmpty else {
                let list = offered.map(\.description).joined(separator: ", ")
                return Outcome(
                    decision: fallback(offered: offered, preferred: preferred, current: current),
                    problem: "\(connector): mode \(request!) is not offered; it offers \(list)")
            }
            let best = candidates.min { a, b in
                let (ma, mb) = (offered[a], offered[b])
                let keyA = refresh.map { abs(ma.refreshRate - $0) } ?? -ma.refreshRate
                let keyB = refresh.map { abs(mb.refreshRate - $0) } ?? -mb.refreshRate
                if keyA != keyB { return keyA < keyB }
                return !ma.isInterlaced && mb.isInterlaced
            }!
            return Outcome(decision: .set(index: best))
        case .preferred, nil:
            return Outcome(decision: fallback(offered: offered, preferred: preferred, current: current))
        }
    }

    /// preferred > current (when offered) > largest.
    private static func fallback(offered: [DisplayMode], preferred: Int?, current: DisplayMode?) -> Decision {
        if let preferred, offered.indices.contains(preferred) { return .set(index: preferred) }
        if let current, let index = offered.firstIndex(of: current) { return .set(index: index) }
        let largest = offered.indices.max { a, b in
            let (ma, mb) = (offered[a], offered[b])
            if ma.width * ma.height != mb.width * mb.height { return ma.width * ma.height < mb.width * mb.height }
            if ma.refreshRate != mb.refreshRate { return ma.refreshRate < mb.refreshRate }
            return ma.isInterlaced && !mb.isInterlaced
        }!
        return .set(index: largest)
    }
}
