/*
 * keyplay: create a uinput keyboard in the kioskvm guest and play a key script.
 *
 * The keyboard QEMU's -machine pc brings (i8042, "AT Translated Set 2 keyboard") can only be typed on
 * through QMP's input-send-event, which goes through QEMU's own keymaps; this plays evdev key codes
 * straight into a real kernel input device, as touchplay does for touch. It has every key of a 105-key
 * keyboard (codes 1..248), so udev tags it ID_INPUT_KEY=1 and ID_INPUT_KEYBOARD=1 (its input_id builtin
 * wants ESC, the digits and Q..D at least) and libinput gives it the keyboard capability. No EV_REP: the
 * kernel repeats nothing while a key is held.
 *
 * Usage: keyplay [options] [SCRIPT|-]          (no SCRIPT or "-": read commands from stdin as they come)
 *   --name NAME        device name                          (default "kioskvm keyboard")
 *   --id VVVV:PPPP     USB-style vendor:product, hex        (default 1d6b:0105)
 *   --delay MS         pause after each key event           (default 10)
 *   --no-create        do not create the device until a `create` command
 *
 * Script: one command per line, '#' starts a comment. A key NAME is the kernel's (`KEY_EQUAL`), or that
 * without `KEY_` in any case (`equal`, `a`, `1`, `f1`, `rightalt`), or one of `shift`, `ctrl`, `alt`,
 * `altgr`, `super`, `return`, `esc`, `del` (the left-hand key where there are two).
 *   key NAME[+NAME...]   press the keys in order, release them in reverse: `key a`, `key shift+g`
 *   down NAME / up NAME  press / release one key
 *   type TEXT            the rest of the line, US-ASCII letters, digits and spaces only, each as the key
 *                        at that place on a US keyboard (with shift for a capital): what it types depends
 *                        on the layout (`type y` types z on a German one)
 *   sleep MS, wait-for-device MS, wait-for-open MS, wait-for-file PATH MS, remove, create, echo TEXT:
 *                        as every uinput player (uinputplay.h)
 * Each key event is one evdev frame (the key, SYN_REPORT), then --delay: a burst written at once could
 * overrun the reader's evdev buffer (64 events) while the kiosk is busy, and libinput drops what a
 * SYN_DROPPED loses. Errors go to stderr with the line number; exit status 0 when the script ran to its
 * end.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <linux/input.h>
#include <linux/uinput.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>

#include "uinputplay.h"

/* The highest code created: KEY_MICMUTE, the last key below the BTN_* range a keyboard has no use for. */
#define LAST_KEY KEY_MICMUTE

static const char *dev_name = "kioskvm keyboard";
static unsigned vendor = 0x1d6b, product = 0x0105;   /* 1d6b: Linux Foundation ids, harmless */
static double delay_ms = 10;

const char *player = "keyplay";

/* The names scripts use: the kernel's (the codes come from its header), and a few short ones. */
#define K(name) {#name, KEY_##name}
static const struct { const char *name; int code; } keys[] = {
    K(ESC), K(1), K(2), K(3), K(4), K(5), K(6), K(7), K(8), K(9), K(0), K(MINUS), K(EQUAL), K(BACKSPACE),
    K(TAB), K(Q), K(W), K(E), K(R), K(T), K(Y), K(U), K(I), K(O), K(P), K(LEFTBRACE), K(RIGHTBRACE),
    K(ENTER), K(LEFTCTRL), K(A), K(S), K(D), K(F), K(G), K(H), K(J), K(K), K(L), K(SEMICOLON),
    K(APOSTROPHE), K(GRAVE), K(LEFTSHIFT), K(BACKSLASH), K(Z), K(X), K(C), K(V), K(B), K(N), K(M),
    K(COMMA), K(DOT), K(SLASH), K(RIGHTSHIFT), K(KPASTERISK), K(LEFTALT), K(SPACE), K(CAPSLOCK),
    K(F1), K(F2), K(F3), K(F4), K(F5), K(F6), K(F7), K(F8), K(F9), K(F10), K(NUMLOCK), K(SCROLLLOCK),
    K(KP7), K(KP8), K(KP9), K(KPMINUS), K(KP4), K(KP5), K(KP6), K(KPPLUS), K(KP1), K(KP2), K(KP3), K(KP0),
    K(KPDOT), K(102ND), K(F11), K(F12), K(KPENTER), K(RIGHTCTRL), K(KPSLASH), K(SYSRQ), K(RIGHTALT),
    K(HOME), K(UP), K(PAGEUP), K(LEFT), K(RIGHT), K(END), K(DOWN), K(PAGEDOWN), K(INSERT), K(DELETE),
    K(PAUSE), K(LEFTMETA), K(RIGHTMETA), K(COMPOSE),
    {"shift", KEY_LEFTSHIFT}, {"ctrl", KEY_LEFTCTRL}, {"alt", KEY_LEFTALT}, {"altgr", KEY_RIGHTALT},
    {"super", KEY_LEFTMETA}, {"return", KEY_ENTER}, {"esc", KEY_ESC}, {"del", KEY_DELETE},
};

