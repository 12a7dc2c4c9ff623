/// Why a backend cannot run, or what failed in it: what a person must hear, with the device and the reason.
public struct BackendError: Error, CustomStringConvertible, Equatable {
    public enum Kind: Sendable, Equatable {
        /// Nothing for this backend to drive here (no DRM card, no framebuffer): `backend = "auto"` tries the
        /// next one.
        case unavailable
        /// What was asked for by name (a backend, a device, a seat backend) cannot be used: the kiosk stops
        /// with this reason rather than fall back.
        case failed
    }

    public let kind: Kind
    /// The backend or part (`drm`, `seat`, `libinput`).
    public let backend: String
    public let reason: String

    public static func unavailable(_ backend: String, _ reason: String) -> BackendError {
        BackendError(kind: .unavailable, backend: backend, reason: reason)
    }

    public static func failed(_ backend: String, _ reason: String) -> BackendError {
        BackendError(kind: .failed, backend: backend, reason: reason)
    }

    public var description: String { "the \(backend) backend cannot run: \(reason)" }
}
