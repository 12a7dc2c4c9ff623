/// The tables a document builds, and TOML's rules on defining them: a key once, a table once (by its
/// header or by dotted keys, not both), inline tables and arrays closed once written, `[[a]]` only for an
/// array of tables.
///
/// Tables live in an array and refer to each other by index, so adding to a table deep in the tree never
/// copies the path to it, and nothing recurses while parsing; the tree of values is built once at the end
/// (`build`), as deep as `TOML.maximumNesting` at most.
extension TOML.Parser {
    /// How a table came to be, which decides what may still add to it.
    enum Origin: Equatable {
        /// Made by a header for the tables on its path (`a` for `[a.b]`): a later `[a]` may still define it,
        /// and dotted keys may add to it (which defines it, as below).
        case implicit
        /// Defined by its own `[header]` or `[[header]]` (or the root): another header for it is a
        /// redefinition, and dotted keys from elsewhere cannot add to it.
        case header
        /// Defined by dotted keys (`a.b = 1` defines `a`) in the section with this number: more dotted keys
        /// of that section may add to it, but no header may define it, and once the section has ended,
        /// nothing but sub-table headers may add to it (`[a.c]`). This is how the spec's
        /// `[fruit] apple.color = "red"` then `[fruit.apple]` is invalid while `[fruit.apple.texture]` is not.
        case dotted(section: Int)
        /// The root of an inline table being read.
        case inline
    }

    struct TableNode {
        var keys: [String] = []
        var entries: [String: Entry] = [:]
        var origin: Origin
        /// Tables and arrays above this one; the root is 0.
        let depth: Int
        /// For naming the table in messages (`[a.b]`): the table holding this one (or holding the array of
        /// tables it is an element of), -1 for the root and inline tables.
        let parent: Int
        let name: String
        /// The keys and array indices from the root to this table (`touch[1].extra`), for locations.
        let path: ConfigKeyPath
        /// Where the header or key that made or defined the table starts.
        var definedAt: Int

        init(origin: Origin, depth: Int, parent: Int, name: String, path: ConfigKeyPath, definedAt: Int) {
            self.origin = origin
            self.depth = depth
            self.parent = parent
            self.name = name
            self.path = path
            self.definedAt = definedAt
        }

        mutating func insert(_ key: String, _ entry: Entry) {
            if entries.updateValue(entry, forKey: key) == nil { keys.append(key) }
        }
    }

    struct Entry {
        enum Kind {
            /// A finished value: inline tables and arrays written with `[ ]` are closed, not extended.
            case value(TOML.Value)
            /// A table still open to headers and dotted keys, in `tables`.
            case table(Int)
            /// An array of tables, in `tableArrays`.
            case tableArray(Int)
        }

        var kind: Kind
        /// Where the key was first written.
        let offset: Int
    }

    /// A new table at `path`, which is recorded as written at `keyOffset`.
    mutating func newTable(origin: Origin, depth: Int, parent: Int, name: String, path: ConfigKeyPath, definedAt: Int, keyOffset: Int)
        -> Int
    {
        tables.append(TableNode(origin: origin, depth: depth, parent: parent, name: name, path: path, definedAt: definedAt))
        record(path, key: keyOffset)
        return tables.count - 1
    }

    // MARK: Headers

    /// The table a `[header]` or `[[header]]` defines: the tables on its path are found or made, the last
    /// one defined (or, for `[[ ]]`, a new element appended). `open` is where the header starts.
    mutating func openTable(_ parts: [KeyPart], isArray: Bool, at open: Int) throws(TOML.SyntaxError) -> Int {
        // Messages are made only when needed: spelling every header would cost more than parsing it.
        func header() -> String { isArray ? "[[\(Self.spell(parts.map(\.name)))]]" : "[\(Self.spell(parts.map(\.name)))]" }
        func action() -> String { isArray ? "cannot define the array of tables \(header())" : "cannot define table \(header())" }
        var table = 0
        for (position, part) in parts.enumerated() {
            let depth = position + 1
            guard depth <= TOML.maximumNesting else { throw tooDeep(at: part.offset) }
            let isLast = position == parts.count - 1
            func path() -> String { Self.display(parts[...position]) }
            guard let entry = tables[table].entries[part.name] else {
                let path = tables[table].path.appending(part.name)
                if isLast && isArray {
                    record(path, key: part.offset)
                    let element = newTable(
                        origin: .header, depth: depth, parent: table, name: part.name, path: path.appending(index: 0), definedAt: open,
                        keyOffset: part.offset)
                    tableArrays.append([element])
                    tables[table].insert(part.name, Entry(kind: .tableArray(tableArrays.count - 1), offset: part.offset))
                    return element
                }
                let made = newTable(
                    origin: isLast ? .header : .implicit, depth: depth, parent: table, name: part.name, path: path, definedAt: open,
                    keyOffset: part.offset)
                tables[table].insert(part.name, Entry(kind: .table(made), offset: part.offset))
                table = made
                continue
            }
            switch entry.kind {
            case let .table(existing):
                guard isLast else {
                    table = existing
                    continue
                }
                if isArray {
                    throw error("\(action()): \(path()) is already defined as a table at line \(line(of: entry.offset))", at: part.offset)
                }
                switch tables[existing].origin {
                case .implicit:
                    tables[existing].origin = .header
                    tables[existing].definedAt = open
                    return existing
                case .dotted:
                    let first = line(of: tables[existing].definedAt)
                    throw error(
                        "table \(header()) is defined twice; first by the dotted key at line \(first)", at: part.offset,
                        redefinition: .init(path: tables[existing].path, firstLine: first))
                case .header, .inline:
                    let first = line(of: tables[existing].definedAt)
                    throw error(
                        "table \(header()) is defined twice; first at line \(first)", at: part.offset,
                        redefinition: .init(path: tables[existing].path, firstLine: first))
                }
            case let .tableArray(array):
                if isLast {
                    guard isArray else {
                        throw error(
                            "\(action()): \(path()) is already defined as an array of tables at line \(line(of: entry.offset))",
                            at: part.offset)
                    }
                    let path = tables[table].path.appending(part.name).appending(index: tableArrays[array].count)
                    let element = newTable(
                        origin: .header, depth: depth, parent: table, name: part.name, path: path, definedAt: open, keyOffset: part.offset)
                    tableArrays[array].append(element)
                    return element
                }
                // A header below an array of tables adds to its last element (`[[a]]` then `[a.b]`).
                table = tableArrays[array][tableArrays[array].count - 1]
            case let .value(value):
                throw error("\(action()): \(path()) is \(existing(value, at: entry.offset))", at: part.offset)
            }
        }
        return table
    }

