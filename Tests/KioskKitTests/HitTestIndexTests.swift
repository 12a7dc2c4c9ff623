import Foundation
import SeededRandom
import Testing

@testable import KioskKit

/// The grid of subview frames (`HitTestIndex`) must answer every point exactly as the plain walk, front to
/// back through every subview, does: on random trees with transforms (singular ones too), scrolled bounds,
/// negative and empty sizes, hidden, faint and non-interactive views, and subclasses that override
/// `point(inside:)` or `hitTest`; before and after the trees change.
@MainActor @Suite(.serialized)
struct HitTestIndexTests {
    /// The plain walk's answer: the same `hitTest` with the grid turned off, so overrides run as they do.
    static func walked(_ root: View, _ point: Point) -> View? {
        View.usesHitTestIndex = false
        defer { View.usesHitTestIndex = true }
        return root.hitTest(point, with: nil)
    }

    /// UIKit's walk written out again for trees whose classes override `point(inside:)` at most: no code of
    /// `hitTestSubviews` in it.
    static func reference(_ view: View, _ point: Point) -> View? {
        guard !view.isHidden, view.isUserInteractionEnabled, view.alpha >= 0.01, view.point(inside: point, with: nil) else { return nil }
        for subview in view.subviews.reversed() {
            if let hit = reference(subview, subview.convertFromSuperview(point)) { return hit }
        }
        return view
    }

    @Test(arguments: 0..<12)
    func randomTreesAnswerAsThePlainWalk(seed: Int) {
        Application.reset()
        var random = SplitMix64(seed: UInt64(seed) &+ 0x9E37_79B9_7F4A_7C15)
        let overrides = seed % 3 != 0
        let root = RandomTree.make(&random, overridingHitTest: overrides)
        var checked = 0
        for round in 0..<6 {
            for point in RandomTree.points(in: root, &random) {
                let indexed = root.hitTest(point, with: nil)
                let walked = Self.walked(root, point)
                #expect(indexed === walked, "seed \(seed) round \(round) at \(point): \(name(indexed)) against \(name(walked))")
                if !overrides {
                    #expect(indexed === Self.reference(root, point), "seed \(seed) round \(round) at \(point): the written-out walk")
                }
                checked += 1
            }
            // Change the tree the ways that must drop a grid (or must not matter to it), then ask again.
            RandomTree.mutate(root, &random, overridingHitTest: overrides)
        }
        #expect(checked > 1000)
    }

    /// The grid asks few subviews for a point in a tiling, but every subview of a class it does not know,
    /// wherever the point is: such a class may take points outside its frame.
    @Test func theGridSkipsKnownViewsOnlyByTheirFrames() {
        Application.reset()
        let root = View(frame: Rect(x: 0, y: 0, width: 1000, height: 1000))
        for row in 0..<20 {
            for column in 0..<20 {
                root.addSubview(View(frame: Rect(x: Double(column) * 50, y: Double(row) * 50, width: 50, height: 50)))
            }
        }
        let wide = WideView(frame: Rect(x: 900, y: 900, width: 10, height: 10))
        root.addSubview(wide)
        #expect(root.hitTest(Point(x: 10, y: 10), with: nil) === root.subviews[0])
        let candidates = root.hitTestIndex?.candidates(at: Point(x: 10, y: 10)) ?? []
        #expect(candidates == [400, 0], "the wide view first, then the tile under the point: \(candidates)")
        // The wide view's own `point(inside:)` takes a point 40 points off its frame; the grid asked it.
        #expect(root.hitTest(Point(x: 870, y: 905), with: nil) === wide)
    }

