/// What the window model asks of the display backend behind a screen (DRM/KMS, fbdev, headless, the
/// in-memory test twin): to apply a mode that code asked for.
///
/// Backends create `Screen`s and tell them what happened (`connect`, `disconnect`, `update`); the model
/// calls back only through this.
@MainActor
public protocol ScreenDriver: AnyObject {
    /// Lights `mode` on the connector behind `screen`. Throwing keeps the screen's previous mode.
    func apply(_ mode: Screen.Mode, to screen: Screen) throws
}
