import Testing

@testable import KioskConfig

/// Where the parser says each key and value was written, which is where configuration messages point.
@Suite struct TOMLLocationTests {
    typealias Location = TOML.Document.Location

    func document(_ text: String) throws -> TOML.Document { try TOML.parseDocument(Array(text.utf8)) }

    func path(_ components: ConfigKeyPath.Component...) -> ConfigKeyPath { ConfigKeyPath(components) }

    @Test func keysInTables() throws {
        let found = try document(
            """
            seat = "seat0"
            [screens.HDMI-A-1]
              mode   =   "off"
            """)
        #expect(found.location(of: ["seat"]) == Location(line: 1, keyColumn: 1, valueColumn: 8))
        #expect(found.location(of: ["screens"]) == Location(line: 2, keyColumn: 2, valueColumn: nil))
        #expect(found.location(of: ["screens", "HDMI-A-1"]) == Location(line: 2, keyColumn: 10, valueColumn: nil))
        #expect(found.location(of: ["screens", "HDMI-A-1", "mode"]) == Location(line: 3, keyColumn: 3, valueColumn: 14))
    }

    @Test func dottedKeysAndInlineTables() throws {
        let found = try document(
            """
            screens.DP-1.position = { x = 1, y = 2 }
            screens . "DP-2" . mode = 'off'
            """)
        #expect(found.location(of: ["screens", "DP-1"]) == Location(line: 1, keyColumn: 9, valueColumn: nil))
        #expect(found.location(of: ["screens", "DP-1", "position"]) == Location(line: 1, keyColumn: 14, valueColumn: 25))
        #expect(found.location(of: ["screens", "DP-1", "position", "y"]) == Location(line: 1, keyColumn: 34, valueColumn: 38))
        #expect(found.location(of: ["screens", "DP-2", "mode"]) == Location(line: 2, keyColumn: 20, valueColumn: 27))
    }

    @Test func arraysOfTables() throws {
        let found = try document(
            """
            [[touch]]
            match = "a"
            [[touch]]
            match = "b"
            [touch.extra]
            x = 1
            """)
        #expect(found.location(of: ["touch"]) == Location(line: 1, keyColumn: 3, valueColumn: nil))
        #expect(found.location(of: path(.key("touch"), .index(0))) == Location(line: 1, keyColumn: 3, valueColumn: nil))
        #expect(found.location(of: path(.key("touch"), .index(1))) == Location(line: 3, keyColumn: 3, valueColumn: nil))
        #expect(found.location(of: path(.key("touch"), .index(1), .key("match"))) == Location(line: 4, keyColumn: 1, valueColumn: 9))
        #expect(
            found.location(of: path(.key("touch"), .index(1), .key("extra"), .key("x"))) == Location(line: 6, keyColumn: 1, valueColumn: 5))
        #expect(found.location(of: path(.key("touch"), .index(0), .key("extra"))) == nil)
    }

    @Test func arrayElements() throws {
        let found = try document(
            """
            calibration = [
                1.0, # a
                -0.5,
                [2, "x"],
                { a = 1 },
            ]
            """)
        #expect(found.location(of: path(.key("calibration"), .index(1))) == Location(line: 3, keyColumn: 5, valueColumn: 5))
        #expect(found.location(of: path(.key("calibration"), .index(2), .index(1))) == Location(line: 4, keyColumn: 9, valueColumn: 9))
        #expect(found.location(of: path(.key("calibration"), .index(3), .key("a"))) == Location(line: 5, keyColumn: 7, valueColumn: 11))
    }

    /// Text inside strings and comments that looks like keys or headers is not.
    @Test func stringsAndCommentsAreNotKeys() throws {
        let found = try document(
            """
            a = \"\"\"
            [screens.fake]
            b = "x" ""\"
            c = '''
            d = 1 '''
            e = "quote \\" [x] = 1" # f = 2
            # [g]
            h = 'it'
            """)
        #expect(found.location(of: ["screens"]) == nil)
        #expect(found.location(of: ["b"]) == nil)
        #expect(found.location(of: ["d"]) == nil)
        #expect(found.location(of: ["f"]) == nil)
        #expect(found.location(of: ["g"]) == nil)
        #expect(found.location(of: ["c"])?.line == 4)
        #expect(found.location(of: ["e"])?.line == 6)
        #expect(found.location(of: ["h"])?.line == 8)
    }

    @Test func quotedKeysAreDecoded() throws {
        let found = try document(#"[screens."HDMI\u002DA-1"]"# + "\n" + #"'lobby tv'.mode = "off""#)
        #expect(found.location(of: ["screens", "HDMI-A-1"])?.line == 1)
        #expect(found.location(of: ["screens", "HDMI-A-1", "lobby tv", "mode"])?.line == 2)
    }

    /// Columns count characters, not bytes, as the parser's errors do; a byte order mark is not one.
    @Test func columnsCountCharacters() throws {
        let found = try document("title = \"é✋\"\n\"é\" = 2")
        #expect(found.location(of: ["é"]) == Location(line: 2, keyColumn: 1, valueColumn: 7))
        let table = try document("\u{FEFF}[screens.\"écran\"]\nmode = 1")
        #expect(table.location(of: ["screens", "écran"]) == Location(line: 1, keyColumn: 10, valueColumn: nil))
        #expect(table.location(of: ["screens", "écran", "mode"]) == Location(line: 2, keyColumn: 1, valueColumn: 8))
    }

    @Test func windowsLineEndings() throws {
        let found = try document("seat = \"a\"\r\n[screens.DP-1]\r\nmode = \"off\"\r\n")
        #expect(found.location(of: ["screens", "DP-1", "mode"]) == Location(line: 3, keyColumn: 1, valueColumn: 8))
    }

    @Test func nearestFallsBackToTheTable() throws {
        let found = try document("[screens.DP-1]\nmode = \"off\"")
        #expect(found.nearest(["screens", "DP-1", "edid", "make"])?.location.line == 1)
        #expect(found.nearest(["screens", "DP-1", "edid", "make"])?.exact == false)
        #expect(found.nearest(["screens", "DP-1", "mode"])?.exact == true)
        #expect(found.nearest(["other"]) == nil)
    }

    @Test func firstMentionWins() throws {
        let found = try document("[screens.DP-1.edid]\nmake = \"x\"\n[screens.DP-1]\nmode = \"off\"")
        #expect(found.location(of: ["screens", "DP-1"])?.line == 1)
    }

    /// A key or table defined twice names its whole path, which the line itself may not spell.
    static let redefinedPaths: [(text: String, path: ConfigKeyPath, firstLine: Int)] = [
        ("[[touch]]\n[screens.DP-1]\nmode = 1\nmode = 2", ["screens", "DP-1", "mode"], 3),
        ("[screens.DP-1]\n[screens.\"DP-1\"]", ["screens", "DP-1"], 1),
        ("[[touch]]\n[[touch]]\n[touch.x]\n[touch.x]", ConfigKeyPath([.key("touch"), .index(1), .key("x")]), 3),
        ("a.b.c = 1\n[a.b]", ["a", "b"], 1),
        ("t = { a = 1, a = 2 }", ["t", "a"], 1),
    ]

    @Test(arguments: redefinedPaths)
    func redefinitions(text: String, path: ConfigKeyPath, firstLine: Int) {
        #expect(throws: TOML.SyntaxError.self) { try document(text) }
        do {
            _ = try document(text)
        } catch let error as TOML.SyntaxError {
            #expect(error.redefinition == .init(path: path, firstLine: firstLine))
        } catch {}
    }
}
