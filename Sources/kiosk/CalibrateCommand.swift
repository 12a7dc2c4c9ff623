import Dispatch
import Glibc
import KioskConfig
import KioskRuntime

extension KioskCommand {
    /// `kiosk calibrate --screen NAME [--write]`: targets on one screen, taps, a calibration matrix.
    struct Calibrate {
        static let command = Commands.Command(
            name: "calibrate",
            abstract: "Calibrate a touchscreen: tap the targets shown on a screen; prints the matrix, --write saves it.",
            discussion: """
                The touchscreen's calibration is reset while the targets are shown, so the taps show where the \
                digitizer really reports. The result is printed as the config's `calibration = [...]` and as udev's \
                LIBINPUT_CALIBRATION_MATRIX; --write saves it into the config file as a [[touch]] entry for the device. \
                The displays are driven as `kiosk run` drives them, with the same config file and settings.
                """,
            options: [
                .value("screen", help: "The connector name of the screen the touchscreen covers (e.g. DSI-1).", required: true),
                .flag("write", help: "Save the result into the config file."),
                .value("timeout", help: "Give up after SECONDS without finishing, exit 1 (default 300)."),
            ],
            settingsHelp: "--config FILE and any setting of `kiosk run`.")

        let screen: String
        let write: Bool
        let timeout: Double
        let settings: [String]

        init(_ invocation: Commands.Invocation) throws(CommandExit) {
            screen = invocation.values["screen"] ?? ""
            write = invocation.flags.contains("write")
            settings = invocation.settings
            let text = invocation.values["timeout"]
            guard let timeout = text == nil ? 300 : Double(text!), timeout.isFinite, timeout > 0 else {
                throw KioskCommand.usage("--timeout \(text ?? ""): must be a number of seconds above 0", command: Self.command)
            }
            self.timeout = timeout
        }

        func run() throws(CommandExit) {
            var configuration = try SettingsArguments.configuration(settings, readFile: true, fileMayBeMissing: write)
            // Calibrating runs until the taps are done or the timeout, never by --exit-after.
            configuration.exitAfter = nil
            RuntimeLogging.bootstrap(level: settings.contains { $0.hasPrefix("--log-level") } ? configuration.logLevel : .notice)
            let path = try SettingsArguments.source(settings).path
            let (screenName, write, timeout) = (screen, self.write, self.timeout)
            let outcome = MainActor.assumeIsolated { () -> Result<Void, CommandExit> in
                var runtime: KioskRuntime?
                let app = CalibrationApp(screenName: screenName) { result in
                    switch result {
                    case .failure(let error):
                        StandardError.write("kiosk calibrate: \(error)")
                        runtime?.stop(reason: "calibration failed", status: ExitStatus.problemsFound)
                    case .success(let (matrix, _)):
                        let device = runtime?.lastTouchDevice
                        StandardOutput.write("calibration = \(Calibration.configSpelling(matrix))")
                        StandardOutput.write("LIBINPUT_CALIBRATION_MATRIX=\"\(Calibration.udevSpelling(matrix))\"")
                        if write {
                            guard let device else {
                                StandardError.write("kiosk calibrate: no device name to save the calibration under")
                                runtime?.stop(reason: "calibration not saved", status: ExitStatus.problemsFound)
                                return
                            }
                            do {
                                try CalibrationWriter.write(path: path, device: device, screen: screenName, matrix: matrix)
                                StandardOutput.write("saved for \"\(device.name)\" on \(screenName) in \(path)")
                            } catch {
                                StandardError.write("kiosk calibrate: cannot save the calibration: \(error)")
                                runtime?.stop(reason: "calibration not saved", status: ExitStatus.problemsFound)
                            }
                        }
                        runtime?.stop(reason: "calibrated", status: 0)
                    }
                }
                let kiosk = KioskRuntime(configuration: configuration, delegate: app)
                kiosk.calibrationOff = true
                runtime = kiosk
                // Taps that cannot come are not waited for; a touchscreen not connected yet (USB) may still come.
                let inputOutcome = kiosk.application.instrumentation.observe { event in
                    guard case .runtime(let outcome as KioskRuntime.InputOutcome) = event else { return }
                    switch outcome {
                    case .started(let devices) where devices.contains(where: { $0.capabilities.contains(.touch) }): break
                    case .started(let devices):
                        let names = devices.map { "\($0.name) (\($0.capabilities))" }.joined(separator: ", ")
                        StandardError.write(
                            "kiosk calibrate: no touch device yet (input devices: \(names.isEmpty ? "none" : names)); connect one: the targets wait for it until the timeout"
                        )
                    case .unavailable(let reason):
                        StandardError.write("kiosk calibrate: no touch device: \(reason)")
                        kiosk.stop(reason: "no touch device to calibrate", status: ExitStatus.cannotRun)
                    }
                }
                DispatchQueue.main.asyncAfter(deadline: .now() + timeout) {
                    MainActor.assumeIsolated { () -> Void in
                        StandardError.write(
                            "kiosk calibrate: timed out after \(timeout) s with \(app.tapsRecorded) of \(Calibration.targets.count) targets tapped"
                        )
                        kiosk.stop(reason: "calibration timed out", status: ExitStatus.problemsFound)
                    }
                }
                do {
                    // The token lives as long as the run (a local is otherwise released after its last use).
                    try withExtendedLifetime(inputOutcome) { try kiosk.run() }
                } catch {
                    StandardError.write("kiosk calibrate: error: \(error)")
                    return .failure(CommandExit(status: ExitStatus.cannotRun))
                }
            }
            try outcome.get()
        }
    }
}
