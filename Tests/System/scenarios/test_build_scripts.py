"""The build scripts on this host (no guest): the text stack profiles (scripts/release-flags, release-build,
install and make take --text-stack shared or linked, refuse another name with exit 2 naming both; the default
release runs no scripts/text-stack and has no text code of its own; switching profiles in one scratch folder
compiles again; install refuses a binary of the other profile when one is asked for); scripts/text-stack
leaves no stamp when its build fails, so the next run builds again (a stamp over missing archives had made
every later release build fail until the folder was deleted by hand), and never follows DESTDIR (scripts/test
builds the releases with DESTDIR set, as `make install DESTDIR=...` exports it, and checks the staging folder
stays empty). scripts/release-build builds any product, an app's own package's too, into a binary that needs
no Swift toolchain; scripts/install refuses a debug build, one that needs the toolchain and one of another
machine architecture, and installs an app's resource bundles beside it.

The release builds are scripts/test's (hello-kiosk and the kiosk in .build-release, the linked text stack's
kiosk in .build-release-linked, Examples/CheckInApp in its own .build), the debug ones `swift build
--build-tests`'s: these checks build nothing but an unknown product (SwiftPM's refusal, 2-5 s), so the
scenario took 7 s on a quiet host (the text stack's check too, which may take up to 4 minutes on a loaded
one)."""

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from kioskvm import release
from kioskvm.scenario import expect, note, skip

GUEST = None
TIMEOUT = 600

REPO = Path(__file__).resolve().parents[3]
RELEASE = REPO / ".build-release" / "release"
LINKED_RELEASE = REPO / ".build-release-linked" / "release"
DEBUG = REPO / ".build" / "debug"
EXAMPLE = REPO / "Examples" / "CheckInApp"
EXAMPLE_RELEASE = EXAMPLE / ".build" / "release"
BUNDLE = "CheckInApp_CheckInApp.resources"
# The toolchain's libraries, which a board does not have (scripts/install refuses a binary that loads one).
TOOLCHAIN_LIBRARY = re.compile(r"^(libswift.*|libFoundation.*|lib_Foundation.*|libdispatch|libBlocksRuntime)\.so")


def has_linked_text(binary: Path) -> bool:
    """Whether `binary` has the text stack linked in: GObject's deferred constructor's section, which only
    scripts/text-stack's archives bring (scripts/install judges it so too)."""
    return re.search(r"\skiosk_deferred_init\s", readelf("-S", "-W", binary)) is not None


def check_every_script_takes_the_two_profiles_and_refuses_another():
    env = release.release_build_environment()
    for command in (["scripts/release-flags"], ["scripts/release-build"], ["scripts/install", "--dry-run"]):
        r = subprocess.run([str(REPO / command[0]), *command[1:], "--text-stack", "static"], cwd=REPO,
                           capture_output=True, text=True, env=env, timeout=60)
        expect(r.returncode == 2 and "shared" in r.stderr and "linked" in r.stderr and "static" in r.stderr,
               f"{command[0]} --text-stack static: exit {r.returncode}: {r.stderr}")
    r = subprocess.run(["make", "-s", "-n", "TEXT_STACK=linked", "build", "install"], cwd=REPO, capture_output=True, text=True)
    expect(r.returncode == 0 and r.stdout.split("\n")[:2] == ["scripts/release-build --text-stack linked",
                                                              "scripts/install --text-stack linked "], r)
    flags = {}
    for profile in ("shared", "linked"):
        r = subprocess.run([str(REPO / "scripts" / "release-flags"), "--text-stack", profile], capture_output=True, text=True)
        expect(r.returncode == 0, r)
        flags[profile] = r.stdout.split()
    default = subprocess.run([str(REPO / "scripts" / "release-flags")], capture_output=True, text=True).stdout.split()
    expect(default == flags["shared"], f"the default flags are not the shared profile's: {default}")
    expect("-DKIOSK_TEXT_LINKED" not in flags["shared"] and "--kiosk-text-stack=linked" not in flags["shared"], flags)
    expect({"-DKIOSK_TEXT_LINKED", "--kiosk-text-stack=linked"} <= set(flags["linked"]), flags)
    expect(flags["linked"][:len(flags["shared"])] == flags["shared"], f"the linked profile is not the default's and more: {flags}")
    # SWIFT_BUILD_FLAGS of one profile with --text-stack naming the other: refused, not half obeyed.
    r = subprocess.run([str(REPO / "scripts" / "release-build"), "--text-stack", "shared", "--show-bin-path"], cwd=REPO,
                       capture_output=True, text=True, env={**env, "SWIFT_BUILD_FLAGS": " ".join(flags["linked"])}, timeout=60)
    expect(r.returncode == 2 and "SWIFT_BUILD_FLAGS builds the linked text stack" in r.stderr, r)


