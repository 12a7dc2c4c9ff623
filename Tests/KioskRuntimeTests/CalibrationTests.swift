import Geometry
import KioskBackend
import KioskKit
import Testing

@testable import kiosk

@Suite struct CalibrationTests {
    static func apply(_ m: [Double], _ p: Point) -> Point {
        Point(x: m[0] * p.x + m[1] * p.y + m[2], y: m[3] * p.x + m[4] * p.y + m[5])
    }

    /// A digitizer that reports positions through a known distortion: the fit is that distortion's inverse.
    @Test(arguments: [
        [1.0, 0, 0, 0, 1, 0],
        [0.9, 0, 0.05, 0, 0.8, 0.1],  // scaled and shifted
        [0, -1, 1, 1, 0, 0],  // mounted a quarter turn off
        [-1, 0, 1, 0, -1, 1],
        [0.95, 0.03, 0.01, -0.02, 1.05, -0.03],
    ])
    func recoversTheInverseOfTheDistortion(distortion: [Double]) throws {
        // raw = D(target) is what the digitizer says; the calibration C must satisfy C(raw) = target.
        let samples = Calibration.targets.map { Calibration.Sample(raw: Self.apply(distortion, $0), target: $0) }
        let matrix = try Calibration.fit(samples)
        for sample in samples {
            let corrected = Self.apply(matrix, sample.raw)
            #expect(abs(corrected.x - sample.target.x) < 1e-9 && abs(corrected.y - sample.target.y) < 1e-9)
        }
    }

    @Test func sloppyTapsAverageOut() throws {
        let jitter = [
            Point(x: 0.004, y: -0.003), Point(x: -0.002, y: 0.004), Point(x: 0.003, y: 0.002),
            Point(x: -0.004, y: -0.002), Point(x: 0.001, y: -0.001),
        ]
        let samples = zip(Calibration.targets, jitter).map { Calibration.Sample(raw: Point(x: $0.x + $1.x, y: $0.y + $1.y), target: $0) }
        let matrix = try Calibration.fit(samples)
        for (value, expected) in zip(matrix, [1.0, 0, 0, 0, 1, 0]) { #expect(abs(value - expected) < 0.02) }
    }

    @Test func tooFewOrCollinearTapsAreErrors() {
        #expect(throws: Calibration.FitError(description: "need at least 3 taps, got 2")) {
            try Calibration.fit(Array(Calibration.targets.prefix(2)).map { .init(raw: $0, target: $0) })
        }
        let line = [0.1, 0.5, 0.9].map { Point(x: $0, y: $0) }
        #expect(throws: Calibration.FitError(description: "the taps lie on one line; tap each target where it is drawn")) {
            try Calibration.fit(line.map { .init(raw: $0, target: $0) })
        }
    }

    @Test func spellings() {
        #expect(Calibration.udevSpelling([0, -1, 1, 1, 0, 0]) == "0.000000 -1.000000 1.000000 1.000000 0.000000 0.000000")
        #expect(Calibration.configSpelling([1, 0, 0, 0, 1, 0]) == "[1.000000, 0.000000, 0.000000, 0.000000, 1.000000, 0.000000]")
    }
}

@Suite struct CalibrationWriterTests {
    static let matrix: [Double] = [0, -1, 1, 1, 0, 0]
    static let spelled = "calibration = [0.000000, -1.000000, 1.000000, 1.000000, 0.000000, 0.000000]"

    static func device(_ name: String, vendor: UInt16 = 0x222a, product: UInt16 = 1) -> InputDeviceInfo {
        InputDeviceInfo(id: 1, name: name, sysname: "event5", vendorID: vendor, productID: product, capabilities: [.touch])
    }

    static func updated(_ text: String, _ name: String, matrix: [Double] = matrix) -> Result<String, CalibrationSaveError> {
        CalibrationWriter.updated(text, device: device(name), screen: "DSI-1", matrix: matrix)
    }

