/// What the window model asks of the display backend behind a screen (DRM/KMS, fbdev, headless, the
/// in-memory test twin): to apply a mode that code asked for.
///
/// Backends create `Screen`s and tell them what happened (`connect`, `disconnect`, `update`); the model
/// calls back only through this.
@MainActor
public protocol ScreenDriver: AnyObject {
    /// Lights `mode` on the connector behind `screen`. Throwing keeps the screen's previous mode.
    func apply(_ mode: Screen.Mode, to screen: Screen) throws

    /// Turns the display behind `screen` off (its CRTC inactive: the panel blanks, the mode is kept) or on
    /// again. Throwing keeps the power state as it was.
    func setPower(_ on: Bool, for screen: Screen) throws

    /// Whether `screen` has a backlight whose brightness `setBrightness` drives.
    func hasBacklight(_ screen: Screen) -> Bool

    /// Sets the backlight of `screen`, 0 (darkest the panel allows) to 1.
    func setBrightness(_ value: Double, for screen: Screen) throws
}

extension ScreenDriver {
    /// Outputs without a power switch of their own (headless memory): the compositor's stopping is all
    /// an off screen needs.
    public func setPower(_ on: Bool, for screen: Screen) throws {}
    public func hasBacklight(_ screen: Screen) -> Bool { false }
    public func setBrightness(_ value: Double, for screen: Screen) throws {
        throw ScreenError.noBacklight(screen: screen.name)
    }
}