def check_the_profiles_build_as_asked_and_switching_compiles_again():
    # scripts/release-build with `swift` a stand-in that says how it was called. The default runs no
    # scripts/text-stack (its folder, named here, stays unmade); the linked profile does (the real one:
    # built already, it only checks the versions), and each switch removes the other profile's objects.
    with tempfile.TemporaryDirectory() as folder:
        scratch, bin_dir, text = Path(folder) / "scratch", Path(folder) / "bin", Path(folder) / "text-stack"
        bin_dir.mkdir()
        (bin_dir / "swift").write_text('#!/bin/sh\necho "swift $*"\n')
        (bin_dir / "swift").chmod(0o755)
        objects = scratch / "x86_64-unknown-linux-gnu" / "release"
        env = {**release.release_build_environment(), "PATH": f"{bin_dir}:{os.environ['PATH']}"}

        def build(*profile, **extra):
            objects.mkdir(parents=True, exist_ok=True)
            r = subprocess.run([str(REPO / "scripts" / "release-build"), "--scratch-path", str(scratch), *profile], cwd=REPO,
                               capture_output=True, text=True, env={**env, **extra}, timeout=240)
            expect(r.returncode == 0 and "swift build -c release --product kiosk" in r.stdout, r)
            return objects.is_dir(), r

        kept, r = build(KIOSK_TEXT_STACK_DIR=str(text))
        expect("-DKIOSK_TEXT_LINKED" not in r.stdout and "--kiosk-text-stack" not in r.stdout, f"the default: {r.stdout}")
        expect(not text.exists() and "text-stack" not in r.stderr, f"the default release ran scripts/text-stack: {r.stderr}")
        kept, r = build(KIOSK_TEXT_STACK_DIR=str(text))
        expect(kept, f"the same profile compiled again: {r}")
        if not (REPO / ".build-text" / "prefix" / "built-from").exists():
            skip("the linked text stack is not built in .build-text (scripts/test builds it): its switch is not checked")
        kept, r = build("--text-stack", "linked")
        expect(not kept and "removing" in r.stderr, f"switched to linked, the objects stayed: {r}")
        expect("-DKIOSK_TEXT_LINKED" in r.stdout and "--kiosk-text-stack=linked" in r.stdout, f"linked: {r.stdout}")
        kept, r = build("--text-stack", "linked")
        expect(kept, f"linked again compiled again: {r}")
        kept, r = build("--text-stack", "shared")
        expect(not kept and "removing" in r.stderr, f"switched back to shared, the objects stayed: {r}")


def check_the_default_release_has_no_text_code_and_the_linked_one_has():
    kiosk = built(RELEASE / "kiosk", "scripts/release-build --scratch-path .build-release")
    expect(not has_linked_text(kiosk), f"{kiosk} has the text stack linked in: the default release must load Debian's")
    libraries, _ = needs(kiosk)
    expect("libpangocairo-1.0.so.0" in libraries, f"{kiosk} was not linked against Debian's pango (before the trim): {libraries}")
    linked = built(LINKED_RELEASE / "kiosk", "scripts/release-build --text-stack linked --scratch-path .build-release-linked")
    expect(has_linked_text(linked), f"{linked} has no text stack linked in")
    libraries, _ = needs(linked)
    expect(not [name for name in libraries if name.startswith(("libpango", "libcairo", "libharfbuzz"))], f"{linked} needs {libraries}")
    expect_runs_on_a_board(linked)


