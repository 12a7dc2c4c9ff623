#ifndef KIOSK_LAZY_LINK_H
#define KIOSK_LAZY_LINK_H

#include <stddef.h>

/// Opens the shared library `soname` with dlopen(3) (RTLD_NOW | RTLD_LOCAL) and resolves each of the
/// `count` functions named in `names` into `slots` with dlsym(3), which also searches the libraries it
/// depends on. Returns 0, or -1 with the reason in `error` (dlerror(3)'s text, NUL-terminated and cut
/// to `size`). The library stays loaded: nothing is ever unloaded.
int kiosk_lazy_link(const char *soname, const char *const *names, void **slots, size_t count, char *error, size_t size);

/// A field of a library's function table: a pointer with the exact type of the C function `name` as its
/// header declares it. `__typeof__` takes the type without referring to the symbol, so the library is
/// not a link-time dependency.
#define KIOSK_LAZY_FIELD(name) __typeof__(&name) name;

/// The name of a function as a string, for the list dlsym(3) resolves.
#define KIOSK_LAZY_NAME(name) #name,

/// Defines `const struct TABLE *LOAD(char *error, size_t size)`, which loads SONAME once and returns the
/// table of the functions in LIST (a `F(name) F(name) ...` list), or NULL with the reason in `error`.
/// Not thread-safe: callers load once (LazyLink's `LazyLibrary` does, in a Swift `static let`).
#define KIOSK_LAZY_DEFINE_LOADER(TABLE, LOAD, SONAME, LIST) \
    const struct TABLE *LOAD(char *error, size_t size) { \
        static const char *const names[] = {LIST(KIOSK_LAZY_NAME)}; \
        static struct TABLE table; \
        _Static_assert(sizeof table == sizeof names / sizeof names[0] * sizeof(void *), "one pointer per name"); \
        void *slots[sizeof names / sizeof names[0]]; \
        if (kiosk_lazy_link(SONAME, names, slots, sizeof names / sizeof names[0], error, size) != 0) return NULL; \
        __builtin_memcpy(&table, slots, sizeof table); \
        return &table; \
    }

#endif
