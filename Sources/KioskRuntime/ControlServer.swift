import Dispatch
import Glibc
import KioskKit
import Logging

/// The control socket's server: a Unix stream socket the running kiosk answers on, one JSON request and
/// one JSON answer per line (`kiosk status`, `power`, `brightness`, `screenshot`, `reload` are its clients).
///
/// Everything happens on the main queue and nothing blocks it: the sockets are non-blocking and served
/// from `DispatchSource` read sources (a write source only while an answer waits for a client to read).
/// What a client can do wrong ends with an error answer, and where the connection cannot go on, with the
/// connection closed, never with the kiosk waiting:
/// - a line longer than `Limits.lineBytes` (an endless line): an error, then closed;
/// - nothing for `Limits.idleTimeout` (no request, no answer taken): closed. One timer per client, none
///   without clients, so an idle kiosk is not woken by its socket;
/// - more than `Limits.clients` connections: the next ones get an error line and are closed;
/// - answers piling up unread: an answer is still queued while less than `Limits.pendingOutputBytes` wait
///   (so one large screenshot always goes out), beyond that the client is dropped;
/// - malformed JSON, an empty line, an unknown command: an error answer, and the connection stays open.
///
/// Peers are checked on accept (`SO_PEERCRED`): root, the kiosk's own user and the members of the socket's
/// group are answered; anyone else gets one error line and is closed (the socket file's mode 0660 already
/// keeps others out; this also holds when someone loosens it).
///
/// The socket file is never put where something else is: an existing path that is not a socket is refused,
/// and a socket is replaced only when connecting to it is refused (a kiosk that died left it). `stop()`
/// removes the file only if it is still the one this server made.
@MainActor
final class ControlServer {
    struct Limits {
        /// The longest request line, without its newline.
        var lineBytes = 64 * 1024
        /// A client with no request and no answer taken for this long is closed.
        var idleTimeout: Double = 10
        /// Connections served at once.
        var clients = 256
        /// Answers waiting for a client beyond which a new answer drops it.
        var pendingOutputBytes = 1 << 20
        /// Requests of one client answered in one turn of the main queue.
        var linesPerTurn = 16
        /// Answers made off the main queue at once (screenshots: each holds a copy of a frame, several MB,
        /// and a thread); a request beyond it is told to try again.
        var laterAnswersAtOnce = 2
    }

    /// What is wrong with a request, as the error answer says it (`extra`: more fields of that answer).
    struct Refusal: Error {
        let message: String
        var extra: [(String, JSONLine.Value)] = []
        init(_ message: String, extra: [(String, JSONLine.Value)] = []) {
            self.message = message
            self.extra = extra
        }
    }

    typealias Handler = @MainActor (ControlRequest) -> ControlReply

    /// Answers being made off the main queue now (`Limits.laterAnswersAtOnce`).
    var laterAnswersInFlight = 0

    let path: String
    /// The socket file's group: the members of it are answered.
    let groupID: gid_t
    let limits: Limits
    let handler: Handler
    private let listener: Int32
    private var listenSource: (any DispatchSourceRead)?
    /// Accepting paused after running out of descriptors (a cancelled source must be resumed to finish).
    private var isListenerPaused = false
    /// When "too many clients" was last logged (once per `idleTimeout` at most: a flood is one line).
    private var lastFullWarning: Double?
    /// The idle timers' time (the application's clock; a manual one in tests).
    let clock: any FrameClock
    /// The socket file this server made (device and inode), so `stop()` removes nothing else.
    private let identity: (dev_t, ino_t)
    var clients: [ObjectIdentifier: Client] = [:]
    let log = Logger(label: "kiosk.control")

    /// The number of clients connected now.
    var clientCount: Int { clients.count }

