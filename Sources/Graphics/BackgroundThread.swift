import Glibc

/// Work off the main thread on a thread of its own (`pthread_create`, detached), for what would hold the
/// main queue too long (a screenshot's PNG). Not libdispatch's global queues: once one of their worker
/// threads has run, libdispatch's pool monitor on Linux wakes the process every second for good (measured:
/// an idle kiosk that had made one screenshot woke once a second).
public enum BackgroundThread {
    /// Runs `body` on a new detached thread; false (and nothing run) if no thread could be made.
    public static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
        guard let thread = ThreadEntry(body).start() else { return false }
        pthread_detach(thread)
        return true
    }
}

/// A closure as a pthread's entry point (a C function pointer cannot carry a generic context).
final class ThreadEntry: @unchecked Sendable {
    let body: () -> Void

    init(_ body: @escaping () -> Void) { self.body = body }

    /// The new thread, or nil if none could be made (`pthread_create` failed).
    func start() -> pthread_t? {
        let box = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(
            &thread, nil,
            { box in
                Unmanaged<ThreadEntry>.fromOpaque(box!).takeRetainedValue().body()
                return nil
            }, box)
        guard status == 0 else {
            Unmanaged<ThreadEntry>.fromOpaque(box).release()
            return nil
        }
        return thread
    }
}
