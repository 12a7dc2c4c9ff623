import Testing

@testable import KioskConfig

/// Lines and columns of values, found again in the text because TOMLKit does not report them.
@Suite struct SourceMapTests {
    typealias Location = SourceMap.Location

    func map(_ text: String) -> SourceMap { SourceMap(bytes: Array(text.utf8)) }

    func path(_ components: ConfigKeyPath.Component...) -> ConfigKeyPath { ConfigKeyPath(components) }

    @Test func keysInTables() {
        let found = map(
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

    @Test func dottedKeysAndInlineTables() {
        let found = map(
            """
            screens.DP-1.position = { x = 1, y = 2 }
            screens . "DP-2" . mode = 'off'
            """)
        #expect(found.location(of: ["screens", "DP-1"]) == Location(line: 1, keyColumn: 9, valueColumn: nil))
        #expect(found.location(of: ["screens", "DP-1", "position"]) == Location(line: 1, keyColumn: 14, valueColumn: 25))
        #expect(found.location(of: ["screens", "DP-1", "position", "y"]) == Location(line: 1, keyColumn: 34, valueColumn: 38))
        #expect(found.location(of: ["screens", "DP-2", "mode"]) == Location(line: 2, keyColumn: 20, valueColumn: 27))
    }

    @Test func arraysOfTables() {
        let found = map(
            """
            [[touch]]
            match = "a"
            [[touch]]
            match = "b"
            [touch.extra]
            x = 1
            """)
        #expect(found.location(of: path(.key("touch"), .index(0))) == Location(line: 1, keyColumn: 3, valueColumn: nil))
        #expect(found.location(of: path(.key("touch"), .index(1), .key("match"))) == Location(line: 4, keyColumn: 1, valueColumn: 9))
        #expect(
            found.location(of: path(.key("touch"), .index(1), .key("extra"), .key("x"))) == Location(line: 6, keyColumn: 1, valueColumn: 5))
    }

    @Test func arrayElements() {
        let found = map(
            """
            calibration = [
                1.0, # a
                -0.5,
                [2, "x"],
            ]
            """)
        #expect(found.location(of: path(.key("calibration"), .index(1))) == Location(line: 3, keyColumn: 5, valueColumn: 5))
        #expect(found.location(of: path(.key("calibration"), .index(2), .index(1))) == Location(line: 4, keyColumn: 9, valueColumn: 9))
    }

    /// Text inside strings and comments that looks like keys or headers is not.
    @Test func stringsAndCommentsAreNotKeys() {
        let found = map(
            """
            a = \"\"\"
            [screens.fake]
            b = "x" ""\"
            c = '''
            d = 1 '''
            e = "quote \\" [x] = 1" # f = 2
            # [g]
            h = 'it''s'
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

    @Test func quotedKeysAreDecoded() {
        let found = map(#"[screens."HDMI\u002DA-1"]"# + "\n" + #"'lobby tv'.mode = "off""#)
        #expect(found.location(of: ["screens", "HDMI-A-1"])?.line == 1)
        #expect(found.location(of: ["screens", "HDMI-A-1", "lobby tv", "mode"])?.line == 2)
    }

    /// Columns count characters, as toml++ does, not bytes.
    @Test func columnsCountCharacters() {
        let found = map("title = \"é✋\"; x = 1\n\"é\" = 2")
        #expect(found.location(of: ["é"]) == Location(line: 2, keyColumn: 1, valueColumn: 7))
        let table = map("[screens.\"écran\"]\nmode = 1")
        #expect(table.location(of: ["screens", "écran", "mode"]) == Location(line: 2, keyColumn: 1, valueColumn: 8))
    }

    @Test func windowsLineEndings() {
        let found = map("seat = \"a\"\r\n[screens.DP-1]\r\nmode = \"off\"\r\n")
        #expect(found.location(of: ["screens", "DP-1", "mode"]) == Location(line: 3, keyColumn: 1, valueColumn: 8))
    }

    @Test func nearestFallsBackToTheTable() {
        let found = map("[screens.DP-1]\nmode = \"off\"")
        #expect(found.nearest(["screens", "DP-1", "edid", "make"])?.location.line == 1)
        #expect(found.nearest(["screens", "DP-1", "edid", "make"])?.exact == false)
        #expect(found.nearest(["other"]) == nil)
    }

    @Test func firstMentionWins() {
        let found = map("[screens.DP-1.edid]\nmake = \"x\"\n[screens.DP-1]\nmode = \"off\"")
        #expect(found.location(of: ["screens", "DP-1"])?.line == 1)
    }

    @Test func pathDefinedByALine() {
        let found = map("[[touch]]\n[screens.DP-1]\nmode = 1")
        #expect(found.pathDefined(byLine: Array("mode = 2".utf8)) == ["screens", "DP-1", "mode"])
        #expect(found.pathDefined(byLine: Array("[screens.\"DP-1\"]".utf8)) == ["screens", "DP-1"])
        #expect(found.pathDefined(byLine: Array("[touch.x]".utf8)) == path(.key("touch"), .index(0), .key("x")))
        #expect(found.pathDefined(byLine: Array("[[touch]]".utf8)) == nil)
        #expect(found.pathDefined(byLine: Array("# comment".utf8)) == nil)
    }

    @Test func nulEscapesAreFound() {
        let found = map(#"a = "x\u0000" "# + "\n" + #"b = 'y\u0000'"# + "\n" + #""k\U00000000" = """\u0000""""#)
        #expect(found.nulEscapes.map { [$0.line, $0.column] } == [[1, 7], [3, 3], [3, 20]])
    }

    /// Garbage never traps or hangs the scanner (it also runs on the text before a syntax error).
    @Test(arguments: [
        "[", "[[", "a.", "a =", "= 1", "a = [", "a = {", "a = { b", "a = \"", "a = '''", "\"", "[a.\"b", "a = [1,,2]",
        "a = {,}", "]]]", "\u{FEFF}", "a = \"\\", "a = \"\\u12\"", String(repeating: "[", count: 1000),
    ])
    func garbage(text: String) {
        _ = map(text)
        _ = map(text).pathDefined(byLine: Array(text.utf8))
    }

    /// Deep structures are scanned without recording paths beyond the limit (quadratic otherwise).
    @Test func deepKeysAreNotRecorded() {
        let deep = Array(repeating: "a", count: 10_000).joined(separator: ".")
        let nested = "c = [" + String(repeating: "[", count: 250) + String(repeating: "]", count: 251)
        let found = map("\(nested)\n\(deep) = 1\n[\(deep)]\nb = 2\nd = 3")
        #expect(found.locations.keys.allSatisfy { $0.count <= SourceMap.maximumDepth })
        #expect(found.location(of: ["c"])?.line == 1)
        #expect(found.location(of: ["a", "a"])?.line == 2)
    }
}
