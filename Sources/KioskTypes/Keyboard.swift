/// When the on-screen keyboard shows (the config's `keyboard`, `OnScreenKeyboard.mode`): one enum for the
/// configuration and the window model, so that a value the file accepts is always one the keyboard knows.
public enum OnScreenKeyboardMode: String, Sendable, CaseIterable {
    /// When a text field becomes first responder and no hardware keyboard is attached.
    case auto
    /// When a text field becomes first responder, hardware keyboard or not.
    case always
    /// Never: text comes from hardware keyboards only.
    case never
}

/// The languages the on-screen keyboard has layouts for (the config's `keyboard-layout`,
/// `KeyboardLayout.Language`).
public enum KeyboardLanguage: String, Sendable, CaseIterable {
    /// QWERTY.
    case en
    /// QWERTZ with ü, ö, ä on the letters page.
    case de
}
