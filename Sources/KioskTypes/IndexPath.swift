/// A row in a section of a table view (as Foundation's `IndexPath` with UIKit's `row` and `section`).
///
/// In a module of its own, below KioskKit, so that KioskKit can re-export it by a scoped import
/// (`@_exported import struct KioskTypes.IndexPath`): a scoped import takes precedence over a whole-module
/// one, so in an app that imports Foundation too, `IndexPath` is this one, unambiguous (Foundation's is
/// `Foundation.IndexPath`), and the app compiles unchanged.
public struct IndexPath: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var section: Int
    public var row: Int

    public init(row: Int, section: Int) {
        self.row = row
        self.section = section
    }

    public static func < (lhs: IndexPath, rhs: IndexPath) -> Bool { (lhs.section, lhs.row) < (rhs.section, rhs.row) }
    public var description: String { "[\(section), \(row)]" }
}
