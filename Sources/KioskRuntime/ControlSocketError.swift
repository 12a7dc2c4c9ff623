import Glibc
import KioskConfig

/// Why the control socket could not be opened; the kiosk runs on without it.
struct ControlSocketError: Error, CustomStringConvertible, Equatable {
    let description: String

    static func notASocket(_ path: String, kind: String) -> ControlSocketError {
        ControlSocketError(
            description:
                "\(path) exists and is \(kind), not a socket; it is left as it is (remove it, or set control-socket to another path)")
    }

    static func inUse(_ path: String) -> ControlSocketError {
        ControlSocketError(description: "\(path): another process (another kiosk?) is listening on it; it is left as it is")
    }

    static func taken(_ path: String) -> ControlSocketError {
        ControlSocketError(description: "\(path) appeared while the socket was being made; it is left as it is")
    }

    static func folderMissing(_ path: String) -> ControlSocketError {
        let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let hint = folder == ControlSocketPlace.serviceFolder ? "the unit's RuntimeDirectory=kiosk makes it; " : ""
        var error = ControlSocketError(
            description:
                "the folder \(folder.isEmpty ? "/" : folder) does not exist (\(hint)set control-socket to auto, to another path, or to off)"
        )
        error.isExpected = true
        return error
    }

    /// The temporary place's folder is there and not one the kiosk would have made (`ControlSocketFolder`).
    static func notOwnFolder(_ folder: String, _ why: String) -> ControlSocketError {
        ControlSocketError(
            description:
                "\(folder) is not a folder of this user's own: \(why); it is left as it is (remove it, or set control-socket to a path)")
    }

    /// Expected outside the unit (the folder is the unit's to make): a notice, not an error.
    var isExpected = false

    static func pathTooLong(_ path: String) -> ControlSocketError {
        ControlSocketError(description: "\(path) is longer than a Unix socket's path can be (107 bytes)")
    }

    static func system(_ path: String, _ call: String, _ code: Int32) -> ControlSocketError {
        ControlSocketError(description: "\(path): \(call): \(String(cString: strerror(code))) (errno \(code))")
    }
}