def check_install_refuses_the_other_profile_when_one_is_asked_for():
    kiosk = built(RELEASE / "kiosk", "scripts/release-build --scratch-path .build-release")
    app = built(RELEASE / "hello-kiosk", "scripts/release-build --product hello-kiosk --scratch-path .build-release")
    linked = built(LINKED_RELEASE / "kiosk", "scripts/release-build --text-stack linked --scratch-path .build-release-linked")
    with tempfile.TemporaryDirectory() as folder:
        stage = Path(folder) / "stage"
        r = install("--no-build", "--text-stack", "linked", "--build-dir", linked.parent, "--app", app, stage=stage)
        expect(r.returncode == 2, f"exit {r.returncode}: {r.stdout}{r.stderr}")
        for words in ("--app", "has the shared text stack, and --text-stack linked was asked for",
                      "scripts/release-build --text-stack linked --product hello-kiosk", "nothing was installed"):
            expect(words in r.stderr, f"no {words!r} in: {r.stderr}")
        expect("--allow-" not in r.stderr, f"an --allow option does not help here: {r.stderr}")
        expect(not stage.exists(), f"something was installed: {list(stage.rglob('*'))[:5]}")
        r = install("--no-build", "--text-stack", "shared", "--build-dir", linked.parent, stage=stage)
        expect(r.returncode == 2 and "the kiosk binary" in r.stderr and "has the linked text stack" in r.stderr, r.stderr)
        expect(not stage.exists(), "something was installed")
        # Not asked for, a linked kiosk is installed and said to be.
        r = install("--no-build", "--build-dir", linked.parent, stage=stage)
        expect(r.returncode == 0 and "kiosk has the text stack linked in" in r.stdout, f"exit {r.returncode}: {r.stdout}{r.stderr}")
        shutil.rmtree(stage)
        r = install("--no-build", "--text-stack", "shared", "--build-dir", kiosk.parent, stage=stage)
        expect(r.returncode == 0 and "linked in" not in r.stdout, f"exit {r.returncode}: {r.stdout}{r.stderr}")


def check_a_failed_text_stack_build_leaves_no_stamp():
    downloads = REPO / ".build-text" / "downloads"
    if not any(downloads.glob("*.dsc")):
        skip(f"no downloaded sources in {downloads} (scripts/text-stack fetches them; scripts/test builds the release first)")
    top = Path(tempfile.mkdtemp(prefix="kiosk-text-stack-"))
    try:
        shutil.copytree(downloads, top / "downloads")
        # A ninja that fails as a broken build does (meson's own setup is real): the install never happens.
        tools = top / "tools"
        tools.mkdir()
        (tools / "ninja").write_text("#!/bin/sh\necho 'ninja: build stopped: subcommand failed.' >&2\nexit 1\n")
        (tools / "ninja").chmod(0o755)
        env = {**os.environ, "KIOSK_TEXT_STACK_DIR": str(top), "PATH": f"{tools}:{os.environ['PATH']}"}
        failed = subprocess.run([str(REPO / "scripts" / "text-stack")], env=env, capture_output=True, text=True, timeout=240)
        expect(failed.returncode == 1, f"exit {failed.returncode}: {failed.stderr[-2000:]}")
        expect("text-stack: building harfbuzz failed" in failed.stderr, failed.stderr[-2000:])
        expect(not (top / "prefix" / "built-from").exists(), "a failed build left its stamp")
        listed = subprocess.run([str(REPO / "scripts" / "text-stack"), "--archives"], env=env, capture_output=True, text=True)
        expect(listed.returncode == 1 and listed.stdout == "", f"--archives after a failed build: {listed}")
        expect("not built" in listed.stderr, listed.stderr)
    finally:
        shutil.rmtree(top, ignore_errors=True)


