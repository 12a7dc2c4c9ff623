import Dispatch
import Glibc
import KioskKit

extension ControlServer {
    /// One connection: its buffers and its sources. The descriptor is closed once every source on it has
    /// been cancelled (closing it earlier could let a new connection reuse the number under a live source).
    @MainActor
    final class Client {
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
}
