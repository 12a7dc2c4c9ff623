#include "lazy_libseat.h"

KIOSK_LAZY_DEFINE_LOADER(kiosk_lazy_libseat, kiosk_lazy_libseat_load, KIOSK_LAZY_LIBSEAT_SONAME, KIOSK_LAZY_LIBSEAT_FUNCTIONS)

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/// Set before libseat opens a seat (and forks), read in the child: no lock needed.
static char forked_label[32] = "libseat";
static char forked_levels[3][32] = {"error", "info", "debug"};

static void copy_word(char *destination, const char *source) {
    snprintf(destination, 32, "%s", source ? source : "");
}

void kiosk_seat_set_forked_log_format(const char *label, const char *error, const char *info, const char *debug) {
    copy_word(forked_label, label);
    copy_word(forked_levels[0], error);
    copy_word(forked_levels[1], info);
    copy_word(forked_levels[2], debug);
}

void kiosk_seat_log_forked(enum libseat_log_level level, const char *format, va_list arguments) {
    char line[1024];
    time_t now = time(NULL);
    struct tm utc;
    size_t length = 0;
    const char *word = forked_levels[level == LIBSEAT_LOG_LEVEL_ERROR ? 0 : level == LIBSEAT_LOG_LEVEL_INFO ? 1 : 2];
    if (!word[0]) return;  // a level the log does not show
    // Not strftime: glibc's calls tzset, which takes a lock.
    int written = gmtime_r(&now, &utc)
        ? snprintf(line, sizeof line, "%04d-%02d-%02dT%02d:%02d:%02d+0000 %s %s: ", utc.tm_year + 1900, utc.tm_mon + 1,
              utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec, word, forked_label)
        : snprintf(line, sizeof line, "%s %s: ", word, forked_label);
    if (written > 0) length = (size_t)written < sizeof line ? (size_t)written : sizeof line - 1;
    written = vsnprintf(line + length, sizeof line - length, format, arguments);
    if (written > 0) length += (size_t)written < sizeof line - length ? (size_t)written : sizeof line - length - 1;
    // Room for the newline: a line cut short still ends one.
    if (length >= sizeof line - 1) length = sizeof line - 2;
    line[length++] = '\n';
    for (size_t done = 0; done < length;) {
        ssize_t n = write(STDERR_FILENO, line + done, length - done);
        if (n <= 0) break;
        done += (size_t)n;
    }
}
