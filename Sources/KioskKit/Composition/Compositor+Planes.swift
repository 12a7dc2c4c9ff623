/// Plane assignment in a frame: the views that asked for a plane (`View.planePreference`) become candidates,
/// `PlaneAssignment` proposes planes for them, the output checks the proposals (`FrameOutput.accepts`), and
/// the groups a plane takes leave the composed frame: their pixels are painted into a buffer of their own
/// when they change, and moving them composes nothing.
extension Compositor {
    /// Takes the plane groups the output's planes show out of `layers`, and says what the planes show this
    /// frame: nil when there are no planes and nothing was on one (every group is composed, its redraws in
    /// `damage`).
    func placeOnPlanes(_ layers: inout [Layer], state: ScreenState, screen: Screen, damage: inout Region) -> PlaneFrame? {
        let groups = planeGroups
        state.hadPlaneGroups = !groups.isEmpty
        let planes = groups.isEmpty && state.planeContents.isEmpty ? [] : output.planes(for: screen)
        guard !planes.isEmpty || !state.planeContents.isEmpty else {
            for group in groups { damage.formUnion(group.redrawn) }
            return nil
        }
        let logical = screen.bounds.size
        let screenRect = PixelRect(x: 0, y: 0, width: Int32(logical.width), height: Int32(logical.height))
        let boxes = groups.map { box(of: $0, in: layers) }
        let candidates = groups.indices.map { index in
            candidate(groups[index], box: boxes[index], next: groups[(index + 1)...], layers: layers, screenRect: screenRect)
        }
        let physical = boxes.map { $0.isEmpty ? $0 : Region($0).transformed(by: screen.rotation, logicalSize: logical).extents }
        let accepted = acceptedPlanes(
            for: candidates.enumerated().map { index, candidate in
                var candidate = candidate
                candidate.rect = physical[index]
                return candidate
            }, groups: groups, planes: planes, state: state, screen: screen)

        var frame = PlaneFrame()
        var placed: [Range<Int>] = []
        for (index, group) in groups.enumerated() {
            guard let plane = accepted[ObjectIdentifier(group.view)] else {
                damage.formUnion(group.redrawn)
                continue
            }
            let box = boxes[index]
            let destination = Self.destination(of: physical[index], on: plane)
            let format = Self.format(on: plane)
            let layout = layers[group.layers].enumerated().map { offset, layer in
                var placement = layer.placement.offsetBy(dx: -box.x, dy: -box.y)
                placement.index = offset
                return placement
            }
            let old = state.planeContents[plane.id]
            // The buffer the plane has, while it is of this size and format.
            let kept = old.map(\.bitmap).flatMap {
                $0.bounds == destination.offsetBy(dx: -destination.x, dy: -destination.y) && $0.format == format ? $0 : nil
            }
            let repaint = kept == nil || old?.view != ObjectIdentifier(group.view) || old?.layout != layout || !group.redrawn.isEmpty
            let bitmap = kept ?? Bitmap(width: Int(destination.width), height: Int(destination.height), format: format)
            if repaint { paintPlaneContent(Array(layers[group.layers]), box: box, rotation: screen.rotation, into: bitmap) }
            if repaint || old?.destination != destination { frame.changed = true }
            frame.contents[plane.id] = PlaneContent(
                view: ObjectIdentifier(group.view), plane: plane, destination: destination, layout: layout, bitmap: bitmap)
            frame.layers.append(PlaneLayer(plane: plane, destination: destination, format: format, content: repaint ? bitmap : nil))
            placed.append(group.layers)
        }
        if Set(frame.contents.keys) != Set(state.planeContents.keys) { frame.changed = true }
        // A placed group's layers stay in the scene as nothing at nowhere: the frame's indices (its scroll
        // views' ranges) hold, and where a layer was composed before is damage as for any that vanished.
        for range in placed {
            for index in range {
                let layer = layers[index]
                layers[index] = Layer(
                    view: layer.view, content: .none, size: .zero, contentIsOpaque: false,
                    placement: Placement(rect: .zero, clip: nil, alpha: 1, content: .none, index: index, opaque: false, transform: nil))
            }
        }
        return frame
    }

    /// The box around a group's pixels on the screen (logical).
    private func box(of group: PlaneGroup, in layers: [Layer]) -> PixelRect {
        var region = Region()
        for layer in layers[group.layers] { region.formUnion(layer.placement.visibleRect) }
        return region.isEmpty ? .zero : region.extents
    }

    /// What the policy needs of a group; `next`: the groups after it, whose layers are not composed content.
    private func candidate(
        _ group: PlaneGroup, box: PixelRect, next: ArraySlice<PlaneGroup>, layers: [Layer], screenRect: PixelRect
    ) -> PlaneAssignment.Candidate {
        var opaque = Region()
        var untransformed = true
        for layer in layers[group.layers] {
            if layer.placement.transform != nil { untransformed = false }
            if layer.placement.opaque { opaque.formUnion(layer.placement.visibleRect) }
        }
        let unclipped = group.clip.map { $0.intersection(box) == box } ?? true
        var covered = false
        for index in group.layers.upperBound..<layers.count where !next.contains(where: { $0.layers.contains(index) }) {
            if !layers[index].placement.visibleRect.intersection(box).isEmpty {
                covered = true
                break
            }
        }
        return PlaneAssignment.Candidate(
            preference: group.view.planePreference, rect: box, isOpaque: !box.isEmpty && opaque.contains(box),
            isPlaceable: untransformed && unclipped && !box.isEmpty && !box.intersection(screenRect).isEmpty,
            isCoveredByComposition: covered)
    }

