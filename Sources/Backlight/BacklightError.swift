import Glibc

/// A sysfs access of the backlight class that failed: the call, the file and the errno, e.g.
///
///     write(/sys/class/backlight/intel_backlight/brightness): Permission denied (errno 13)
public struct BacklightError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The C call (`open`, `read`, `write`, `opendir`), or `parse` for a file that did not hold a number.
    public let operation: String
    /// The file or folder it was about.
    public let path: String
    public let errno: Int32

    public init(operation: String, path: String, errno: Int32) {
        self.operation = operation
        self.path = path
        self.errno = errno
    }

    public var description: String {
        "\(operation)(\(path)): \(String(cString: strerror(errno))) (errno \(errno))"
    }

    /// Whether the device is not there (ENOENT, ENODEV: it was never there, or its driver went away).
    public var isMissing: Bool { errno == ENOENT || errno == ENODEV }
}
