/* What the uinput players share; see uinputplay.h. */
#define _GNU_SOURCE
#include "uinputplay.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/input.h>
#include <linux/uinput.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

int fd = -1;
char event_node[300];
int lineno;

void die(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    if (lineno) fprintf(stderr, "%s: line %d: ", player, lineno); else fprintf(stderr, "%s: ", player);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

static long long now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

void sleep_ms(double ms) {
    if (ms <= 0) return;
    struct timespec ts = {(time_t)(ms / 1000), (long)(fmod(ms, 1000.0) * 1e6)};
    while (nanosleep(&ts, &ts) == -1 && errno == EINTR) {}
}

void emit(int type, int code, int value) {
    if (fd < 0) die("no device (removed? use `create`)");
    struct input_event ev = {0};
    ev.type = type;
    ev.code = code;
    ev.value = value;
    if (write(fd, &ev, sizeof ev) != sizeof ev) die("write to uinput: %s", strerror(errno));
}

void open_uinput(void) {
    if (fd >= 0) die("device already exists");
    fd = open("/dev/uinput", O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) die("open /dev/uinput: %s", strerror(errno));
}

static void find_event_node(void) {
    char sysname[64] = "", path[PATH_MAX];
    if (ioctl(fd, UI_GET_SYSNAME(sizeof sysname), sysname) < 0) die("UI_GET_SYSNAME: %s", strerror(errno));
    snprintf(path, sizeof path, "/sys/devices/virtual/input/%s", sysname);
    event_node[0] = 0;
    /* The evdev handler attaches synchronously in UI_DEV_CREATE, but allow for a short delay. */
    for (int i = 0; i < 200 && !event_node[0]; i++) {
        DIR *d = opendir(path);
        if (d) {
            struct dirent *e;
            while ((e = readdir(d)))
                if (!strncmp(e->d_name, "event", 5)) snprintf(event_node, sizeof event_node, "/dev/input/%s", e->d_name);
            closedir(d);
        }
        if (!event_node[0]) sleep_ms(5);
    }
    if (!event_node[0]) die("no event node under %s (is evdev loaded?)", path);
}

void setup_and_create(const char *name, unsigned vendor, unsigned product) {
    struct uinput_setup us = {0};
    us.id.bustype = BUS_VIRTUAL;
    us.id.vendor = vendor;
    us.id.product = product;
    us.id.version = 1;
    snprintf(us.name, sizeof us.name, "%s", name);
    if (ioctl(fd, UI_DEV_SETUP, &us) < 0) die("UI_DEV_SETUP: %s", strerror(errno));
    if (ioctl(fd, UI_DEV_CREATE) < 0) die("UI_DEV_CREATE: %s", strerror(errno));
    find_event_node();
}

void remove_device(void) {
    if (fd < 0) die("no device to remove");
    ioctl(fd, UI_DEV_DESTROY);
    close(fd);
    fd = -1;
}

static bool udev_running(void) {
    return access("/run/udev/control", F_OK) == 0;
}

static void wait_for_device(double ms) {
    if (fd < 0) die("no device");
    long long deadline = now_ms() + (long long)ms;
    struct stat st;
    for (;;) {
        if (stat(event_node, &st) == 0) {
            /* udev writes /run/udev/data/c13:N when it has finished with the device: only then do
             * libudev listeners (libinput) get the "add" and see its ID_INPUT_* properties. */
            char db[96];
            snprintf(db, sizeof db, "/run/udev/data/c%u:%u", major(st.st_rdev), minor(st.st_rdev));
            if (!udev_running() || access(db, F_OK) == 0) break;
        }
        if (now_ms() > deadline) die("wait-for-device: %s not ready after %.0f ms", event_node, ms);
        sleep_ms(5);
    }
    printf("READY %s\n", event_node);
    fflush(stdout);
}

/* Some other process has event_node open? Scans /proc/PID/fd (we run as root in the guest). */
static int opener(void) {
    DIR *proc = opendir("/proc");
    if (!proc) return 0;
    struct dirent *p;
    int found = 0;
    while (!found && (p = readdir(proc))) {
        if (!isdigit((unsigned char)p->d_name[0]) || atoi(p->d_name) == getpid()) continue;
        char dir[300];
        snprintf(dir, sizeof dir, "/proc/%s/fd", p->d_name);
        DIR *fds = opendir(dir);
        if (!fds) continue;
        struct dirent *f;
        while ((f = readdir(fds))) {
            char link[600], target[PATH_MAX];
            snprintf(link, sizeof link, "%s/%s", dir, f->d_name);
            ssize_t n = readlink(link, target, sizeof target - 1);
            if (n > 0) {
                target[n] = 0;
                if (!strcmp(target, event_node)) { found = atoi(p->d_name); break; }
            }
        }
        closedir(fds);
    }
    closedir(proc);
    return found;
}

static void wait_for_open(double ms) {
    long long start = now_ms();
    wait_for_device(ms);
    /* After udev is done with the node its workers have closed it, so an opener now is a consumer. */
    int pid;
    while (!(pid = opener())) {
        if (now_ms() - start > ms) die("wait-for-open: nobody opened %s within %.0f ms", event_node, ms);
        sleep_ms(10);
    }
    printf("OPENED %d\n", pid);
    fflush(stdout);
}

static void wait_for_file(const char *path, double ms) {
    long long deadline = now_ms() + (long long)ms;
    while (access(path, F_OK) != 0) {
        if (now_ms() > deadline) die("wait-for-file: no %s after %.0f ms", path, ms);
        sleep_ms(10);
    }
}

char *next_tok(char **save) { return strtok_r(NULL, " \t", save); }

double num_arg(char *s, const char *what) {
    if (!s) die("missing %s", what);
    char *end;
    double v = strtod(s, &end);
    if (*end || v < 0) die("bad %s '%s'", what, s);
    return v;
}

static void run_line(char *line) {
    char *hash = strchr(line, '#');
    if (hash) *hash = 0;
    char *save, *cmd = strtok_r(line, " \t\r\n", &save);
    if (!cmd) return;
    /* echo keeps the rest of the line verbatim */
    if (!strcmp(cmd, "echo")) {
        char *rest = save ? save : (char *)"";
        rest[strcspn(rest, "\r\n")] = 0;
        printf("%s\n", rest);
        fflush(stdout);
        return;
    }
    for (char *p = save; p && *p; p++) if (*p == '\r' || *p == '\n') *p = 0;
    if (!strcmp(cmd, "sleep")) {
        sleep_ms(num_arg(next_tok(&save), "milliseconds"));
    } else if (!strcmp(cmd, "wait-for-device")) {
        wait_for_device(num_arg(next_tok(&save), "milliseconds"));
    } else if (!strcmp(cmd, "wait-for-open")) {
        wait_for_open(num_arg(next_tok(&save), "milliseconds"));
    } else if (!strcmp(cmd, "wait-for-file")) {
        char *path = next_tok(&save);
        if (!path) die("missing path");
        wait_for_file(path, num_arg(next_tok(&save), "milliseconds"));
    } else if (!strcmp(cmd, "remove")) {
        remove_device();
    } else if (!strcmp(cmd, "create")) {
        create_device();
    } else if (!run_command(cmd, &save)) {
        die("unknown command '%s'", cmd);
    }
}

void run_script(FILE *in) {
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, in) >= 0) {
        lineno++;
        run_line(line);
    }
    free(line);
}
