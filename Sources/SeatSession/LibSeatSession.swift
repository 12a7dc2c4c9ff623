import Dispatch
import Glibc
import KioskBackend
import Logging
import Seat

/// The kiosk's seat through libseat (logind, seatd, builtin or noop as `LIBSEAT_BACKEND` says), so the
/// kiosk runs unprivileged and survives a session switch. The seat's fd sits in the main queue; disable and
/// enable reach the backends through `onDisable` and `onEnable`. libseat's own log lines go to `kiosk.seat`.
@MainActor
public final class LibSeatSession: DeviceSession {
    let seat: Seat
    public var onDisable: @MainActor () -> Void = {}
    public var onEnable: @MainActor () -> Void = {}
    private var source: (any DispatchSourceRead)?
    private var isStarting = true
    private var devices: [Int32: SeatDevice] = [:]
    private let log = Logger(label: "kiosk.seat")

    public var seatName: String { seat.name }
    public let kind: String

    private init(seat: Seat, kind: String) {
        self.seat = seat
        self.kind = kind
    }

    /// Opens the seat and waits (at most `timeout`) for it to be enabled, which is when devices may be opened.
    public static func open(backend: String?, timeout: Duration = .seconds(10)) throws(BackendError) -> LibSeatSession {
        // The callbacks fire inside dispatch(), on the main actor; the session object does not exist yet
        // when the seat is made, so they go through this box.
        final class Box { weak var session: LibSeatSession? }
        let box = Box()
        let seat: Seat
        do {
            seat = try Seat(
                onEnable: { MainActor.assumeIsolated { box.session?.enabled() } },
                onDisable: { MainActor.assumeIsolated { box.session?.disabled() } })
        } catch {
            throw .failed("seat", "\(error)")
        }
        let session = LibSeatSession(seat: seat, kind: "libseat (\(backend ?? "auto"))")
        box.session = session
        let deadline = ContinuousClock.now + timeout
        // The first enable may already wait in libseat's buffer, where the fd will never signal it.
        do {
            _ = try seat.dispatch(timeout: 0)
            while !seat.isEnabled && ContinuousClock.now < deadline {
                _ = try seat.dispatch(timeout: 100)
            }
        } catch {
            throw .failed("seat", "\(error)")
        }
        guard seat.isEnabled else {
            throw .failed("seat", "seat \(seat.name) was not enabled within \(timeout) (is another session active?)")
        }
        session.isStarting = false
        session.log.info("seat \(seat.name) enabled (LIBSEAT_BACKEND=\(backend ?? "auto"))")
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
        log.notice("session enabled: taking the devices back")
        onEnable()
    }

    private func disabled() {
        log.notice("session disabled: stopping output")
        onDisable()
        do { try seat.acknowledgeDisable() } catch { log.error("acknowledging the disable failed: \(error)") }
    }

    public func openDevice(path: String) throws(BackendError) -> OpenedDevice {
        do {
            let device = try seat.openDevice(path: path)
            devices[device.fileDescriptor] = device
            return OpenedDevice(fileDescriptor: device.fileDescriptor, path: path, id: device.id)
        } catch {
            throw .failed("seat", "\(error)")
        }
    }

    public func closeDevice(_ device: OpenedDevice) {
        guard let opened = devices.removeValue(forKey: device.fileDescriptor) else { return }
        do { try seat.closeDevice(opened) } catch { log.warning("closing \(device.path) failed: \(error)") }
    }
}
