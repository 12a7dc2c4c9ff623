/// The kiosk's exit statuses, the same for `kiosk` and for apps of your own run by `KioskRuntime.main`, so
/// a unit file, a script or a person can tell what went wrong from the number alone.
public enum ExitStatus {
    /// Done, or stopped by SIGTERM or SIGINT.
    public static let success: Int32 = 0
    /// The command ran and its answer is no: `check-config` found problems, `calibrate` failed or timed out,
    /// `screens` or `inputs` could not read a device, the running kiosk answered `status`, `power`,
    /// `brightness`, `screenshot` or `reload` with an error.
    public static let problemsFound: Int32 = 1
    /// The command line, a `KIOSK_*` variable or the config file is wrong; nothing was touched.
    public static let usage: Int32 = 2
    /// The kiosk cannot run what was asked: a backend, device or seat named that cannot be used, a trace
    /// file or snapshot folder that cannot be written; no running kiosk answers on the control socket, or it
    /// refuses this user (the socket's permissions, or the kiosk's check of who connects: "not allowed"), or a
    /// screenshot's file cannot be written.
    public static let cannotRun: Int32 = 3

    /// For `--help`.
    public static let help = """
        EXIT STATUS:
          0  done, or stopped by SIGTERM or SIGINT
          1  the command found problems (check-config), failed (calibrate), could not read a device (screens, inputs), or the running kiosk answered with an error (status, power, brightness, screenshot, reload)
          2  a wrong command line, KIOSK_* variable or config file; nothing was touched
          3  what was asked for cannot run (a backend, device or seat named, a trace file or snapshot folder, a running kiosk to ask: no control socket answers or it refuses this user, a screenshot file that cannot be written)
        """
}
