// libdispatch's interface for running the main queue from an event loop of one's own, as CoreFoundation's
// run loop does on Linux (swift-corelibs-libdispatch, src/queue.c; exported by libdispatch.so and .a).
// Declared here so that Swift calls them with the C calling convention.
#include <stdint.h>

// An eventfd that becomes readable when the main queue has work (the main thread must call this first).
extern int _dispatch_get_main_queue_handle_4CF(void);
// Runs what the main queue holds now, on the calling thread (the main thread). The argument is unused on Linux.
extern void _dispatch_main_queue_callback_4CF(void *message);

// CoreFoundation's run loop, in a program that has Foundation (an app of your own that imports it): its
// Timers and RunLoop.main.perform fire only while the main run loop runs, and it runs the main queue too.
// Weak: a program without Foundation (the kiosk) links and runs with its address null.
extern void CFRunLoopRun(void) __attribute__((weak));
static inline int kiosk_foundation_run_loop_is_linked(void) { return CFRunLoopRun != 0; }
static inline void kiosk_run_foundation_run_loop(void) { CFRunLoopRun(); }
