import Dispatch
import Glibc
import KioskKit
import Logging

/// Who is at the other end of a control connection, as the kernel says (`SO_PEERCRED`: the credentials
/// of the process that connected, at the time it connected).
public struct ControlPeer: Sendable, Equatable, CustomStringConvertible {
    public var pid: Int32
    public var uid: UInt32
    public var gid: UInt32

    public init(pid: Int32, uid: UInt32, gid: UInt32) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }

    public var description: String { "uid \(uid) pid \(pid)" }
}

/// One request read from the control socket: a JSON object of strings, numbers, booleans and null, with
/// its `command`.
public struct ControlRequest: Sendable {
    public let command: String
    public let members: [(key: String, value: JSONValue)]
    public let peer: ControlPeer

    public subscript(key: String) -> JSONValue? { members.first { $0.key == key }?.value }

    /// A line as a request, or the answer that says what is wrong with it.
    static func parse(_ line: ArraySlice<UInt8>, peer: ControlPeer) -> Result<ControlRequest, ControlServer.Refusal> {
        let value: JSONValue
        do { value = try JSONValue.parse(line) } catch { return .failure(.init(error.description)) }
        guard case .object(let members) = value else {
            return .failure(.init("a request is a JSON object, e.g. {\"command\":\"status\"}; this is \(value.kind)"))
        }
        if let nested = members.first(where: { $0.value.array != nil || Self.isObject($0.value) }) {
            return .failure(.init("\"\(nested.key)\": a request's values are strings, numbers, booleans or null, not \(nested.value.kind)"))
        }
        guard let command = members.first(where: { $0.key == "command" })?.value else {
            return .failure(.init("the request has no \"command\", e.g. {\"command\":\"status\"}"))
        }
        guard let name = command.string else { return .failure(.init("\"command\" is \(command.kind); it must be a string")) }
        return .success(ControlRequest(command: name, members: members, peer: peer))
    }

    private static func isObject(_ value: JSONValue) -> Bool {
        if case .object = value { return true }
        return false
    }
}

