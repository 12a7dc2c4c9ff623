import Foundation
import KioskKit
import Testing

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

/// The control socket's server against a real socket in a temporary folder, with a stand-in handler:
/// framing, bad input, limits, and how the socket file is made and removed. The runtime's commands are
/// tested on the built binary (`ControlSocketTests`).
@MainActor
@Suite struct ControlServerTests {
    /// The commands a server answered, in order.
    @MainActor final class Handled {
        var commands: [String] = []
    }

    /// Runs `body` with a server at a fresh path answering `{"ok":true,"command":NAME}` (`big` adds 200 kB,
    /// `medium` 2 kB, `slow` is answered 0.2 s later), stopped and its folder removed after; `handled`
    /// records each command as the server hands it to the handler.
    func serving(
        _ limits: ControlServer.Limits = .init(), clock: any FrameClock = MonotonicClock(), recording handled: Handled? = nil,
        _ body: (ControlServer, String) async throws -> Void
    ) async throws {
        let folder = try CommandLineTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("control").path
        let server = try ControlServer(path: path, group: nil, limits: limits, clock: clock) { request in
            handled?.commands.append(request.command)
            var line = JSONLine([("ok", .bool(true)), ("command", .string(request.command))])
            let size = ["big": 200_000, "medium": 2000][request.command] ?? 0
            if size > 0 { line.append("data", .string(String(repeating: "x", count: size))) }
            // Never answered (a screenshot that takes its time).
            if request.command == "never" { return .later { _ in } }
            guard request.command == "slow" else { return .now(line) }
            // Made elsewhere, answered 0.2 s later.
            return .later { reply in
                DispatchQueue.main.asyncAfter(deadline: .now() + 0.2) { MainActor.assumeIsolated { reply(line) } }
            }
        }
        defer { server.stop() }
        try await body(server, path)
    }

