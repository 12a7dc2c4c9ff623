/*
 * drmplanes: compose a known frame from a CRTC's planes (the primary, an overlay, the cursor) and read the
 * composed frame back through the card's writeback connector; or list the card's planes and connectors as
 * JSON. Made for vkms (scenario vkms), which has all of them; any atomic driver with planes and a writeback
 * connector works the same. The frames are framepattern.h's, which the tests compute again in Python.
 *
 * Usage:
 *   drmplanes --list [--device PATH]
 *       JSON on stdout: the device, its driver, each CRTC (id, index, active, mode), each connector (id,
 *       name, status, writeback or not, the preferred mode; a writeback connector's WRITEBACK_PIXEL_FORMATS)
 *       and each plane (id, type, possible_crtcs, formats, CRTC_ID, FB_ID, CRTC_X/Y/W/H, and zpos, rotation,
 *       pixel blend mode and alpha where the plane has those properties, null where not). Needs no DRM master.
 *   drmplanes [--device PATH] [--mode WxH] [--with-display] [--no-overlay] [--overlay X,Y,WxH] [--no-cursor]
 *             [--cursor X,Y,WxH] [--capture FILE] [--timeout MS]
 *       As DRM master (atomic, universal planes, writeback connectors), one atomic modeset lights the CRTC in
 *       the preferred mode of the first connected connector that is not a writeback one (the display; or
 *       WxH of its modes): the primary plane shows frame_pattern full screen (XRGB8888); an overlay plane (the
 *       first of the CRTC's with ARGB8888) and the cursor plane show plane_pattern (ARGB8888, premultiplied)
 *       at CRTC_X,Y in their size (no scaling), unless --no-overlay / --no-cursor. The CRTC drives the
 *       writeback connector alone (the display's CRTC_ID is set to 0): vkms of Linux 6.1 refuses the display
 *       and the writeback connector on one CRTC (its two encoders are not each other's possible_clones, and
 *       drm_atomic_check_valid_clones fails the commit with EINVAL). --with-display drives both (for a
 *       driver that allows it); a card without a writeback connector drives the display alone. --capture
 *       attaches a framebuffer to the writeback connector in that commit (WRITEBACK_FB_ID,
 *       WRITEBACK_OUT_FENCE_PTR), waits for the out-fence (--timeout, 10000 ms) and writes the read-back
 *       pixels (XRGB8888) to FILE as a binary PPM.
 *       Prints "READY WxH CONNECTOR[+CONNECTOR] crtc=ID primary=ID overlay=ID|0 cursor=ID|0 writeback=ID|0"
 *       (the connectors driven; "CAPTURED FILE" after it with --capture), then runs commands from stdin, one
 *       a line, each one atomic commit (no modeset) answered on stdout, until EOF or SIGTERM (exit 0):
 *         cursor X Y      the cursor plane's CRTC_X/Y          -> "MOVED cursor X Y"
 *         overlay X Y     the overlay plane's CRTC_X/Y         -> "MOVED overlay X Y"
 *         capture FILE    a writeback job on the planes as they are -> "CAPTURED FILE"
 *       Positions may be negative or reach past the mode: the kernel clips the plane.
 *
 * Defaults: --device is the first /dev/dri/cardN whose driver is vkms; the overlay 320x200 at 96,128; the
 * cursor 64x64 at 352,288 (over the overlay's right edge, so the cursor is blended over overlay over
 * primary). The writeback buffer is filled with 0x123456 before each capture: a pixel the driver did not
 * write reads back as that.
 *
 * Errors name the call (the ioctl) and errno on stderr, exit status 1; a bad command line or command 2.
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
#include <time.h>
#include <unistd.h>
#include <drm_fourcc.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#include "framepattern.h"

#define WRITEBACK_SENTINEL 0x00123456u

static void fail(const char *call, int err) {
    fprintf(stderr, "drmplanes: %s: %s (errno %d)\n", call, strerror(err), err);
    exit(1);
}

static void usage_error(const char *why) {
    fprintf(stderr, "drmplanes: %s\n"
            "usage: drmplanes --list [--device PATH]\n"
            "       drmplanes [--device PATH] [--mode WxH] [--no-overlay] [--overlay X,Y,WxH] [--no-cursor]\n"
            "                 [--cursor X,Y,WxH] [--capture FILE] [--timeout MS]\n", why);
    exit(2);
}

/* ------------------------------------------------------------------------------------- properties */

