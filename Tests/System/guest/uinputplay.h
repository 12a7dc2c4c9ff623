/*
 * uinputplay: what the kioskvm guest's uinput players (touchplay, keyplay) share: the device's uinput fd
 * and event node, writing events, waiting for udev and for the host, and the script loop with the
 * commands every player has.
 *
 * Commands every player runs (one per line, '#' starts a comment):
 *   sleep MS
 *   wait-for-device MS   wait until /dev/input/eventN exists and udev (if running) has processed it,
 *                        then print "READY /dev/input/eventN"
 *   wait-for-open MS     wait-for-device, then until another process opens the node; prints
 *                        "OPENED PID". Enough for a raw evdev reader, NOT for libinput: libinput drains
 *                        whatever is queued right after it opens a device (evdev_drain_fd), so wait for
 *                        the consumer's own sign instead (its DEVICE_ADDED, the kiosk's trace) and
 *                        signal that with wait-for-file
 *   wait-for-file PATH MS  wait until PATH exists (the host creates it in the job folder when ready)
 *   remove               destroy the device
 *   create               create it again (a new eventN)
 *   echo TEXT            print TEXT on stdout (the host uses it to know a streamed batch is done)
 * Errors go to stderr with the line number; exit status 1.
 */
#ifndef KIOSKVM_UINPUTPLAY_H
#define KIOSKVM_UINPUTPLAY_H

#include <stdbool.h>
#include <stdio.h>

/* The player's name, for messages ("touchplay"). */
extern const char *player;
/* The uinput fd while the device exists, else -1. */
extern int fd;
/* /dev/input/eventN once the device exists. */
extern char event_node[300];
/* The script line being run, for messages (0 before the script). */
extern int lineno;

/* Each player defines these: create its device (open /dev/uinput, set it up, UI_DEV_CREATE, then
 * find_event_node), and run a command of its own, returning false for one it does not know. `save` is
 * strtok_r's state after the command word: next_tok(save) gives the arguments, *save the rest of the line. */
void create_device(void);
bool run_command(const char *cmd, char **save);

__attribute__((noreturn, format(printf, 1, 2))) void die(const char *fmt, ...);
void sleep_ms(double ms);
/* One input_event; dies if the device does not exist. */
void emit(int type, int code, int value);
/* Opens /dev/uinput into fd; dies if the device exists already. */
void open_uinput(void);
/* UI_DEV_SETUP with a BUS_VIRTUAL id and `name`, UI_DEV_CREATE, then waits for its event node. */
void setup_and_create(const char *name, unsigned vendor, unsigned product);
void remove_device(void);
char *next_tok(char **save);
/* A non-negative number argument named `what` for messages. */
double num_arg(char *s, const char *what);
/* Runs the script from `in` line by line: the commands above, else run_command's. */
void run_script(FILE *in);

#endif
