import SeededRandom

@testable import KioskKit

/// Random view trees for `HitTestIndexTests`: a root of 40-160 subviews, a tenth of them containers of
/// 20-60 subviews of their own (so grids are made at both depths, or not), of KioskKit's classes and of
/// subclasses that override hit testing; with whole and fractional coordinates (edges land exactly on
/// points), empty and negative sizes, transforms of every kind (turns, flips, shears, a zero scale, badly
/// conditioned ones), scrolled bounds, and hidden, faint and non-interactive views.
@MainActor
enum RandomTree {
    static func make(_ random: inout SplitMix64, overridingHitTest: Bool) -> View {
        // A root that takes every point sends NaN, infinite and far points on to its subviews.
        let frame = Rect(x: 0, y: 0, width: 1000, height: 800)
        let root = Bool.random(using: &random) ? EverywhereView(frame: frame) : View(frame: frame)
        root.identifier = "root"
        for index in 0..<Int.random(in: 40...160, using: &random) {
            let view = makeView(&random, overridingHitTest: overridingHitTest, in: frame.size, name: "v\(index)")
            root.addSubview(view)
            guard Int.random(in: 0..<10, using: &random) == 0 else { continue }
            for child in 0..<Int.random(in: 20...60, using: &random) {
                view.addSubview(makeView(&random, overridingHitTest: overridingHitTest, in: view.bounds.size, name: "v\(index).\(child)"))
            }
        }
        return root
    }

    static func makeView(_ random: inout SplitMix64, overridingHitTest: Bool, in size: Size, name: String) -> View {
        let frame = Rect(
            x: coordinate(&random, -50...max(size.width, 0) + 50), y: coordinate(&random, -50...max(size.height, 0) + 50),
            width: length(&random), height: length(&random))
        let view: View
        switch Int.random(in: 0..<20, using: &random) {
        case 9: view = Label(frame: frame)
        case 10: view = Button(title: "", frame: frame)
        case 11: view = ImageView(frame: frame)
        case 12: view = WideView(frame: frame)
        case 13: view = NarrowView(frame: frame)
        case 14: view = overridingHitTest ? OverhangView(frame: frame) : View(frame: frame)
        case 15: view = overridingHitTest ? PassThroughView(frame: frame) : View(frame: frame)
        default: view = View(frame: frame)
        }
        view.identifier = name
        if Int.random(in: 0..<6, using: &random) == 0 { view.transform = transform(&random) }
        if Int.random(in: 0..<10, using: &random) == 0 {
            view.bounds.origin = Point(x: coordinate(&random, -100...100), y: coordinate(&random, -100...100))
        }
        restyle(view, &random)
        return view
    }

    /// Hidden, interactive, alpha and clipping, each now and then.
    static func restyle(_ view: View, _ random: inout SplitMix64) {
        view.isHidden = Int.random(in: 0..<12, using: &random) == 0
        view.isUserInteractionEnabled = Int.random(in: 0..<12, using: &random) != 0
        view.alpha = [1, 1, 1, 1, 1, 1, 0.5, 0.01, 0.0099, 0.005, 0][Int.random(in: 0..<11, using: &random)]
        view.clipsToBounds = Int.random(in: 0..<3, using: &random) == 0
    }

    /// Mostly whole numbers (so edges meet points exactly), else thirds and tenths.
    static func coordinate(_ random: inout SplitMix64, _ range: ClosedRange<Double>) -> Double {
        let whole = Double(Int.random(in: Int(range.lowerBound)...Int(range.upperBound), using: &random))
        switch Int.random(in: 0..<4, using: &random) {
        case 0: return whole + 1.0 / 3
        case 1: return whole + 0.1
        default: return whole
        }
    }

    static func length(_ random: inout SplitMix64) -> Double {
        switch Int.random(in: 0..<20, using: &random) {
        case 0: return 0
        case 1: return -coordinate(&random, 1...120)
        default: return coordinate(&random, 1...300)
        }
    }