/* The value of object `id`'s property `name`, and its id (0: the object has no such property). */
static uint32_t prop(int fd, uint32_t id, uint32_t type, const char *name, uint64_t *value) {
    drmModeObjectProperties *props = drmModeObjectGetProperties(fd, id, type);
    if (!props) fail("DRM_IOCTL_MODE_OBJ_GETPROPERTIES", errno);
    uint32_t found = 0;
    for (uint32_t i = 0; i < props->count_props && !found; i++) {
        drmModePropertyRes *p = drmModeGetProperty(fd, props->props[i]);
        if (!p) fail("DRM_IOCTL_MODE_GETPROPERTY", errno);
        if (!strcmp(p->name, name)) {
            found = p->prop_id;
            if (value) *value = props->prop_values[i];
        }
        drmModeFreeProperty(p);
    }
    drmModeFreeObjectProperties(props);
    return found;
}

static uint32_t need_prop(int fd, uint32_t id, uint32_t type, const char *name) {
    uint32_t p = prop(fd, id, type, name, NULL);
    if (!p) {
        fprintf(stderr, "drmplanes: object %u has no property %s\n", id, name);
        exit(1);
    }
    return p;
}

/* ---------------------------------------------------------------------------------------- listing */

static void json_string(const char *s) {
    putchar('"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') printf("\\%c", *s);
        else if ((unsigned char)*s < 0x20) printf("\\u%04x", *s);
        else putchar(*s);
    }
    putchar('"');
}

/* A format by its DRM_FORMAT_ name (as drm_info and the kernel's documentation write it), else its fourcc
 * code as libdrm writes it ("NV12"). */
static void json_format(uint32_t format) {
    static const struct { uint32_t format; const char *name; } names[] = {
        {DRM_FORMAT_XRGB8888, "XRGB8888"}, {DRM_FORMAT_ARGB8888, "ARGB8888"}, {DRM_FORMAT_XBGR8888, "XBGR8888"},
        {DRM_FORMAT_ABGR8888, "ABGR8888"}, {DRM_FORMAT_RGBX8888, "RGBX8888"}, {DRM_FORMAT_RGBA8888, "RGBA8888"},
        {DRM_FORMAT_BGRX8888, "BGRX8888"}, {DRM_FORMAT_BGRA8888, "BGRA8888"}, {DRM_FORMAT_RGB565, "RGB565"},
        {DRM_FORMAT_RGB888, "RGB888"}, {DRM_FORMAT_XRGB2101010, "XRGB2101010"},
        {DRM_FORMAT_ARGB2101010, "ARGB2101010"}, {DRM_FORMAT_XRGB16161616, "XRGB16161616"},
        {DRM_FORMAT_ARGB16161616, "ARGB16161616"},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].format == format) { json_string(names[i].name); return; }
    char *name = drmGetFormatName(format);
    json_string(name ? name : "?");
    free(name);
}

static const char *plane_type_name(uint64_t type) {
    return type == DRM_PLANE_TYPE_PRIMARY ? "primary" : type == DRM_PLANE_TYPE_CURSOR ? "cursor"
         : type == DRM_PLANE_TYPE_OVERLAY ? "overlay" : "unknown";
}

/* A plane's optional property as JSON: null when absent; a range's value with min and max; an enum's or a
 * bitmask's value(s) by name with the names offered. */
