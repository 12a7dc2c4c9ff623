import Geometry
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

    @Test func appendsAnEntryKeepingTheText() {
        let text = "# my kiosk\nbackend = \"drm\"\n\n[screens.DSI-1]\nrotation = \"90\"\n"
        let updated = CalibrationWriter.updated(text, device: "ILITEK ILITEK-TP", screen: "DSI-1", matrix: Self.matrix)
        #expect(
            updated == text + "\n# Written by `kiosk calibrate`.\n[[touch]]\nmatch = \"ILITEK ILITEK-TP\"\nscreen = \"DSI-1\"\n"
                + "calibration = [0.000000, -1.000000, 1.000000, 1.000000, 0.000000, 0.000000]\n")
    }

    @Test func replacesTheCalibrationOfTheDevicesEntry() {
        let text =
            "[[touch]]\nmatch = \"other\"\nscreen = \"HDMI-A-1\"\ncalibration = [1, 0, 0, 0, 1, 0]\n\n[[touch]]\nmatch = \"panel\"\nscreen = \"DSI-1\"\ncalibration = [1, 0, 0, 0, 1, 0] # old\n"
        let updated = CalibrationWriter.updated(text, device: "panel", screen: "DSI-1", matrix: Self.matrix)
        #expect(
            updated
                == "[[touch]]\nmatch = \"other\"\nscreen = \"HDMI-A-1\"\ncalibration = [1, 0, 0, 0, 1, 0]\n\n[[touch]]\nmatch = \"panel\"\nscreen = \"DSI-1\"\n"
                + "calibration = [0.000000, -1.000000, 1.000000, 1.000000, 0.000000, 0.000000]\n")
    }

    @Test func addsACalibrationLineToAnEntryWithout() {
        let text = "[[touch]]\nmatch = \"panel\"\nscreen = \"DSI-1\"\n"
        let updated = CalibrationWriter.updated(text, device: "panel", screen: "DSI-1", matrix: [1, 0, 0, 0, 1, 0])
        #expect(
            updated
                == "[[touch]]\nmatch = \"panel\"\ncalibration = [1.000000, 0.000000, 0.000000, 0.000000, 1.000000, 0.000000]\nscreen = \"DSI-1\"\n"
        )
    }

    @Test func globCharactersInNamesAreEscaped() {
        #expect(CalibrationWriter.quoted("Touch [USB] *1") == "\"Touch \\\\[USB] \\\\*1\"")
    }
}
