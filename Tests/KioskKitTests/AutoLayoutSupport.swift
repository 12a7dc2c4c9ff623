@testable import KioskKit

/// A window with a 400x300 container at its origin, for Auto Layout tests, recording the layout problems
/// the engine reports.
@MainActor
final class LayoutBed {
    let bed: TestBed
    let window: Window
    let container: View
    private(set) var problems: [String] = []
    private var token: InstrumentationToken?

    init() {
        bed = TestBed()
        window = bed.window("main")
        container = View(frame: Rect(x: 0, y: 0, width: 400, height: 300))
        container.identifier = "container"
        window.addSubview(container)
        token = bed.app.instrumentation.observe { [weak self] event in
            if case .layoutProblem(let message) = event { self?.problems.append(message) }
        }
    }

    /// A view for constraints (`translatesAutoresizingMaskIntoConstraints` false) in `superview` (the
    /// container by default).
    func constrainedView(_ identifier: String, in superview: View? = nil) -> View {
        let view = View()
        view.identifier = identifier
        view.translatesAutoresizingMaskIntoConstraints = false
        (superview ?? container).addSubview(view)
        return view
    }

    /// Runs the window's layout pass, as a frame does.
    func layout() { window.layoutIfNeeded() }

    /// The passes the window's engine ran.
    var passes: Int { window.layoutStateIfMade?.engine?.passCount ?? 0 }

    func takeProblems() -> [String] {
        defer { problems = [] }
        return problems
    }
}

extension Rect {
    /// `x y w h`, for short expectations.
    var short: String {
        func format(_ value: Double) -> String { value == value.rounded() ? String(Int(value)) : String(value) }
        return [minX, minY, width, height].map(format).joined(separator: " ")
    }
}