static void json_optional_prop(int fd, drmModeObjectProperties *props, const char *name) {
    for (uint32_t i = 0; i < props->count_props; i++) {
        drmModePropertyRes *p = drmModeGetProperty(fd, props->props[i]);
        if (!p) fail("DRM_IOCTL_MODE_GETPROPERTY", errno);
        if (strcmp(p->name, name)) { drmModeFreeProperty(p); continue; }
        uint64_t v = props->prop_values[i];
        bool immutable = p->flags & DRM_MODE_PROP_IMMUTABLE;
        if (drm_property_type_is(p, DRM_MODE_PROP_RANGE) || drm_property_type_is(p, DRM_MODE_PROP_SIGNED_RANGE)) {
            bool s = drm_property_type_is(p, DRM_MODE_PROP_SIGNED_RANGE);
            if (s) printf("{\"value\": %lld, \"min\": %lld, \"max\": %lld", (long long)v,
                          (long long)(p->count_values > 0 ? p->values[0] : 0),
                          (long long)(p->count_values > 1 ? p->values[1] : 0));
            else printf("{\"value\": %llu, \"min\": %llu, \"max\": %llu", (unsigned long long)v,
                        (unsigned long long)(p->count_values > 0 ? p->values[0] : 0),
                        (unsigned long long)(p->count_values > 1 ? p->values[1] : 0));
            printf(", \"immutable\": %s}", immutable ? "true" : "false");
        } else if (drm_property_type_is(p, DRM_MODE_PROP_ENUM) || drm_property_type_is(p, DRM_MODE_PROP_BITMASK)) {
            bool bitmask = drm_property_type_is(p, DRM_MODE_PROP_BITMASK);
            printf("{\"value\": ");
            if (bitmask) printf("[");
            bool first = true;
            for (int e = 0; e < p->count_enums; e++) {
                bool set = bitmask ? (v >> p->enums[e].value) & 1 : v == p->enums[e].value;
                if (!set) continue;
                if (!first) printf(", ");
                json_string(p->enums[e].name);
                first = false;
            }
            if (bitmask) printf("]");
            else if (first) printf("null");
            printf(", \"supported\": [");
            for (int e = 0; e < p->count_enums; e++) {
                if (e) printf(", ");
                json_string(p->enums[e].name);
            }
            printf("], \"immutable\": %s}", immutable ? "true" : "false");
        } else {
            printf("{\"value\": %llu}", (unsigned long long)v);
        }
        drmModeFreeProperty(p);
        return;
    }
    printf("null");
}

static uint64_t value_of(int fd, drmModeObjectProperties *props, const char *name) {
    for (uint32_t i = 0; i < props->count_props; i++) {
        drmModePropertyRes *p = drmModeGetProperty(fd, props->props[i]);
        if (!p) fail("DRM_IOCTL_MODE_GETPROPERTY", errno);
        bool match = !strcmp(p->name, name);
        drmModeFreeProperty(p);
        if (match) return props->prop_values[i];
    }
    return 0;
}

static void conn_name(drmModeConnector *c, char *buf, size_t len) {
    const char *type = drmModeGetConnectorTypeName(c->connector_type);
    snprintf(buf, len, "%s-%u", type ? type : "Unknown", c->connector_type_id);
}

