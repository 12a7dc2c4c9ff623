"""The start without a black flash: a display keeps what it showed (here the console, filled with text)
until the app's first frame, with no modeset where the CRTC already shows the mode asked for; with
`launch-screen`, the picture is shown at the first modeset, centred on black and upright in the screen's
rotation, then the app's frame. Judged from QMP screendumps every 0.1 s from the exec on (each distinct
image is kept) and the kiosk's log of its commits; the kernel refuses a commit without ALLOW_MODESET that
would need a modeset, so one that passed changed only the framebuffer."""

import time
from pathlib import Path

from kioskvm import image, measure
from kioskvm.scenario import expect
from scenarios_support import CLOCK, changed, run_kiosk, stop

GUEST = dict(heads=1)
TIMEOUT = 420
WIDTH, HEIGHT = 1280, 800
LOGO_W, LOGO_H = 320, 200
APP = "[app-settings]\nlaunch-animation = false\n"
LAUNCH_OFF = "launch-screen = \"off\"\n"


def logo_pixels() -> bytes:
    """A 320x200 checkerboard of two colours in 40-pixel squares (RGB rows)."""
    a, b = bytes((0x20, 0x80, 0xE0)), bytes((0xE0, 0x40, 0x20))
    return b"".join((b if (x // 40 + y // 40) % 2 else a) for y in range(LOGO_H) for x in range(LOGO_W))


def write_logo(path: Path) -> None:
    image.write_png(path, LOGO_W, LOGO_H, logo_pixels())


def launch_image(rotated90=False) -> bytes:
    """The screen with the logo centred on black: logical 1280x800, or 800x1280 turned a quarter clockwise
    onto the 1280x800 panel (the logical (x, y) is the panel's (1279 - y, x))."""
    logo = logo_pixels()
    lw, lh = (HEIGHT, WIDTH) if rotated90 else (WIDTH, HEIGHT)
    x0, y0 = (lw - LOGO_W) // 2, (lh - LOGO_H) // 2
    out = bytearray(WIDTH * HEIGHT * 3)
    for y in range(LOGO_H):
        for x in range(LOGO_W):
            lx, ly = x0 + x, y0 + y
            px, py = (lh - 1 - ly, lx) if rotated90 else (lx, ly)
            i, j = (py * WIDTH + px) * 3, (y * LOGO_W + x) * 3
            out[i:i + 3] = logo[j:j + 3]
    return bytes(out)


def fill_console(guest) -> None:
    """Text over the whole console, so that a black frame differs from it everywhere there is text."""
    guest.run("clear > /dev/tty1; for i in $(seq 1 60); do echo \"line $i of the console before the kiosk: "
              "#################################################################\"; done > /dev/tty1", timeout=30).check()
    time.sleep(0.3)


def start(guest, config: str, args: str = ""):
    """Fills the console, starts the kiosk with `config` and watches head 0 until the app's final frame
    (stable for 1.5 s); returns the console's image, the dumps from the exec on (distinct images) and
    the kiosk's log, the kiosk stopped."""
    fill_console(guest)
    path = guest.write_file(f"launch-{time.monotonic_ns()}.toml", config + APP)
    watch = measure.FrameWatch(guest, 0, 0.1)
    console = watch.dump().image
    watch.forget()
    t0 = time.monotonic()
    process, _ = run_kiosk(guest, f"--backend drm --config {guest.guest_path(path)} --log-level info {args}")
    try:
        watch.until(t0, lambda img: img.size != console.size or changed(img, console) > 0.5, 90,
                    alive=lambda: process.running)
        final = watch.until_stable(1.5, (CLOCK,))
    finally:
        result = stop(process)
    dumps = [d for d in watch.history if d.at >= t0]
    app = next(i for i, d in enumerate(dumps) if measure.shows_exactly(final.image, (CLOCK,))(d.image))
    return console, dumps[:app], dumps[app], result.stderr


def check_the_console_stays_until_the_app_frame(guest):
    console, before, app, log = start(guest, LAUNCH_OFF)
    expect("Virtual-1: lit 1280x800" in log and "showing what it showed until the first frame" in log, log[-2500:])
    expect("Virtual-1: on CRTC" in log and "without a modeset (it already showed 1280x800" in log, log[-2500:])
    # Every image before the app's: the console (its cursor may blink), never black nor anything else.
    for d in before:
        expect(d.image.size == console.size and changed(d.image, console) < 0.01,
               f"{len(before)} images before the app's; one differs from the console in "
               f"{changed(d.image, console):.0%} of the samples (black or another picture)")
    expect(changed(app.image, console) > 0.5, "the app's frame is not on head 0")


def check_the_launch_screen_comes_at_the_first_modeset(guest):
    logo = Path(guest.job_dir) / "logo.png"
    write_logo(logo)
    console, before, app, log = start(guest, f'launch-screen = "{guest.guest_path(logo)}"\n')
    expect(f"launch-screen: {guest.guest_path(logo)}, 320x200" in log, log[-2500:])
    expect("showing the launch screen" in log and "without a modeset" in log, log[-2500:])
    launch = measure.shows_exactly(launch_image())
    shown = [i for i, d in enumerate(before) if launch(d.image)]
    expect(shown, f"the launch screen was not among the {len(before)} images before the app's")
    # The console until the launch screen, the launch screen until the app: nothing between.
    for d in before[:shown[0]]:
        expect(changed(d.image, console) < 0.01, f"before the launch screen: {changed(d.image, console):.0%} changed")
    for d in before[shown[0]:]:
        expect(launch(d.image), "after the launch screen and before the app's frame: another picture")


def check_the_launch_screen_is_upright_in_the_screens_rotation(guest):
    logo = Path(guest.job_dir) / "logo.png"
    if not logo.exists():
        write_logo(logo)
    _, before, _, log = start(guest, f'launch-screen = "{guest.guest_path(logo)}"\n', "--rotate Virtual-1=90")
    expect(any(measure.shows_exactly(launch_image(rotated90=True))(d.image) for d in before),
           f"no image before the app's shows the logo turned with the screen ({len(before)} images)")


def check_a_new_mode_keeps_the_console_until_the_app_frame(guest):
    # 1024x768 is not what the console shows: a modeset, still at the app's first frame.
    console, before, app, log = start(guest, 'launch-screen = "off"\n', "--mode Virtual-1=1024x768")
    expect("without a modeset" not in log, log[-2500:])
    expect(app.image.size == (1024, 768), f"head 0 shows {app.image.size}")
    for d in before:
        expect(d.image.size == console.size and changed(d.image, console) < 0.01,
               f"before the app's frame: {d.image.size}, {changed(d.image, console):.0%} changed")
