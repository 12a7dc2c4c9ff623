#ifndef KIOSK_STOP_SIGNALS_H
#define KIOSK_STOP_SIGNALS_H

// SIGTERM, SIGINT and SIGHUP (the signals that stop a kiosk or make it read its configuration again),
// blocked from the program's first instruction to its last, and read from a signalfd.
//
// A constructor blocks them in the first thread before `main` runs, so every thread the process makes later
// inherits the block and a signal sent at any moment stays pending until the runtime reads it: none is lost
// while the runtime starts, and none kills the process before its handlers exist. A child the process forks
// (libseat's builtin seat helper) starts with the mask the process was started with, so the signals reach
// it as they would have.

/// 0 when the constructor blocked the three signals, else the errno of `pthread_sigmask` (or -1: it has not
/// run, as in a program linked in a way that drops constructors).
int kiosk_stop_signals_block_error(void);

/// Blocks the three signals in the calling thread (`pthread_sigmask`): 0, or the errno.
int kiosk_stop_signals_block(void);

/// Gives the calling thread back the mask the process was started with, for a command that is no kiosk
/// (a pending signal then acts at once, as it would have without the block): 0, or the errno.
int kiosk_stop_signals_restore(void);

/// A non-blocking, close-on-exec signalfd(2) for the three signals: the descriptor, or -1 with errno set.
int kiosk_stop_signals_open(void);

/// Reads one signal from a descriptor `kiosk_stop_signals_open` returned: its number, 0 when none is
/// pending, or -1 with errno set.
int kiosk_stop_signals_read(int descriptor);

#endif
