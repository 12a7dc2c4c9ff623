#include "stop_signals.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <unistd.h>

// kiosk_stop_signals_read takes a read of exactly sizeof(struct signalfd_siginfo) as one signal: the kernel
// writes 128 bytes per signal on every architecture, and glibc's structure must be as long.
_Static_assert(sizeof(struct signalfd_siginfo) == 128, "signalfd(2) writes 128 bytes per signal");

static sigset_t mask_at_start;
static int block_error = -1;

static void stop_signals(sigset_t *set) {
    sigemptyset(set);
    sigaddset(set, SIGTERM);
    sigaddset(set, SIGINT);
    sigaddset(set, SIGHUP);
}

int kiosk_stop_signals_block(void) {
    sigset_t set;
    stop_signals(&set);
    return pthread_sigmask(SIG_BLOCK, &set, NULL);
}

int kiosk_stop_signals_restore(void) { return pthread_sigmask(SIG_SETMASK, &mask_at_start, NULL); }

// In a forked child (async-signal-safe: sigprocmask only).
static void restore_in_child(void) { pthread_sigmask(SIG_SETMASK, &mask_at_start, NULL); }

static void block_at_start(void) {
    sigset_t set;
    stop_signals(&set);
    block_error = pthread_sigmask(SIG_BLOCK, &set, &mask_at_start);
    if (block_error == 0) pthread_atfork(NULL, NULL, restore_in_child);
}

// In the executable's preinit array, which the dynamic loader runs before the initializers of every shared
// library (and any constructor, one of which could start a thread): the earliest code a program can run,
// once the loader has mapped and relocated it. Allowed in executables only, which is what links this.
__attribute__((section(".preinit_array"), used)) static void (*const block_at_start_entry)(void) = block_at_start;

int kiosk_stop_signals_block_error(void) { return block_error; }

int kiosk_stop_signals_open(void) {
    sigset_t set;
    stop_signals(&set);
    return signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
}

int kiosk_stop_signals_read(int descriptor) {
    struct signalfd_siginfo info;
    ssize_t length = read(descriptor, &info, sizeof info);
    if (length == (ssize_t)sizeof info) return (int)info.ssi_signo;
    if (length < 0 && errno == EAGAIN) return 0;
    if (length >= 0) errno = EIO;
    return -1;
}