    /// The planes the output accepts for the groups, by view: the first proposal it accepts, checked again
    /// only when the best proposal changes (another plane, size or group), not when a group only moves.
    private func acceptedPlanes(
        for candidates: [PlaneAssignment.Candidate], groups: [PlaneGroup], planes: [DisplayPlane], state: ScreenState,
        screen: Screen
    ) -> [ObjectIdentifier: DisplayPlane] {
        guard !planes.isEmpty, !candidates.isEmpty else { return [:] }
        // The best proposal alone first: while it is the one last asked about, nothing else is needed.
        let best = PlaneAssignment.best(for: candidates, planes: planes)
        func layers(of proposal: PlaneAssignment.Proposal) -> [PlaneLayer] {
            proposal.sorted { $0.key < $1.key }.map { index, plane in
                PlaneLayer(
                    plane: plane, destination: Self.destination(of: candidates[index].rect, on: plane), format: Self.format(on: plane),
                    content: nil)
            }
        }
        let key = best.map { index, plane in
            PlaneTestKey(
                view: ObjectIdentifier(groups[index].view), plane: plane.id, width: candidates[index].rect.width,
                height: candidates[index].rect.height)
        }.sorted { ($0.plane, $0.width) < ($1.plane, $1.width) }
        if let test = state.planeTest, test.key == key { return test.accepted }
        let proposals = PlaneAssignment.proposals(for: candidates, planes: planes)
        var accepted: [ObjectIdentifier: DisplayPlane] = [:]
        for proposal in proposals where !proposal.isEmpty && output.accepts(layers(of: proposal), for: screen) {
            for (index, plane) in proposal { accepted[ObjectIdentifier(groups[index].view)] = plane }
            break
        }
        state.planeTest = PlaneTest(key: key, accepted: accepted)
        return accepted
    }

    /// Where a layer whose pixels are at `rect` (physical) lands on `plane`: at its corner, the size of the
    /// plane's one buffer size (a cursor plane's) or of the layer.
    static func destination(of rect: PixelRect, on plane: DisplayPlane) -> PixelRect {
        guard let size = plane.requiredSize else { return rect }
        return PixelRect(x: rect.x, y: rect.y, width: Int32(size.width), height: Int32(size.height))
    }

    /// The format a plane's buffer is painted in: with alpha where the plane has it.
    static func format(on plane: DisplayPlane) -> PixelFormat {
        plane.formats.contains(.argb32Premultiplied) ? .argb32Premultiplied : .xrgb8888
    }

    /// Paints a group's layers into its plane's buffer: transparent where they paint nothing, turned as the
    /// screen is, in the buffer's top-left corner.
    func paintPlaneContent(_ layers: [Layer], box: PixelRect, rotation: Rotation, into bitmap: Bitmap) {
        let shifted = layers.map { layer in
            Layer(
                view: layer.view, content: layer.content, size: layer.size, contentIsOpaque: layer.contentIsOpaque,
                placement: layer.placement.offsetBy(dx: -box.x, dy: -box.y))
        }
        guard rotation != .normal else {
            return paint(shifted, into: bitmap, damage: Region(bitmap.bounds), overBlack: false)
        }
        let upright = Bitmap(width: Int(box.width), height: Int(box.height), format: bitmap.format)
        paint(shifted, into: upright, damage: Region(upright.bounds), overBlack: false)
        let (width, height) = rotation.swapsAxes ? (upright.height, upright.width) : (upright.width, upright.height)
        let turned = Bitmap(width: width, height: height, format: bitmap.format)
        turned.copy(from: upright, rotation: rotation, region: Region(turned.bounds))
        bitmap.fill(.clear, operation: .source, in: bitmap.bounds)
        bitmap.composite(turned, operation: .source, destination: turned.bounds)
    }

    /// Puts what the planes show over `image` (a frame in physical pixels), back to front: what the display
    /// scans out.
    func composePlanes(of state: ScreenState, over image: Bitmap) {
        for content in state.planeContents.values.sorted(by: { $0.plane.zOrder < $1.plane.zOrder }) {
            image.composite(content.bitmap, operation: .over, destination: content.destination)
        }
    }
}

/// A view that asked for a plane, and its layers in the frame being composed.
struct PlaneGroup {
    let view: View
    let layers: Range<Int>
    /// What its views redrew this frame (screen coordinates): damage of the frame only if it is composed.
    let redrawn: Region
    /// The clip its superviews put on it.
    let clip: PixelRect?
}

/// What one plane of a screen shows: the view on it, where, and the pixels it was given.
struct PlaneContent {
    let view: ObjectIdentifier
    let plane: DisplayPlane
    /// Physical pixels, the buffer's size.
    let destination: PixelRect
    /// The group's placements from its box's corner: a change paints the buffer again.
    let layout: [Placement]
    let bitmap: Bitmap
}

/// What a frame's planes show, and whether that differs from the frame before.
struct PlaneFrame {
    var layers: [PlaneLayer] = []
    var contents: [UInt32: PlaneContent] = [:]
    var changed = false
}

/// The best proposal the output was last asked about, and what it accepted.
struct PlaneTest {
    let key: [PlaneTestKey]
    let accepted: [ObjectIdentifier: DisplayPlane]
}

struct PlaneTestKey: Equatable {
    let view: ObjectIdentifier
    let plane: UInt32
    let width: Int32
    let height: Int32
}