static int list(int fd, const char *device) {
    drmVersion *version = drmGetVersion(fd);
    if (!version) fail("DRM_IOCTL_VERSION", errno);
    drmModeRes *res = drmModeGetResources(fd);
    if (!res) fail("DRM_IOCTL_MODE_GETRESOURCES", errno);
    printf("{\"device\": ");
    json_string(device);
    printf(", \"driver\": ");
    json_string(version->name);
    drmFreeVersion(version);

    printf(", \"crtcs\": [");
    for (int i = 0; i < res->count_crtcs; i++) {
        drmModeCrtc *crtc = drmModeGetCrtc(fd, res->crtcs[i]);
        if (!crtc) fail("DRM_IOCTL_MODE_GETCRTC", errno);
        uint64_t active = 0;
        prop(fd, crtc->crtc_id, DRM_MODE_OBJECT_CRTC, "ACTIVE", &active);
        printf("%s{\"id\": %u, \"index\": %d, \"active\": %s, \"mode\": ", i ? ", " : "", crtc->crtc_id, i,
               active ? "true" : "false");
        if (crtc->mode_valid) printf("\"%ux%u\"}", crtc->mode.hdisplay, crtc->mode.vdisplay);
        else printf("null}");
        drmModeFreeCrtc(crtc);
    }

    printf("], \"connectors\": [");
    for (int i = 0; i < res->count_connectors; i++) {
        drmModeConnector *c = drmModeGetConnector(fd, res->connectors[i]);   /* probes */
        if (!c) fail("DRM_IOCTL_MODE_GETCONNECTOR", errno);
        char name[64];
        conn_name(c, name, sizeof name);
        bool writeback = c->connector_type == DRM_MODE_CONNECTOR_WRITEBACK;
        const char *status = c->connection == DRM_MODE_CONNECTED ? "connected"
                           : c->connection == DRM_MODE_DISCONNECTED ? "disconnected" : "unknown";
        uint64_t crtc_id = 0;
        prop(fd, c->connector_id, DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID", &crtc_id);
        printf("%s{\"id\": %u, \"name\": ", i ? ", " : "", c->connector_id);
        json_string(name);
        printf(", \"status\": \"%s\", \"writeback\": %s, \"crtc_id\": %llu, \"preferred\": ", status,
               writeback ? "true" : "false", (unsigned long long)crtc_id);
        int preferred = -1;
        for (int m = 0; m < c->count_modes && preferred < 0; m++)
            if (c->modes[m].type & DRM_MODE_TYPE_PREFERRED) preferred = m;
        if (preferred >= 0) printf("\"%ux%u\"", c->modes[preferred].hdisplay, c->modes[preferred].vdisplay);
        else printf("null");
        printf(", \"modes\": %d", c->count_modes);
        if (writeback) {
            uint64_t blob_id = 0;
            printf(", \"formats\": [");
            if (prop(fd, c->connector_id, DRM_MODE_OBJECT_CONNECTOR, "WRITEBACK_PIXEL_FORMATS", &blob_id) && blob_id) {
                drmModePropertyBlobRes *blob = drmModeGetPropertyBlob(fd, (uint32_t)blob_id);
                if (!blob) fail("DRM_IOCTL_MODE_GETPROPBLOB", errno);
                const uint32_t *formats = blob->data;
                for (uint32_t f = 0; f < blob->length / 4; f++) {
                    if (f) printf(", ");
                    json_format(formats[f]);
                }
                drmModeFreePropertyBlob(blob);
            }
            printf("]");
        }
        printf("}");
        drmModeFreeConnector(c);
    }

    printf("], \"planes\": [");
    drmModePlaneRes *planes = drmModeGetPlaneResources(fd);
    if (!planes) fail("DRM_IOCTL_MODE_GETPLANERESOURCES", errno);
    for (uint32_t i = 0; i < planes->count_planes; i++) {
        drmModePlane *p = drmModeGetPlane(fd, planes->planes[i]);
        if (!p) fail("DRM_IOCTL_MODE_GETPLANE", errno);
        drmModeObjectProperties *props = drmModeObjectGetProperties(fd, p->plane_id, DRM_MODE_OBJECT_PLANE);
        if (!props) fail("DRM_IOCTL_MODE_OBJ_GETPROPERTIES", errno);
        printf("%s{\"id\": %u, \"type\": \"%s\", \"possible_crtcs\": %u, \"formats\": [", i ? ", " : "", p->plane_id,
               plane_type_name(value_of(fd, props, "type")), p->possible_crtcs);
        for (uint32_t f = 0; f < p->count_formats; f++) {
            if (f) printf(", ");
            json_format(p->formats[f]);
        }
        printf("], \"crtc_id\": %llu, \"fb_id\": %llu", (unsigned long long)value_of(fd, props, "CRTC_ID"),
               (unsigned long long)value_of(fd, props, "FB_ID"));
        /* CRTC_X/Y are signed (a plane may begin left of or above the CRTC). */
        printf(", \"crtc_x\": %lld, \"crtc_y\": %lld, \"crtc_w\": %llu, \"crtc_h\": %llu",
               (long long)(int32_t)value_of(fd, props, "CRTC_X"), (long long)(int32_t)value_of(fd, props, "CRTC_Y"),
               (unsigned long long)value_of(fd, props, "CRTC_W"), (unsigned long long)value_of(fd, props, "CRTC_H"));
        const char *optional[][2] = {{"zpos", "zpos"}, {"rotation", "rotation"},
                                     {"pixel_blend_mode", "pixel blend mode"}, {"alpha", "alpha"}};
        for (size_t o = 0; o < sizeof optional / sizeof optional[0]; o++) {
            printf(", \"%s\": ", optional[o][0]);
            json_optional_prop(fd, props, optional[o][1]);
        }
        printf("}");
        drmModeFreeObjectProperties(props);
        drmModeFreePlane(p);
    }
    printf("]}\n");
    drmModeFreePlaneResources(planes);
    drmModeFreeResources(res);
    return 0;
}

/* ---------------------------------------------------------------------------------------- buffers */

struct buffer {
    uint32_t width, height, pitch, handle, fb;
    uint8_t *pixels;
    size_t size;
};

static void create_buffer(int fd, struct buffer *b, uint32_t w, uint32_t h, uint32_t format) {
    struct drm_mode_create_dumb create = {.width = w, .height = h, .bpp = 32};
    if (drmIoctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &create) < 0) fail("DRM_IOCTL_MODE_CREATE_DUMB", errno);
    uint32_t handles[4] = {create.handle}, pitches[4] = {create.pitch}, offsets[4] = {0};
    if (drmModeAddFB2(fd, w, h, format, handles, pitches, offsets, &b->fb, 0) < 0) fail("DRM_IOCTL_MODE_ADDFB2", errno);
    struct drm_mode_map_dumb map = {.handle = create.handle};
    if (drmIoctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &map) < 0) fail("DRM_IOCTL_MODE_MAP_DUMB", errno);
    b->pixels = mmap(NULL, create.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)map.offset);
    if (b->pixels == MAP_FAILED) fail("mmap (the dumb buffer)", errno);
    b->width = w, b->height = h, b->pitch = create.pitch, b->handle = create.handle, b->size = create.size;
}