/// An answer to a control request: now, or later from work done off the main queue (a screenshot's PNG),
/// delivered on the main actor through the function `later` is given. A connection's next requests wait
/// for it, so answers always come in the order of the requests.
enum ControlReply {
    case now(JSONLine)
    case later((@escaping @MainActor (JSONLine) -> Void) -> Void)
}

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
/// - malformed JSON, an unknown command: an error answer, and the connection stays open.
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
    private(set) var laterAnswersInFlight = 0

    let path: String
    /// The socket file's group: the members of it are answered.
    let groupID: gid_t
    let limits: Limits
    private let handler: Handler
    private let listener: Int32
    private var listenSource: (any DispatchSourceRead)?
    /// Accepting paused after running out of descriptors (a cancelled source must be resumed to finish).
    private var isListenerPaused = false
    /// When "too many clients" was last logged (once per `idleTimeout` at most: a flood is one line).
    private var lastFullWarning: Double?
    /// The idle timers' time (the application's clock; a manual one in tests).
    private let clock: any FrameClock
    /// The socket file this server made (device and inode), so `stop()` removes nothing else.
    private let identity: (dev_t, ino_t)
    private var clients: [ObjectIdentifier: Client] = [:]
    private let log = Logger(label: "kiosk.control")

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

    /// Gives the socket file `group`; returns the group it has after that.
    private static func applyGroup(_ group: String?, to path: String, current: gid_t, log: Logger) -> gid_t {
        guard let group else { return current }
        guard let gid = groupID(named: group) else {
            log.warning(
                "control socket \(path): no group \(group) (control-group); the socket keeps the kiosk's group \(groupName(current) ?? String(current))"
            )
            return current
        }
        guard gid != current else { return gid }
        guard chown(path, uid_t.max, gid) == 0 else {
            log.warning(
                "control socket \(path): cannot give it the group \(group): \(String(cString: strerror(errno))) (the kiosk's user must be a member); it keeps the group \(groupName(current) ?? String(current))"
            )
            return current
        }
        return gid
    }

    // MARK: Who may talk

    /// Root, the kiosk's own user, and members of the socket's group (by their primary group or as
    /// `getgrouplist` lists them for the peer's user).
    static func isAllowed(_ peer: ControlPeer, ownUID: uid_t, groupID: gid_t, groups: (ControlPeer) -> [gid_t]) -> Bool {
        peer.uid == 0 || peer.uid == ownUID || peer.gid == groupID || groups(peer).contains(groupID)
    }

    /// The groups of the peer's user as the system's group database has them (`getgrouplist`).
    static func groupList(of peer: ControlPeer) -> [gid_t] {
        guard let name = userName(peer.uid) else { return [] }
        var count: Int32 = 32
        while true {
            var groups = [gid_t](repeating: 0, count: Int(count))
            let previous = count
            if getgrouplist(name, peer.gid, &groups, &count) >= 0 { return Array(groups.prefix(Int(count))) }
            // Too small: `count` now says how many there are (guard against a library that leaves it).
            if count <= previous { count = previous * 2 }
            if count > 65536 { return [] }
        }
    }

    private static func userName(_ uid: uid_t) -> String? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwuid_r(uid, &entry, &buffer, buffer.count, &result) == 0, result != nil, let name = entry.pw_name else { return nil }
        return String(cString: name)
    }

    static func groupID(named name: String) -> gid_t? {
        var entry = group()
        var result: UnsafeMutablePointer<group>?
        var buffer = [CChar](repeating: 0, count: 16384)
        guard getgrnam_r(name, &entry, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
        return entry.gr_gid
    }

    static func groupName(_ gid: gid_t) -> String? {
        var entry = group()
        var result: UnsafeMutablePointer<group>?
        var buffer = [CChar](repeating: 0, count: 16384)
        guard getgrgid_r(gid, &entry, &buffer, buffer.count, &result) == 0, result != nil, let name = entry.gr_name else { return nil }
        return String(cString: name)
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
            guard self.clock.now >= client.lastActivity + self.limits.idleTimeout else {
                self.scheduleIdleCheck(client)
                return
            }
            self.log.info("control socket: \(client.peer) closed after \(Self.seconds(self.limits.idleTimeout)) s without a request")
            self.finish(client, with: "closed after \(Self.seconds(self.limits.idleTimeout)) s without a request")
        }
    }

    /// One error line (the socket buffer of a new connection always takes it) and the connection closed.
    private func refuse(_ fd: Int32, _ message: String) {
        let bytes = Array((Self.errorLine(message) + "\n").utf8)
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        close(fd)
    }

    static func errorLine(_ message: String) -> String {
        JSONLine([("ok", .bool(false)), ("error", .string(message))]).text
    }

    private static func seconds(_ value: Double) -> String {
        value.rounded() == value ? String(Int(value)) : String(value)
    }

    private func rearm(_ client: Client) {
        client.lastActivity = clock.now
    }

    /// Reads what is there and answers the complete lines. One client gets a bounded share of each turn of
    /// the main queue: at most `Limits.linesPerTurn` requests, then the rest wait for a later turn with its
    /// reading paused (so what it sends meanwhile waits in the kernel, not in our memory), and the frames,
    /// the input and the other clients have their turns in between. Measured in the VM without it: a client
    /// that sent requests by the thousand held the main queue 8.8 s in one turn.
    private func read(_ client: Client) {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        // A few reads per wake-up at most: the source fires again while there is more.
        for _ in 0..<4 where !client.isReadingPaused {
            let count = buffer.withUnsafeMutableBytes { recv(client.fd, $0.baseAddress, $0.count, 0) }
            if count < 0 {
                if errno == EINTR { return }
                if errno == EAGAIN || errno == EWOULDBLOCK { return }
                log.debug("control socket: \(client.peer): \(String(cString: strerror(errno)))")
                drop(client)
                return
            }
            if count == 0 {
                // The client finished writing: what it sent is answered (a last line without its newline
                // too), the answers go out, then the connection closes.
                client.isReadClosed = true
                client.cancelReading()
                process(client)
                return
            }
            rearm(client)
            client.input.append(contentsOf: buffer[0..<count])
            // Only the line being received can be too long: the tail after the last newline.
            let tail = client.input.count - ((client.input.lastIndex(of: UInt8(ascii: "\n")) ?? -1) + 1)
            guard tail <= limits.lineBytes else {
                tooLong(client)
                return
            }
            guard process(client) else { return }
        }
    }

    /// Answers up to `linesPerTurn` complete lines of the client's input; with more waiting, pauses its
    /// reading and continues on a later turn. False when the client was closed or is paused.
    @discardableResult
    private func process(_ client: Client) -> Bool {
        var start = 0
        var answered = 0
        while answered < limits.linesPerTurn, !client.isWaitingForReply,
            let newline = client.input[start...].firstIndex(of: UInt8(ascii: "\n"))
        {
            let line = client.input[start..<newline]
            start = newline + 1
            guard line.count <= limits.lineBytes else {
                tooLong(client)
                return false
            }
            answer(line, from: client)
            guard clients[ObjectIdentifier(client)] != nil else { return false }
            answered += 1
        }
        client.input.removeFirst(start)
        if client.isWaitingForReply {
            // The reply continues from here when it comes.
            client.pauseReading()
            return false
        }
        if client.input.contains(UInt8(ascii: "\n")) {
            client.pauseReading()
            DispatchQueue.main.async { [weak self, weak client] in
                MainActor.assumeIsolated {
                    guard let self, let client, self.clients[ObjectIdentifier(client)] != nil else { return }
                    self.process(client)
                }
            }
            return false
        }
        if client.isReadClosed {
            if !client.input.isEmpty {
                let line = client.input
                client.input = []
                answer(line[...], from: client)
            }
            if clients[ObjectIdentifier(client)] != nil, !client.isWaitingForReply, client.pendingBytes == 0 { drop(client) }
            return false
        }
        client.resumeReading()
        return true
    }

    private func tooLong(_ client: Client) {
        log.notice("control socket: \(client.peer) sent a line longer than \(limits.lineBytes) bytes; closed")
        finish(client, with: "a request longer than \(limits.lineBytes) bytes; closing the connection")
    }

    private func answer(_ line: ArraySlice<UInt8>, from client: Client) {
        var line = line
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        // A blank line is no request (a client's extra newline).
        guard line.contains(where: { ![0x20, 0x09].contains($0) }) else { return }
        let reply: ControlReply
        switch ControlRequest.parse(line, peer: client.peer) {
        case .failure(let refusal): reply = .now(JSONLine([("ok", .bool(false)), ("error", .string(refusal.message))]))
        case .success(let request): reply = handler(request)
        }
        switch reply {
        case .now(let line):
            // The handler may have stopped the server (a reload that ends the kiosk, tests).
            guard clients[ObjectIdentifier(client)] != nil else { return }
            queue(Array((line.text + "\n").utf8), to: client)
        case .later(let start):
            guard laterAnswersInFlight < limits.laterAnswersAtOnce else {
                // Dropping `start` frees what it holds (a screenshot's copy of the frame).
                let busy = "busy: \(laterAnswersInFlight) answers are being made (screenshots); try again in a moment"
                log.info("control socket: \(client.peer): \(busy)")
                queue(Array((Self.errorLine(busy) + "\n").utf8), to: client)
                return
            }
            laterAnswersInFlight += 1
            client.isWaitingForReply = true
            start { [weak self, weak client] line in
                self?.laterAnswersInFlight -= 1
                guard let self, let client, self.clients[ObjectIdentifier(client)] != nil else { return }
                client.isWaitingForReply = false
                self.queue(Array((line.text + "\n").utf8), to: client)
                guard self.clients[ObjectIdentifier(client)] != nil else { return }
                self.process(client)
            }
        }
    }

    /// Sends what the socket takes now and keeps the rest for when the client reads.
    private func queue(_ bytes: [UInt8], to client: Client) {
        guard client.pendingBytes < limits.pendingOutputBytes else {
            log.notice(
                "control socket: \(client.peer) does not read its answers (\(client.pendingBytes) bytes waiting); dropped")
            drop(client)
            return
        }
        client.output.append(contentsOf: bytes)
        flush(client)
    }

    /// Writes pending output until the socket is full; a write source waits for room when it is.
    private func flush(_ client: Client) {
        while client.pendingBytes > 0 {
            let count = client.output[client.outputStart...].withUnsafeBytes {
                send(client.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { break }
                log.debug("control socket: \(client.peer): \(String(cString: strerror(errno)))")
                drop(client)
                return
            }
            client.outputStart += count
            rearm(client)
        }
        if client.pendingBytes == 0 {
            client.output.removeAll(keepingCapacity: false)
            client.outputStart = 0
            client.stopWaitingForRoom()
            if client.isClosing || (client.isReadClosed && !client.isWaitingForReply && client.input.isEmpty) { drop(client) }
            return
        }
        client.waitForRoom { [weak self, weak client] in
            MainActor.assumeIsolated {
                guard let self, let client, self.clients[ObjectIdentifier(client)] != nil else { return }
                self.flush(client)
            }
        }
    }

    /// A last error line for the client, then closed once it is out (at once if it cannot go out now).
    private func finish(_ client: Client, with message: String) {
        client.isClosing = true
        client.cancelReading()
        client.input = []
        let bytes = Array((Self.errorLine(message) + "\n").utf8)
        if client.pendingBytes == 0 {
            _ = bytes.withUnsafeBytes { send(client.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
        drop(client)
    }

    private func drop(_ client: Client) {
        guard clients.removeValue(forKey: ObjectIdentifier(client)) != nil else { return }
        log.debug("control socket: \(client.peer) closed")
        client.close()
    }
}

/// One connection: its buffers and its sources. The descriptor is closed once every source on it has
/// been cancelled (closing it earlier could let a new connection reuse the number under a live source).
@MainActor
private final class Client {
    let fd: Int32
    let peer: ControlPeer
    var input: [UInt8] = []
    var output: [UInt8] = []
    /// How much of `output` is sent.
    var outputStart = 0
    var isReadClosed = false
    /// A `.later` reply is being made: the next requests wait for it.
    var isWaitingForReply = false
    var isClosing = false
    var timer: FrameTimer?
    /// When the client last sent something or took an answer (the clock's time).
    var lastActivity = 0.0
    private var readSource: (any DispatchSourceRead)?
    private var writeSource: (any DispatchSourceWrite)?
    private var liveSources = 0
    private var isClosed = false

    init(fd: Int32, peer: ControlPeer) {
        self.fd = fd
        self.peer = peer
    }

    var pendingBytes: Int { output.count - outputStart }

    func attach(_ source: any DispatchSourceRead) {
        readSource = source
        track(source)
    }

    func cancelReading() {
        // A suspended source never finishes its cancellation: resume it first.
        if isReadingPaused { readSource?.resume() }
        isReadingPaused = false
        readSource?.cancel()
        readSource = nil
    }

    /// Whether reading waits until the requests already read are answered.
    private(set) var isReadingPaused = false

    func pauseReading() {
        guard !isReadingPaused, let readSource else { return }
        readSource.suspend()
        isReadingPaused = true
    }

    func resumeReading() {
        guard isReadingPaused, let readSource else { return }
        readSource.resume()
        isReadingPaused = false
    }

    /// Calls `handler` when the socket takes more output (until `stopWaitingForRoom`).
    func waitForRoom(_ handler: @escaping @Sendable () -> Void) {
        guard writeSource == nil, !isClosed else { return }
        let source = DispatchSource.makeWriteSource(fileDescriptor: fd, queue: .main)
        source.setEventHandler(handler: handler)
        track(source)
        writeSource = source
        source.resume()
    }

    func stopWaitingForRoom() {
        writeSource?.cancel()
        writeSource = nil
    }

    private func track(_ source: any DispatchSourceProtocol) {
        liveSources += 1
        // Strong: the client lives until its sources are gone (their handlers are released then).
        source.setCancelHandler {
            MainActor.assumeIsolated {
                self.liveSources -= 1
                if self.liveSources == 0 && self.isClosed { Glibc.close(self.fd) }
            }
        }
    }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        timer?.cancel()
        timer = nil
        cancelReading()
        stopWaitingForRoom()
        if liveSources == 0 { Glibc.close(fd) }
    }
}

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
        let hint = folder == "/run/kiosk" ? "the unit's RuntimeDirectory=kiosk makes it; " : ""
        var error = ControlSocketError(
            description: "the folder \(folder.isEmpty ? "/" : folder) does not exist (\(hint)set control-socket to another path, or to off)"
        )
        error.isExpected = true
        return error
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
