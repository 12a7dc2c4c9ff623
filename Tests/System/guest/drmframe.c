/*
 * drmframe: put one known frame on a DRM connector (legacy KMS API, dumb buffer), or list connectors.
 *
 * The system tests compare the host's QMP screendump of the head with the same pattern computed in
 * Python (kioskvm/drm.py: frame_pattern), pixel for pixel, so the pattern must stay in sync with it.
 *
 * Usage:
 *   drmframe [--device /dev/dri/card0] [--connector NAME] [--mode WxH] [--fill RRGGBB]
 *       Uses the named connector (e.g. Virtual-1), or the first connected one; its preferred mode, or
 *       the given size; fills an XRGB8888 dumb buffer with the pattern (or a solid colour), sets the
 *       CRTC, prints "READY WxH CONNECTOR" and holds the frame until stdin closes (EOF) or SIGTERM /
 *       SIGINT arrives, then exits 0.
 *   drmframe --list [--device PATH]
 *       One line per connector, after a real re-probe (drmModeGetConnector; sysfs status is stale after
 *       a host-driven hotplug until something probes, see shared/vm/README.md):
 *         NAME STATUS id=N modes=WxH*,WxH,...        (* marks the preferred mode; "modes=" if none)
 *   drmframe --crtcs [--device PATH]
 *       One line per connector with a CRTC: "NAME crtc=N active=0|1 mode=WxH": the CRTC's atomic ACTIVE
 *       property (what display power sets; read as any client may, without being DRM master).
 *
 * The pattern is framepattern.h's frame_pattern.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#include "framepattern.h"

static volatile sig_atomic_t stop;
static void on_signal(int sig) { (void)sig; stop = 1; }

static void die(const char *what) {
    fprintf(stderr, "drmframe: %s: %s\n", what, strerror(errno));
    exit(1);
}

static void conn_name(drmModeConnector *c, char *buf, size_t len) {
    const char *type = drmModeGetConnectorTypeName(c->connector_type);
    snprintf(buf, len, "%s-%u", type ? type : "Unknown", c->connector_type_id);
}

static int list(int fd, drmModeRes *res) {
    for (int i = 0; i < res->count_connectors; i++) {
        drmModeConnector *c = drmModeGetConnector(fd, res->connectors[i]);   /* probes */
        if (!c) continue;
        char name[64];
        conn_name(c, name, sizeof name);
        const char *status = c->connection == DRM_MODE_CONNECTED ? "connected"
                           : c->connection == DRM_MODE_DISCONNECTED ? "disconnected" : "unknown";
        printf("%s %s id=%u modes=", name, status, c->connector_id);
        for (int m = 0; m < c->count_modes; m++)
            printf("%s%ux%u%s", m ? "," : "", c->modes[m].hdisplay, c->modes[m].vdisplay,
                   c->modes[m].type & DRM_MODE_TYPE_PREFERRED ? "*" : "");
        printf("\n");
        drmModeFreeConnector(c);
    }
    return 0;
}

static int crtcs(int fd, drmModeRes *res) {
    drmSetClientCap(fd, DRM_CLIENT_CAP_ATOMIC, 1);
    for (int i = 0; i < res->count_connectors; i++) {
        drmModeConnector *c = drmModeGetConnector(fd, res->connectors[i]);
        if (!c) continue;
        char name[64];
        conn_name(c, name, sizeof name);
        drmModeEncoder *e = c->encoder_id ? drmModeGetEncoder(fd, c->encoder_id) : NULL;
        uint32_t crtc_id = e ? e->crtc_id : 0;
        drmModeFreeEncoder(e);
        if (crtc_id) {
            long active = -1;
            drmModeObjectProperties *props = drmModeObjectGetProperties(fd, crtc_id, DRM_MODE_OBJECT_CRTC);
            for (uint32_t p = 0; props && p < props->count_props; p++) {
                drmModePropertyRes *prop = drmModeGetProperty(fd, props->props[p]);
                if (prop && !strcmp(prop->name, "ACTIVE")) active = (long)props->prop_values[p];
                drmModeFreeProperty(prop);
            }
            drmModeFreeObjectProperties(props);
            drmModeCrtc *crtc = drmModeGetCrtc(fd, crtc_id);
            printf("%s crtc=%u active=%ld mode=%ux%u\n", name, crtc_id, active,
                   crtc && crtc->mode_valid ? crtc->mode.hdisplay : 0, crtc && crtc->mode_valid ? crtc->mode.vdisplay : 0);
            drmModeFreeCrtc(crtc);
        }
        drmModeFreeConnector(c);
    }
    return 0;
}

/* A CRTC for the connector: its encoder's current one, else any its encoders can drive. */
static uint32_t pick_crtc(int fd, drmModeRes *res, drmModeConnector *c) {
    if (c->encoder_id) {
        drmModeEncoder *e = drmModeGetEncoder(fd, c->encoder_id);
        if (e && e->crtc_id) { uint32_t id = e->crtc_id; drmModeFreeEncoder(e); return id; }
        drmModeFreeEncoder(e);
    }
    for (int i = 0; i < c->count_encoders; i++) {
        drmModeEncoder *e = drmModeGetEncoder(fd, c->encoders[i]);
        if (!e) continue;
        for (int j = 0; j < res->count_crtcs; j++)
            if (e->possible_crtcs & (1u << j)) { drmModeFreeEncoder(e); return res->crtcs[j]; }
        drmModeFreeEncoder(e);
    }
    return 0;
}

