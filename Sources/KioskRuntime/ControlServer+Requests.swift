import Dispatch
import Glibc

/// Reading a client's requests and sending its answers: lines cut from what arrives, a bounded number
/// answered per turn of the main queue, answers written as the socket takes them.
extension ControlServer {
    func rearm(_ client: Client) {
        client.lastActivity = clock.now
    }

    /// Reads what is there and answers the complete lines. One client gets a bounded share of each turn of
    /// the main queue: at most `Limits.linesPerTurn` requests, then the rest wait for a later turn with its
    /// reading paused (so what it sends meanwhile waits in the kernel, not in our memory), and the frames,
    /// the input and the other clients have their turns in between. Measured in the VM without it: a client
    /// that sent requests by the thousand held the main queue 8.8 s in one turn.
    func read(_ client: Client) {
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
    func process(_ client: Client) -> Bool {
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

    func tooLong(_ client: Client) {
        log.notice("control socket: \(client.peer) sent a line longer than \(limits.lineBytes) bytes; closed")
        finish(client, with: "a request longer than \(limits.lineBytes) bytes; closing the connection")
    }

    func answer(_ line: ArraySlice<UInt8>, from client: Client) {
        var line = line
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
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
    func queue(_ bytes: [UInt8], to client: Client) {
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
    func flush(_ client: Client) {
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
    func finish(_ client: Client, with message: String) {
        client.isClosing = true
        client.cancelReading()
        client.input = []
        let bytes = Array((Self.errorLine(message) + "\n").utf8)
        if client.pendingBytes == 0 {
            _ = bytes.withUnsafeBytes { send(client.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
        drop(client)
    }
}