    @Test func appendsAnEntryKeepingTheText() {
        let text = "# my kiosk\nbackend = \"drm\"\n\n[screens.DSI-1]\nrotation = \"90\"\n"
        #expect(
            Self.updated(text, "ILITEK ILITEK-TP")
                == .success(
                    text
                        + "\n# Written by `kiosk calibrate`.\n[[touch]]\nmatch = \"ILITEK ILITEK-TP\"\nscreen = \"DSI-1\"\n\(Self.spelled)\n"
                ))
    }

    @Test func replacesTheCalibrationOfTheDevicesEntry() {
        let text =
            "[[touch]]\nmatch = \"other\"\nscreen = \"HDMI-A-1\"\ncalibration = [1, 0, 0, 0, 1, 0]\n\n[[touch]]\nmatch = \"panel\"\nscreen = \"DSI-1\"\ncalibration = [1, 0, 0, 0, 1, 0] # old\n"
        #expect(
            Self.updated(text, "panel")
                == .success(
                    "[[touch]]\nmatch = \"other\"\nscreen = \"HDMI-A-1\"\ncalibration = [1, 0, 0, 0, 1, 0]\n\n[[touch]]\nmatch = \"panel\"\nscreen = \"DSI-1\"\n\(Self.spelled)\n"
                ))
    }

    @Test func addsACalibrationLineToAnEntryWithout() {
        let text = "[[touch]]\nmatch = \"panel\"\nscreen = \"DSI-1\"\n"
        #expect(Self.updated(text, "panel") == .success("[[touch]]\n\(Self.spelled)\nmatch = \"panel\"\nscreen = \"DSI-1\"\n"))
    }

    /// A calibration written over several lines is replaced whole (its tail was left behind, which broke
    /// the file and, under Restart=always, every start after it).
    @Test func replacesACalibrationWrittenOverSeveralLines() {
        let text =
            "[[touch]]\nmatch = \"panel\"\nscreen = \"DSI-1\"\ncalibration = [\n  1.0, 0.0, 0.0,  # x\n  0.0, 1.0, 0.0,\n]\n\n[screens.DSI-1]\nrotation = \"90\"\n"
        #expect(
            Self.updated(text, "panel")
                == .success("[[touch]]\nmatch = \"panel\"\nscreen = \"DSI-1\"\n\(Self.spelled)\n\n[screens.DSI-1]\nrotation = \"90\"\n"))
    }

    /// The rule the running kiosk takes for the device is the one edited: the first that covers it, by a
    /// glob or by vendor and product, and a header written with a comment or spaces (an entry appended after
    /// it never applied).
    @Test func editsTheRuleThatCoversTheDevice() {
        let glob = "[[touch]]\nmatch = \"ILITEK*\"\nscreen = \"DSI-1\"\n"
        #expect(Self.updated(glob, "ILITEK ILITEK-TP") == .success("[[touch]]\n\(Self.spelled)\nmatch = \"ILITEK*\"\nscreen = \"DSI-1\"\n"))
        let ids = "[[ touch ]]  # the panel\nmatch = \"222a:0001\"\nscreen = \"DSI-1\"\n"
        #expect(
            Self.updated(ids, "Some Panel")
                == .success("[[ touch ]]  # the panel\n\(Self.spelled)\nmatch = \"222a:0001\"\nscreen = \"DSI-1\"\n"))
    }

    /// Nothing is written when the file is broken, or when the edit would not be what the kiosk applies.
    @Test func refusesWhatItCannotSaveSafely() {
        guard case .failure(.invalidFile) = Self.updated("backend = \n", "panel") else {
            Issue.record("a broken file was edited")
            return
        }
        // A singular matrix is refused by the configuration: the edited file would not be valid.
        guard case .failure(.wouldBreakFile) = Self.updated("", "panel", matrix: [0, 0, 0, 0, 0, 0]) else {
            Issue.record("an invalid calibration was written")
            return
        }
    }

    @Test func globCharactersInNamesAreEscaped() {
        #expect(CalibrationWriter.quoted("Touch [USB] *1") == "\"Touch \\\\[USB] \\\\*1\"")
        // And the appended entry's match covers the very device.
        guard case .success(let text) = Self.updated("", "Touch [USB] *1") else {
            Issue.record("not saved")
            return
        }
        #expect(text.contains("match = \"Touch \\\\[USB] \\\\*1\""))
    }
}