    /// Waits (with the main queue free) until `condition` holds; false after `seconds`.
    func eventually(_ seconds: Double = 120, _ condition: () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            if Date() > deadline { return false }
            try? await Task.sleep(nanoseconds: 10_000_000)
        }
        return true
    }

    @Test func linesAreAnsweredHoweverTheyArrive() async throws {
        try await serving { server, path in
            let answers = try await offMain { () -> [String] in
                let client = try SocketClient(path: path)
                // Two in one write, one in two writes (with CRLF), and a last one without its newline.
                client.send("{\"command\":\"a\"}\n{\"command\":\"b\"}\n{\"comm")
                usleep(100_000)
                client.send("and\":\"c\"}\r\n{\"command\":\"d\"}")
                client.finishWriting()
                return client.readAll()
            }
            #expect(answers == ["a", "b", "c", "d"].map { "{\"ok\":true,\"command\":\"\($0)\"}" })
            #expect(await eventually { server.clientCount == 0 })
        }
    }

    /// Thousands of requests in one write are answered in order, a few per turn of the main queue, with
    /// the client's reading paused meanwhile; the end of its writing waits for the last answer.
    @Test func manyRequestsAtOnceAreAnsweredInOrder() async throws {
        try await serving { server, path in
            let answers = try await offMain { () -> [String] in
                let client = try SocketClient(path: path)
                client.send((0..<3000).map { "{\"command\":\"r\($0)\"}\n" }.joined())
                client.finishWriting()
                return client.readAll()
            }
            #expect(answers == (0..<3000).map { "{\"ok\":true,\"command\":\"r\($0)\"}" })
        }
    }

    /// An answer made later keeps its place: the connection's next request waits for it, other
    /// connections do not.
    @Test func aLaterAnswerKeepsItsPlace() async throws {
        let handled = Handled()
        try await serving(recording: handled) { server, path in
            let (first, other) = try await offMain { () -> ([String?], String?) in
                let client = try SocketClient(path: path)
                let other = try SocketClient(path: path)
                client.send("{\"command\":\"slow\"}\n{\"command\":\"fast\"}\n")
                usleep(50_000)
                let answer = other.ask("{\"command\":\"other\"}")
                return ([client.readLine(), client.readLine()], answer)
            }
            #expect(first == [#"{"ok":true,"command":"slow"}"#, #"{"ok":true,"command":"fast"}"#])
            #expect(other == #"{"ok":true,"command":"other"}"#)
            #expect(handled.commands == ["slow", "other", "fast"])
        }
    }

    @Test func badRequestsGetAnErrorAndTheConnectionStaysOpen() async throws {
        try await serving { server, path in
            let answers = try await offMain { () -> [String?] in
                let client = try SocketClient(path: path)
                return [
                    "{", "[1]", "{\"command\":1}", "{\"state\":\"off\"}", "{\"command\":\"x\",\"screen\":{\"name\":\"a\"}}", "\u{1}",
                    "{\"command\":\"still here\"}",
                ].map { client.ask($0) }
            }
            #expect(
                answers == [
                    #"{"ok":false,"error":"malformed JSON at byte 1: expected a key in quotes, found end of line"}"#,
                    #"{"ok":false,"error":"a request is a JSON object, e.g. {\"command\":\"status\"}; this is an array"}"#,
                    #"{"ok":false,"error":"\"command\" is a number; it must be a string"}"#,
                    #"{"ok":false,"error":"the request has no \"command\", e.g. {\"command\":\"status\"}"}"#,
                    #"{"ok":false,"error":"\"screen\": a request's values are strings, numbers, booleans or null, not an object"}"#,
                    #"{"ok":false,"error":"malformed JSON at byte 0: expected a value, found byte 0x1"}"#,
                    #"{"ok":true,"command":"still here"}"#,
                ])
        }
    }

    /// An empty line (or one of spaces and tabs) is answered with an error, as any malformed line is: the
    /// client that sent it waits for an answer (it was skipped, and `echo | socat` waited 10 s for nothing).
    @Test func anEmptyLineIsAnsweredWithAnError() async throws {
        try await serving { server, path in
            let answers = try await offMain { () -> [String?] in
                let client = try SocketClient(path: path)
                let answers = ["", " \t", "\r", #"{"command":"after"}"#].map { client.ask($0) }
                // The last line, empty, before the end of the client's writing.
                client.send("\n")
                client.finishWriting()
                return answers + client.readAll()
            }
            let empty =
                #"{"ok":false,"error":"an empty line is no request; a request is a JSON object on one line, e.g. "#
                + #"{\"command\":\"status\"}"}"#
            #expect(answers == [empty, empty, empty, #"{"ok":true,"command":"after"}"#, empty])
        }
    }

    /// Lines of random bytes: one answer for each line (an empty one too), then a request is still answered.
    @Test func randomBytes() async throws {
        try await serving { server, path in
            var random = SystemRandomNumberGenerator()
            var bytes: [UInt8] = []
            let lines = 300
            for _ in 0..<lines {
                var line = (0..<Int.random(in: 0...200, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
                line.removeAll { $0 == UInt8(ascii: "\n") }
                bytes += line + [UInt8(ascii: "\n")]
            }
            let sent = bytes
            let answers = try await offMain { () -> [String] in
                let client = try SocketClient(path: path)
                client.send(sent)
                var answers = (0..<lines).compactMap { _ in client.readLine() }
                answers.append(client.ask("{\"command\":\"after\"}") ?? "no answer")
                return answers
            }
            #expect(answers.count == lines + 1)
            #expect(answers.dropLast().allSatisfy { (try? JSONValue.parse($0))?["ok"] != nil })
            #expect(answers.last == #"{"ok":true,"command":"after"}"#)
        }
    }

    /// A line that never ends: an error at the limit and the connection closed; others are served meanwhile.
    @Test func anEndlessLine() async throws {
        try await serving { server, path in
            let (endless, other) = try await offMain { () -> ([String], String?) in
                let client = try SocketClient(path: path)
                let other = try SocketClient(path: path)
                let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 16384)
                for _ in 0..<64 where client.send(chunk) {}
                return (client.readAll(), other.ask("{\"command\":\"other\"}"))
            }
            #expect(endless == [#"{"ok":false,"error":"a request longer than 65536 bytes; closing the connection"}"#])
            #expect(other == #"{"ok":true,"command":"other"}"#)
        }
    }

    /// A client that says nothing is closed once the timeout has passed (with a line saying so), one that
    /// talks stays, and each has one timer: on a manual clock, so the test neither waits nor depends on how
    /// busy the main actor is.
    @Test func aSilentClientIsClosed() async throws {
        let clock = ManualClock(now: 100)
        let closed = #"{"ok":false,"error":"closed after 10 s without a request"}"#
        let pong = #"{"ok":true,"command":"ping"}"#
        try await serving(clock: clock) { server, path in
            let (silent, talker) = try await offMain { (try SocketClient(path: path), try SocketClient(path: path)) }
            #expect(await eventually { server.clientCount == 2 })
            #expect(clock.pendingTimers.count == 2)
            clock.advance(to: 106)
            #expect(try await offMain { talker.ask(#"{"command":"ping"}"#) } == pong)
            // The silent one's 10 s are up, the talker's not (4.5 s since its request).
            clock.advance(to: 110.5)
            #expect(try await offMain { silent.readAll() } == [closed])
            #expect(server.clientCount == 1 && clock.pendingTimers.count == 1)
            #expect(try await offMain { talker.ask(#"{"command":"ping"}"#) } == pong)
            clock.advance(to: 120)
            #expect(server.clientCount == 1)
            clock.advance(to: 121)
            #expect(server.clientCount == 0 && clock.pendingTimers.isEmpty)
            #expect(try await offMain { talker.readAll() } == [closed])
        }
    }

    /// A client waiting for an answer being made is not closed as silent (it was, and its slot went to
    /// another client while its screenshot was still being made).
    @Test func aClientWaitingForAnAnswerIsNotSilent() async throws {
        let clock = ManualClock(now: 100)
        try await serving(clock: clock) { server, path in
            let waiting = try await offMain { try SocketClient(path: path) }
            #expect(await eventually { server.clientCount == 1 })
            #expect(try await offMain { waiting.send(#"{"command":"never"}"# + "\n") })
            #expect(await eventually { server.laterAnswersInFlight == 1 })
            clock.advance(to: 115)
            clock.advance(to: 130)
            #expect(server.clientCount == 1)
        }
    }

    /// Answers made off the main queue are limited: beyond `laterAnswersAtOnce` a request is told to try
    /// again, and is answered once one is done.
    @Test func answersMadeElsewhereAreLimited() async throws {
        var limits = ControlServer.Limits()
        limits.laterAnswersAtOnce = 1
        try await serving(limits) { server, path in
            let (first, second) = try await offMain { (try SocketClient(path: path), try SocketClient(path: path)) }
            #expect(try await offMain { first.send(#"{"command":"slow"}"# + "\n") })
            #expect(await eventually { server.laterAnswersInFlight == 1 })
            #expect(
                try await offMain { second.ask(#"{"command":"slow"}"#) }
                    == #"{"ok":false,"error":"busy: 1 answers are being made (screenshots); try again in a moment"}"#)
            #expect(try await offMain { first.readLine() } == #"{"ok":true,"command":"slow"}"#)
            #expect(server.laterAnswersInFlight == 0)
            #expect(try await offMain { second.ask(#"{"command":"slow"}"#) } == #"{"ok":true,"command":"slow"}"#)
        }
    }

    /// 200 clients connected at once, each answered; the limit's next ones are refused with a line.
    @Test func twoHundredClientsAtOnce() async throws {
        try await serving { server, path in
            let clients = try await offMain { () -> [SocketClient] in
                let clients = try (0..<200).map { _ in try SocketClient(path: path) }
                for (index, client) in clients.enumerated() { client.send("{\"command\":\"c\(index)\"}\n") }
                return clients
            }
            #expect(clients.count == 200)
            let answers = try await offMain { clients.map { $0.readLine() } }
            #expect(answers == (0..<200).map { "{\"ok\":true,\"command\":\"c\($0)\"}" })
            #expect(server.clientCount == 200)
            for client in clients { shutdown(client.fd, Int32(SHUT_RDWR)) }
            #expect(await eventually { server.clientCount == 0 })
        }
    }

    @Test func clientsBeyondTheLimitAreRefused() async throws {
        var limits = ControlServer.Limits()
        limits.clients = 3
        try await serving(limits) { server, path in
            let answers = try await offMain { () -> [String?] in
                let clients = try (0..<5).map { _ in try SocketClient(path: path) }
                usleep(200_000)
                return clients.map { $0.ask("{\"command\":\"hello\"}") }
            }
            #expect(answers.prefix(3).allSatisfy { $0 == #"{"ok":true,"command":"hello"}"# })
            #expect(
                answers.suffix(2).allSatisfy {
                    $0 == #"{"ok":false,"error":"too many clients (3 connected); try again later","refused":true}"#
                })
        }
    }

    /// A client that asks and never reads is dropped once its answers pile up (one large answer or many
    /// small ones), and the others are answered meanwhile: their requests are handled between its, not
    /// after them, so the main queue never waits on it.
    @Test(arguments: [("big", 50), ("medium", 3000)])
    func aClientThatNeverReads(command: String, count: Int) async throws {
        let handled = Handled()
        try await serving(recording: handled) { server, path in
            let (greedy, other) = try await offMain { () -> (SocketClient, SocketClient) in
                let greedy = try SocketClient(path: path)
                let other = try SocketClient(path: path)
                greedy.send(String(repeating: "{\"command\":\"\(command)\"}\n", count: count))
                for _ in 0..<20 { _ = other.ask("{\"command\":\"quick\"}") }
                return (greedy, other)
            }
            // The greedy one goes, the other stays.
            #expect(await eventually { server.clientCount == 1 })
            // What was sent before can still be read, then the connection ends before all its answers.
            let answers = try await offMain { () -> Int in
                var answers = 0
                while greedy.readLine() != nil { answers += 1 }
                return answers
            }
            _ = other
            #expect(answers < count)
            #expect(handled.commands.filter { $0 == "quick" }.count == 20)
            if command == "medium" {
                let firstQuick = try #require(handled.commands.firstIndex(of: "quick"))
                let lastGreedy = try #require(handled.commands.lastIndex(of: command))
                #expect(firstQuick < lastGreedy, "the other client waited for all of the greedy one's requests")
            }
        }
    }

    // MARK: The socket file

    @Test func theFileIsMadeWithModeAndGroupAndRemovedOnStop() throws {
        let folder = try CommandLineTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("control").path
        // A group that is not the process's own, when this system has one.
        let other = ["daemon", "bin", "sys", "adm", "nogroup"].first { ControlServer.groupID(named: $0).map { $0 != getegid() } ?? false }
        let server = try ControlServer(path: path, group: other ?? "root") { _ in .now(JSONLine()) }
        var status = stat()
        #expect(lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFSOCK)
        #expect(status.st_mode & 0o777 == 0o660)
        if let other, geteuid() == 0 {
            #expect(status.st_gid == ControlServer.groupID(named: other) && server.groupID == status.st_gid)
        }
        server.stop()
        #expect(lstat(path, &status) != 0 && errno == ENOENT)

        let missing = try ControlServer(path: path, group: "no-such-group-\(getpid())") { _ in .now(JSONLine()) }
        #expect(lstat(path, &status) == 0 && status.st_gid == getegid() && missing.groupID == getegid())
        // Replaced behind its back: not its file any more, so it stays.
        unlink(path)
        try "someone else's".write(toFile: path, atomically: false, encoding: .utf8)
        missing.stop()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "someone else's")
    }

    /// A path that is not a socket is refused and left alone; a live socket is left to its listener; a
    /// stale one (connecting is refused) is replaced; a missing folder is expected outside the unit.
    @Test func whatIsAtThePathIsNeverTakenOver() throws {
        let folder = try CommandLineTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("control").path
        try "data".write(toFile: path, atomically: false, encoding: .utf8)
        #expect(throws: ControlSocketError.notASocket(path, kind: "a regular file")) {
            try ControlServer(path: path, group: nil) { _ in .now(JSONLine()) }
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "data")
        unlink(path)
        _ = mkfifo(path, 0o600)
        #expect(throws: ControlSocketError.notASocket(path, kind: "a FIFO")) {
            try ControlServer(path: path, group: nil) { _ in .now(JSONLine()) }
        }
        unlink(path)
        _ = symlink("/dev/null", path)
        #expect(throws: ControlSocketError.notASocket(path, kind: "a symbolic link")) {
            try ControlServer(path: path, group: nil) { _ in .now(JSONLine()) }
        }
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: path)) == "/dev/null")
        unlink(path)

        let first = try ControlServer(path: path, group: nil) { _ in .now(JSONLine([("ok", .bool(true))])) }
        #expect(throws: ControlSocketError.inUse(path)) { try ControlServer(path: path, group: nil) { _ in .now(JSONLine()) } }
        first.stop()

        // A socket bound and closed without removing it: what a kiosk that was killed leaves.
        let stale = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        #expect(UnixSocketAddress(path: path)!.bind(stale) == 0)
        close(stale)
        let replaced = try ControlServer(path: path, group: nil) { _ in .now(JSONLine()) }
        replaced.stop()

        let nowhere = folder.appendingPathComponent("missing/control").path
        #expect(throws: ControlSocketError.folderMissing(nowhere)) {
            try ControlServer(path: nowhere, group: nil) { _ in .now(JSONLine()) }
        }
        #expect(ControlSocketError.folderMissing(nowhere).isExpected)
        #expect(ControlSocketError.folderMissing("/run/kiosk/control").description.contains("RuntimeDirectory=kiosk"))
    }

    // MARK: Who may talk

    @Test func whoIsAnswered() {
        let kiosk: UInt32 = 990, group: UInt32 = 991
        func allowed(uid: UInt32, gid: UInt32, groups: [UInt32] = []) -> Bool {
            ControlServer.isAllowed(ControlPeer(pid: 1, uid: uid, gid: gid), ownUID: kiosk, groupID: group) { _ in groups }
        }
        #expect(allowed(uid: 0, gid: 0))
        #expect(allowed(uid: kiosk, gid: 5))
        #expect(allowed(uid: 1000, gid: group))
        #expect(allowed(uid: 1000, gid: 1000, groups: [1000, 27, group]))
        #expect(!allowed(uid: 1000, gid: 1000, groups: [1000, 27]))
        #expect(!allowed(uid: 65534, gid: 65534))
    }

    /// The real check on accept, with a client running as another user: kept out by the socket file's mode
    /// (0660), and with the mode opened up, refused by the server with one line. Either way the user may not
    /// ask, and `kiosk status` exits 3 both times (the refusal exited 1, as if the kiosk had answered a
    /// request); the same user in the socket's group is answered.
    @Test(.enabled(if: geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
    func aPeerOutsideTheGroupIsRefused() async throws {
        try await serving { server, path in
            let asOutsider: @Sendable () throws -> CommandLineTests.Result = {
                try CommandLineTests.run(
                    URL(fileURLWithPath: "/usr/bin/setpriv"),
                    ["--reuid=65534", "--regid=65534", "--clear-groups", CommandLineTests.binary.path, "status", "--socket", path])
            }
            let keptOut = try await offMain(asOutsider)
            #expect(keptOut.status == 3)
            #expect(
                keptOut.stderr
                    == "kiosk status: permission denied on \(path): run this as root, as the kiosk's user or as a member of its control group\n"
            )
            chmod(path, 0o666)
            let outsider = try await offMain(asOutsider)
            #expect(outsider.status == 3)
            #expect(
                outsider.stderr
                    == "kiosk status: not allowed: uid 65534 is not root, not the kiosk's user and not a member of the group \(ControlServer.groupName(server.groupID) ?? "")\n"
            )
            let member = try await offMain {
                try CommandLineTests.run(
                    URL(fileURLWithPath: "/usr/bin/setpriv"),
                    [
                        "--reuid=65534", "--regid=\(getegid())", "--clear-groups", CommandLineTests.binary.path, "status", "--socket", path,
                        "--json",
                    ])
            }
            #expect(member.stdout == "{\"ok\":true,\"command\":\"status\"}\n")
        }
    }
}
