// The build's configuration, "debug" or "release", as an ELF note (section .note.kiosk.build, owner "Kiosk",
// type 1) of every program that links KioskRuntime: scripts/install refuses a debug build for a board, and
// it judges the binary itself, so a copied, renamed or stripped binary is judged the same.
//
// SwiftPM's debug configuration compiles every C target of the build with -DDEBUG=1 (and every Swift one
// with -DDEBUG -Onone -enable-testing), the dependencies of an app's own package too; its release
// configuration never defines DEBUG. A note (SHT_NOTE: clang gives a section named .note.* that type) is
// allocated, so strip keeps it, and linkers keep it through --gc-sections, which a release links with;
// SwiftPM links every object file of the product's targets, so nothing needs to refer to it.
#include "build_note.h"

#include <stdint.h>

#ifdef DEBUG
#define KIOSK_BUILD_CONFIGURATION "debug"
#else
#define KIOSK_BUILD_CONFIGURATION "release"
#endif

// The ELF note layout: the sizes of the name and of the description (each without its padding to 4 bytes),
// the owner's own type, then the name and the description, each padded to 4 bytes.
struct kiosk_build_note {
    uint32_t name_size, description_size, type;
    char name[8];
    char description[8];
};

__attribute__((section(".note.kiosk.build"), used, aligned(4)))
static const struct kiosk_build_note kiosk_build_note = {
    sizeof("Kiosk"), sizeof(KIOSK_BUILD_CONFIGURATION), 1, "Kiosk", KIOSK_BUILD_CONFIGURATION};
