import Glibc

/// Why a message did not reach systemd. It names the socket, so a log line says where we tried to send:
///
///     sd_notify to "/run/systemd/notify": sendto: No such file or directory (errno 2)
///     sd_notify to "vsock:2:1234": unsupported address (only an absolute path or @name)
///
/// Never fatal: the caller logs it and carries on.
public struct SystemdNotifyError: Error, Equatable, CustomStringConvertible {
    private enum Code: Equatable {
        case unsupportedAddress
        case addressTooLong(capacity: Int)
        case invalidField(key: String)
        case systemCall(String)
    }

    private let code: Code
    /// The `NOTIFY_SOCKET` value the message was meant for.
    public let socket: String
    /// The errno of a failed system call; 0 for the other errors.
    public let errno: Int32

    private init(_ code: Code, socket: String, errno: Int32 = 0) {
        self.code = code
        self.socket = socket
        self.errno = errno
    }

    public var description: String {
        let reason =
            switch code {
            case .unsupportedAddress:
                "unsupported address (only an absolute path or @name)"
            case .addressTooLong(let capacity):
                "address too long or empty (a unix socket address holds at most \(capacity) bytes)"
            case .invalidField(let key):
                "invalid field \"\(key)\" (a key must be non-empty without '=' or line breaks, a value without line breaks)"
            case .systemCall(let call):
                "\(call): \(String(cString: strerror(errno))) (errno \(errno))"
            }
        return "sd_notify to \"\(socket)\": \(reason)"
    }

    static func unsupportedAddress(_ socket: String) -> Self { Self(.unsupportedAddress, socket: socket) }

    static func addressTooLong(_ socket: String, capacity: Int) -> Self {
        Self(.addressTooLong(capacity: capacity), socket: socket)
    }

    static func invalidField(_ key: String, socket: String) -> Self {
        Self(.invalidField(key: key), socket: socket)
    }

    static func systemCall(_ call: String, errno: Int32, socket: String) -> Self {
        Self(.systemCall(call), socket: socket, errno: errno)
    }
}
