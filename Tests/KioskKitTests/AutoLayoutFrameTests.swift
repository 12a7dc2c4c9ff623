import Testing

@testable import KioskKit

/// Auto Layout in the frame loop: the pass runs before composition, only when something changed, and
/// constraint changes laid out inside an animation block animate.
@MainActor @Suite(.serialized)
struct AutoLayoutFrameTests {
    /// A constraint's change asks for a frame; the frame lays out and shows it; frames after it (the
    /// caret, an animation elsewhere) run no pass.
    @Test func theFrameLaysOutAndANothingChangedFrameRunsNoPass() {
        let bed = AnimationBed()
        let box = View()
        box.backgroundColor = .red
        box.translatesAutoresizingMaskIntoConstraints = false
        bed.window.addSubview(box)
        let left = box.leadingAnchor.constraint(equalTo: bed.window.leadingAnchor, constant: 10)
        LayoutConstraint.activate([
            left, box.topAnchor.constraint(equalTo: bed.window.topAnchor, constant: 10), box.widthAnchor.constraint(equalToConstant: 40),
            box.heightAnchor.constraint(equalToConstant: 40),
        ])
        #expect(box.frame == .zero)
        bed.render.render()
        #expect(box.frame.short == "10 10 40 40")
        #expect(rgb(bed.frame(), 30, 30) == 0xFF0000)
        let engine = try! #require(bed.window.layoutStateIfMade?.engine)
        let passes = engine.passCount
        // Frames for something else: no layout pass.
        let other = bed.smallView()
        View.animate(withDuration: 0.2) { other.alpha = 0.5 }
        let frames = bed.frameTimes.count
        bed.advance(by: 0.5)
        #expect(bed.frameTimes.count > frames && engine.passCount == passes)
        left.constant = 100
        bed.render.render()
        #expect(engine.passCount == passes + 1 && rgb(bed.frame(), 120, 30) == 0xFF0000)
    }

    /// `View.animate { layoutIfNeeded() }`: the frames the pass sets animate from where they were.
    @Test func constraintChangesAnimateInsideAnAnimationBlock() {
        let bed = AnimationBed()
        let box = View()
        box.translatesAutoresizingMaskIntoConstraints = false
        bed.window.addSubview(box)
        let left = box.leadingAnchor.constraint(equalTo: bed.window.leadingAnchor, constant: 0)
        let width = box.widthAnchor.constraint(equalToConstant: 20)
        LayoutConstraint.activate([
            left, width, box.topAnchor.constraint(equalTo: bed.window.topAnchor), box.heightAnchor.constraint(equalToConstant: 20),
        ])
        bed.window.layoutIfNeeded()
        left.constant = 100
        width.constant = 60
        View.animate(withDuration: 1, options: .curveLinear) { bed.window.layoutIfNeeded() }
        #expect(box.frame.short == "100 0 60 20")
        #expect(box.presentationFrame.short == "0 0 20 20")
        bed.advance(by: 0.5)
        #expect(abs(box.presentationFrame.minX - 50) <= 100 * bed.period + 1e-9)
        #expect(abs(box.presentationFrame.width - 40) <= 40 * bed.period + 1e-9)
        bed.advance(by: 1)
        #expect(box.presentationFrame == box.frame)
    }
}
