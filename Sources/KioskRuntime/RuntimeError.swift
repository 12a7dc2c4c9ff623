/// Errors a person running the kiosk can cause, each naming what was wrong, where, and what would be valid.
public struct RuntimeError: Error, CustomStringConvertible, Equatable {
    private enum Code: Equatable {
        case cannotWrite(path: String, what: String, reason: String)
        case backendUnavailable(backend: String, reason: String)
        case cannotDrawText(reason: String)
        case cannotRead(path: String, what: String, reason: String)
    }

    private let code: Code

    public static func cannotWrite(path: String, what: String, reason: String) -> RuntimeError {
        RuntimeError(code: .cannotWrite(path: path, what: what, reason: reason))
    }

    public static func backendUnavailable(_ backend: String, reason: String) -> RuntimeError {
        RuntimeError(code: .backendUnavailable(backend: backend, reason: reason))
    }

    /// pango and cairo could not be loaded (a broken installation): the kiosk cannot draw text.
    public static func cannotDrawText(_ reason: String) -> RuntimeError {
        RuntimeError(code: .cannotDrawText(reason: reason))
    }

    /// A file the configuration or the app names cannot be read (`what`: "launch screen (launch-screen)").
    public static func cannotRead(path: String, what: String, reason: String) -> RuntimeError {
        RuntimeError(code: .cannotRead(path: path, what: what, reason: reason))
    }

    public var description: String {
        switch code {
        case let .cannotWrite(path, what, reason): "cannot write the \(what) \(path): \(reason)"
        case let .backendUnavailable(backend, reason): "the \(backend) backend cannot run: \(reason)"
        case let .cannotDrawText(reason): "cannot draw text: \(reason)"
        case let .cannotRead(path, what, reason): "cannot read the \(what) \(path): \(reason)"
        }
    }
}
