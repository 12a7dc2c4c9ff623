import KioskConfig
import KioskKit

/// What the runtime hands a backend it makes: the configuration at start, the application whose screens
/// and events it drives, and the seat session, opened on first use and shared by every backend.
@MainActor
public final class BackendContext {
    public let configuration: KioskConfiguration
    public let application: Application
    private let openSession: @MainActor () throws(BackendError) -> any DeviceSession
    private var openedSession: (any DeviceSession)?
    /// What a display backend shows at its first modeset while the app starts; nil: none (each display
    /// keeps what it shows until the app's first frame).
    public let launchScreen: LaunchScreen?

    public init(
        configuration: KioskConfiguration, application: Application, launchScreen: LaunchScreen? = nil,
        openSession: @escaping @MainActor () throws(BackendError) -> any DeviceSession
    ) {
        self.configuration = configuration
        self.application = application
        self.launchScreen = launchScreen
        self.openSession = openSession
    }

    /// The seat session, opened by the first backend that needs one.
    public func session() throws(BackendError) -> any DeviceSession {
        if let openedSession { return openedSession }
        let session = try openSession()
        openedSession = session
        return session
    }

    /// The session when one was opened (to route its disable and enable, and to close it last).
    public var sessionIfOpened: (any DeviceSession)? { openedSession }
}
