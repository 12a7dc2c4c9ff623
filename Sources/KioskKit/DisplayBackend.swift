/// What the window model asks of a display backend (DRM/KMS, fbdev, headless, the in-memory test twin).
///
/// Backends create `Screen`s and tell them what happened (`connect`, `disconnect`, `update`); the model
/// calls back only to apply a mode that code asked for.
@MainActor
public protocol DisplayBackend: AnyObject {
    /// Lights `mode` on the connector behind `screen`. Throwing keeps the screen's previous mode.
    func apply(_ mode: Screen.Mode, to screen: Screen) throws
}