def built(path: Path, how: str) -> Path:
    """`path`, which scripts/test builds: missing, the check is skipped (a scenario run alone), in CI failed."""
    if not path.exists():
        message = f"{path} is not built: {how} (scripts/test builds it before the system tests)"
        expect(os.environ.get("CI") != "true", message)
        skip(message)
    return path


def readelf(*arguments) -> str:
    r = subprocess.run(["readelf", *map(str, arguments)], capture_output=True, text=True)
    expect(r.returncode == 0, f"readelf {arguments}: {r.stderr}")
    return r.stdout


def needs(binary: Path) -> tuple[list[str], list[str]]:
    """The libraries `binary` names (NEEDED) and its run paths (RUNPATH or RPATH)."""
    dynamic = readelf("-d", binary)
    return (re.findall(r"\(NEEDED\).*\[(.*)\]", dynamic), re.findall(r"\(R(?:UN)?PATH\).*\[(.*)\]", dynamic))


def build_configuration(binary: Path) -> str | None:
    """What CBuildNote's ELF note says: "debug", "release", or None without the note."""
    r = subprocess.run(["readelf", "-W", "-p", ".note.kiosk.build", str(binary)], capture_output=True, text=True)
    found = re.findall(r"^\s*\[\s*[0-9a-f]+\]\s+(debug|release)$", r.stdout, re.M)
    return found[0] if found else None


