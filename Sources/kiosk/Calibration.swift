import Glibc
import KioskKit
import KioskRuntime

/// The calibration matrix libinput applies to a touchscreen's normalized position, fitted from taps on
/// known targets: `x' = a*x + b*y + c`, `y' = d*x + e*y + f` (udev's `LIBINPUT_CALIBRATION_MATRIX`
/// order), by least squares, so a few sloppy taps average out.
public enum Calibration {
    public struct Sample: Sendable, Equatable {
        /// Where the finger was reported (normalized 0...1 on the panel, no calibration applied).
        public var raw: Point
        /// Where the target was drawn (normalized 0...1 on the panel).
        public var target: Point
        public init(raw: Point, target: Point) {
            self.raw = raw
            self.target = target
        }
    }

    public struct FitError: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    /// The six numbers, or an error when the taps cannot determine them (fewer than 3 samples, or all on
    /// one line: a 3x3 system without a unique solution).
    public static func fit(_ samples: [Sample]) throws(FitError) -> [Double] {
        guard samples.count >= 3 else { throw FitError(description: "need at least 3 taps, got \(samples.count)") }
        // Normal equations of two independent regressions on (x, y, 1).
        var ata = [[Double]](repeating: [0, 0, 0], count: 3)
        var atx = [0.0, 0.0, 0.0], aty = [0.0, 0.0, 0.0]
        for sample in samples {
            let row = [sample.raw.x, sample.raw.y, 1]
            for i in 0..<3 {
                for j in 0..<3 { ata[i][j] += row[i] * row[j] }
                atx[i] += row[i] * sample.target.x
                aty[i] += row[i] * sample.target.y
            }
        }
        guard let first = solve(ata, atx), let second = solve(ata, aty) else {
            throw FitError(description: "the taps lie on one line; tap each target where it is drawn")
        }
        return first + second
    }

    /// Cramer's rule on a 3x3 system; nil when it is singular.
    static func solve(_ m: [[Double]], _ v: [Double]) -> [Double]? {
        func det(_ a: [[Double]]) -> Double {
            a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0])
                + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0])
        }
        let d = det(m)
        guard abs(d) > 1e-12 else { return nil }
        return (0..<3).map { column in
            var replaced = m
            for row in 0..<3 { replaced[row][column] = v[row] }
            return det(replaced) / d
        }
    }

    /// Where the targets go, in fractions of the logical screen: near the corners and the centre.
    public static let targets = [
        Point(x: 0.1, y: 0.1), Point(x: 0.9, y: 0.1), Point(x: 0.9, y: 0.9),
        Point(x: 0.1, y: 0.9), Point(x: 0.5, y: 0.5),
    ]

    /// `1.000000 0.000000 ...` as udev's `LIBINPUT_CALIBRATION_MATRIX` takes it.
    public static func udevSpelling(_ m: [Double]) -> String { m.map { $0.formatted(places: 6) }.joined(separator: " ") }

    /// `[1.0, 0.0, ...]` as the config's `calibration` takes it.
    public static func configSpelling(_ m: [Double]) -> String { "[" + m.map { $0.formatted(places: 6) }.joined(separator: ", ") + "]" }
}

/// `kiosk calibrate`: a white window on one screen showing one target at a time; each tap is recorded
/// where the digitizer reported it (calibration reset to identity), then the matrix is fitted.
@MainActor
public final class CalibrationApp: ApplicationDelegate {
    public let screenName: String
    /// Called with the matrix and the device's name, or an error message.
    let completion: @MainActor (Result<(matrix: [Double], device: String?), Calibration.FitError>) -> Void
    private var window: Window?
    private var samples: [Calibration.Sample] = []
    private var marker: View?
    private var instructions: Label?

    public init(
        screenName: String, completion: @escaping @MainActor (Result<(matrix: [Double], device: String?), Calibration.FitError>) -> Void
    ) {
        self.screenName = screenName
        self.completion = completion
    }

    public func applicationDidFinishLaunching(_ application: Application) {
        guard let screen = Screen.screens.first(where: { $0.name == screenName && $0.isConnected }) else {
            let names = Screen.screens.filter(\.isConnected).map(\.name).joined(separator: ", ")
            completion(
                .failure(
                    Calibration.FitError(description: "no connected screen \(screenName); connected: \(names.isEmpty ? "none" : names)")))
            return
        }
        let window = TargetWindow(screen: screen)
        window.identifier = "calibration"
        window.backgroundColor = .white
        window.isOpaque = true
        window.onTap = { [weak self] touch in self?.record(touch) }
        let label = Label(
            text: "", font: .system(size: 22), frame: Rect(x: 20, y: screen.bounds.midY - 60, width: screen.bounds.width - 40, height: 40))
        label.textAlignment = .center
        window.addSubview(label)
        let marker = CrosshairView(frame: Rect(x: 0, y: 0, width: 40, height: 40))
        window.addSubview(marker)
        window.makeKeyAndVisible()
        self.window = window
        self.marker = marker
        instructions = label
        showTarget()
    }

    private func showTarget() {
        guard let window, let marker else { return }
        let index = samples.count
        let target = Calibration.targets[index]
        let point = Point(x: (target.x * window.bounds.width).rounded(), y: (target.y * window.bounds.height).rounded())
        marker.center = point
        instructions?.text = "Tap the centre of the cross (\(index + 1) of \(Calibration.targets.count))"
        // Machine-readable for scripts and tests: the target in logical screen points.
        StandardOutput.write("TARGET \(index + 1) \(Int(point.x)) \(Int(point.y))")
    }

    private var deviceName: String?

    /// How many targets were tapped so far.
    var tapsRecorded: Int { samples.count }

    private func record(_ touch: Touch) {
        guard let window, let mode = window.screen.currentMode else { return }
        let rotation = window.screen.rotation
        let logical = window.screen.bounds.size
        // Back to the panel: the matrix works on the digitizer's (unrotated, normalized) axes.
        let physicalRaw = rotation.physicalPoint(fromLogical: touch.locationOnScreen, logicalSize: logical)
        let targetPoint = marker!.center
        let physicalTarget = rotation.physicalPoint(fromLogical: targetPoint, logicalSize: logical)
        samples.append(
            Calibration.Sample(
                raw: Point(x: physicalRaw.x / mode.size.width, y: physicalRaw.y / mode.size.height),
                target: Point(x: physicalTarget.x / mode.size.width, y: physicalTarget.y / mode.size.height)))
        if samples.count < Calibration.targets.count {
            showTarget()
            return
        }
        do {
            completion(.success((try Calibration.fit(samples), deviceName)))
        } catch {
            completion(.failure(error))
        }
    }

    /// A window that reports each touch-down.
    final class TargetWindow: Window {
        var onTap: (Touch) -> Void = { _ in }
        override func touchesBegan(_ touches: Set<Touch>, with event: Event) {
            for touch in touches { onTap(touch) }
        }
    }

    final class CrosshairView: View {
        override init(frame: Rect) {
            super.init(frame: frame)
            isUserInteractionEnabled = false
        }
        override func draw(_ rect: Rect) {
            guard let context = DrawingContext.current else { return }
            context.fill(Rect(x: bounds.midX - 1, y: 0, width: 2, height: bounds.height), color: .red)
            context.fill(Rect(x: 0, y: bounds.midY - 1, width: bounds.width, height: 2), color: .red)
        }
    }
}
