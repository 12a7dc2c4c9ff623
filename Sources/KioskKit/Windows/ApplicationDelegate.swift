/// What a kiosk app implements (as `UIApplicationDelegate` plus the screen notifications): the runtime
/// calls it once the displays are up, and whenever a screen comes or goes.
@MainActor
public protocol ApplicationDelegate: AnyObject {
    /// The screens found at start are connected (there may be none yet): make the app's windows.
    func applicationDidFinishLaunching(_ application: Application)
    /// A display was plugged in (after `Screen.didConnectNotification`).
    func screenDidConnect(_ screen: Screen)
    /// A display was unplugged (after `Screen.didDisconnectNotification`).
    func screenDidDisconnect(_ screen: Screen)
}

extension ApplicationDelegate {
    public func screenDidConnect(_ screen: Screen) {}
    public func screenDidDisconnect(_ screen: Screen) {}
}
