#include "test_process_signals.h"
#include "stop_signals.h"

// After CStopSignals' constructor (priority 101; this one has none, so it runs later): Ctrl-C ends the
// tests, and the programs they start (shells, the kiosk itself) start with the mask the bundle was given.
__attribute__((constructor)) static void give_the_stop_signals_back(void) { kiosk_stop_signals_restore(); }
