/// Who is at the other end of a control connection, as the kernel says (`SO_PEERCRED`: the credentials
/// of the process that connected, at the time it connected).
public struct ControlPeer: Sendable, Equatable, CustomStringConvertible {
    public var pid: Int32
    public var uid: UInt32
    public var gid: UInt32

    public init(pid: Int32, uid: UInt32, gid: UInt32) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }

    public var description: String { "uid \(uid) pid \(pid)" }
}

/// One request read from the control socket: a JSON object of strings, numbers, booleans and null, with
/// its `command`.
public struct ControlRequest: Sendable {
    public let command: String
    public let members: [(key: String, value: JSONValue)]
    public let peer: ControlPeer

    public subscript(key: String) -> JSONValue? { members.first { $0.key == key }?.value }

    /// A line as a request, or the answer that says what is wrong with it.
    static func parse(_ line: ArraySlice<UInt8>, peer: ControlPeer) -> Result<ControlRequest, ControlServer.Refusal> {
        // An empty line is refused as any malformed line is, not skipped: whoever sent it (a stray newline,
        // `echo | socat`) waits for an answer, and silence held them until the idle timeout.
        guard line.contains(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }) else {
            return .failure(.init("an empty line is no request; a request is a JSON object on one line, e.g. {\"command\":\"status\"}"))
        }
        let value: JSONValue
        do { value = try JSONValue.parse(line) } catch { return .failure(.init(error.description)) }
        guard case .object(let members) = value else {
            return .failure(.init("a request is a JSON object, e.g. {\"command\":\"status\"}; this is \(value.kind)"))
        }
        if let nested = members.first(where: { $0.value.array != nil || Self.isObject($0.value) }) {
            return .failure(.init("\"\(nested.key)\": a request's values are strings, numbers, booleans or null, not \(nested.value.kind)"))
        }
        guard let command = members.first(where: { $0.key == "command" })?.value else {
            return .failure(.init("the request has no \"command\", e.g. {\"command\":\"status\"}"))
        }
        guard let name = command.string else { return .failure(.init("\"command\" is \(command.kind); it must be a string")) }
        return .success(ControlRequest(command: name, members: members, peer: peer))
    }

    private static func isObject(_ value: JSONValue) -> Bool {
        if case .object = value { return true }
        return false
    }
}

/// An answer to a control request: now, or later from work done off the main queue (a screenshot's PNG),
/// delivered on the main actor through the function `later` is given. A connection's next requests wait
/// for it, so answers always come in the order of the requests.
enum ControlReply {
    case now(JSONLine)
    case later((@escaping @MainActor (JSONLine) -> Void) -> Void)
}