    /// Listens at `path` (mode 0660, the group `group`; nil or a group that does not exist keeps the
    /// process's, with a warning for the latter).
    init(
        path: String, group: String?, limits: Limits = Limits(), clock: any FrameClock = MonotonicClock(), handler: @escaping Handler
    ) throws(ControlSocketError) {
        self.path = path
        self.limits = limits
        self.clock = clock
        self.handler = handler
        guard let address = UnixSocketAddress(path: path) else { throw .pathTooLong(path) }
        try Self.clearStaleSocket(at: path, address: address)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .system(path, "socket", errno) }
        guard address.bind(fd) == 0 else {
            let code = errno
            close(fd)
            if code == ENOENT { throw .folderMissing(path) }
            if code == EADDRINUSE { throw .taken(path) }
            throw .system(path, "bind", code)
        }
        var status = stat()
        guard lstat(path, &status) == 0, listen(fd, SOMAXCONN) == 0 else {
            let code = errno
            close(fd)
            throw .system(path, "listen", code)
        }
        identity = (status.st_dev, status.st_ino)
        listener = fd
        // bind made the file with the umask's mode (0755 at most: only the owner may connect, so nobody
        // got in meanwhile); now the group's members may.
        if chmod(path, 0o660) != 0 {
            log.warning("control socket \(path): chmod 0660 failed: \(String(cString: strerror(errno)))")
        }
        groupID = Self.applyGroup(group, to: path, current: status.st_gid, log: log)
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: .main)
        source.setEventHandler { [weak self] in MainActor.assumeIsolated { self?.acceptAll() } }
        source.setCancelHandler { close(fd) }
        source.resume()
        listenSource = source
    }

    /// Stops listening, closes every client and removes the socket file if it is still this server's.
    func stop() {
        guard let listenSource else { return }
        if isListenerPaused { listenSource.resume() }
        isListenerPaused = false
        listenSource.cancel()
        self.listenSource = nil
        for client in clients.values { drop(client) }
        var status = stat()
        if lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK, status.st_dev == identity.0, status.st_ino == identity.1 {
            unlink(path)
        }
    }

    /// A path that exists must be a socket nobody listens on (connecting is refused): a kiosk that died
    /// left it, and it is removed. Anything else is someone else's and stays.
    private static func clearStaleSocket(at path: String, address: UnixSocketAddress) throws(ControlSocketError) {
        var status = stat()
        guard lstat(path, &status) == 0 else {
            guard errno == ENOENT else { throw .system(path, "lstat", errno) }
            return
        }
        guard status.st_mode & S_IFMT == S_IFSOCK else { throw .notASocket(path, kind: fileKind(status.st_mode)) }
        // Non-blocking: a listener whose backlog is full makes a blocking connect wait.
        let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard probe >= 0 else { throw .system(path, "socket", errno) }
        defer { close(probe) }
        let connected = address.connect(probe)
        let code = errno
        if connected == 0 || code == EAGAIN || code == EINPROGRESS { throw .inUse(path) }
        guard code == ECONNREFUSED else { throw .system(path, "connect (to see whether another kiosk listens)", code) }
        guard unlink(path) == 0 else { throw .system(path, "unlink (a stale socket)", errno) }
        Logger(label: "kiosk.control").notice("control socket \(path): removed the stale socket of an earlier run")
    }

    // MARK: Connections

    /// `struct ucred`, laid out as the kernel writes it for `SO_PEERCRED`.
    private struct Credentials {
        var pid: Int32 = 0
        var uid: UInt32 = 0
        var gid: UInt32 = 0
    }

    /// Accepts the connections waiting, a bounded number per wake-up (the source fires again for more), so
    /// that a flood of connections cannot hold the main queue.
    private func acceptAll() {
        for _ in 0..<64 {
            // accept, then the flags (Glibc's module does not export accept4): the kiosk starts no program
            // after start-up, so no exec can inherit the descriptor in between.
            let fd = accept(listener, nil, nil)
            if fd >= 0 {
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            }
            guard fd >= 0 else {
                let code = errno
                if code == EINTR || code == ECONNABORTED { return }
                if code == EMFILE || code == ENFILE || code == ENOBUFS || code == ENOMEM {
                    // The listener stays readable: stop listening a moment instead of spinning on it.
                    log.error("control socket: cannot accept: \(String(cString: strerror(code))); pausing for a second")
                    listenSource?.suspend()
                    isListenerPaused = true
                    DispatchQueue.main.asyncAfter(deadline: .now() + 1) { [weak self] in
                        MainActor.assumeIsolated {
                            guard let self, self.isListenerPaused else { return }
                            self.isListenerPaused = false
                            self.listenSource?.resume()
                        }
                    }
                }
                return
            }
            admit(fd)
        }
    }

    private func admit(_ fd: Int32) {
        var credentials = Credentials()
        var length = socklen_t(MemoryLayout<Credentials>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else {
            log.error("control socket: SO_PEERCRED failed: \(String(cString: strerror(errno))); connection closed")
            close(fd)
            return
        }
        let peer = ControlPeer(pid: credentials.pid, uid: credentials.uid, gid: credentials.gid)
        guard Self.isAllowed(peer, ownUID: geteuid(), groupID: groupID, groups: Self.groupList) else {
            let group = Self.groupName(groupID) ?? String(groupID)
            log.notice("control socket: refused \(peer): not root, not the kiosk's user, not in group \(group)")
            refuse(fd, "not allowed: uid \(peer.uid) is not root, not the kiosk's user and not a member of the group \(group)")
            return
        }
        guard clients.count < limits.clients else {
            let now = clock.now
            if lastFullWarning.map({ now > $0 + limits.idleTimeout }) ?? true {
                lastFullWarning = now
                log.warning("control socket: \(limits.clients) clients are connected; refusing more (\(peer) first)")
            }
            refuse(fd, "too many clients (\(limits.clients) connected); try again later")
            return
        }
        let client = Client(fd: fd, peer: peer)
        clients[ObjectIdentifier(client)] = client
        log.debug("control socket: \(peer) connected")
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: .main)
        source.setEventHandler { [weak self, weak client] in
            MainActor.assumeIsolated {
                guard let self, let client else { return }
                self.read(client)
            }
        }
        client.attach(source)
        client.lastActivity = clock.now
        scheduleIdleCheck(client)
        source.resume()
    }

    /// The client's one timer, at the moment its silence would reach the timeout. Activity only notes the
    /// time (`rearm`); when the timer fires early for a client that was active since, it is set again for
    /// the new moment: an active client costs one wake-up per timeout, not one timer per request.
    private func scheduleIdleCheck(_ client: Client) {
        client.timer = clock.schedule(at: client.lastActivity + limits.idleTimeout) { [weak self, weak client] in
            guard let self, let client, self.clients[ObjectIdentifier(client)] != nil else { return }
            // A client waiting for an answer being made is not silent: its time counts from the answer.
            if client.isWaitingForReply { client.lastActivity = self.clock.now }
            // Nor is one whose request came while the main queue was held longer than the timeout (a loaded
            // machine), its read source and this timer both due: the request is read now, and answered.
            if !client.isReadingPaused, Self.hasUnreadBytes(client.fd) {
                self.read(client)
                if self.clients[ObjectIdentifier(client)] != nil { self.scheduleIdleCheck(client) }
                return
            }
            guard self.clock.now >= client.lastActivity + self.limits.idleTimeout else {
                self.scheduleIdleCheck(client)
                return
            }
            self.log.info("control socket: \(client.peer) closed after \(Self.seconds(self.limits.idleTimeout)) s without a request")
            self.finish(client, with: "closed after \(Self.seconds(self.limits.idleTimeout)) s without a request")
        }
    }

    /// Whether bytes wait unread in the socket (`recv` with `MSG_PEEK`, which leaves them there).
    private static func hasUnreadBytes(_ fd: Int32) -> Bool {
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) > 0
    }

    /// One error line (the socket buffer of a new connection always takes it) and the connection closed.
    /// It says `"refused":true`: no request of this connection is read, so a client tells this from an
    /// answer to its request (`kiosk status` exits 3, as when the socket's permissions keep it out).
    private func refuse(_ fd: Int32, _ message: String) {
        let line = JSONLine([("ok", .bool(false)), ("error", .string(message)), ("refused", .bool(true))]).text
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        close(fd)
    }

    static func errorLine(_ message: String) -> String {
        JSONLine([("ok", .bool(false)), ("error", .string(message))]).text
    }

    static func seconds(_ value: Double) -> String {
        value.rounded() == value ? String(Int(value)) : String(value)
    }

    func drop(_ client: Client) {
        guard clients.removeValue(forKey: ObjectIdentifier(client)) != nil else { return }
        log.debug("control socket: \(client.peer) closed")
        client.close()
    }
}
