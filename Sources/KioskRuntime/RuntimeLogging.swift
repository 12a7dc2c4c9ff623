import KioskConfig
import Logging
import Synchronization

/// The kiosk's log: swift-log's stream handler on standard error (the journal under systemd), at the
/// configured level, which a reload may change: every handler reads the one level now.
public enum RuntimeLogging {
    private static let current = Mutex(KioskConfiguration.LogLevel.info)

    /// The level every kiosk logger logs at from now on.
    public static var level: KioskConfiguration.LogLevel {
        get { current.withLock { $0 } }
        set { current.withLock { $0 = newValue } }
    }

    /// Installs the handler (once per process, as swift-log requires).
    public static func bootstrap(level: KioskConfiguration.LogLevel) {
        self.level = level
        LoggingSystem.bootstrap { label in LiveLevelHandler(stream: StreamLogHandler.standardError(label: label)) }
    }

    /// swift-log's own level type for ours (the same names).
    static func logLevel(_ level: KioskConfiguration.LogLevel) -> Logger.Level {
        Logger.Level(rawValue: level.rawValue) ?? .info
    }

    private struct LiveLevelHandler: LogHandler {
        var stream: StreamLogHandler

        var logLevel: Logger.Level {
            get { RuntimeLogging.logLevel(RuntimeLogging.level) }
            // A logger's own level setting is not used: the configuration has the one level.
            set {}
        }

        var metadata: Logger.Metadata {
            get { stream.metadata }
            set { stream.metadata = newValue }
        }

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { stream[metadataKey: key] }
            set { stream[metadataKey: key] = newValue }
        }

        func log(event: LogEvent) {
            stream.log(event: event)
        }
    }
}