int main(int argc, char **argv) {
    const char *device = "/dev/dri/card0", *want_conn = NULL;
    unsigned want_w = 0, want_h = 0;
    long fill = -1;
    bool do_list = false, do_crtcs = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--device") && v) { device = v; i++; }
        else if (!strcmp(a, "--connector") && v) { want_conn = v; i++; }
        else if (!strcmp(a, "--mode") && v) { if (sscanf(v, "%ux%u", &want_w, &want_h) != 2) goto usage; i++; }
        else if (!strcmp(a, "--fill") && v) { fill = strtol(v, NULL, 16); i++; }
        else if (!strcmp(a, "--list")) do_list = true;
        else if (!strcmp(a, "--crtcs")) do_crtcs = true;
        else goto usage;
    }

    int fd = open(device, O_RDWR | O_CLOEXEC);
    if (fd < 0) die(device);
    drmModeRes *res = drmModeGetResources(fd);
    if (!res) die("drmModeGetResources");
    if (do_list) return list(fd, res);
    if (do_crtcs) return crtcs(fd, res);

    drmModeConnector *conn = NULL;
    char name[64] = "";
    for (int i = 0; i < res->count_connectors && !conn; i++) {
        drmModeConnector *c = drmModeGetConnector(fd, res->connectors[i]);
        if (!c) continue;
        conn_name(c, name, sizeof name);
        bool ok = want_conn ? !strcmp(name, want_conn)
                            : c->connection == DRM_MODE_CONNECTED && c->count_modes > 0;
        if (ok) conn = c; else drmModeFreeConnector(c);
    }
    if (!conn) { fprintf(stderr, "drmframe: no %s connector\n", want_conn ? want_conn : "connected"); return 1; }
    if (conn->count_modes == 0) { fprintf(stderr, "drmframe: %s has no modes\n", name); return 1; }

    drmModeModeInfo *mode = NULL;
    for (int m = 0; m < conn->count_modes; m++) {
        drmModeModeInfo *mi = &conn->modes[m];
        if (want_w ? (mi->hdisplay == want_w && mi->vdisplay == want_h) : (mi->type & DRM_MODE_TYPE_PREFERRED)) {
            mode = mi;
            break;
        }
    }
    if (!mode && want_w) { fprintf(stderr, "drmframe: %s has no %ux%u mode\n", name, want_w, want_h); return 1; }
    if (!mode) mode = &conn->modes[0];
    uint32_t w = mode->hdisplay, h = mode->vdisplay;

    uint32_t crtc = pick_crtc(fd, res, conn);
    if (!crtc) { fprintf(stderr, "drmframe: no CRTC for %s\n", name); return 1; }

    struct drm_mode_create_dumb create = {.width = w, .height = h, .bpp = 32};
    if (drmIoctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &create) < 0) die("CREATE_DUMB");
    uint32_t fb;
    if (drmModeAddFB(fd, w, h, 24, 32, create.pitch, create.handle, &fb) < 0) die("drmModeAddFB");
    struct drm_mode_map_dumb map = {.handle = create.handle};
    if (drmIoctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &map) < 0) die("MAP_DUMB");
    uint8_t *px = mmap(NULL, create.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, map.offset);
    if (px == MAP_FAILED) die("mmap");
    for (uint32_t y = 0; y < h; y++) {
        uint32_t *row = (uint32_t *)(px + (size_t)y * create.pitch);
        for (uint32_t x = 0; x < w; x++) row[x] = fill >= 0 ? (uint32_t)fill : frame_pattern(x, y, w, h);
    }

    if (drmModeSetCrtc(fd, crtc, fb, 0, 0, &conn->connector_id, 1, mode) < 0) die("drmModeSetCrtc");
    /* virtio-gpu updates the host's view on a resource flush; SetCrtc flushes, DirtyFB makes sure. */
    drmModeDirtyFB(fd, fb, NULL, 0);
    printf("READY %ux%u %s\n", w, h, name);
    fflush(stdout);

    struct sigaction sa = {.sa_handler = on_signal};
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    /* Hold until stdin reaches EOF (the test closes it) or a signal. */
    char buf[256];
    while (!stop) {
        struct pollfd p = {.fd = 0, .events = POLLIN};
        int n = poll(&p, 1, -1);
        if (n < 0) { if (errno == EINTR) continue; break; }
        if (p.revents & (POLLIN | POLLHUP)) {
            ssize_t r = read(0, buf, sizeof buf);
            if (r <= 0) break;
        } else if (p.revents) break;
    }
    drmModeRmFB(fd, fb);
    printf("DONE\n");
    return 0;

usage:
    fprintf(stderr, "usage: drmframe [--device PATH] [--connector NAME] [--mode WxH] [--fill RRGGBB] | --list | --crtcs\n");
    return 2;
}
