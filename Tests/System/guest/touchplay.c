/*
 * touchplay: create a uinput multitouch touchscreen in the kioskvm guest and play a gesture script.
 *
 * QEMU 7.2 has no virtio multitouch device (its virtio-tablet arrives as an absolute pointer), so
 * host-driven touch is played from inside the guest: the host writes a script into the job folder
 * (or streams it on stdin) and this program turns it into evdev events on a real kernel input device.
 * udev then tags it ID_INPUT_TOUCHSCREEN=1 and libinput reports TOUCH_DOWN/MOTION/UP/FRAME with mm
 * coordinates (shared/vm/README.md, "Touch").
 *
 * Usage: touchplay [options] [SCRIPT|-]        (no SCRIPT or "-": read commands from stdin as they come)
 *   --name NAME        device name                          (default "kioskvm touchscreen")
 *   --id VVVV:PPPP     USB-style vendor:product, hex        (default 1d6b:0104)
 *   --size WxH         panel size in mm                     (default 256x160)
 *   --range XxY        axis maximum in device units         (default size * resolution)
 *   --res N            units per mm, when --range is absent (default 16)
 *   --slots N          multitouch slots                     (default 10)
 *   --no-create        do not create the device until a `create` command
 *
 * Script: one command per line, '#' starts a comment. Coordinates X Y are fractions 0..1 of the axis
 * range ("0.5"), raw device units with a 'u' suffix ("2048u") or millimetres with "mm" ("64mm").
 *   down SLOT X Y        contact begins in SLOT (new tracking id)     } queued; sent with the next
 *   move SLOT X Y        contact moves                                } `frame`, which also emits
 *   up SLOT              contact ends                                 } BTN_TOUCH / ABS_X / ABS_Y
 *   frame                SYN_REPORT: the kernel delivers the queued events as one frame
 *   sleep MS
 *   tap X Y [HOLD_MS]    down on slot 0, frame, hold (default 50 ms), up, frame
 *   drag X0 Y0 X1 Y1 STEPS MS    down, STEPS moves over MS milliseconds, up (slot 0, frames included)
 *   wait-for-device MS   wait until /dev/input/eventN exists and udev (if running) has processed it,
 *                        then print "READY /dev/input/eventN"
 *   wait-for-open MS     wait-for-device, then until another process opens the node; prints
 *                        "OPENED PID". Enough for a raw evdev reader, NOT for libinput: libinput drains
 *                        whatever is queued right after it opens a device (evdev_drain_fd), so wait for
 *                        the consumer's own sign instead (its DEVICE_ADDED, the kiosk's trace) and
 *                        signal that with wait-for-file
 *   wait-for-file PATH MS  wait until PATH exists (the host creates it in the job folder when ready)
 *   remove               destroy the device (mid-gesture if contacts are down)
 *   create               create it again (a new eventN)
 *   echo TEXT            print TEXT on stdout (the host uses it to know a streamed batch is done)
 * Errors go to stderr with the line number; exit status 0 when the script ran to its end.
 *
 * The coordinate mapping, for tests: unit = round(fraction * max); mm = unit / res. With the
 * defaults (max 4096x2560, 16 units/mm) fraction 0.5 is unit 2048, 128.00 mm.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/input.h>
#include <linux/uinput.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#define MAX_SLOTS 32

static const char *dev_name = "kioskvm touchscreen";
static unsigned vendor = 0x1d6b, product = 0x0104;   /* 1d6b: Linux Foundation ids, harmless */
static int size_mm[2] = {256, 160};
static int range_max[2] = {0, 0};                      /* 0: computed from size * res */
static int res_arg = 16;
static int res[2];
static int nslots = 10;

static int fd = -1;                 /* uinput fd while the device exists */
static char event_node[300];         /* /dev/input/eventN once known */
static int lineno;

struct slot { bool active; bool was_active; int x, y; int tracking_id; unsigned order; };
static struct slot slots[MAX_SLOTS];
static int cur_slot = -1;           /* ABS_MT_SLOT last sent */
static int next_tracking_id = 1;
static unsigned order_counter;
static bool btn_touch;