static int key_code(const char *name) {
    if (!name || !*name) die("missing key name");
    const char *bare = strncasecmp(name, "KEY_", 4) ? name : name + 4;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (!strcasecmp(bare, keys[i].name)) return keys[i].code;
    die("unknown key '%s'", name);
}

void create_device(void) {
    open_uinput();
    ioctl(fd, UI_SET_EVBIT, EV_SYN);
    ioctl(fd, UI_SET_EVBIT, EV_KEY);
    for (int code = KEY_ESC; code <= LAST_KEY; code++) ioctl(fd, UI_SET_KEYBIT, code);
    setup_and_create(dev_name, vendor, product);
}

static void key_event(int code, bool pressed) {
    emit(EV_KEY, code, pressed);
    emit(EV_SYN, SYN_REPORT, 0);
    sleep_ms(delay_ms);
}

/* `key a+b+c`: a, b, c down in order, then up in reverse. */
static void chord(char *names) {
    int codes[8], n = 0;
    char *save;
    for (char *name = strtok_r(names, "+", &save); name; name = strtok_r(NULL, "+", &save)) {
        if (n == (int)(sizeof codes / sizeof codes[0])) die("more than 8 keys at once");
        codes[n++] = key_code(name);
    }
    if (!n) die("missing key name");
    for (int i = 0; i < n; i++) key_event(codes[i], true);
    for (int i = n - 1; i >= 0; i--) key_event(codes[i], false);
}

static void type(const char *text) {
    /* All checked first: a script error types nothing. */
    for (const char *c = text; *c; c++)
        if (*c != ' ' && !(isascii((unsigned char)*c) && isalnum((unsigned char)*c)))
            die("type: '%c' is no US-ASCII letter, digit or space (use key NAME)", *c);
    for (const char *c = text; *c; c++) {
        unsigned char ch = (unsigned char)*c;
        char name[2] = {(char)tolower(ch), 0};
        int code = ch == ' ' ? KEY_SPACE : key_code(name);
        if (isupper(ch)) key_event(KEY_LEFTSHIFT, true);
        key_event(code, true);
        key_event(code, false);
        if (isupper(ch)) key_event(KEY_LEFTSHIFT, false);
    }
}

bool run_command(const char *cmd, char **save) {
    if (!strcmp(cmd, "key")) {
        chord(next_tok(save));
    } else if (!strcmp(cmd, "down") || !strcmp(cmd, "up")) {
        key_event(key_code(next_tok(save)), cmd[0] == 'd');
    } else if (!strcmp(cmd, "type")) {
        type(*save ? *save : "");
    } else {
        return false;
    }
    return true;
}

static void usage(void) {
    fprintf(stderr, "usage: keyplay [--name NAME] [--id VVVV:PPPP] [--delay MS] [--no-create] [SCRIPT|-]\n");
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
        else if (!strcmp(a, "--delay") && v) { delay_ms = atof(v); i++; }
        else if (!strcmp(a, "--no-create")) create = false;
        else if (a[0] == '-' && a[1]) usage();
        else script = a;
    }
    if (delay_ms < 0) usage();

    FILE *in = strcmp(script, "-") ? fopen(script, "r") : stdin;
    if (!in) die("open %s: %s", script, strerror(errno));
    if (create) create_device();
    fprintf(stderr, "keyplay: device \"%s\" %s\n", dev_name, fd >= 0 ? event_node : "(not created)");
    run_script(in);
    if (fd >= 0) remove_device();
    return 0;
}