    // MARK: Dotted keys

    /// The table the last part of a key goes into, made or found along the dotted key from `table`, with
    /// the key checked to be new there.
    mutating func resolve(_ parts: [KeyPart], in table: Int, section: Int) throws(TOML.SyntaxError) -> Int {
        var table = table
        func key() -> String { Self.display(parts[...]) }
        for (position, part) in parts.enumerated() {
            func path() -> String { Self.display(parts[...position]) }
            let entry = tables[table].entries[part.name]
            if position == parts.count - 1 {
                if let entry {
                    let first = line(of: entry.offset)
                    throw error(
                        "\(key()) is defined twice; first at line \(first)", at: parts[0].offset,
                        redefinition: .init(path: tables[table].path.appending(part.name), firstLine: first))
                }
                return table
            }
            let depth = tables[table].depth + 1
            guard depth <= TOML.maximumNesting else { throw tooDeep(at: part.offset) }
            guard let entry else {
                table = newTable(
                    origin: .dotted(section: section), depth: depth, parent: table, name: part.name,
                    path: tables[table].path.appending(part.name), definedAt: part.offset, keyOffset: part.offset)
                tables[tables[table].parent].insert(part.name, Entry(kind: .table(table), offset: part.offset))
                continue
            }
            switch entry.kind {
            case let .table(existing):
                switch tables[existing].origin {
                case .dotted(section):
                    table = existing
                case .implicit:
                    tables[existing].origin = .dotted(section: section)
                    tables[existing].definedAt = part.offset
                    table = existing
                case .header, .inline:
                    let header = "[\(Self.spell(tablePath(existing)))]"
                    throw error(
                        "cannot add the key \(key()) here: table \(header) has its own header at line \(line(of: tables[existing].definedAt))",
                        at: part.offset)
                case .dotted:
                    let header = "[\(Self.spell(tablePath(existing)))]"
                    throw error(
                        "cannot add the key \(key()) here: table \(header) was defined by dotted keys at line \(line(of: tables[existing].definedAt)), under another header",
                        at: part.offset)
                }
            case .tableArray:
                throw error(
                    "cannot add the key \(key()): \(path()) is already defined as an array of tables at line \(line(of: entry.offset))",
                    at: part.offset)
            case let .value(value):
                throw error("cannot add the key \(key()): \(path()) is \(existing(value, at: entry.offset))", at: part.offset)
            }
        }
        return table
    }

    /// What a value that is in the way is, and why it cannot be added to.
    func existing(_ value: TOML.Value, at offset: Int) -> String {
        let line = line(of: offset)
        return switch value {
        case .table: "an inline table (line \(line)), and inline tables cannot be extended"
        case .array: "already defined as an array at line \(line); only arrays of tables ([[name]]) can be extended"
        default: "already defined as \(value.typeName) at line \(line)"
        }
    }

    /// The keys from the root to `table`.
    func tablePath(_ table: Int) -> [String] {
        var path: [String] = []
        var current = table
        while current > 0, tables[current].parent >= 0 {
            path.append(tables[current].name)
            current = tables[current].parent
        }
        return path.reversed()
    }

    // MARK: The tree

    /// The values of `table` and everything in it, recursively: as deep as `TOML.maximumNesting`.
    func build(_ table: Int) -> TOML.Table {
        var result = TOML.Table()
        let node = tables[table]
        for key in node.keys {
            guard let entry = node.entries[key] else { continue }
            switch entry.kind {
            case let .value(value): result[key] = value
            case let .table(child): result[key] = .table(build(child))
            case let .tableArray(array): result[key] = .array(tableArrays[array].map { .table(build($0)) })
            }
        }
        return result
    }
}
