import CLazyLibSeat

/// The Swift side of the `libseat_seat_listener` callbacks: the caller's closures and the enabled
/// state. libseat gets an unretained pointer to it as userdata; the `Seat` owns it and closes the libseat
/// handle before releasing it, so the pointer never dangles while libseat can still call back.
@MainActor
final class SeatListener {
    private let onEnable: () -> Void
    private let onDisable: () -> Void
    private(set) var isEnabled = false
    /// Whether an enable ever arrived; used to synthesize the noop backend's missing first enable.
    private(set) var hasBeenEnabled = false
    /// Events that arrived while `Seat.init` was still running, delivered by the first `dispatch()`.
    /// The seatd backend runs queued events at the end of `libseat_open_seat` when the enable came in
    /// the same read as the reply; the caller would then get `onEnable` before holding the seat.
    private var held: [Bool]? = []

    init(onEnable: @escaping () -> Void, onDisable: @escaping () -> Void) {
        self.onEnable = onEnable
        self.onDisable = onDisable
    }

    func enable() {
        if held != nil {
            held?.append(true)
            return
        }
        isEnabled = true
        hasBeenEnabled = true
        onEnable()
    }

    func disable() {
        if held != nil {
            held?.append(false)
            return
        }
        isEnabled = false
        onDisable()
    }

    /// Delivers the events held during `Seat.init`, in order, and stops holding.
    func releaseHeld() {
        guard let events = held else { return }
        held = nil
        for isEnable in events {
            if isEnable { enable() } else { disable() }
        }
    }

    /// The C listener, allocated once per seat because libseat keeps the pointer to it (rather than a
    /// copy) for the seat's whole life (seen in libseat 0.7.0's noop and seatd backends, which store
    /// `listener` as given). The callbacks are plain C functions: they find the `SeatListener` through
    /// userdata, and run synchronously inside `libseat_dispatch` (or inside another libseat call that
    /// reads the connection), which the `Seat` only makes on the main actor.
    static func makeCListener() -> UnsafeMutablePointer<libseat_seat_listener> {
        let listener = UnsafeMutablePointer<libseat_seat_listener>.allocate(capacity: 1)
        listener.initialize(
            to: libseat_seat_listener(
                enable_seat: { _, userdata in
                    let listener = SeatListener.from(userdata)
                    MainActor.assumeIsolated { listener.enable() }
                },
                disable_seat: { _, userdata in
                    let listener = SeatListener.from(userdata)
                    MainActor.assumeIsolated { listener.disable() }
                }))
        return listener
    }

    nonisolated private static func from(_ userdata: UnsafeMutableRawPointer?) -> SeatListener {
        guard let userdata else { fatalError("libseat called a seat listener without its userdata") }
        return Unmanaged<SeatListener>.fromOpaque(userdata).takeUnretainedValue()
    }
}
