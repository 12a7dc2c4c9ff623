import ImageDecoding
import KioskTesting
import Testing

@testable import KioskKit

/// An animated image plays in an image view on the frame clock, each frame at its time, only its own
/// rectangle composed, and nothing runs while it is hidden, in no window or scrolled out of sight.
@MainActor
@Suite(.serialized)
struct ImageViewAnimationTests {
    static let colors: [Color] = [.red, .green, .blue]

    /// Three frames of one colour each, shown for 0.1, 0.2 and 0.1 s, played `loopCount` times.
    static func animation(loopCount: Int = 0) -> Image {
        let frames = colors.enumerated().map { index, color -> DecodedImage.Frame in
            let bitmap = Bitmap(width: 20, height: 20, format: .xrgb8888)
            bitmap.fill(color, in: bitmap.bounds)
            return .init(bitmap: bitmap, duration: [0.1, 0.2, 0.1][index])
        }
        return Image(content: .frames(frames, loopCount: loopCount), format: .gif)
    }

    /// A render bed on a manual clock with an image view of the animation at (40, 40) in a shown window.
    static func bed(loopCount: Int = 0) -> (RenderBed, ManualClock, ImageView, Window) {
        let bed = RenderBed()
        let clock = ManualClock(now: 10)
        bed.bed.app.clock = clock
        let window = Window(frame: Rect(x: 0, y: 0, width: 320, height: 240))
        window.backgroundColor = .white
        let view = ImageView(image: animation(loopCount: loopCount))
        view.frame = Rect(x: 40, y: 40, width: 20, height: 20)
        window.addSubview(view)
        window.makeKeyAndVisible()
        bed.render()
        return (bed, clock, view, window)
    }

    func shown(_ bed: RenderBed) -> UInt32 { rgb(bed.render(), 50, 50) }

    static func rgbOf(_ color: Color) -> UInt32 {
        let bitmap = Bitmap(width: 1, height: 1, format: .xrgb8888)
        bitmap.fill(color, in: bitmap.bounds)
        return bitmap.pixel(x: 0, y: 0) & 0xFFFFFF
    }

    @Test(
        arguments: [
            (0.0, 0), (0.099, 0), (0.1, 1), (0.29, 1), (0.3, 2), (0.399, 2), (0.4, 0), (0.55, 1), (4.05, 0),
        ] as [(Double, Int)])
    func theFrameDueAtATime(elapsed: Double, frame: Int) {
        #expect(ImageView.frame(at: 10 + elapsed, start: 10, durations: [0.1, 0.2, 0.1], loopCount: 0) == frame)
    }

    @Test func aLoopCountEndsOnTheLastFrame() {
        let durations = [0.1, 0.2, 0.1]
        #expect(ImageView.frame(at: 0.75, start: 0, durations: durations, loopCount: 2) == 2)
        #expect(ImageView.frame(at: 0.8, start: 0, durations: durations, loopCount: 2) == 2)
        #expect(ImageView.frame(at: 50, start: 0, durations: durations, loopCount: 2) == 2)
        #expect(ImageView.nextChange(after: 0.75, start: 0, durations: durations, loopCount: 2) == nil)
        #expect(ImageView.nextChange(after: 0.65, start: 0, durations: durations, loopCount: 2).map { abs($0 - 0.7) < 1e-9 } == true)
        #expect(ImageView.nextChange(after: 0.1, start: 0, durations: durations, loopCount: 0).map { abs($0 - 0.3) < 1e-9 } == true)
    }

    /// Each frame is on screen from its time, and a frame change composes the view's rectangle alone.
    @Test func framesComeAtTheirTimesWithTheirOwnDamage() {
        let (bed, clock, _, _) = Self.bed()
        let colors = Self.colors.map(Self.rgbOf)
        #expect(shown(bed) == colors[0])
        #expect(clock.pendingTimers.map(\.deadline) == [10.1])
        clock.advance(to: 10.1)
        #expect(shown(bed) == colors[1])
        #expect(bed.output.presented.last?.damage == Region(PixelRect(x: 40, y: 40, width: 20, height: 20)))
        clock.advance(to: 10.25)
        #expect(shown(bed) == colors[1])
        clock.advance(to: 10.3)
        #expect(shown(bed) == colors[2])
        clock.advance(to: 10.4)
        #expect(shown(bed) == colors[0])
        // A stall past two changes shows the frame due then, not each one missed.
        clock.stall(until: 10.75)
        clock.advance(to: 10.75)
        #expect(shown(bed) == colors[2])
    }

    @Test func anAnimationThatPlaysTwiceStopsOnItsLastFrame() {
        let (bed, clock, view, _) = Self.bed(loopCount: 2)
        for step in 1...20 {
            clock.advance(to: 10 + Double(step) * 0.05)
            bed.render()
        }
        #expect(shown(bed) == Self.rgbOf(.blue) && clock.pendingTimers.isEmpty && view.isAnimating)
    }

    /// Hidden, its timer runs out and none follows; shown again, it takes up the frame due then.
    @Test func aHiddenAnimationCostsNothing() {
        let (bed, clock, view, _) = Self.bed()
        expectNothingRunsWhileHidden(view, bed: bed, clock: clock, due: 10.1, until: 12.0)
        // 2.0 s in: frame 0 of the sixth play (0.4 s each) is due until 2.1 s.
        #expect(shown(bed) == Self.rgbOf(.red))
        #expect(clock.pendingTimers.map(\.deadline) == [12.1])
    }

    @Test func anAnimationInATransparentParentOrNoWindowCostsNothing() {
        let (bed, clock, view, window) = Self.bed()
        let parent = View(frame: window.bounds)
        window.addSubview(parent)
        parent.addSubview(view)
        parent.alpha = 0
        bed.render()
        clock.advance(to: 10.1)
        bed.render()
        #expect(clock.pendingTimers.isEmpty)
        parent.alpha = 1
        bed.render()
        #expect(clock.pendingTimers.count == 1)
        view.removeFromSuperview()
        clock.advance(to: 10.31)
        bed.render()
        #expect(clock.pendingTimers.isEmpty)
    }

    /// Scrolled out of its scroll view's bounds, it stops; scrolled back, it plays on.
    @Test func anAnimationScrolledAwayCostsNothing() {
        let (bed, clock, view, window) = Self.bed()
        let scroll = ScrollView(frame: Rect(x: 0, y: 0, width: 320, height: 100))
        scroll.contentSize = Size(width: 320, height: 1000)
        window.addSubview(scroll)
        scroll.addSubview(view)
        bed.render()
        scroll.contentOffset = Point(x: 0, y: 300)
        bed.render()
        clock.advance(to: 10.1)
        bed.render()
        #expect(clock.pendingTimers.isEmpty)
        scroll.contentOffset = .zero
        bed.render()
        #expect(clock.pendingTimers.count == 1 && rgb(bed.render(), 50, 50) == Self.rgbOf(.green))
    }

    @Test func stopAnimatingShowsTheFirstFrame() {
        let (bed, clock, view, _) = Self.bed()
        clock.advance(to: 10.1)
        #expect(shown(bed) == Self.rgbOf(.green))
        view.stopAnimating()
        #expect(shown(bed) == Self.rgbOf(.red) && !view.isAnimating && clock.pendingTimers.isEmpty)
        view.startAnimating()
        bed.render()
        #expect(view.isAnimating && clock.pendingTimers.count == 1)
    }
}