static void die(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    if (lineno) fprintf(stderr, "touchplay: line %d: ", lineno); else fprintf(stderr, "touchplay: ");
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

static void sleep_ms(double ms) {
    if (ms <= 0) return;
    struct timespec ts = {(time_t)(ms / 1000), (long)(fmod(ms, 1000.0) * 1e6)};
    while (nanosleep(&ts, &ts) == -1 && errno == EINTR) {}
}

static void emit(int type, int code, int value) {
    if (fd < 0) die("no device (removed? use `create`)");
    struct input_event ev = {0};
    ev.type = type;
    ev.code = code;
    ev.value = value;
    if (write(fd, &ev, sizeof ev) != sizeof ev) die("write to uinput: %s", strerror(errno));
}

static void abs_setup(int code, int max, int resolution) {
    struct uinput_abs_setup a = {0};
    a.code = code;
    a.absinfo.minimum = 0;
    a.absinfo.maximum = max;
    a.absinfo.resolution = resolution;
    if (ioctl(fd, UI_ABS_SETUP, &a) < 0) die("UI_ABS_SETUP %d: %s", code, strerror(errno));
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

static void create_device(void) {
    if (fd >= 0) die("device already exists");
    fd = open("/dev/uinput", O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) die("open /dev/uinput: %s", strerror(errno));
    ioctl(fd, UI_SET_EVBIT, EV_SYN);
    ioctl(fd, UI_SET_EVBIT, EV_KEY);
    ioctl(fd, UI_SET_KEYBIT, BTN_TOUCH);
    ioctl(fd, UI_SET_EVBIT, EV_ABS);
    ioctl(fd, UI_SET_PROPBIT, INPUT_PROP_DIRECT);   /* a touchscreen, not a touchpad */
    abs_setup(ABS_X, range_max[0], res[0]);
    abs_setup(ABS_Y, range_max[1], res[1]);
    abs_setup(ABS_MT_SLOT, nslots - 1, 0);
    abs_setup(ABS_MT_TRACKING_ID, 65535, 0);
    abs_setup(ABS_MT_POSITION_X, range_max[0], res[0]);
    abs_setup(ABS_MT_POSITION_Y, range_max[1], res[1]);
    struct uinput_setup us = {0};
    us.id.bustype = BUS_VIRTUAL;
    us.id.vendor = vendor;
    us.id.product = product;
    us.id.version = 1;
    snprintf(us.name, sizeof us.name, "%s", dev_name);
    if (ioctl(fd, UI_DEV_SETUP, &us) < 0) die("UI_DEV_SETUP: %s", strerror(errno));
    if (ioctl(fd, UI_DEV_CREATE) < 0) die("UI_DEV_CREATE: %s", strerror(errno));
    memset(slots, 0, sizeof slots);
    cur_slot = -1;
    btn_touch = false;
    find_event_node();
}

static void remove_device(void) {
    if (fd < 0) die("no device to remove");
    ioctl(fd, UI_DEV_DESTROY);
    close(fd);
    fd = -1;
}

/* Parse a coordinate: fraction, "NNNu" units or "NNmm". */
static int coord(const char *s, int axis) {
    if (!s) die("missing coordinate");
    char *end;
    double v = strtod(s, &end);
    if (end == s) die("bad coordinate '%s'", s);
    double units;
    if (!strcmp(end, "u")) units = v;
    else if (!strcmp(end, "mm")) units = v * res[axis];
    else if (!*end) {
        if (v < 0 || v > 1) die("fraction '%s' outside 0..1 (use a 'u' or 'mm' suffix for absolute values)", s);
        units = v * range_max[axis];
    } else die("bad coordinate suffix in '%s'", s);
    long u = lround(units);
    if (u < 0) u = 0;
    if (u > range_max[axis]) u = range_max[axis];
    return (int)u;
}

static int slot_arg(const char *s) {
    if (!s) die("missing slot");
    char *end;
    long n = strtol(s, &end, 10);
    if (*end || n < 0 || n >= nslots) die("bad slot '%s' (0..%d)", s, nslots - 1);
    return (int)n;
}

static void select_slot(int s) {
    if (cur_slot != s) { emit(EV_ABS, ABS_MT_SLOT, s); cur_slot = s; }
}

static void touch_down(int s, int x, int y) {
    if (slots[s].active) die("slot %d is already down", s);
    select_slot(s);
    slots[s].active = true;
    slots[s].tracking_id = next_tracking_id++ & 0xffff;
    slots[s].order = ++order_counter;
    slots[s].x = x;
    slots[s].y = y;
    emit(EV_ABS, ABS_MT_TRACKING_ID, slots[s].tracking_id);
    emit(EV_ABS, ABS_MT_POSITION_X, x);
    emit(EV_ABS, ABS_MT_POSITION_Y, y);
}

static void touch_move(int s, int x, int y) {
    if (!slots[s].active) die("slot %d is not down", s);
    select_slot(s);
    if (x != slots[s].x) emit(EV_ABS, ABS_MT_POSITION_X, x);
    if (y != slots[s].y) emit(EV_ABS, ABS_MT_POSITION_Y, y);
    slots[s].x = x;
    slots[s].y = y;
}

static void touch_up(int s) {
    if (!slots[s].active) die("slot %d is not down", s);
    select_slot(s);
    emit(EV_ABS, ABS_MT_TRACKING_ID, -1);
    slots[s].active = false;
}

/* End of a frame: single-touch emulation as the kernel's input_mt_report_pointer_emulation does it
 * (BTN_TOUCH while any contact is down, ABS_X/Y follow the oldest contact), then SYN_REPORT. */
static void frame(void) {
    int oldest = -1;
    for (int s = 0; s < nslots; s++)
        if (slots[s].active && (oldest < 0 || slots[s].order < slots[oldest].order)) oldest = s;
    bool touching = oldest >= 0;
    if (touching != btn_touch) { emit(EV_KEY, BTN_TOUCH, touching); btn_touch = touching; }
    if (touching) {
        emit(EV_ABS, ABS_X, slots[oldest].x);
        emit(EV_ABS, ABS_Y, slots[oldest].y);
    }
    emit(EV_SYN, SYN_REPORT, 0);
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
             * libudev listeners (libinput) get the "add" and see ID_INPUT_TOUCHSCREEN. */
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

static char *next_tok(char **save) { return strtok_r(NULL, " \t", save); }

static double num_arg(char *s, const char *what) {
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
    if (!strcmp(cmd, "down") || !strcmp(cmd, "move")) {
        int s = slot_arg(next_tok(&save));
        int x = coord(next_tok(&save), 0), y = coord(next_tok(&save), 1);
        if (cmd[0] == 'd') touch_down(s, x, y); else touch_move(s, x, y);
    } else if (!strcmp(cmd, "up")) {
        touch_up(slot_arg(next_tok(&save)));
    } else if (!strcmp(cmd, "frame")) {
        frame();
    } else if (!strcmp(cmd, "sleep")) {
        sleep_ms(num_arg(next_tok(&save), "milliseconds"));
    } else if (!strcmp(cmd, "tap")) {
        int x = coord(next_tok(&save), 0), y = coord(next_tok(&save), 1);
        char *hold = next_tok(&save);
        touch_down(0, x, y);
        frame();
        sleep_ms(hold ? num_arg(hold, "hold time") : 50);
        touch_up(0);
        frame();
    } else if (!strcmp(cmd, "drag")) {
        int x0 = coord(next_tok(&save), 0), y0 = coord(next_tok(&save), 1);
        int x1 = coord(next_tok(&save), 0), y1 = coord(next_tok(&save), 1);
        int steps = (int)num_arg(next_tok(&save), "steps");
        double ms = num_arg(next_tok(&save), "milliseconds");
        if (steps < 1) steps = 1;
        touch_down(0, x0, y0);
        frame();
        for (int i = 1; i <= steps; i++) {
            sleep_ms(ms / steps);
            touch_move(0, (int)lround(x0 + (double)(x1 - x0) * i / steps),
                          (int)lround(y0 + (double)(y1 - y0) * i / steps));
            frame();
        }
        touch_up(0);
        frame();
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
    } else {
        die("unknown command '%s'", cmd);
    }
}

static void usage(void) {
    fprintf(stderr, "usage: touchplay [--name NAME] [--id VVVV:PPPP] [--size WxH] [--range XxY] [--res N]"
                    " [--slots N] [--no-create] [SCRIPT|-]\n");
    exit(2);
}

int main(int argc, char **argv) {
    const char *script = "-";
    bool create = true;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--name") && v) { dev_name = v; i++; }
        else if (!strcmp(a, "--id") && v) { if (sscanf(v, "%x:%x", &vendor, &product) != 2) usage(); i++; }
        else if (!strcmp(a, "--size") && v) { if (sscanf(v, "%dx%d", &size_mm[0], &size_mm[1]) != 2) usage(); i++; }
        else if (!strcmp(a, "--range") && v) { if (sscanf(v, "%dx%d", &range_max[0], &range_max[1]) != 2) usage(); i++; }
        else if (!strcmp(a, "--res") && v) { res_arg = atoi(v); i++; }
        else if (!strcmp(a, "--slots") && v) { nslots = atoi(v); i++; }
        else if (!strcmp(a, "--no-create")) create = false;
        else if (a[0] == '-' && a[1]) usage();
        else script = a;
    }
    if (size_mm[0] <= 0 || size_mm[1] <= 0 || res_arg <= 0 || nslots < 1 || nslots > MAX_SLOTS) usage();
    for (int ax = 0; ax < 2; ax++) {
        if (range_max[ax] > 0) {
            /* libinput's size in mm is max / resolution: the nearest integer resolution to the size */
            res[ax] = (int)lround((double)range_max[ax] / size_mm[ax]);
            if (res[ax] < 1) res[ax] = 1;
        } else {
            res[ax] = res_arg;
            range_max[ax] = size_mm[ax] * res_arg;
        }
    }

    FILE *in = strcmp(script, "-") ? fopen(script, "r") : stdin;
    if (!in) die("open %s: %s", script, strerror(errno));
    if (create) create_device();
    fprintf(stderr, "touchplay: device \"%s\" %s range %dx%d res %dx%d units/mm\n", dev_name,
            fd >= 0 ? event_node : "(not created)", range_max[0], range_max[1], res[0], res[1]);

    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, in) >= 0) {
        lineno++;
        run_line(line);
    }
    free(line);
    if (fd >= 0) remove_device();
    return 0;
}
