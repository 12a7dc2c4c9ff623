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
 *   wait-for-device MS, wait-for-open MS, wait-for-file PATH MS, remove, create, echo TEXT: as every
 *                        uinput player (uinputplay.h); `remove` mid-gesture if contacts are down
 * Errors go to stderr with the line number; exit status 0 when the script ran to its end.
 *
 * The coordinate mapping, for tests: unit = round(fraction * max); mm = unit / res. With the
 * defaults (max 4096x2560, 16 units/mm) fraction 0.5 is unit 2048, 128.00 mm.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/input.h>
#include <linux/uinput.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "uinputplay.h"

#define MAX_SLOTS 32

static const char *dev_name = "kioskvm touchscreen";
static unsigned vendor = 0x1d6b, product = 0x0104;   /* 1d6b: Linux Foundation ids, harmless */
static int size_mm[2] = {256, 160};
static int range_max[2] = {0, 0};                      /* 0: computed from size * res */
static int res_arg = 16;
static int res[2];
static int nslots = 10;

const char *player = "touchplay";

struct slot { bool active; bool was_active; int x, y; int tracking_id; unsigned order; };
static struct slot slots[MAX_SLOTS];
static int cur_slot = -1;           /* ABS_MT_SLOT last sent */
static int next_tracking_id = 1;
static unsigned order_counter;
static bool btn_touch;

static void abs_setup(int code, int max, int resolution) {
    struct uinput_abs_setup a = {0};
    a.code = code;
    a.absinfo.minimum = 0;
    a.absinfo.maximum = max;
    a.absinfo.resolution = resolution;
    if (ioctl(fd, UI_ABS_SETUP, &a) < 0) die("UI_ABS_SETUP %d: %s", code, strerror(errno));
}

void create_device(void) {
    open_uinput();
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
    memset(slots, 0, sizeof slots);
    cur_slot = -1;
    btn_touch = false;
    setup_and_create(dev_name, vendor, product);
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

bool run_command(const char *cmd, char **save) {
    if (!strcmp(cmd, "down") || !strcmp(cmd, "move")) {
        int s = slot_arg(next_tok(save));
        int x = coord(next_tok(save), 0), y = coord(next_tok(save), 1);
        if (cmd[0] == 'd') touch_down(s, x, y); else touch_move(s, x, y);
    } else if (!strcmp(cmd, "up")) {
        touch_up(slot_arg(next_tok(save)));
    } else if (!strcmp(cmd, "frame")) {
        frame();
    } else if (!strcmp(cmd, "tap")) {
        int x = coord(next_tok(save), 0), y = coord(next_tok(save), 1);
        char *hold = next_tok(save);
        touch_down(0, x, y);
        frame();
        sleep_ms(hold ? num_arg(hold, "hold time") : 50);
        touch_up(0);
        frame();
    } else if (!strcmp(cmd, "drag")) {
        int x0 = coord(next_tok(save), 0), y0 = coord(next_tok(save), 1);
        int x1 = coord(next_tok(save), 0), y1 = coord(next_tok(save), 1);
        int steps = (int)num_arg(next_tok(save), "steps");
        double ms = num_arg(next_tok(save), "milliseconds");
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
    } else {
        return false;
    }
    return true;
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

    run_script(in);
    if (fd >= 0) remove_device();
    return 0;
}
