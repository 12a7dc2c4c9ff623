#if canImport(Glibc)
    import Glibc
#endif

/// The process's environment variables (`environ`), read without Foundation's `ProcessInfo`.
public enum ProcessEnvironment {
    /// Every variable, `NAME=value` split at the first `=`.
    public static func current() -> [String: String] {
        var variables: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                variables[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return variables
    }
}
