#ifndef KIOSK_BUILD_NOTE_H
#define KIOSK_BUILD_NOTE_H

// Nothing to call: this target puts the build's configuration in an ELF note of every program that links
// KioskRuntime (build_note.c), where scripts/install reads it.

#endif
