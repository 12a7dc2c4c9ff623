/// Every problem found in a configuration, in file order (environment variables last): a person fixes a
/// file once, not once per problem.
public struct ConfigErrors: Error, Sendable, Equatable, CustomStringConvertible {
    public var problems: [ConfigProblem]

    public init(_ problems: [ConfigProblem]) { self.problems = problems }

    /// One problem per line.
    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
