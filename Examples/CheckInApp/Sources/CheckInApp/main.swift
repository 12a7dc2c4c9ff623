// A visitor check-in kiosk in a package of its own (README.md beside Package.swift): the kiosk runtime is a
// dependency, the welcome text a resource of this target (Resources/welcome.txt), and one app setting, `site`,
// comes from the `[app-settings]` of the kiosk's config file.
//
//   swift run checkin-kiosk -- --exit-after 2                  # headless here (PNG in ./snapshots), DRM/KMS on a board
//   swift run checkin-kiosk -- --version                       # checkin-kiosk 1.0 (kiosk runtime ...)
//   swift run checkin-kiosk -- check-config --config my.toml   # the file checked, the app's `site` too
//
// `KioskRuntime.main` reads the configuration as `kiosk run` does (`/etc/kiosk/kiosk.toml` or `--config`, the
// `KIOSK_*` variables, the same flags: `checkin-kiosk --help`), checks `[app-settings]` against the settings
// declared here, and calls the closure to make the app once the configuration is read.

import KioskRuntime

let settings = [AppSetting("site", .string, help: "The place named on the screen; default: the front desk.")]

KioskRuntime.main(version: "1.0", appSettings: settings) { configuration in
    CheckInApp(site: configuration.appSettings["site"]?.string ?? "the front desk", welcome: Resources.text("welcome.txt"))
}
