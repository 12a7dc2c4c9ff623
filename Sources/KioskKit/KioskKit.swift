@_exported import Graphics
import Logging

/// Loggers of the window model. Labels follow the runtime's `kiosk.<area>` scheme.
enum Log {
    static let app = Logger(label: "kiosk.app")
    static let screen = Logger(label: "kiosk.screen")
}