def install(*arguments, stage: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PREFIX", "KIOSK_USER", "SWIFT_BUILD_FLAGS")}
    return subprocess.run([str(REPO / "scripts" / "install"), *map(str, arguments)], cwd=REPO, capture_output=True,
                          text=True, env={**env, "DESTDIR": str(stage)}, timeout=240)


def expect_runs_on_a_board(binary: Path):
    libraries, run_paths = needs(binary)
    toolchain = [name for name in libraries if TOOLCHAIN_LIBRARY.match(name)]
    expect(not toolchain, f"{binary} loads the toolchain's {toolchain}")
    expect(not run_paths, f"{binary} has a run path: {run_paths}")
    expect(build_configuration(binary) == "release", f"{binary}'s note says {build_configuration(binary)}")


def check_a_release_build_of_another_product_needs_no_toolchain():
    expect_runs_on_a_board(built(RELEASE / "hello-kiosk", "scripts/release-build --product hello-kiosk --scratch-path .build-release"))


def check_a_debug_build_says_so_in_its_note_stripped_too():
    debug = built(DEBUG / "hello-kiosk", "swift build")
    expect(build_configuration(debug) == "debug", f"{debug}'s note says {build_configuration(debug)}")
    # Judged by the binary itself: copied, renamed and stripped (symbols and debug information gone), the same.
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / "renamed"
        shutil.copy(debug, copy)
        subprocess.run(["strip", str(copy)], check=True)
        expect(build_configuration(copy) == "debug", f"stripped, the note says {build_configuration(copy)}")


def check_install_refuses_a_debug_app_and_says_why():
    debug = built(DEBUG / "hello-kiosk", "swift build")
    kiosk = built(RELEASE / "kiosk", "scripts/release-build --scratch-path .build-release")
    with tempfile.TemporaryDirectory() as folder:
        stage = Path(folder) / "stage"
        r = install("--no-build", "--build-dir", kiosk.parent, "--app", debug, stage=stage)
        expect(r.returncode == 2, f"exit {r.returncode}: {r.stdout}{r.stderr}")
        for words in ("is a debug build", "needs the Swift toolchain at run time", "libswiftCore.so",
                      "scripts/release-build --product hello-kiosk", "nothing was installed"):
            expect(words in r.stderr, f"no {words!r} in: {r.stderr}")
        expect(not stage.exists(), f"something was installed: {list(stage.rglob('*'))[:5]}")
        # The kiosk binary is judged the same.
        if (DEBUG / "kiosk").exists():
            r = install("--no-build", "--build-dir", DEBUG, stage=stage)
            expect(r.returncode == 2 and "the kiosk binary" in r.stderr and "is a debug build" in r.stderr, r.stderr)
            expect(not stage.exists(), "something was installed")


def check_install_refuses_the_toolchain_and_another_architecture():
    kiosk = built(RELEASE / "kiosk", "scripts/release-build --scratch-path .build-release")
    with tempfile.TemporaryDirectory() as folder:
        stage = Path(folder) / "stage"
        # A release build without the release flags: no note to refuse, but the toolchain's library by name.
        dynamic = Path(folder) / "dynamic-app"
        shutil.copy("/bin/true", dynamic)
        subprocess.run(["patchelf", "--add-needed", "libswiftCore.so", str(dynamic)], check=True)
        r = install("--no-build", "--build-dir", kiosk.parent, "--app", dynamic, stage=stage)
        expect(r.returncode == 2 and "needs the Swift toolchain" in r.stderr and "debug" not in r.stderr.split("Build it")[0], r.stderr)
        expect(not stage.exists(), "something was installed")
        # e_machine (offset 18) of another architecture than this machine's.
        foreign = Path(folder) / "foreign-app"
        data = bytearray(Path("/bin/true").read_bytes())
        data[18:20] = (183 if data[18:20] != bytes([183, 0]) else 62).to_bytes(2, "little")
        foreign.write_bytes(data)
        foreign.chmod(0o755)
        r = install("--no-build", "--build-dir", kiosk.parent, "--app", foreign, stage=stage)
        expect(r.returncode == 2 and "another machine architecture" in r.stderr, r.stderr)
        expect("release-build" not in r.stderr, f"a release build does not make another architecture's binary run: {r.stderr}")
        expect(not stage.exists(), "something was installed")


def check_install_stages_a_release_app():
    kiosk = built(RELEASE / "kiosk", "scripts/release-build --scratch-path .build-release")
    app = built(RELEASE / "hello-kiosk", "scripts/release-build --product hello-kiosk --scratch-path .build-release")
    with tempfile.TemporaryDirectory() as folder:
        stage = Path(folder) / "stage"
        r = install("--no-build", "--build-dir", kiosk.parent, "--app", app, stage=stage)
        expect(r.returncode == 0, f"exit {r.returncode}: {r.stdout}{r.stderr}")
        installed = stage / "usr/local/bin/hello-kiosk"
        expect_runs_on_a_board(installed)
        unit = (stage / "etc/systemd/system/kiosk.service").read_text()
        expect("\nExecStart=/usr/local/bin/hello-kiosk " in unit, unit)


def check_the_example_package_builds_for_a_board():
    binary = built(EXAMPLE_RELEASE / "checkin-kiosk",
                   "scripts/release-build --package-path Examples/CheckInApp --product checkin-kiosk")
    expect_runs_on_a_board(binary)
    expect((EXAMPLE_RELEASE / BUNDLE / "welcome.txt").read_text() == (EXAMPLE / "Sources/CheckInApp/Resources/welcome.txt").read_text(),
           f"{EXAMPLE_RELEASE / BUNDLE} lacks the resource")
    # No Foundation linked in: SwiftPM's resource accessor imports it, but nothing calls it.
    expect(binary.stat().st_size < 40_000_000, f"{binary} is {binary.stat().st_size} bytes: Foundation linked in?")
    r = subprocess.run([str(binary), "--version"], capture_output=True, text=True, timeout=30)
    expect(r.returncode == 0 and re.fullmatch(r"checkin-kiosk 1\.0 \(kiosk runtime [^)]+\)\n", r.stdout), r)
    with tempfile.TemporaryDirectory() as folder:
        config = Path(folder) / "kiosk.toml"
        config.write_text('[app-settings]\nsite = "the Harbour Office"\n')
        r = subprocess.run([str(binary), "check-config", "--config", str(config)], capture_output=True, text=True, timeout=30)
        expect(r.returncode == 0 and r.stdout.strip() == f"{config}: OK", r)
        config.write_text("[app-settings]\nsite = 3\n")
        r = subprocess.run([str(binary), "check-config", "--config", str(config)], capture_output=True, text=True, timeout=30)
        expect(r.returncode == 1 and f"{config}:2:8: app-settings.site must be a string" in r.stdout + r.stderr, r)


def check_release_build_of_the_example_package_by_path():
    env = release.release_build_environment()
    script = str(REPO / "scripts" / "release-build")
    # From inside the package, with a relative --package-path: its own .build.
    r = subprocess.run([script, "--package-path", ".", "--show-bin-path"], cwd=EXAMPLE, capture_output=True, text=True, env=env, timeout=120)
    # SwiftPM names the folder by the triple (.build/x86_64-unknown-linux-gnu/release); .build/release is a
    # link to it only once something was built there (another scenario may be building it right now).
    shown = Path(r.stdout.strip())
    in_its_build = shown.name == "release" and shown.parent.parent.resolve() == (EXAMPLE / ".build").resolve()
    expect(r.returncode == 0 and (in_its_build or shown.resolve() == EXAMPLE_RELEASE.resolve()), r)
    # A product the package does not have: SwiftPM's error, non-zero, naming it.
    r = subprocess.run([script, "--package-path", str(EXAMPLE), "--product", "no-such-kiosk"], cwd=REPO, capture_output=True,
                       text=True, env=env, timeout=240)
    expect(r.returncode != 0 and "no-such-kiosk" in r.stderr, r)
    note("unknown product: " + next((line for line in r.stderr.splitlines() if "error:" in line), r.stderr.strip()))


def check_install_stages_the_example_with_its_resources():
    kiosk = built(RELEASE / "kiosk", "scripts/release-build --scratch-path .build-release")
    app = built(EXAMPLE_RELEASE / "checkin-kiosk", "scripts/release-build --package-path Examples/CheckInApp --product checkin-kiosk")
    with tempfile.TemporaryDirectory() as folder:
        stage = Path(folder) / "stage"
        # Relative to the caller's folder, as a person types it from the package.
        r = subprocess.run([str(REPO / "scripts" / "install"), "--no-build", "--build-dir", str(kiosk.parent),
                            "--app", ".build/release/checkin-kiosk"], cwd=EXAMPLE, capture_output=True, text=True,
                           env={**{k: v for k, v in os.environ.items() if k not in ("PREFIX", "KIOSK_USER")}, "DESTDIR": str(stage)},
                           timeout=240)
        expect(r.returncode == 0, f"exit {r.returncode}: {r.stdout}{r.stderr}")
        bin_dir = stage / "usr/local/bin"
        expect((bin_dir / BUNDLE / "welcome.txt").is_file(), f"no bundle beside the app: {sorted(p.name for p in bin_dir.iterdir())}")
        expect_runs_on_a_board(bin_dir / "checkin-kiosk")
        # The installed app finds its installed resource: beside itself, not in the build folder.
        config = Path(folder) / "kiosk.toml"
        config.write_text('[app-settings]\nsite = "the Harbour Office"\n')
        r = subprocess.run([str(bin_dir / "checkin-kiosk"), "--config", str(config), "--backend", "headless", "--exit-after", "0.5",
                            "--snapshot-dir", folder, "--control-socket", "off"], capture_output=True, text=True, timeout=60)
        expect(r.returncode == 0, r)
        expect(f"checkin-kiosk: welcome text from {bin_dir / BUNDLE / 'welcome.txt'}\n" in r.stdout, r)
