import Foundation
import KioskKit
import KioskTesting
import Testing

@testable import KioskRuntime

/// The control socket's server against a real socket in a temporary folder, with a stand-in handler:
/// framing, bad input, limits, and how the socket file is made and removed. The runtime's commands are
/// tested on the built binary (`ControlSocketTests`).
@MainActor
@Suite struct ControlServerTests {
    /// The commands a server answered, in order.
    @MainActor final class Handled {
        var commands: [String] = []
        /// The answers to `held` requests, made when the test says (`answerHeld`).
        var held: [(JSONLine) -> Void] = []

        /// Answers the `held` requests made so far.
        func answerHeld() {
            let replies = held
            held = []
            for reply in replies { reply(JSONLine([("ok", .bool(true)), ("command", .string("held"))])) }
        }
    }

    /// Runs `body` with a server at a fresh path answering `{"ok":true,"command":NAME}` (`big` adds 200 kB,
    /// `medium` 2 kB, `slow` is answered 0.2 s later, `held` when `handled.answerHeld()` is called), stopped
    /// and its folder removed after; `handled` records each command as the server hands it to the handler.
    /// The server's limits, with a silent client's time long enough that a loaded machine (the main queue
    /// shared with the tests beside, held for seconds) never closes one on the real clock: the tests of
    /// silence run on a manual clock, with the server's own limits.
    static var limits: ControlServer.Limits {
        var limits = ControlServer.Limits()
        limits.idleTimeout = 600
        return limits
    }

    func serving(
        _ limits: ControlServer.Limits = Self.limits, clock: any FrameClock = MonotonicClock(), recording handled: Handled? = nil,
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
            if request.command == "held", let handled { return .later { reply in handled.held.append(reply) } }
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
        try await serving(ControlServer.Limits(), clock: clock) { server, path in
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

    /// A request that came while the main queue was held past the timeout (a loaded machine: its read
    /// source and the timer both due) is read and answered, not taken for silence (it was closed).
    @Test func aRequestThatWaitedBehindABusyMainQueueIsAnswered() async throws {
        let clock = ManualClock(now: 100)
        try await serving(ControlServer.Limits(), clock: clock) { server, path in
            let client = try await offMain { try SocketClient(path: path) }
            #expect(await eventually { server.clientCount == 1 })
            // Sent, and the clock past the timeout, in one turn of the main queue: the read source has not run.
            #expect(client.send(#"{"command":"ping"}"# + "\n"))
            clock.advance(to: 111)
            #expect(try await offMain { client.readLine() } == #"{"ok":true,"command":"ping"}"#)
            #expect(server.clientCount == 1 && clock.pendingTimers.count == 1)
        }
    }

    /// A client waiting for an answer being made is not closed as silent (it was, and its slot went to
    /// another client while its screenshot was still being made).
    @Test func aClientWaitingForAnAnswerIsNotSilent() async throws {
        let clock = ManualClock(now: 100)
        try await serving(ControlServer.Limits(), clock: clock) { server, path in
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
        var limits = Self.limits
        limits.laterAnswersAtOnce = 1
        let handled = Handled()
        // The first answer is held until the second request has been refused (a timer's 0.2 s had run out
        // first on a loaded machine).
        try await serving(limits, recording: handled) { server, path in
            let (first, second) = try await offMain { (try SocketClient(path: path), try SocketClient(path: path)) }
            #expect(try await offMain { first.send(#"{"command":"held"}"# + "\n") })
            #expect(await eventually { server.laterAnswersInFlight == 1 })
            #expect(
                try await offMain { second.ask(#"{"command":"held"}"#) }
                    == #"{"ok":false,"error":"busy: 1 answers are being made (screenshots); try again in a moment"}"#)
            handled.answerHeld()
            #expect(try await offMain { first.readLine() } == #"{"ok":true,"command":"held"}"#)
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
        var limits = Self.limits
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
}