    static func transform(_ random: inout SplitMix64) -> AffineTransform {
        switch Int.random(in: 0..<9, using: &random) {
        case 0: return AffineTransform(rotationAngle: Double.random(in: -Double.pi...Double.pi, using: &random))
        case 1: return AffineTransform(rotationAngle: Double.pi / 2 * Double(Int.random(in: 1...3, using: &random)))
        case 2:
            return AffineTransform(
                scaleX: [0.5, 2, -1, 3][Int.random(in: 0..<4, using: &random)], y: [0.5, 2, -1, 1][Int.random(in: 0..<4, using: &random)])
        case 3: return AffineTransform(a: 1, b: 0, c: 0.5, d: 1, tx: 0, ty: 0)
        case 4: return AffineTransform(translationX: coordinate(&random, -80...80), y: coordinate(&random, -80...80))
        // Flattened: the inverse is the transform itself, and the view is asked wherever the point is.
        case 5: return AffineTransform(scaleX: 0, y: 1)
        // Badly conditioned: the grid may not trust its box.
        case 6: return AffineTransform(scaleX: 1e-5, y: 1e5)
        case 7: return AffineTransform(scaleX: 1e-9, y: 1e-9)
        default: return AffineTransform(rotationAngle: 0.3).scaledBy(x: 1.5, y: 0.7).translatedBy(x: 10, y: -4)
        }
    }

    /// Points around the root, on and beside the edges of its subviews' frames, and some that are not
    /// numbers or far away.
    static func points(in root: View, _ random: inout SplitMix64) -> [Point] {
        var points: [Point] = []
        for _ in 0..<120 {
            points.append(Point(x: coordinate(&random, -60...1060), y: coordinate(&random, -60...860)))
        }
        let views = descendants(of: root)
        for _ in 0..<60 {
            let view = views[Int.random(in: 0..<views.count, using: &random)]
            guard let superview = view.superview else { continue }
            let frame = view.frame
            let xs = [frame.minX, frame.maxX, frame.maxX.nextDown, frame.minX.nextDown, frame.midX]
            let ys = [frame.minY, frame.maxY, frame.maxY.nextDown, frame.minY.nextDown, frame.midY]
            let local = Point(x: xs[Int.random(in: 0..<5, using: &random)], y: ys[Int.random(in: 0..<5, using: &random)])
            points.append(superview === root ? local : superview.convert(local, to: root))
        }
        points += [
            Point(x: .nan, y: 10), Point(x: 10, y: .infinity), Point(x: -.infinity, y: -.infinity), Point(x: 1e300, y: 1e300),
            Point(x: -1e18, y: 5),
        ]
        return points
    }

    static func descendants(of view: View) -> [View] {
        view.subviews.flatMap { [$0] + descendants(of: $0) }
    }

    /// A dozen changes anywhere in the tree: moves, sizes, scrolling, transforms, style, removals,
    /// insertions, restacking and a move to another container.
    static func mutate(_ root: View, _ random: inout SplitMix64, overridingHitTest: Bool) {
        for step in 0..<12 {
            let views = descendants(of: root)
            guard !views.isEmpty else { return }
            let view = views[Int.random(in: 0..<views.count, using: &random)]
            let size = view.superview?.bounds.size ?? root.bounds.size
            switch Int.random(in: 0..<10, using: &random) {
            case 0:
                view.center = Point(
                    x: coordinate(&random, -50...max(size.width, 0) + 50), y: coordinate(&random, -50...max(size.height, 0) + 50))
            case 1: view.bounds.size = Size(width: length(&random), height: length(&random))
            case 2: view.bounds.origin = Point(x: coordinate(&random, -100...100), y: coordinate(&random, -100...100))
            case 3: view.transform = Bool.random(using: &random) ? .identity : transform(&random)
            case 4: restyle(view, &random)
            case 5: view.removeFromSuperview()
            case 6:
                let container = view.superview ?? root
                let added = makeView(&random, overridingHitTest: overridingHitTest, in: container.bounds.size, name: "new\(step)")
                container.insertSubview(added, at: Int.random(in: 0...container.subviews.count, using: &random))
            case 7: view.superview?.bringSubviewToFront(view)
            case 8: view.superview?.sendSubviewToBack(view)
            default:
                let containers = views.filter { $0.subviews.count > 10 && !$0.isDescendant(of: view) }
                (containers.randomElement(using: &random) ?? root).addSubview(view)
            }
        }
    }
}

/// Takes every point, so a hit test goes on into its subviews with whatever point it was given.
@MainActor
final class EverywhereView: View {
    override func point(inside point: Point, with event: Event?) -> Bool { true }
}
