import Dispatch
import Foundation
import Logging
import Seat

/// The kiosk's seat: devices are opened through libseat (logind, seatd, builtin or noop as
/// `LIBSEAT_BACKEND` says), so the kiosk runs unprivileged and survives a session switch. The seat's fd
/// sits in the main queue; disable and enable reach the display backend through the handlers.
@MainActor
final class Session {
    let seat: Seat
    var onDisable: () -> Void = {}
    var onEnable: () -> Void = {}
    private var source: (any DispatchSourceRead)?
    private var isStarting = true
    private let log = Logger(label: "kiosk.seat")

    private init(seat: Seat) {
        self.seat = seat
    }

    /// Opens the seat and waits (at most `timeout`) for it to be enabled, which is when devices may be opened.
    static func open(timeout: TimeInterval = 10) throws(RuntimeError) -> Session {
        // The callbacks fire inside dispatch(), on the main actor; the session object does not exist yet
        // when the seat is made, so they go through this box.
        final class Box { weak var session: Session? }
        let box = Box()
        let seat: Seat
        do {
            seat = try Seat(onEnable: { MainActor.assumeIsolated { box.session?.enabled() } },
                            onDisable: { MainActor.assumeIsolated { box.session?.disabled() } })
        } catch {
            throw .backendUnavailable("seat", reason: "\(error)")
        }
        let session = Session(seat: seat)
        box.session = session
        let deadline = Date().addingTimeInterval(timeout)
        // The first enable may already wait in libseat's buffer, where the fd will never signal it.
        do {
            _ = try seat.dispatch(timeout: 0)
            while !seat.isEnabled && Date() < deadline {
                _ = try seat.dispatch(timeout: 100)
            }
        } catch {
            throw .backendUnavailable("seat", reason: "\(error)")
        }
        guard seat.isEnabled else {
            throw .backendUnavailable("seat", reason: "seat \(seat.name) was not enabled within \(Int(timeout)) s (is another session active?)")
        }
        session.isStarting = false
        session.log.info("seat \(seat.name) enabled (LIBSEAT_BACKEND=\(ProcessInfo.processInfo.environment["LIBSEAT_BACKEND"] ?? "auto"))")
        let source = DispatchSource.makeReadSource(fileDescriptor: seat.fileDescriptor, queue: .main)
        source.setEventHandler { [weak session] in
            MainActor.assumeIsolated {
                guard let session else { return }
                do { _ = try session.seat.dispatch(timeout: 0) } catch {
                    session.log.error("libseat dispatch failed: \(error); no more session events")
                    session.source?.cancel()
                }
            }
        }
        source.resume()
        session.source = source
        return session
    }

    private func enabled() {
        guard !isStarting else { return }
        log.notice("session enabled: taking the displays back")
        onEnable()
    }

    private func disabled() {
        log.notice("session disabled: stopping output")
        onDisable()
        do { try seat.acknowledgeDisable() } catch { log.error("acknowledging the disable failed: \(error)") }
    }

    func openDevice(path: String) throws(RuntimeError) -> SeatDevice {
        do { return try seat.openDevice(path: path) } catch {
            throw .backendUnavailable("seat", reason: "\(error)")
        }
    }

    func closeDevice(_ device: SeatDevice) {
        do { try seat.closeDevice(device) } catch { log.warning("closing \(device.path) failed: \(error)") }
    }
}
