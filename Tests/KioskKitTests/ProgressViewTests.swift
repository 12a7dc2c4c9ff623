import KioskTesting
import Testing

@testable import KioskKit

/// `ProgressView` as UIProgressView: the value pinned to 0...1, shown at once or eased there with a display
/// link that goes when it arrives, its intrinsic height, and its look.
@MainActor
@Suite(.serialized)
struct ProgressViewTests {
    @Test(arguments: [(0.5, 0.5), (-1, 0), (2, 1), (Float.nan, 0), (Float.infinity, 1)] as [(Float, Float)])
    func theValueIsPinnedToZeroToOne(set: Float, kept: Float) {
        _ = AnimationBed()
        let bar = ProgressView()
        bar.progress = set
        #expect(bar.progress == kept && bar.shownFraction == Double(kept))
    }

    @Test func itsIntrinsicHeightIsFourPoints() {
        _ = AnimationBed()
        #expect(ProgressView().intrinsicContentSize == Size(width: View.noIntrinsicMetric, height: 4))
        #expect(ProgressView(progressViewStyle: .bar).sizeThatFits(Size(width: 300, height: 50)) == Size(width: 300, height: 4))
    }

    /// Eased over a quarter second, one step a frame, then the link is gone; a new value on the way takes
    /// over from where the fill is.
    @Test func anAnimatedChangeEasesThereAndLeavesNothingRunning() {
        let bed = AnimationBed()
        let bar = ProgressView(frame: Rect(x: 10, y: 10, width: 200, height: 4))
        bed.window.addSubview(bar)
        bed.render.render()
        bar.setProgress(0.8, animated: true)
        #expect(bar.progress == 0.8 && bar.shownFraction == 0)
        bed.advance(by: ProgressView.animationDuration / 2)
        let midway = bar.shownFraction
        #expect(midway > 0.2 && midway < 0.6, "on its way: \(midway)")
        bar.setProgress(0.2, animated: true)
        bed.advance(by: 1 / 60.0)
        #expect(abs(bar.shownFraction - midway) < 0.1, "from where it was: \(bar.shownFraction) after \(midway)")
        bed.advance(by: ProgressView.animationDuration)
        #expect(bar.shownFraction == Double(Float(0.2)) && Application.shared.displayLinks.isEmpty)
        let frames = bed.frameTimes.count
        bed.advance(by: 1)
        #expect(bed.frameTimes.count == frames, "no frame once there")
    }

    @Test func outsideAWindowOrUnanimatedItIsThereAtOnce() {
        let bed = AnimationBed()
        let bar = ProgressView(frame: Rect(x: 0, y: 0, width: 100, height: 4))
        bar.setProgress(0.5, animated: true)
        #expect(bar.shownFraction == 0.5 && Application.shared.displayLinks.isEmpty)
        bed.window.addSubview(bar)
        bar.setProgress(0.7, animated: false)
        #expect(bar.shownFraction == Double(Float(0.7)))
    }

    @Test func aViewGoneMidwayLeavesNoLink() {
        let bed = AnimationBed()
        var bar: ProgressView? = ProgressView(frame: Rect(x: 0, y: 0, width: 100, height: 4))
        bed.window.addSubview(bar!)
        bar!.setProgress(1, animated: true)
        bar!.removeFromSuperview()
        bar = nil
        bed.advance(by: 0.05)
        #expect(Application.shared.displayLinks.isEmpty)
    }

    @Test func theLookOfEachStyle() throws {
        let r = RenderBed(width: 220, height: 60)
        let window = r.bed.window("main")
        window.backgroundColor = .white
        let bars: [(Float, ProgressView.Style, Color?, Color?)] = [
            (0, .default, nil, nil), (0.3, .default, nil, nil), (1, .default, nil, nil), (0.5, .bar, nil, nil),
            (0.6, .default, Color(rgb: 0xFF9500), Color(rgb: 0x333333)),
        ]
        for (index, (value, style, tint, track)) in bars.enumerated() {
            let bar = ProgressView(progressViewStyle: style)
            bar.frame = Rect(x: 10, y: 6 + Double(index) * 10, width: 200, height: 4)
            bar.progressTintColor = tint
            bar.trackTintColor = track
            bar.progress = value
            window.addSubview(bar)
        }
        try expectGolden(r.render(), named: "progress-views")
    }
}
