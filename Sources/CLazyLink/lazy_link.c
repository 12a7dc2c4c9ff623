#include "lazy_link.h"

#include <dlfcn.h>
#include <stdio.h>

int kiosk_lazy_link(const char *soname, const char *const *names, void **slots, size_t count, char *error, size_t size) {
    void *handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        snprintf(error, size, "%s", dlerror());
        return -1;
    }
    void *found[count > 0 ? count : 1];
    for (size_t index = 0; index < count; index++) {
        dlerror();
        found[index] = dlsym(handle, names[index]);
        const char *reason = dlerror();
        if (found[index] == NULL) {
            snprintf(error, size, "%s", reason != NULL ? reason : names[index]);
            return -1;
        }
    }
    for (size_t index = 0; index < count; index++) slots[index] = found[index];
    return 0;
}
