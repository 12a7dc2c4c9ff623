/// Gives each connector that should light a CRTC it can use (a pure function, table-tested).
///
/// Stable across hotplug: a connector keeps the CRTC it had whenever that CRTC is still possible for it,
/// so plugging a second display in never re-modesets the first. The remaining connectors get CRTCs by
/// bipartite matching (augmenting paths), which may only move connectors assigned in this same call.
/// Connectors that cannot get one are returned in `unassigned`, in request order, for a log line each.
public enum CRTCAllocation {
    public struct Request<Connector: Hashable, CRTC: Hashable> {
        public var connector: Connector
        /// The CRTCs that can drive it, in the kernel's order (earlier ones are preferred).
        public var possibleCRTCs: [CRTC]

        public init(connector: Connector, possibleCRTCs: [CRTC]) {
            self.connector = connector
            self.possibleCRTCs = possibleCRTCs
        }
    }

    public struct Result<Connector: Hashable, CRTC: Hashable> {
        public var assignments: [Connector: CRTC]
        public var unassigned: [Connector]
    }

    public static func allocate<Connector: Hashable, CRTC: Hashable>(
        _ requests: [Request<Connector, CRTC>], previous: [Connector: CRTC]
    ) -> Result<Connector, CRTC> {
        var owner: [CRTC: Connector] = [:]
        var assignments: [Connector: CRTC] = [:]
        // 1. Keep what still works.
        for request in requests {
            if let crtc = previous[request.connector], request.possibleCRTCs.contains(crtc), owner[crtc] == nil {
                owner[crtc] = request.connector
                assignments[request.connector] = crtc
            }
        }
        let kept = Set(assignments.keys)
        let possible = Dictionary(requests.map { ($0.connector, $0.possibleCRTCs) }, uniquingKeysWith: { first, _ in first })

        // 2. Augmenting paths for the rest; kept connectors are never moved.
        func augment(_ connector: Connector, visited: inout Set<CRTC>) -> Bool {
            // A free CRTC first: moving another connector is only worth it when none is left.
            if let free = (possible[connector] ?? []).first(where: { owner[$0] == nil && !visited.contains($0) }) {
                owner[free] = connector
                assignments[connector] = free
                return true
            }
            for crtc in possible[connector] ?? [] where !visited.contains(crtc) {
                visited.insert(crtc)
                guard let current = owner[crtc] else {
                    owner[crtc] = connector
                    assignments[connector] = crtc
                    return true
                }
                if !kept.contains(current), augment(current, visited: &visited) {
                    owner[crtc] = connector
                    assignments[connector] = crtc
                    return true
                }
            }
            return false
        }
        var unassigned: [Connector] = []
        for request in requests where assignments[request.connector] == nil {
            var visited = Set<CRTC>()
            if !augment(request.connector, visited: &visited) { unassigned.append(request.connector) }
        }
        return Result(assignments: assignments, unassigned: unassigned)
    }
}
