extension KioskConfiguration {
    /// What the displays show while the app starts (`launch-screen`): UIKit's launch screen role.
    public enum LaunchScreen: Sendable, Equatable, CustomStringConvertible {
        /// The PNG the app names (`KioskRuntime.main(launchScreen:)`), else none: the default.
        case app
        /// None: each display keeps what it shows (firmware, boot splash, console) until the app's first frame.
        case off
        /// This PNG file.
        case file(String)

        /// How the file writes it.
        public var description: String {
            switch self {
            case .app: KioskConfiguration.appLaunchScreenSpelling
            case .off: KioskConfiguration.offSpelling
            case let .file(path): path
            }
        }
    }

    /// `launch-screen = "app"`: the default, the app's own.
    public static let appLaunchScreenSpelling = "app"

    /// `launch-screen`: declared here, listed in `settings`.
    static let launchScreenSetting = Setting(
        key: "launch-screen", fileForm: .string, flag: "--launch-screen", environmentVariable: "KIOSK_LAUNCH_SCREEN",
        valueName: "PNG",
        help:
            "A PNG shown at the first modeset while the app starts (centred, scaled down to fit), until its first frame; off: each display keeps what it shows until then; default: app (the app's own launch screen, else off).",
        reload: .restart, validText: { _ in "an absolute path of a PNG file, app or off" },
        parse: { text, configuration, _ in
            if isOff(text) {
                configuration.launchScreen = .off
            } else if text.lowercased() == appLaunchScreenSpelling {
                configuration.launchScreen = .app
            } else if text.hasPrefix("/"), text.count > 1, !text.hasSuffix("/") {
                configuration.launchScreen = .file(text)
            } else {
                return notValid(text)
            }
            return nil
        }, reset: nil, spelled: { $0.launchScreen.description })
}
