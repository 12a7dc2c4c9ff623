/// Where something was written in the config file, kept on entries so that problems found later (a mode
/// a newly connected display does not offer) still point at the line to edit.
public struct FilePosition: Sendable, Hashable {
    public var line: Int
    public var column: Int?

    public init(line: Int, column: Int? = nil) {
        self.line = line
        self.column = column
    }
}
