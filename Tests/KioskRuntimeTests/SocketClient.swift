import Foundation

@testable import KioskRuntime

/// A blocking client of a Unix socket, run off the main actor (the server answers on the main queue
/// meanwhile): lines out, lines in, with a time limit on every read.
final class SocketClient: @unchecked Sendable {
    let fd: Int32
    private var buffer: [UInt8] = []

    struct ConnectFailed: Error {
        let errno: Int32
    }

    /// Connects to `path`. The time limit is long: the server shares the main actor with every other
    /// suite's tests, which can hold it for many seconds when the whole package's tests run.
    init(path: String, timeout: Int = 120) throws(ConnectFailed) {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var limit = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        guard UnixSocketAddress(path: path)!.connect(fd) == 0 else {
            let code = errno
            close(fd)
            throw ConnectFailed(errno: code)
        }
    }

    deinit { close(fd) }

    /// Writes all of `bytes`; false when the server closed the connection first.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    @discardableResult
    func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    func finishWriting() { shutdown(fd, Int32(SHUT_WR)) }

    /// The next line; nil at the end of the connection (or a reset after it) or after the time limit.
    func readLine() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeFirst(newline + 1)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return nil }
            buffer.append(contentsOf: chunk[0..<count])
        }
    }

    /// Every line until the end of the connection.
    func readAll() -> [String] {
        var lines: [String] = []
        while let line = readLine() { lines.append(line) }
        return lines
    }

    /// Sends one request line and reads one answer line (also when sending failed: a refused client has
    /// its answer before it asks).
    func ask(_ request: String) -> String? {
        send(request + "\n")
        return readLine()
    }
}

/// Runs `body` on a thread of its own, so the main queue (where the server runs) stays free.
func offMain<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}
