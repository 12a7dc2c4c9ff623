import KioskTesting
import Testing

@testable import KioskKit

/// `tintColor` as UIKit's: inherited down the view tree, a view's own over its superview's, nil to inherit
/// again, and `tintColorDidChange()` for every view whose tint a change or a move changed, and no other.
@MainActor
@Suite(.serialized)
struct TintColorTests {
    /// A view that records its `tintColorDidChange()` calls by identifier.
    final class TintRecordingView: View {
        let log: Recorded<String>
        init(_ identifier: String, log: Recorded<String>) {
            self.log = log
            super.init(frame: .zero)
            self.identifier = identifier
        }
        override func tintColorDidChange() {
            super.tintColorDidChange()
            log.values.append(identifier ?? "?")
        }
    }

    /// root > middle > (leaf, own: a view with a tint of its own), all recording.
    static func tree() -> (root: View, middle: View, leaf: View, own: View, log: Recorded<String>) {
        let log = Recorded<String>()
        let root = TintRecordingView("root", log: log), middle = TintRecordingView("middle", log: log)
        let leaf = TintRecordingView("leaf", log: log), own = TintRecordingView("own", log: log)
        own.tintColor = .red
        root.addSubview(middle)
        middle.addSubview(leaf)
        middle.addSubview(own)
        log.values = []
        return (root, middle, leaf, own, log)
    }

    @Test func aTreeThatSetsNoneHasTheSystemBlue() {
        _ = AnimationBed()
        let (root, _, leaf, own, log) = Self.tree()
        #expect(root.tintColor == View.defaultTintColor && leaf.tintColor == View.defaultTintColor)
        #expect(own.tintColor == .red && log.values.isEmpty)
    }

    @Test func aTintReachesTheViewsBelowThatInheritIt() {
        _ = AnimationBed()
        let (root, middle, leaf, own, log) = Self.tree()
        root.tintColor = .green
        #expect(middle.tintColor == .green && leaf.tintColor == .green && own.tintColor == .red)
        #expect(log.values == ["root", "middle", "leaf"], "parents first; not the one with its own")
        log.values = []
        root.tintColor = .green
        #expect(log.values.isEmpty, "the same tint again changes nothing")
        middle.tintColor = .green
        #expect(log.values.isEmpty, "its own now, but the same colour")
        root.tintColor = nil
        #expect(root.tintColor == View.defaultTintColor && leaf.tintColor == .green && log.values == ["root"])
        middle.tintColor = nil
        #expect(leaf.tintColor == View.defaultTintColor && log.values == ["root", "middle", "leaf"])
    }

    @Test func aMoveUnderAnotherTintTellsTheMovedViews() {
        let bed = AnimationBed()
        let (root, middle, leaf, _, log) = Self.tree()
        bed.window.tintColor = .yellow
        bed.window.addSubview(root)
        #expect(leaf.tintColor == .yellow && log.values == ["root", "middle", "leaf"])
        log.values = []
        let plain = View()
        bed.window.addSubview(plain)
        plain.addSubview(middle)
        #expect(log.values.isEmpty, "the same tint there")
        middle.removeFromSuperview()
        #expect(leaf.tintColor == View.defaultTintColor && log.values == ["middle", "leaf"])
    }

    @Test func aButtonsTitleAndAProgressViewsFillAreTheTintUnlessSet() {
        let bed = AnimationBed()
        let button = Button(title: "Buy")
        let bar = ProgressView(frame: Rect(x: 0, y: 0, width: 100, height: 4))
        bar.progress = 1
        bed.window.addSubview(button)
        bed.window.addSubview(bar)
        bed.render.render()
        #expect(button.titleColor == View.defaultTintColor)
        bed.window.tintColor = .orange
        #expect(button.titleColor == .orange && button.currentTitleColor == .orange)
        #expect(rgb(bed.render.render(), 50, 2) == rgb(Self.pixel(.orange), 0, 0), "the fill redrawn in the new tint")
        button.titleColor = .white
        bed.window.tintColor = .red
        #expect(button.titleColor == .white, "a colour set stays")
        let navigationBar = NavigationBar()
        bed.window.addSubview(navigationBar)
        #expect(navigationBar.tintColor == .red, "a navigation bar's buttons take the window's tint too")
    }

    static func pixel(_ color: Color) -> Bitmap {
        let bitmap = Bitmap(width: 1, height: 1, format: .xrgb8888)
        bitmap.fill(color, in: bitmap.bounds)
        return bitmap
    }
}