    /// A transform that cannot be inverted (a zero scale, or one whose determinant underflows) makes
    /// `convertFromSuperview` apply the transform itself, as `CGAffineTransform.inverted()` does, and the view
    /// then takes points far outside its frame: the grid asks it wherever the point is, as the walk does.
    @Test func aTransformThatCannotBeInvertedIsAskedEverywhere() {
        Application.reset()
        let root = View(frame: Rect(x: 0, y: 0, width: 800, height: 800))
        for index in 0..<40 { root.addSubview(View(frame: Rect(x: Double(index) * 20, y: 500, width: 20, height: 20))) }
        let flat = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        flat.transform = AffineTransform(scaleX: 0, y: 1)
        let tiny = View(frame: Rect(x: 0, y: 200, width: 100, height: 100))
        tiny.bounds.origin = Point(x: 0, y: 200)
        tiny.transform = AffineTransform(scaleX: 1e-200, y: 1e-200)
        root.insertSubview(flat, at: 0)
        root.insertSubview(tiny, at: 0)
        #expect(flat.frame.width == 0 && tiny.frame.width < 1e-100)
        // Both map (400, y) to their centre's x, inside their bounds.
        #expect(root.hitTest(Point(x: 400, y: 30), with: nil) === flat)
        #expect(root.hitTest(Point(x: 400, y: 250), with: nil) === tiny)
        #expect(root.hitTest(Point(x: 400, y: 250), with: nil) === Self.walked(root, Point(x: 400, y: 250)))
    }

    /// A subview whose `hitTest` changes the tree in the middle of a query (moves a view behind it under the
    /// point, removes another and itself): the subviews behind it are asked as the plain walk asks them, in
    /// the list as it was, and the grid and the removed views stay alive until the query is over.
    @Test func aHitTestThatChangesTheTreeMidwayAnswersAsTheWalk() {
        final class Meddler: View {
            var armed = false
            override func hitTest(_ point: Point, with event: Event?) -> View? {
                guard armed, let superview else { return nil }
                superview.subviews[3].center = Point(x: 405, y: 405)
                superview.subviews[5].removeFromSuperview()
                removeFromSuperview()
                return nil
            }
        }
        func make() -> View {
            let root = View(frame: Rect(x: 0, y: 0, width: 800, height: 800))
            root.identifier = "root"
            for index in 0..<40 {
                let tile = View(frame: Rect(x: Double(index) * 20, y: 0, width: 20, height: 20))
                tile.identifier = "tile \(index)"
                root.addSubview(tile)
            }
            root.addSubview(Meddler(frame: Rect(x: 400, y: 400, width: 10, height: 10)))
            return root
        }
        Application.reset()
        let point = Point(x: 405, y: 405)
        let indexed = make(), walked = make()
        #expect(indexed.hitTest(Point(x: 1, y: 1), with: nil)?.identifier == "tile 0" && indexed.hitTestIndex != nil)
        for root in [indexed, walked] { (root.subviews.last as? Meddler)?.armed = true }
        let hit = indexed.hitTest(point, with: nil)
        #expect(hit?.identifier == "tile 3")
        #expect(hit?.identifier == Self.walked(walked, point)?.identifier)
        #expect(indexed.subviews.count == 39 && indexed.hitTest(point, with: nil)?.identifier == "tile 3")
    }

    /// The grid follows each change of a subview's place or of the list of subviews.
    @Test func changesDropTheGrid() {
        Application.reset()
        let root = View(frame: Rect(x: 0, y: 0, width: 400, height: 400))
        let tiles = (0..<64).map { index in
            View(frame: Rect(x: Double(index % 8) * 50, y: Double(index / 8) * 50, width: 50, height: 50))
        }
        for tile in tiles { root.addSubview(tile) }
        let point = Point(x: 25, y: 25)
        #expect(root.hitTest(point, with: nil) === tiles[0] && root.hitTestIndex != nil)
        tiles[9].center = Point(x: 30, y: 30)
        #expect(root.hitTestIndex == nil && root.hitTest(point, with: nil) === tiles[9])
        // Each growth follows a grid made with a small box (the centre moved too, so it was made again): a
        // stale grid would not ask tile 9.
        tiles[9].frame = Rect(x: 28, y: 28, width: 2, height: 2)
        #expect(root.hitTest(point, with: nil) === tiles[0])
        tiles[9].bounds.size = Size(width: 30, height: 30)
        #expect(root.hitTest(point, with: nil) === tiles[9])
        tiles[9].frame = Rect(x: 27, y: 27, width: 2, height: 2)
        #expect(root.hitTest(point, with: nil) === tiles[0])
        tiles[9].transform = AffineTransform(scaleX: 20, y: 20)
        #expect(root.hitTest(point, with: nil) === tiles[9])
        tiles[9].removeFromSuperview()
        #expect(root.hitTest(point, with: nil) === tiles[0])
        let cover = View(frame: Rect(x: 20, y: 20, width: 10, height: 10))
        root.insertSubview(cover, at: 1)
        #expect(root.hitTest(point, with: nil) === cover)
        root.sendSubviewToBack(cover)
        #expect(root.hitTest(point, with: nil) === tiles[0])
        tiles[0].isHidden = true
        #expect(root.hitTest(point, with: nil) === cover)
        // Scrolling the root moves its content under a point of its superview; no subview's frame changes.
        let outer = View(frame: root.frame)
        outer.addSubview(root)
        root.bounds.origin = Point(x: 100, y: 0)
        #expect(outer.hitTest(point, with: nil) === tiles[2])
    }

