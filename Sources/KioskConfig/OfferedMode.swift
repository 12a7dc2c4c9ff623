/// A mode a connector offers, as much of it as checking a configured mode needs (KioskConfig sits below
/// KioskKit and cannot see `Screen.Mode`).
public struct OfferedMode: Sendable, Hashable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    /// Exact vertical refresh in Hz (59.94, not 60).
    public var refreshRate: Double
    public var isInterlaced: Bool

    public init(width: Int, height: Int, refreshRate: Double, isInterlaced: Bool = false) {
        self.width = width
        self.height = height
        self.refreshRate = refreshRate
        self.isInterlaced = isInterlaced
    }

    /// `1920x1080@60.000`: the spelling `kiosk screens` and `Screen.Mode` use, three decimals so 59.940 and
    /// 60.000 stay apart, `i` appended when interlaced.
    public var description: String {
        // Defensive: a driver's nonsense (0 total pixels gives inf) must not trap in a message.
        guard refreshRate.isFinite, abs(refreshRate) < 1e9 else { return "\(width)x\(height)@\(refreshRate)" }
        let millihertz = Int((refreshRate * 1000).rounded())
        let fraction = String(abs(millihertz) % 1000)
        let refresh = "\(millihertz / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
        return "\(width)x\(height)@\(refresh)\(isInterlaced ? "i" : "")"
    }
}