static uint32_t *row_of(struct buffer *b, uint32_t y) { return (uint32_t *)(b->pixels + (size_t)y * b->pitch); }

/* ------------------------------------------------------------------------------------------ state */

struct plane {
    uint32_t id, width, height;
    int32_t x, y;
    struct buffer buffer;
    bool wanted;
};

static int fd;
static uint32_t crtc_id, connector_id, writeback_id, mode_blob;
static bool drive_display;
static struct plane primary, overlay, cursor;
static struct buffer writeback;
static int timeout_ms = 10000;

static void add(drmModeAtomicReq *req, uint32_t object, uint32_t type, const char *name, uint64_t value) {
    if (drmModeAtomicAddProperty(req, object, need_prop(fd, object, type, name), value) < 0)
        fail("drmModeAtomicAddProperty", ENOMEM);
}

static void add_plane(drmModeAtomicReq *req, struct plane *p) {
    add(req, p->id, DRM_MODE_OBJECT_PLANE, "FB_ID", p->buffer.fb);
    add(req, p->id, DRM_MODE_OBJECT_PLANE, "CRTC_ID", crtc_id);
    add(req, p->id, DRM_MODE_OBJECT_PLANE, "SRC_X", 0);
    add(req, p->id, DRM_MODE_OBJECT_PLANE, "SRC_Y", 0);
    add(req, p->id, DRM_MODE_OBJECT_PLANE, "SRC_W", (uint64_t)p->width << 16);
    add(req, p->id, DRM_MODE_OBJECT_PLANE, "SRC_H", (uint64_t)p->height << 16);
    add(req, p->id, DRM_MODE_OBJECT_PLANE, "CRTC_X", (uint64_t)(int64_t)p->x);
    add(req, p->id, DRM_MODE_OBJECT_PLANE, "CRTC_Y", (uint64_t)(int64_t)p->y);
    add(req, p->id, DRM_MODE_OBJECT_PLANE, "CRTC_W", p->width);
    add(req, p->id, DRM_MODE_OBJECT_PLANE, "CRTC_H", p->height);
}

static void write_ppm(const char *path, struct buffer *b) {
    FILE *f = fopen(path, "wb");
    if (!f) fail(path, errno);
    fprintf(f, "P6\n%u %u\n255\n", b->width, b->height);
    uint8_t *line = malloc((size_t)b->width * 3);
    if (!line) fail("malloc", ENOMEM);
    for (uint32_t y = 0; y < b->height; y++) {
        uint32_t *row = row_of(b, y);
        for (uint32_t x = 0; x < b->width; x++) {
            line[3 * x] = row[x] >> 16 & 255, line[3 * x + 1] = row[x] >> 8 & 255, line[3 * x + 2] = row[x] & 255;
        }
        if (fwrite(line, 3, b->width, f) != b->width) fail(path, errno);
    }
    free(line);
    if (fclose(f) != 0) fail(path, errno);
}

/* One atomic commit (blocking): the planes at their positions, a modeset first, a writeback job into
 * `capture` if given (waiting for its out-fence, then writing the file). */
