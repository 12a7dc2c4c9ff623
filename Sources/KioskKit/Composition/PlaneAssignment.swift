/// Which layers of a frame go on which of a screen's planes: a pure policy, as weston's state proposals
/// (planes only, mixed, renderer only). Given the frame's candidates (the views that asked for a plane, in
/// back-to-front order) and the planes the screen's display offers, it proposes assignments, best first;
/// the output checks each with the driver (DRM: an atomic TEST_ONLY commit) and the first it accepts is
/// used. The last proposal places nothing (the whole frame composed), which every output accepts.
///
/// A candidate fits a plane when its kind allows it (a cursor goes on the cursor plane, else an overlay
/// plane; anything else on an overlay plane only), the plane scans out a format that keeps its pixels (one
/// with alpha unless the candidate is opaque and fills the buffer), and its size is the plane's one size or
/// under it (a cursor plane: padded, transparent) or within its maximum. Planes keep the candidates' order:
/// a candidate in front is on a plane in front. A candidate with anything composed in front of it over its
/// pixels cannot be on a plane (every plane is in front of the composed primary), so a candidate left to
/// composition takes the placed ones behind it that it overlaps back to composition too.
enum PlaneAssignment {
    /// A view that asked for a plane, as this frame shows it.
    struct Candidate: Equatable {
        var preference: PlanePreference
        /// Where its pixels land (physical pixels, the box around its layers).
        var rect: PixelRect
        /// Whether every pixel of the box is opaque.
        var isOpaque: Bool
        /// Whether it is shown as a plane can show it: untransformed, not clipped by a superview.
        var isPlaceable: Bool
        /// Whether composed content in front of it overlaps it.
        var isCoveredByComposition: Bool
    }

    /// An assignment: the candidate's index to its plane.
    typealias Proposal = [Int: DisplayPlane]

    /// The proposals, best first; the last is always empty (all composed).
    static func proposals(for candidates: [Candidate], planes: [DisplayPlane]) -> [Proposal] {
        var result: [Proposal] = []
        var proposal = best(for: candidates, planes: planes)
        while !proposal.isEmpty {
            result.append(proposal)
            // Step back: the frontmost placed overlay first (a cursor last: its plane is its own).
            let placed = proposal.keys.sorted()
            guard let drop = placed.last(where: { candidates[$0].preference != .cursor }) ?? placed.last else { break }
            proposal[drop] = nil
            proposal = withoutCovered(proposal, candidates: candidates)
        }
        result.append([:])
        return result
    }

    /// The most the planes can take: each candidate, back to front, on the backmost plane in front of the
    /// last one used that fits it.
    static func best(for candidates: [Candidate], planes: [DisplayPlane]) -> Proposal {
        let ordered = planes.sorted { ($0.zOrder, $0.id) < ($1.zOrder, $1.id) }
        var proposal: Proposal = [:]
        // In front of the last plane used: later in this order (planes of one zpos are stacked by id, as
        // DRM drivers without a zpos property stack them).
        var next = 0
        for (index, candidate) in candidates.enumerated() where candidate.isPlaceable && !candidate.isCoveredByComposition {
            // A cursor prefers the cursor plane; anything else takes the backmost plane that fits.
            let fitting = ordered.indices.dropFirst(next).filter { fits(candidate, on: ordered[$0]) }
            let position =
                candidate.preference == .cursor
                ? fitting.first { ordered[$0].kind == .cursor } ?? fitting.first : fitting.first
            guard let position else { continue }
            proposal[index] = ordered[position]
            next = position + 1
        }
        return withoutCovered(proposal, candidates: candidates)
    }

    /// Whether `candidate` can be shown on `plane` with its own pixels.
    static func fits(_ candidate: Candidate, on plane: DisplayPlane) -> Bool {
        switch (candidate.preference, plane.kind) {
        case (.composited, _), (.overlay, .cursor): return false
        case (.overlay, .overlay), (.cursor, _): break
        }
        let width = Int(candidate.rect.width), height = Int(candidate.rect.height)
        guard width > 0, height > 0 else { return false }
        let buffer: DisplayPlane.BufferSize
        if let required = plane.requiredSize {
            guard width <= required.width, height <= required.height else { return false }
            buffer = required
        } else {
            if let maximum = plane.maximumSize, width > maximum.width || height > maximum.height { return false }
            buffer = DisplayPlane.BufferSize(width: width, height: height)
        }
        // Transparent padding or translucent pixels need a format with alpha.
        let fillsBuffer = buffer.width == width && buffer.height == height
        if plane.formats.contains(.argb32Premultiplied) { return true }
        return candidate.isOpaque && fillsBuffer && plane.formats.contains(.xrgb8888)
    }

    /// `proposal` without the placed candidates that an unplaced candidate in front of them overlaps (it is
    /// composed, so behind every plane), repeated until none is left.
    static func withoutCovered(_ proposal: Proposal, candidates: [Candidate]) -> Proposal {
        var proposal = proposal
        var changed = true
        while changed {
            changed = false
            for index in proposal.keys.sorted() {
                let rect = candidates[index].rect
                let covered = candidates.indices.contains { other in
                    other > index && proposal[other] == nil && !candidates[other].rect.intersection(rect).isEmpty
                }
                if covered {
                    proposal[index] = nil
                    changed = true
                }
            }
        }
        return proposal
    }
}
