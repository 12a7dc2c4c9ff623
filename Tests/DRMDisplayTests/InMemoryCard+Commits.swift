import DRM
import Glibc

@testable import DRMDisplay

/// Atomic commits on the in-memory card, checked as the kernel's atomic ioctl checks what the kiosk asks:
/// every property must be one of its object's, a framebuffer and a mode blob must exist, a plane showing
/// a framebuffer must be on a CRTC it can use in a format it scans out, and a commit that needs a modeset
/// (a new mode, ACTIVE changed, a connector moved) needs ALLOW_MODESET. Then the refusals a test set. Each
/// commit is recorded with what it asked and how it ended; one that passed and was not TEST_ONLY changes the
/// card's state, and with PAGE_FLIP_EVENT its flips are read by `handleEvents`.
extension InMemoryCard {
    /// A commit as the card saw it.
    struct Commit: CustomStringConvertible {
        /// One property set: the object's id, the property's name, the value.
        struct Change: Equatable {
            var object: UInt32
            var name: String
            var value: UInt64
        }

        var flags: DRMAtomicRequest.Flags
        /// In the order they were set.
        var changes: [Change]
        /// The mode each CRTC's `MODE_ID` names in it, by CRTC id.
        var modes: [UInt32: DRMModeInfo]
        /// Whether it changes a mode, a CRTC's ACTIVE or which CRTC drives a connector.
        var needsModeset: Bool
        /// Why the card refused it (the refusal's reason, or the kernel's check that failed); nil: it passed.
        var refusal: String?

        var isTestOnly: Bool { flags.contains(.testOnly) }
        var allowsModeset: Bool { flags.contains(.allowModeset) }
        var passed: Bool { refusal == nil }

        /// The value it sets `name` of `object` to (the last, as the kernel takes it).
        func value(_ object: UInt32, _ name: String) -> UInt64? {
            changes.last { $0.object == object && $0.name == name }?.value
        }

        /// The objects it sets properties of.
        var objects: Set<UInt32> { Set(changes.map(\.object)) }

        /// Whether it puts a framebuffer on `plane`.
        func showsFramebuffer(on plane: UInt32) -> Bool { value(plane, "FB_ID").map { $0 != 0 } ?? false }

        var description: String {
            let flagNames = [(DRMAtomicRequest.Flags.testOnly, "TEST_ONLY"), (.allowModeset, "ALLOW_MODESET"), (.pageFlipEvent, "EVENT")]
                .filter { flags.contains($0.0) }.map(\.1)
            return "commit [\(flagNames.joined(separator: " "))] \(changes.map { "\($0.object).\($0.name)=\($0.value)" })"
                + (refusal.map { " refused: \($0)" } ?? "")
        }
    }

    /// Refuses (EINVAL) every commit, TEST_ONLY or not, for which `when` holds; `reason` is recorded in it.
    func refuse(_ reason: String, when predicate: @escaping (Commit) -> Bool) {
        refusals.append((reason, predicate))
    }

    func commit(_ request: DRMAtomicRequest, flags: DRMAtomicRequest.Flags) throws(DRMError) {
        var changes: [Commit.Change] = []
        var refusal: String?
        for change in request.changes {
            guard let name = propertyName(change.property), propertyNames[change.object]?.contains(name) == true else {
                refusal = refusal ?? "object \(change.object) has no property \(change.property.rawValue)"
                continue
            }
            changes.append(Commit.Change(object: change.object, name: name, value: change.value))
        }
        var state = values
        for change in changes { state[change.object]?[change.name] = change.value }
        var modes: [UInt32: DRMModeInfo] = [:]
        for change in changes where change.name == "MODE_ID" && change.value != 0 {
            if let mode = blobs[UInt32(change.value)] {
                modes[change.object] = mode
            } else {
                refusal = refusal ?? "no mode blob \(change.value)"
            }
        }
        refusal = refusal ?? planeProblem(in: state)
        let needsModeset = self.needsModeset(state)
        var commit = Commit(flags: flags, changes: changes, modes: modes, needsModeset: needsModeset, refusal: refusal)
        if commit.refusal == nil, needsModeset, !flags.contains(.allowModeset) { commit.refusal = "needs a modeset without ALLOW_MODESET" }
        if commit.refusal == nil, let refused = refusals.first(where: { $0.predicate(commit) }) { commit.refusal = refused.reason }
        commits.append(commit)
        guard commit.refusal == nil else {
            throw DRMError(
                operation: flags.contains(.testOnly) ? "drmModeAtomicCommit(TEST_ONLY)" : "drmModeAtomicCommit", errno: EINVAL,
                detail: "in-memory")
        }
        guard !flags.contains(.testOnly) else { return }
        values = state
        if flags.contains(.pageFlipEvent) {
            let touched = Set(changes.compactMap { change in isPlane(change.object) ? state[change.object]?["CRTC_ID"] : nil })
            pendingFlips.append(contentsOf: crtcs.filter { touched.contains(UInt64($0.rawValue)) })
        }
    }

    /// The first of the kernel's plane checks that `state` fails, if any.
    private func planeProblem(in state: [UInt32: [String: UInt64]]) -> String? {
        for plane in planeList {
            let framebuffer = state[plane.id.rawValue]?["FB_ID"] ?? 0
            let crtc = state[plane.id.rawValue]?["CRTC_ID"] ?? 0
            if (framebuffer == 0) != (crtc == 0) { return "\(plane.id) has a framebuffer without a CRTC or a CRTC without one" }
            guard framebuffer != 0 else { continue }
            guard let format = framebuffers[UInt32(framebuffer)] else { return "no framebuffer \(framebuffer)" }
            guard plane.possibleCRTCs.contains(DRMCRTCID(rawValue: UInt32(crtc))) else { return "\(plane.id) cannot be on CRTC \(crtc)" }
            guard plane.formats.contains(format) else { return "\(plane.id) does not scan out format \(format)" }
        }
        return nil
    }

    /// Whether going from the card's state to `state` is a modeset, as `drm_atomic_crtc_needs_modeset` says.
    private func needsModeset(_ state: [UInt32: [String: UInt64]]) -> Bool {
        for crtc in crtcs.map(\.rawValue) {
            if state[crtc]?["ACTIVE"] != values[crtc]?["ACTIVE"] { return true }
            let old = values[crtc]?["MODE_ID"].flatMap { blobs[UInt32($0)] }
            let new = state[crtc]?["MODE_ID"].flatMap { blobs[UInt32($0)] }
            if old.map({ new?.hasSameTimings(as: $0) != true }) ?? (new != nil) { return true }
        }
        return connectors.contains { state[$0.id.rawValue]?["CRTC_ID"] != values[$0.id.rawValue]?["CRTC_ID"] }
    }
}
