/// A display mode: size in pixels, refresh rate, pixel aspect ratio, interlacing (as `UIScreenMode`, and as
/// `KioskKit.Screen.Mode`). Here, below both the config and the window model, so that the config's checks,
/// the window model, the backends and the listing commands spell a mode the one same way.
public struct DisplayMode: Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    /// Vertical refresh in Hz, exact (`59.94` for NTSC-style modes, not `60`).
    public var refreshRate: Double
    /// Width of a pixel divided by its height; 1 for square pixels.
    public var pixelAspectRatio: Double
    public var isInterlaced: Bool

    public init(width: Int, height: Int, refreshRate: Double, pixelAspectRatio: Double = 1, isInterlaced: Bool = false) {
        self.width = width
        self.height = height
        self.refreshRate = refreshRate
        self.pixelAspectRatio = pixelAspectRatio
        self.isInterlaced = isInterlaced
    }

    /// The size in pixels.
    public var size: Size { Size(width: Double(width), height: Double(height)) }

    /// `1920x1080@60.000`: the one spelling of a mode in logs, traces, `kiosk screens` and config messages.
    /// Three decimals keep 59.940 and 60.000 apart; `i` is appended for an interlaced mode (`1920x1080@60.000i`),
    /// which a config's `WxH@Hz` never asks for by itself.
    public var description: String {
        "\(width)x\(height)@\(refreshSpelling)\(isInterlaced ? "i" : "")"
    }

    /// The refresh rate with three decimals (`59.940`), as `description` and `kiosk screens --json` write it.
    public var refreshSpelling: String {
        // A driver's nonsense (0 total pixels gives inf) must not trap in a message.
        refreshRate.formatted(places: 3)
    }
}
