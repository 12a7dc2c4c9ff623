import Glibc

/// The receiving end of a test `NOTIFY_SOCKET`: an AF_UNIX datagram socket bound either to a path in a
/// fresh temporary directory or to a unique name in the abstract namespace, as systemd binds its own.
final class NotifyListener {
    /// The address in `NOTIFY_SOCKET` syntax: the path, or `@name`.
    let socket: String
    private let descriptor: Int32
    private let directory: String?

    init(abstract: Bool) throws {
        var directory: String?
        if abstract {
            // Unique per process and per listener: the abstract namespace is shared by the whole machine
            // (network namespace), and test runs may overlap.
            socket = "@kiosk-notify-test-\(getpid())-\(UInt32.random(in: .min ... .max))"
        } else {
            var template = Array("/tmp/kiosk-notify-XXXXXX".utf8CString)
            guard mkdtemp(&template) != nil else { throw ListenerError("mkdtemp", errno) }
            let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            directory = path
            socket = path + "/notify"
        }
        self.directory = directory

        descriptor = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw ListenerError("socket", errno) }

        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(socket.utf8)
        if abstract { bytes[0] = 0 }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        // No trailing NUL for an abstract name: every byte of the length is part of the name.
        let length = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count + (abstract ? 0 : 1)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(length)) }
        }
        guard bound == 0 else {
            let code = errno
            close(descriptor)
            throw ListenerError("bind", code)
        }
    }

    deinit {
        close(descriptor)
        if let directory {
            unlink(directory + "/notify")
            rmdir(directory)
        }
    }

    /// Every datagram queued so far, oldest first, without waiting: `sendto` on a local datagram socket
    /// has queued the message by the time it returns, so nothing can still be in flight.
    func received() -> [String] {
        var messages: [String] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if count < 0 { break }
            messages.append(String(decoding: buffer[..<count], as: UTF8.self))
        }
        return messages
    }
}

struct ListenerError: Error, CustomStringConvertible {
    let description: String
    init(_ call: String, _ code: Int32) { description = "\(call): \(String(cString: strerror(code)))" }
}
