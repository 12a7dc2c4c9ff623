import CLazyPangoCairo

/// An environment error from cairo or pixman: a PNG that is missing or corrupt, a file that cannot be
/// written, memory that ran out. It names the C function, the library's own status text and the file:
///
///     cairo_image_surface_create_from_png("/x/logo.png"): file not found
///
/// Programmer errors (a pixel outside the bitmap, an unbalanced `restore()`) trap instead.
public struct GraphicsError: Error, CustomStringConvertible {
    /// Where the status came from; kept private so new libraries can be added without breaking callers.
    private enum Code: Hashable, Sendable {
        case cairo(UInt32)
    }

    private let code: Code
    /// The C function that failed, e.g. `cairo_surface_write_to_png`.
    public let operation: String
    /// The library's status text, e.g. `file not found` (from `cairo_status_to_string`).
    public let status: String
    /// The file involved, if the operation reads or writes one.
    public let path: String?

    private init(code: Code, operation: String, status: String, path: String?) {
        self.code = code
        self.operation = operation
        self.status = status
        self.path = path
    }

    /// Whether the failure was a missing file (`CAIRO_STATUS_FILE_NOT_FOUND`), the one case callers
    /// commonly treat differently (fall back to a default image).
    public var isFileNotFound: Bool { code == .cairo(CAIRO_STATUS_FILE_NOT_FOUND.rawValue) }

    public var description: String {
        if let path { return "\(operation)(\"\(path)\"): \(status)" }
        return "\(operation): \(status)"
    }

    /// A failed cairo call; the text comes from `cairo_status_to_string`.
    static func cairo(_ operation: String, _ status: cairo_status_t, path: String? = nil) -> GraphicsError {
        GraphicsError(
            code: .cairo(status.rawValue), operation: operation,
            status: String(cString: cairo_status_to_string(status)!), path: path)
    }
}

/// cairo's return convention: functions return (or leave on the object) a `cairo_status_t`; anything but
/// `CAIRO_STATUS_SUCCESS` becomes a `GraphicsError` naming `operation`.
func cairoCheck(_ status: cairo_status_t, _ operation: String, path: String? = nil) throws(GraphicsError) {
    if status != CAIRO_STATUS_SUCCESS { throw GraphicsError.cairo(operation, status, path: path) }
}

/// pixman's return convention: `pixman_bool_t` false means an allocation failed. There is nothing sensible
/// to do after that in a kiosk (the region or image would be silently wrong), so it traps with the name.
@inline(__always)
func pixmanRequire(_ ok: Int32, _ operation: StaticString) {
    if ok == 0 { fatalError("\(operation) failed: out of memory") }
}
