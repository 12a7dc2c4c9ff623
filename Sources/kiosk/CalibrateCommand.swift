import ArgumentParser
import Foundation
import KioskRuntime
import Logging

extension KioskCommand {
    /// `kiosk calibrate --screen NAME [--write]`: targets on one screen, taps, a calibration matrix.
    struct Calibrate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Calibrate a touchscreen: tap the targets shown on a screen; prints the matrix, --write saves it.",
            discussion: """
            The touchscreen's calibration is reset while the targets are shown, so the taps show where the \
            digitizer really reports. The result is printed as the config's `calibration = [...]` and as udev's \
            LIBINPUT_CALIBRATION_MATRIX; --write saves it into the config file as a [[touch]] entry for the device.
            """
        )

        @Option(name: .customLong("screen"), help: "The connector name of the screen the touchscreen covers (e.g. DSI-1).")
        var screen: String

        @Flag(name: .customLong("write"), help: "Save the result into the config file.")
        var write = false

        @Option(name: .customLong("config"), help: "The config file for --write (default: KIOSK_CONFIG, else /etc/kiosk/kiosk.toml).")
        var configPath: String?

        @Option(name: .customLong("drm-device"), help: "The DRM card (default: as kiosk run).")
        var drmDevice: String?

        @Option(name: .customLong("timeout"), help: "Give up after SECONDS without finishing (default 300).")
        var timeout: Double = 300

        @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
        var logLevel: Logger.Level = .notice

        func run() throws {
            let level = logLevel
            LoggingSystem.bootstrap { label in
                var handler = StreamLogHandler.standardError(label: label)
                handler.logLevel = level
                return handler
            }
            var options = RuntimeOptions()
            options.backend = .auto
            options.drmDevice = drmDevice
            options.rawTouch = true
            options.exitAfter = timeout
            let path = configPath ?? ProcessInfo.processInfo.environment["KIOSK_CONFIG"] ?? "/etc/kiosk/kiosk.toml"
            let screenName = screen
            let write = self.write
            try MainActor.assumeIsolated {
                var runtime: KioskRuntime?
                let app = CalibrationApp(screenName: screenName) { result in
                    switch result {
                    case .failure(let error):
                        FileHandle.standardError.write(Data("kiosk calibrate: \(error)\n".utf8))
                        runtime?.stop(reason: "calibration failed", status: 1)
                    case .success(let (matrix, _)):
                        let device = runtime?.lastTouchDeviceName
                        let out = FileHandle.standardOutput
                        out.write(Data("calibration = \(Calibration.configSpelling(matrix))\n".utf8))
                        out.write(Data("LIBINPUT_CALIBRATION_MATRIX=\"\(Calibration.udevSpelling(matrix))\"\n".utf8))
                        if write {
                            guard let device else {
                                FileHandle.standardError.write(Data("kiosk calibrate: no device name to save the calibration under\n".utf8))
                                runtime?.stop(reason: "calibration not saved", status: 1)
                                return
                            }
                            do {
                                try CalibrationWriter.write(path: path, device: device, screen: screenName, matrix: matrix)
                                out.write(Data("saved for \"\(device)\" on \(screenName) in \(path)\n".utf8))
                            } catch {
                                FileHandle.standardError.write(Data("kiosk calibrate: cannot write \(path): \(error)\n".utf8))
                                runtime?.stop(reason: "calibration not saved", status: 1)
                            }
                        }
                        runtime?.stop(reason: "calibrated", status: 0)
                    }
                }
                let kiosk = KioskRuntime(options: options, delegate: app)
                runtime = kiosk
                do {
                    try kiosk.run()
                } catch {
                    FileHandle.standardError.write(Data("kiosk calibrate: error: \(error)\n".utf8))
                    throw ExitCode(2)
                }
            }
        }
    }
}