static void commit(bool modeset, const char *capture) {
    drmModeAtomicReq *req = drmModeAtomicAlloc();
    if (!req) fail("drmModeAtomicAlloc", ENOMEM);
    if (modeset) {
        add(req, crtc_id, DRM_MODE_OBJECT_CRTC, "MODE_ID", mode_blob);
        add(req, crtc_id, DRM_MODE_OBJECT_CRTC, "ACTIVE", 1);
        add(req, connector_id, DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID", drive_display ? crtc_id : 0);
        if (writeback_id) add(req, writeback_id, DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID", crtc_id);
        add_plane(req, &primary);
    }
    if (overlay.wanted) add_plane(req, &overlay);
    if (cursor.wanted) add_plane(req, &cursor);
    int32_t fence = -1;
    if (capture) {
        for (uint32_t y = 0; y < writeback.height; y++)
            for (uint32_t x = 0; x < writeback.width; x++) row_of(&writeback, y)[x] = WRITEBACK_SENTINEL;
        add(req, writeback_id, DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID", crtc_id);
        add(req, writeback_id, DRM_MODE_OBJECT_CONNECTOR, "WRITEBACK_FB_ID", writeback.fb);
        add(req, writeback_id, DRM_MODE_OBJECT_CONNECTOR, "WRITEBACK_OUT_FENCE_PTR", (uint64_t)(uintptr_t)&fence);
    }
    int r = drmModeAtomicCommit(fd, req, modeset ? DRM_MODE_ATOMIC_ALLOW_MODESET : 0, NULL);
    if (r < 0) fail("DRM_IOCTL_MODE_ATOMIC", -r);
    drmModeAtomicFree(req);
    if (!capture) return;
    if (fence < 0) {
        fprintf(stderr, "drmplanes: DRM_IOCTL_MODE_ATOMIC returned no writeback out-fence\n");
        exit(1);
    }
    struct pollfd p = {.fd = fence, .events = POLLIN};
    int n;
    do n = poll(&p, 1, timeout_ms); while (n < 0 && errno == EINTR);
    if (n < 0) fail("poll (the writeback out-fence)", errno);
    if (n == 0) {
        fprintf(stderr, "drmplanes: the writeback out-fence did not signal within %d ms\n", timeout_ms);
        exit(1);
    }
    close(fence);
    write_ppm(capture, &writeback);
}

/* -------------------------------------------------------------------------------------- the frame */

static volatile sig_atomic_t stop;
static void on_signal(int sig) { (void)sig; stop = 1; }

static void parse_placement(const char *v, struct plane *p) {
    if (sscanf(v, "%d,%d,%ux%u", &p->x, &p->y, &p->width, &p->height) != 4 || !p->width || !p->height)
        usage_error("a placement is X,Y,WxH");
}

static int open_vkms(char *path, size_t len) {
    for (int n = 0; n < 16; n++) {
        snprintf(path, len, "/dev/dri/card%d", n);
        int f = open(path, O_RDWR | O_CLOEXEC);
        if (f < 0) continue;
        drmVersion *v = drmGetVersion(f);
        bool vkms = v && !strcmp(v->name, "vkms");
        drmFreeVersion(v);
        if (vkms) return f;
        close(f);
    }
    fprintf(stderr, "drmplanes: no /dev/dri/cardN has the driver vkms (modprobe vkms?)\n");
    exit(1);
}

/* The first plane of `type` the CRTC (`crtc_index`) can use, with `format` if given. */
static uint32_t find_plane(drmModePlaneRes *planes, int crtc_index, uint64_t type, uint32_t format) {
    for (uint32_t i = 0; i < planes->count_planes; i++) {
        drmModePlane *p = drmModeGetPlane(fd, planes->planes[i]);
        if (!p) fail("DRM_IOCTL_MODE_GETPLANE", errno);
        uint64_t t = 0;
        prop(fd, p->plane_id, DRM_MODE_OBJECT_PLANE, "type", &t);
        bool ok = t == type && (p->possible_crtcs >> crtc_index & 1);
        if (ok && format) {
            ok = false;
            for (uint32_t f = 0; f < p->count_formats; f++) ok |= p->formats[f] == format;
        }
        uint32_t id = p->plane_id;
        drmModeFreePlane(p);
        if (ok) return id;
    }
    return 0;
}

static void fill_plane(struct plane *p, enum plane_kind kind) {
    create_buffer(fd, &p->buffer, p->width, p->height, DRM_FORMAT_ARGB8888);
    for (uint32_t y = 0; y < p->height; y++)
        for (uint32_t x = 0; x < p->width; x++)
            row_of(&p->buffer, y)[x] = plane_pattern(kind, x, y, p->width, p->height);
}

int main(int argc, char **argv) {
    const char *device = NULL, *capture = NULL;
    unsigned want_w = 0, want_h = 0;
    bool do_list = false;
    overlay = (struct plane){.x = 96, .y = 128, .width = 320, .height = 200, .wanted = true};
    cursor = (struct plane){.x = 352, .y = 288, .width = 64, .height = 64, .wanted = true};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--device") && v) { device = v; i++; }
        else if (!strcmp(a, "--list")) do_list = true;
        else if (!strcmp(a, "--mode") && v) {
            if (sscanf(v, "%ux%u", &want_w, &want_h) != 2) usage_error("--mode WxH");
            i++;
        }
        else if (!strcmp(a, "--overlay") && v) { parse_placement(v, &overlay); overlay.wanted = true; i++; }
        else if (!strcmp(a, "--cursor") && v) { parse_placement(v, &cursor); cursor.wanted = true; i++; }
        else if (!strcmp(a, "--no-overlay")) overlay.wanted = false;
        else if (!strcmp(a, "--no-cursor")) cursor.wanted = false;
        else if (!strcmp(a, "--with-display")) drive_display = true;
        else if (!strcmp(a, "--capture") && v) { capture = v; i++; }
        else if (!strcmp(a, "--timeout") && v) { timeout_ms = atoi(v); i++; }
        else usage_error(a[0] == '-' ? "unknown option or missing value" : "unexpected argument");
    }

    char path[64];
    if (device) {
        fd = open(device, O_RDWR | O_CLOEXEC);
        if (fd < 0) fail(device, errno);
    } else {
        fd = open_vkms(path, sizeof path);
        device = path;
    }
    /* Universal planes (overlay and cursor planes) and writeback connectors are seen only by a client
     * that asks for them; atomic implies universal planes. */
    if (drmSetClientCap(fd, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1) < 0)
        fail("DRM_IOCTL_SET_CLIENT_CAP UNIVERSAL_PLANES", errno);
    if (drmSetClientCap(fd, DRM_CLIENT_CAP_ATOMIC, 1) < 0) fail("DRM_IOCTL_SET_CLIENT_CAP ATOMIC", errno);
    if (drmSetClientCap(fd, DRM_CLIENT_CAP_WRITEBACK_CONNECTORS, 1) < 0)
        fail("DRM_IOCTL_SET_CLIENT_CAP WRITEBACK_CONNECTORS", errno);
    if (do_list) return list(fd, device);

    if (drmSetMaster(fd) < 0) fail("DRM_IOCTL_SET_MASTER", errno);
    drmModeRes *res = drmModeGetResources(fd);
    if (!res) fail("DRM_IOCTL_MODE_GETRESOURCES", errno);

    drmModeConnector *conn = NULL;
    char name[64] = "", writeback_name[64] = "";
    for (int i = 0; i < res->count_connectors; i++) {
        drmModeConnector *c = drmModeGetConnector(fd, res->connectors[i]);
        if (!c) fail("DRM_IOCTL_MODE_GETCONNECTOR", errno);
        if (c->connector_type == DRM_MODE_CONNECTOR_WRITEBACK) {
            if (!writeback_id) {
                writeback_id = c->connector_id;
                conn_name(c, writeback_name, sizeof writeback_name);
            }
        } else if (!conn && c->connection == DRM_MODE_CONNECTED && c->count_modes > 0) {
            conn = c;
            conn_name(c, name, sizeof name);
            continue;
        }
        drmModeFreeConnector(c);
    }
    if (!conn) { fprintf(stderr, "drmplanes: %s has no connected connector with modes\n", device); return 1; }
    if (capture && !writeback_id) { fprintf(stderr, "drmplanes: %s has no writeback connector\n", device); return 1; }
    connector_id = conn->connector_id;
    if (!writeback_id) drive_display = true;
    char driven[160];
    snprintf(driven, sizeof driven, "%s%s%s", writeback_name, writeback_id && drive_display ? "+" : "",
             drive_display ? name : "");

    drmModeModeInfo *mode = NULL;
    for (int m = 0; m < conn->count_modes && !mode; m++) {
        drmModeModeInfo *mi = &conn->modes[m];
        if (want_w ? (mi->hdisplay == want_w && mi->vdisplay == want_h) : (mi->type & DRM_MODE_TYPE_PREFERRED) != 0)
            mode = mi;
    }
    if (!mode && want_w) { fprintf(stderr, "drmplanes: %s has no %ux%u mode\n", name, want_w, want_h); return 1; }
    if (!mode) mode = &conn->modes[0];
    uint32_t w = mode->hdisplay, h = mode->vdisplay;

    /* The CRTC: the first one the connector's first encoder can drive. */
    int crtc_index = -1;
    for (int e = 0; e < conn->count_encoders && crtc_index < 0; e++) {
        drmModeEncoder *enc = drmModeGetEncoder(fd, conn->encoders[e]);
        if (!enc) fail("DRM_IOCTL_MODE_GETENCODER", errno);
        for (int j = 0; j < res->count_crtcs && crtc_index < 0; j++)
            if (enc->possible_crtcs >> j & 1) crtc_index = j;
        drmModeFreeEncoder(enc);
    }
    if (crtc_index < 0) { fprintf(stderr, "drmplanes: no CRTC for %s\n", name); return 1; }
    crtc_id = res->crtcs[crtc_index];

    drmModePlaneRes *planes = drmModeGetPlaneResources(fd);
    if (!planes) fail("DRM_IOCTL_MODE_GETPLANERESOURCES", errno);
    primary.id = find_plane(planes, crtc_index, DRM_PLANE_TYPE_PRIMARY, DRM_FORMAT_XRGB8888);
    if (!primary.id) { fprintf(stderr, "drmplanes: no XRGB8888 primary plane for CRTC %u\n", crtc_id); return 1; }
    if (overlay.wanted && !(overlay.id = find_plane(planes, crtc_index, DRM_PLANE_TYPE_OVERLAY, DRM_FORMAT_ARGB8888))) {
        fprintf(stderr, "drmplanes: no ARGB8888 overlay plane for CRTC %u (vkms: enable_overlay=1)\n", crtc_id);
        return 1;
    }
    if (cursor.wanted && !(cursor.id = find_plane(planes, crtc_index, DRM_PLANE_TYPE_CURSOR, DRM_FORMAT_ARGB8888))) {
        fprintf(stderr, "drmplanes: no ARGB8888 cursor plane for CRTC %u (vkms: enable_cursor=1)\n", crtc_id);
        return 1;
    }
    drmModeFreePlaneResources(planes);

    primary.width = w, primary.height = h;
    create_buffer(fd, &primary.buffer, w, h, DRM_FORMAT_XRGB8888);
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) row_of(&primary.buffer, y)[x] = frame_pattern(x, y, w, h);
    if (overlay.wanted) fill_plane(&overlay, PLANE_OVERLAY);
    if (cursor.wanted) fill_plane(&cursor, PLANE_CURSOR);
    if (writeback_id) create_buffer(fd, &writeback, w, h, DRM_FORMAT_XRGB8888);
    if (drmModeCreatePropertyBlob(fd, mode, sizeof *mode, &mode_blob) < 0) fail("DRM_IOCTL_MODE_CREATEPROPBLOB", errno);

    commit(true, capture);
    printf("READY %ux%u %s crtc=%u primary=%u overlay=%u cursor=%u writeback=%u\n", w, h, driven, crtc_id, primary.id,
           overlay.id, cursor.id, writeback_id);
    if (capture) printf("CAPTURED %s\n", capture);
    fflush(stdout);

    struct sigaction sa = {.sa_handler = on_signal};   /* no SA_RESTART: a signal ends the read below */
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    char *line = NULL;
    size_t cap = 0;
    while (!stop && getline(&line, &cap, stdin) > 0) {
        char what[16], file[4096];
        int x, y;
        struct plane *p = NULL;
        if (sscanf(line, "%15s %d %d", what, &x, &y) == 3 && (!strcmp(what, "cursor") || !strcmp(what, "overlay"))) {
            p = !strcmp(what, "cursor") ? &cursor : &overlay;
            if (!p->wanted) { fprintf(stderr, "drmplanes: %s: that plane is not in use\n", what); return 2; }
            p->x = x, p->y = y;
            commit(false, NULL);
            printf("MOVED %s %d %d\n", what, x, y);
        } else if (sscanf(line, "capture %4095s", file) == 1) {
            if (!writeback_id) { fprintf(stderr, "drmplanes: %s has no writeback connector\n", device); return 1; }
            commit(false, file);
            printf("CAPTURED %s\n", file);
        } else if (strspn(line, " \t\n") != strlen(line)) {
            fprintf(stderr, "drmplanes: unknown command: %s", line);
            return 2;
        }
        fflush(stdout);
    }
    free(line);
    printf("DONE\n");
    return 0;
}
