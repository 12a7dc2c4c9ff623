import Glibc
import KioskConfig
import KioskRuntime

/// The client end of the running kiosk's control socket: one connection, one JSON request line, one JSON
/// answer line. Blocking with a time limit (a command-line tool has nothing else to do meanwhile); every
/// way of not reaching the kiosk is said in words a person can act on.
struct ControlClient {
    /// Why the kiosk could not be asked: the message, and the exit status (3: nothing to talk to).
    struct Failure: Error {
        let message: String
    }

    let path: String
    /// How long to wait for the answer (a screenshot on a busy board takes a moment).
    var timeoutSeconds = 30

    /// Sends `request` and returns the answer line as the kiosk wrote it, and read.
    func ask(_ request: JSONLine) throws(Failure) -> (text: String, value: JSONValue) {
        guard let address = UnixSocketAddress(path: path) else {
            throw Failure(message: "\(path) is longer than a Unix socket's path can be (107 bytes)")
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(message: "socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard address.connect(fd) == 0 else { throw Failure(message: Self.connectProblem(errno, path: path)) }
        let line = Array((request.text + "\n").utf8)
        var sent = 0
        while sent < line.count {
            let count = line[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count < 0 && errno == EINTR { continue }
            // The kiosk may have refused the connection with an answer already: read it below.
            guard count > 0 else { break }
            sent += count
        }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while !answer.contains(UInt8(ascii: "\n")) {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                throw Failure(message: "no answer from the kiosk on \(path) within \(timeoutSeconds) s")
            }
            if count < 0 && errno == ECONNRESET && !answer.isEmpty { break }
            guard count > 0 else {
                if count < 0 { throw Failure(message: "reading the answer from \(path): \(String(cString: strerror(errno)))") }
                break
            }
            answer.append(contentsOf: buffer[0..<count])
        }
        guard let end = answer.firstIndex(of: UInt8(ascii: "\n")) else {
            throw Failure(message: "the kiosk on \(path) closed the connection without an answer")
        }
        let text = String(decoding: answer[..<end], as: UTF8.self)
        do {
            return (text, try JSONValue.parse(answer[..<end]))
        } catch {
            throw Failure(message: "the kiosk on \(path) answered something that is not JSON: \(error)")
        }
    }

    /// Whether something may be at `path`: it exists, or it cannot be told (a folder this user may not
    /// enter: connecting says "permission denied", which is the answer to give).
    static func mayBeThere(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 || (errno != ENOENT && errno != ENOTDIR)
    }

    static func connectProblem(_ code: Int32, path: String) -> String {
        // connect(2) says ECONNREFUSED for a path that is no socket at all (a regular file, a directory): what
        // is there is told first, so that a stopped kiosk is not blamed for someone else's file.
        var status = stat()
        if code != ENOENT, stat(path, &status) == 0, status.st_mode & S_IFMT != S_IFSOCK {
            return "\(path) is \(fileKind(status.st_mode)), not a socket: no kiosk listens there"
                + " (--socket and control-socket name a kiosk's control socket)"
        }
        return switch code {
        case ENOENT:
            "no kiosk is running here: \(path) does not exist (a running kiosk makes it; see control-socket in kiosk.toml)"
        case ECONNREFUSED:
            "no kiosk is listening on \(path) (a kiosk that stopped left it behind)"
        case EACCES, EPERM:
            "permission denied on \(path): run this as root, as the kiosk's user or as a member of its control group"
        case ENOTSOCK:
            "\(path) is not a socket"
        default:
            "cannot connect to \(path): \(String(cString: strerror(code)))"
        }
    }
}

/// Whether a file's `control-socket` can be trusted when the file has problems elsewhere.
enum ControlSocketSetting {
    /// Why the valid settings' control socket may not be what the file means, or nil when it is: a problem
    /// with the setting itself (in the file or `KIOSK_CONTROL_SOCKET`), or text the parser could not read
    /// (its line may be the setting's, skipped), or a file that could not be read at all.
    static func doubt(_ problems: [ConfigProblem]) -> String? {
        if problems.contains(where: { $0.keyPath == "control-socket" }) { return "control-socket among them" }
        let unread = problems.filter { $0.kind == .syntax }
        if unread.contains(where: { $0.line == nil }) { return "the file could not be read" }
        if !unread.isEmpty { return "some of it unreadable" }
        return nil
    }
}
