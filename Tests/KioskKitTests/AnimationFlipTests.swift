import Testing

@testable import KioskKit

@MainActor
@Suite(.serialized)
struct AnimationFlipTests {
    /// As on DRM: two buffers, each frame shown when the test flips it (at vblank times a period apart),
    /// and a later small change: the buffer on screen at the end holds the end state.
    @Test func theLastBufferOnScreenHoldsTheEndState() {
        let bed = AnimationBed(buffers: 2)
        bed.output.flipsImmediately = false
        let panel = CountingView(frame: Rect(x: 40, y: 40, width: 120, height: 80), color: .blue)
        let label = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        label.backgroundColor = .red
        bed.window.addSubview(panel)
        bed.window.addSubview(label)
        bed.render.render()
        bed.compositor.framePresented(on: bed.screen, at: bed.clock.now)
        panel.alpha = 0
        panel.transform = AffineTransform(scaleX: 0.85, y: 0.85)
        View.animate(withDuration: 0.25, options: .curveEaseOut) {
            panel.alpha = 1
            panel.transform = .identity
        }
        var vblank = bed.clock.now
        for _ in 0..<60 {
            bed.advance(by: bed.period / 3)
            if bed.compositor.isFrameInFlight(on: bed.screen) {
                vblank = max(vblank + bed.period, bed.clock.now)
                bed.compositor.framePresented(on: bed.screen, at: vblank)
            }
        }
        #expect(!bed.render.bed.app.isAnimating)
        // Something small changes later, into the other buffer.
        label.backgroundColor = .green
        bed.render.render()
        bed.compositor.framePresented(on: bed.screen, at: bed.clock.now)
        let shown = bed.frame()
        bed.compositor.setNeedsFullRepaint(bed.screen)
        bed.render.render()
        #expect(samePixels(shown, bed.frame()))
    }

    /// Each frame knows the frame-clock tick it was made for (the trace writes it beside the flip, so the
    /// clock's wait can be told from the composing): an animation's frames the ticks, on the refresh's
    /// beat; a frame a change made, none.
    @Test func eachFrameKnowsTheTickItWasMadeFor() {
        let bed = AnimationBed()
        bed.output.flipsImmediately = false
        let panel = View(frame: Rect(x: 40, y: 40, width: 120, height: 80))
        panel.backgroundColor = .blue
        bed.window.addSubview(panel)
        bed.render.render()
        #expect(bed.compositor.tick(ofLastFrameOn: bed.screen) == nil)
        bed.compositor.framePresented(on: bed.screen)
        View.animate(withDuration: 0.25) { panel.alpha = 0.5 }
        var ticks: [TimeInterval?] = []
        for _ in 0..<120 {
            bed.advance(by: bed.period / 4)
            if bed.compositor.isFrameInFlight(on: bed.screen) {
                ticks.append(bed.compositor.tick(ofLastFrameOn: bed.screen))
                bed.compositor.framePresented(on: bed.screen)  // no vblank time: the timer paces the frames
            }
        }
        #expect(!bed.render.bed.app.isAnimating)
        let made = ticks.compactMap { $0 }
        #expect(made.count >= 10 && made.count >= ticks.count - 1)
        let gaps = zip(made, made.dropFirst()).map { ($1 - $0) / bed.period }
        #expect(gaps.allSatisfy { abs($0 - $0.rounded()) < 1e-6 && $0.rounded() >= 1 }, "\(gaps)")
        // A change after the animation: a frame no tick made.
        panel.backgroundColor = .red
        bed.render.render()
        #expect(bed.compositor.isFrameInFlight(on: bed.screen))
        #expect(bed.compositor.tick(ofLastFrameOn: bed.screen) == nil)
    }
}
