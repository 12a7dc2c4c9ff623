/// The name of a notification, as Foundation's `Notification.Name`: `Screen.didConnectNotification`.
public struct NotificationName: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }
}

/// A notification as its observers receive it: its name, the object it is about (a `Screen`, a `Window`),
/// and extra information by key.
@MainActor
public struct PostedNotification {
    public let name: NotificationName
    public let object: AnyObject?
    public let userInfo: [String: any Sendable]
}

/// Where the window model posts its notifications (as Foundation's `NotificationCenter`, with which it
/// shares the shape of `addObserver(forName:object:using:)`): delivered at once, on the main actor, in the
/// order the observers were added. KioskKit's own, so the window model needs no Foundation (which brings
/// ICU, 40 MB, into a kiosk's binary), and typed for the main actor: a handler is a `@MainActor` closure
/// that reads the notification's object directly, without `MainActor.assumeIsolated`.
@MainActor
public final class NotificationHub {
    /// The hub `Application.shared` posts to unless it was given another.
    public static let `default` = NotificationHub()

    private struct Observer {
        /// The observation's number: the hub must not hold the observation itself, whose release ends it.
        let id: Int
        let name: NotificationName?
        weak var object: AnyObject?
        let matchesAnyObject: Bool
        let handler: @MainActor (PostedNotification) -> Void
    }

    private var observers: [Observer] = []
    private var nextID = 0

    public init() {}

    /// Calls `handler` for every notification named `name` (nil: every notification) about `object` (nil:
    /// about any object). Delivery stops when the returned observation is removed or released: keep it.
    public func addObserver(
        forName name: NotificationName?, object: AnyObject? = nil, using handler: @escaping @MainActor (PostedNotification) -> Void
    ) -> NotificationObservation {
        nextID += 1
        observers.append(Observer(id: nextID, name: name, object: object, matchesAnyObject: object == nil, handler: handler))
        return NotificationObservation(hub: self, id: nextID)
    }

    /// Stops delivery to an observer.
    public func removeObserver(_ observation: NotificationObservation) {
        remove(id: observation.id)
    }

    func remove(id: Int) {
        observers.removeAll { $0.id == id }
    }

    /// Delivers a notification to its observers now, in the order they were added. Observers added or
    /// removed by a handler take effect for the next notification, as with Foundation's center.
    public func post(name: NotificationName, object: AnyObject? = nil, userInfo: [String: any Sendable] = [:]) {
        let notification = PostedNotification(name: name, object: object, userInfo: userInfo)
        for observer in observers where observer.name == nil || observer.name == name {
            guard observer.matchesAnyObject || (observer.object != nil && observer.object === object) else { continue }
            // Removed by an earlier handler of this same notification: not delivered.
            guard observers.contains(where: { $0.id == observer.id }) else { continue }
            observer.handler(notification)
        }
    }

    /// How many observers are registered (tests, and leaks).
    public var observerCount: Int { observers.count }
}

/// One observer's registration. Keep it as long as the observer should hear; `remove()` it, or let it go:
/// an observation released stops its delivery, so an object that owns its observations never needs a
/// `deinit` to unregister.
@MainActor
public final class NotificationObservation {
    private weak var hub: NotificationHub?
    let id: Int

    init(hub: NotificationHub, id: Int) {
        self.hub = hub
        self.id = id
    }

    /// Stops delivery.
    public func remove() {
        hub?.remove(id: id)
    }

    isolated deinit {
        hub?.remove(id: id)
    }
}
