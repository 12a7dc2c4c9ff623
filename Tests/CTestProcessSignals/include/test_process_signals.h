// The test bundle is no kiosk: it gives back SIGTERM, SIGINT and SIGHUP, which CStopSignals blocks in every
// program that links the runtime (test_process_signals.c). Nothing to call.
