import CDispatchMainQueue
import Glibc

/// The main thread runs the main queue itself, sleeping in `poll(2)` on libdispatch's main-queue eventfd
/// between events, as CoreFoundation's run loop does on Linux.
///
/// Not `dispatchMain()`: on Linux it ends the main thread (`pthread_exit`) and a worker thread drains the
/// main queue, then exits about 5 s after the last work, which is an idle kiosk's CPU waking up (measured in
/// the VM: 9 to 20 ms of CPU in 10 s of idle, against exactly 0 for weston and cage). Here nothing wakes
/// between events: read sources and timers are watched by libdispatch's manager thread, which only pokes
/// the eventfd when there is work for the main queue.
///
/// In a program that has Foundation (an app of your own that imports it), CoreFoundation's main run loop
/// runs instead: it sleeps the same way (epoll on the same eventfd, a timerfd for its timers) and runs the main
/// queue, and an app's `Timer`s, `RunLoop.main.perform` and `perform(_:with:afterDelay:)` fire only while it
/// runs. The kiosk does not link Foundation: it finds the run loop by a weak reference (`CDispatchMainQueue`).
enum MainLoop {
    /// Whether CoreFoundation's run loop runs the main thread (the program has Foundation).
    static var runsFoundationRunLoop: Bool { kiosk_foundation_run_loop_is_linked() != 0 }

    static func run() -> Never {
        if runsFoundationRunLoop {
            // CFRunLoopRun returns only when something stops the run loop (CFRunLoopStop): run it again.
            while true { kiosk_run_foundation_run_loop() }
        }
        let handle = _dispatch_get_main_queue_handle_4CF()
        while true {
            var entry = pollfd(fd: handle, events: Int16(POLLIN), revents: 0)
            if poll(&entry, 1, -1) < 0 {
                if errno == EINTR { continue }
                fatalError("poll on the main queue's eventfd failed: \(String(cString: strerror(errno)))")
            }
            // The eventfd stays readable until its count is read: libdispatch leaves that to the loop (else
            // poll returns at once, forever).
            var count: UInt64 = 0
            _ = read(handle, &count, MemoryLayout<UInt64>.size)
            _dispatch_main_queue_callback_4CF(nil)
        }
    }
}