    /// The KioskKit classes that override `hitTest` or `point(inside:)` (a touch area larger than their
    /// bounds), each made once: none may be in the list of classes whose frames the grid trusts.
    static let overridingClasses: [String: @MainActor () -> View] = [
        "Switch": { Switch() }, "Slider": { Slider() }, "Stepper": { Stepper() },
        "PageControl": { PageControl() },
    ]

    /// Only the classes above override `hitTest` or `point(inside:)`, and the grid does not trust their
    /// frames (`View.hitTestsWithinFrame`): a class that must override them leaves that list first.
    @Test func onlyKioskKitClassesOutOfTheGridsListOverrideHitTesting() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources/KioskKit")
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        var overriding: Set<String> = []
        var read = 0
        for case let file as URL in files where file.pathExtension == "swift" {
            read += 1
            var declared = "(no class)"
            for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
                let words = line.split(separator: " ")
                if let index = words.firstIndex(of: "class"), index + 1 < words.count {
                    declared = String(words[index + 1].prefix { $0.isLetter || $0.isNumber })
                }
                if line.contains("override") && (line.contains("func hitTest(") || line.contains("func point(inside")) {
                    overriding.insert(declared)
                }
            }
        }
        #expect(read > 30)
        #expect(overriding == Set(Self.overridingClasses.keys))
        for (name, make) in Self.overridingClasses { #expect(!make().hitTestsWithinFrame, "\(name)") }
        #expect(Button().hitTestsWithinFrame, "a class that does not override is in the list")
    }
}

@MainActor private func name(_ view: View?) -> String { view.map { $0.identifier ?? "\(type(of: $0))" } ?? "nil" }

/// A view whose touch area reaches 40 points past its bounds (as a small button's often does).
@MainActor
final class WideView: View {
    override func point(inside point: Point, with event: Event?) -> Bool {
        bounds.insetBy(dx: -40, dy: -40).contains(point)
    }
}

/// A view whose touch area is smaller than its bounds.
@MainActor
final class NarrowView: View {
    override func point(inside point: Point, with event: Event?) -> Bool {
        bounds.insetBy(dx: 5, dy: 5).contains(point)
    }
}

/// Reaches subviews outside its bounds (the usual fix for a control that sticks out of its container).
@MainActor
final class OverhangView: View {
    override func hitTest(_ point: Point, with event: Event?) -> View? {
        if let hit = super.hitTest(point, with: event) { return hit }
        guard !isHidden, isUserInteractionEnabled, alpha >= 0.01 else { return nil }
        for subview in subviews.reversed() {
            if let hit = subview.hitTest(subview.convert(point, from: self), with: event) { return hit }
        }
        return nil
    }
}

/// Lets touches through itself, not through its subviews (a HUD's container).
@MainActor
final class PassThroughView: View {
    override func hitTest(_ point: Point, with event: Event?) -> View? {
        let hit = super.hitTest(point, with: event)
        return hit === self ? nil : hit
    }
}
