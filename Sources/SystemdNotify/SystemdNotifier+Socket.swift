import Glibc

extension SystemdNotifier {
    /// Sends `message` as one datagram (`socket(2)` + `sendto(2)`), as `sd_notify` does.
    ///
    /// `MSG_DONTWAIT`: this runs on the main actor, which must never block. A unix datagram send blocks
    /// when the receiver's queue is full (`net.unix.max_dgram_qlen`, 512), i.e. when PID 1 is not reading;
    /// waiting for it would freeze the screen too. We fail with `EAGAIN` instead and the caller logs it.
    /// `MSG_NOSIGNAL`: no SIGPIPE if the socket goes away (PID 1 re-executing).
    func send(_ message: String) throws(SystemdNotifyError) {
        var (address, length) = try socketAddress()
        let descriptor = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw .systemCall("socket", errno: errno, socket: socket) }
        defer { close(descriptor) }

        let bytes = Array(message.utf8)
        while true {
            let sent = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                    sendto(descriptor, bytes, bytes.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL), address, length)
                }
            }
            // A datagram is sent whole or not at all, so there is no short count to handle.
            if sent >= 0 { return }
            let code = errno
            if code != EINTR { throw .systemCall("sendto", errno: code, socket: socket) }
        }
    }

    /// `socket` as a `sockaddr_un` and the length to pass with it. A filesystem path counts its
    /// terminating NUL; an abstract name (`@name`: a leading NUL, then the name) does not, because every
    /// byte of an abstract address is part of the name: a trailing NUL would name a different socket
    /// than the one systemd bound (the same rule as systemd's `sockaddr_un_set_path`).
    private func socketAddress() throws(SystemdNotifyError) -> (sockaddr_un, socklen_t) {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var path = Array(socket.utf8)
        let abstract = path.first == UInt8(ascii: "@")
        guard abstract || path.first == UInt8(ascii: "/") else { throw .unsupportedAddress(socket) }
        if abstract { path[0] = 0 }

        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        // A path needs room for its NUL; an abstract name may fill the whole field.
        guard path.count + (abstract ? 0 : 1) <= capacity, path.count > 1 else {
            throw .addressTooLong(socket, capacity: capacity)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { field in
            field.copyBytes(from: path)
        }
        let length = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + path.count + (abstract ? 0 : 1)
        return (address, socklen_t(length))
    }
}
