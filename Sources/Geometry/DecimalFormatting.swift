extension Double {
    /// The value rounded to `places` decimals and written with exactly that many (`59.940`, `-0.500000`),
    /// as C's `%.Nf` writes it, for logs, listings and the config's numbers: without Foundation's
    /// `String(format:)`. Not finite, or too large for 64-bit fixed point: Swift's own spelling (`inf`).
    public func formatted(places: Int) -> String {
        let scale = (0..<places).reduce(1.0) { value, _ in value * 10 }
        let scaled = (abs(self) * scale).rounded()
        guard isFinite, scaled < 9e18 else { return "\(self)" }
        let units = UInt64(scaled)
        let whole = units / UInt64(scale)
        let fraction = String(units % UInt64(scale))
        let sign = self < 0 && units != 0 ? "-" : ""
        guard places > 0 else { return "\(sign)\(whole)" }
        return "\(sign)\(whole).\(String(repeating: "0", count: places - fraction.count))\(fraction)"
    }
}
