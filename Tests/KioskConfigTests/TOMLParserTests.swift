import Testing

@testable import KioskConfig

/// The TOML parser, construct by construct: valid documents and the tree they give, invalid ones and the
/// exact message and position of the first problem. Examples come from the TOML v1.0.0 specification
/// where it has them.
@Suite struct TOMLParserTests {
    static func parse(_ text: String) throws(TOML.SyntaxError) -> TOML.Table {
        try TOML.parse(Array(text.utf8))
    }

    static func table(_ pairs: KeyValuePairs<String, TOML.Value>) -> TOML.Value {
        .table(TOML.Table(pairs))
    }

    static func document(_ pairs: KeyValuePairs<String, TOML.Value>) -> TOML.Table {
        TOML.Table(pairs)
    }

    /// The error for `text`, nil (with an issue recorded) when it parses.
    static func error(_ text: String) -> TOML.SyntaxError? {
        do {
            let table = try parse(text)
            Issue.record("parsed, expected an error: \(table)")
            return nil
        } catch {
            return error
        }
    }

    // MARK: Keys

    static let keys: [(String, TOML.Table)] = [
        ("key = \"value\"", document(["key": .string("value")])),
        (
            "bare_key = 1\nbare-key = 2\n1234 = 3\nABC_xyz-09 = 4",
            document(["bare_key": .integer(1), "bare-key": .integer(2), "1234": .integer(3), "ABC_xyz-09": .integer(4)])
        ),
        (
            "\"127.0.0.1\" = \"a\"\n\"character encoding\" = \"b\"\n\"ʎǝʞ\" = \"c\"\n'key2' = \"d\"\n'quoted \"value\"' = \"e\"",
            document([
                "127.0.0.1": .string("a"), "character encoding": .string("b"), "ʎǝʞ": .string("c"), "key2": .string("d"),
                "quoted \"value\"": .string("e"),
            ])
        ),
        (#""" = "blank""#, document(["": .string("blank")])),
        ("'' = 'blank'", document(["": .string("blank")])),
        (#""\u00e9\t" = 1"#, document(["é\t": .integer(1)])),
        (#""a\u0000b" = 1"#, document(["a\u{0}b": .integer(1)])),
        (
            "name = \"Orange\"\nphysical.color = \"orange\"\nphysical.shape = \"round\"\nsite.\"google.com\" = true",
            document([
                "name": .string("Orange"), "physical": table(["color": .string("orange"), "shape": .string("round")]),
                "site": table(["google.com": .boolean(true)]),
            ])
        ),
        (
            "fruit.name = \"banana\"\nfruit. color = \"yellow\"\nfruit . flavor = \"banana\"",
            document(["fruit": table(["name": .string("banana"), "color": .string("yellow"), "flavor": .string("banana")])])
        ),
        ("3.14159 = \"pi\"", document(["3": table(["14159": .string("pi")])])),
        ("a.\"b.c\".'d' = 1", document(["a": table(["b.c": table(["d": .integer(1)])])])),
        // Dotted keys may define a table's keys out of order, in the same section.
        (
            "apple.type = \"fruit\"\norange.type = \"fruit\"\napple.skin = \"thin\"\norange.skin = \"thick\"",
            document([
                "apple": table(["type": .string("fruit"), "skin": .string("thin")]),
                "orange": table(["type": .string("fruit"), "skin": .string("thick")]),
            ])
        ),
        ("key\t=\t1\t# tabs", document(["key": .integer(1)])),
        (
            "true = 1\nfalse = 2\ninf = 3\nnan = 4",
            document(["true": .integer(1), "false": .integer(2), "inf": .integer(3), "nan": .integer(4)])
        ),
        ("-1 = 1\n_ = 2\n- = 3", document(["-1": .integer(1), "_": .integer(2), "-": .integer(3)])),
    ]

    @Test(arguments: keys) func validKeys(toml: String, expected: TOML.Table) throws {
        #expect(try Self.parse(toml) == expected)
    }

    @Test func keysKeepTheirFileOrder() throws {
        let root = try Self.parse("b = 1\na = 2\n[z]\n[c]\n[z.y]\n[d]")
        #expect(root.keys == ["b", "a", "z", "c", "d"])
        let inline = try Self.parse("t = { z = 1, a.b = 2, m = 3 }")
        guard case let .table(table) = inline["t"] else {
            Issue.record("not a table")
            return
        }
        #expect(table.keys == ["z", "a", "m"])
    }

    // MARK: Strings

    static let strings: [(String, TOML.Table)] = [
        (
            #"str = "I'm a string. \"You can quote me\". Name\tJos\u00E9\nLocation\tSF.""#,
            document(["str": .string("I'm a string. \"You can quote me\". Name\tJosé\nLocation\tSF.")])
        ),
        (#"s = "\b\t\n\f\r\"\\""#, document(["s": .string("\u{8}\t\n\u{C}\r\"\\")])),
        (#"s = "\U0001F600 \u00e9 \U000000E9 \u0000""#, document(["s": .string("😀 é é \u{0}")])),
        ("s = \"café ✋ 😀\ttab\"", document(["s": .string("café ✋ 😀\ttab")])),
        ("s = \"\"", document(["s": .string("")])),
        ("s = \"\u{FEFF}\u{2028}\u{A0}\u{7E}\"", document(["s": .string("\u{FEFF}\u{2028}\u{A0}~")])),
        ("str1 = \"\"\"\nRoses are red\nViolets are blue\"\"\"", document(["str1": .string("Roses are red\nViolets are blue")])),
        ("s = \"\"\"\r\nRoses\r\nViolets\"\"\"", document(["s": .string("Roses\nViolets")])),
        ("s = \"\"\"\n\nsecond line\"\"\"", document(["s": .string("\nsecond line")])),
        (
            "str2 = \"\"\"\nThe quick brown \\\n\n\n  fox jumps over \\\n    the lazy dog.\"\"\"",
            document(["str2": .string("The quick brown fox jumps over the lazy dog.")])
        ),
        (
            "str3 = \"\"\"\\\n       The quick brown \\\n       fox jumps over \\\n       the lazy dog.\\\n       \"\"\"",
            document(["str3": .string("The quick brown fox jumps over the lazy dog.")])
        ),
        ("s = \"\"\"a \\   \r\n  \t\r\n b\"\"\"", document(["s": .string("a b")])),
        (
            #"str4 = """Here are two quotation marks: "". Simple enough.""""#,
            document(["str4": .string(#"Here are two quotation marks: "". Simple enough."#)])
        ),
        (#"str5 = """Here are three quotation marks: ""\".""""#, document(["str5": .string(#"Here are three quotation marks: """."#)])),
        (
            #"str6 = """Here are fifteen quotation marks: ""\"""\"""\"""\"""\".""""#,
            document(["str6": .string("Here are fifteen quotation marks: " + String(repeating: "\"", count: 15) + ".")])
        ),
        (
            "str7 = \"\"\"\"This,\" she said, \"is just a pointless statement.\"\"\"\"",
            document(["str7": .string(#""This," she said, "is just a pointless statement.""#)])
        ),
        (#"s = """a""""""#, document(["s": .string(#"a"""#)])),
        ("s = " + String(repeating: "\"", count: 6), document(["s": .string("")])),
        (#"winpath = 'C:\Users\nodejs\templates'"#, document(["winpath": .string(#"C:\Users\nodejs\templates"#)])),
        (#"quoted = 'Tom "Dubs" Preston-Werner'"#, document(["quoted": .string(#"Tom "Dubs" Preston-Werner"#)])),
        (#"regex = '<\i\c*\s*>'"#, document(["regex": .string(#"<\i\c*\s*>"#)])),
        ("s = ''", document(["s": .string("")])),
        (#"regex2 = '''I [dw]on't need \d{2} apples'''"#, document(["regex2": .string(#"I [dw]on't need \d{2} apples"#)])),
        (
            "lines = '''\nThe first newline is\ntrimmed in raw strings.\n   All other whitespace\n   is preserved.\n'''",
            document(["lines": .string("The first newline is\ntrimmed in raw strings.\n   All other whitespace\n   is preserved.\n")])
        ),
        (
            #"quot15 = '''Here are fifteen quotation marks: """""""""""""""'''"#,
            document(["quot15": .string("Here are fifteen quotation marks: " + String(repeating: "\"", count: 15))])
        ),
        (
            #"apos15 = "Here are fifteen apostrophes: '''''''''''''''""#,
            document(["apos15": .string("Here are fifteen apostrophes: '''''''''''''''")])
        ),
        (#"str = ''''That,' she said, 'is still pointless.''''"#, document(["str": .string("'That,' she said, 'is still pointless.'")])),
        ("s = '''a\\\n  b'''", document(["s": .string("a\\\n  b")])),
        ("s = '''\r\na\r\nb'''", document(["s": .string("a\nb")])),
        ("s = '''\t# not a comment'''", document(["s": .string("\t# not a comment")])),
    ]

    @Test(arguments: strings) func validStrings(toml: String, expected: TOML.Table) throws {
        #expect(try Self.parse(toml) == expected)
    }

    // MARK: Numbers and booleans

    static let numbers: [(String, TOML.Value)] = [
        ("+99", .integer(99)), ("42", .integer(42)), ("0", .integer(0)), ("-17", .integer(-17)), ("+0", .integer(0)),
        ("-0", .integer(0)), ("1_000", .integer(1000)), ("5_349_221", .integer(5_349_221)), ("53_49_221", .integer(5_349_221)),
        ("1_2_3_4_5", .integer(12345)), ("9223372036854775807", .integer(.max)), ("-9223372036854775808", .integer(.min)),
        ("0xDEADBEEF", .integer(0xDEAD_BEEF)), ("0xdeadbeef", .integer(0xDEAD_BEEF)), ("0xdead_beef", .integer(0xDEAD_BEEF)),
        ("0x7FFFFFFFFFFFFFFF", .integer(.max)), ("0x0000_00ff", .integer(255)), ("0o01234567", .integer(0o01234567)),
        ("0o755", .integer(0o755)), ("0b11010110", .integer(0b11010110)), ("0b0", .integer(0)), ("0x0", .integer(0)),
        ("+1.0", .float(1)), ("3.1415", .float(3.1415)), ("-0.01", .float(-0.01)), ("5e+22", .float(5e+22)),
        ("1e06", .float(1e06)), ("-2E-2", .float(-2E-2)), ("6.626e-34", .float(6.626e-34)),
        ("224_617.445_991_228", .float(224_617.445_991_228)), ("0e0", .float(0)), ("0.0", .float(0)), ("+0.0", .float(0)),
        ("-0.0", .float(-0.0)), ("1.7976931348623157e308", .float(.greatestFiniteMagnitude)), ("5e-324", .float(.leastNonzeroMagnitude)),
        ("1_0.0_1e1_0", .float(10.01e10)), ("1E+0_1", .float(10)),
        // Below the smallest float it rounds to zero, as any decimal rounds to the nearest float.
        ("1e-400", .float(0)),
        ("inf", .float(.infinity)), ("+inf", .float(.infinity)), ("-inf", .float(-.infinity)), ("nan", .float(.nan)),
        ("+nan", .float(.nan)), ("-nan", .float(-Double.nan)),
        ("true", .boolean(true)), ("false", .boolean(false)),
    ]

    @Test(arguments: numbers) func validNumbers(toml: String, expected: TOML.Value) throws {
        let root = try Self.parse("x = \(toml)\ny = [\(toml),\(toml) ]\nz = { a = \(toml)}#")
        #expect(root["x"] == expected)
        #expect(root["y"] == .array([expected, expected]))
        #expect(root["z"] == Self.table(["a": expected]))
    }

    /// NaN equals itself by bit pattern, so a document parsed twice compares equal; -0.0 is not 0.0.
    @Test func floatEquality() throws {
        #expect(try Self.parse("a = nan\nb = [-nan]") == (try Self.parse("a = nan\nb = [-nan]")))
        #expect(TOML.Value.float(.nan) != .float(-Double.nan))
        #expect(TOML.Value.float(0) != .float(-0.0))
        #expect(TOML.Value.integer(1) != .float(1))
    }

    // MARK: Dates and times

    static let dates: [(String, TOML.Value)] = [
        ("1979-05-27T07:32:00Z", .offsetDateTime("1979-05-27T07:32:00Z")),
        ("1979-05-27T00:32:00-07:00", .offsetDateTime("1979-05-27T00:32:00-07:00")),
        ("1979-05-27T00:32:00.999999-07:00", .offsetDateTime("1979-05-27T00:32:00.999999-07:00")),
        ("1979-05-27 07:32:00Z", .offsetDateTime("1979-05-27T07:32:00Z")),
        ("1979-05-27t07:32:00z", .offsetDateTime("1979-05-27T07:32:00Z")),
        ("1979-05-27T07:32:00+00:00", .offsetDateTime("1979-05-27T07:32:00+00:00")),
        ("1979-05-27T07:32:00.1234567890123Z", .offsetDateTime("1979-05-27T07:32:00.1234567890123Z")),
        ("1979-05-27T07:32:00", .localDateTime("1979-05-27T07:32:00")),
        ("1979-05-27 07:32:00", .localDateTime("1979-05-27T07:32:00")),
        ("1979-05-27T00:32:00.999999", .localDateTime("1979-05-27T00:32:00.999999")),
        ("1979-05-27", .localDate("1979-05-27")),
        ("2000-02-29", .localDate("2000-02-29")), ("2024-02-29", .localDate("2024-02-29")),
        ("0000-01-01", .localDate("0000-01-01")), ("9999-12-31", .localDate("9999-12-31")),
        ("07:32:00", .localTime("07:32:00")), ("00:32:00.999999", .localTime("00:32:00.999999")),
        ("23:59:60", .localTime("23:59:60")), ("1990-12-31T23:59:60Z", .offsetDateTime("1990-12-31T23:59:60Z")),
    ]

    @Test(arguments: dates) func validDates(toml: String, expected: TOML.Value) throws {
        let root = try Self.parse("x = \(toml)\ny = [\(toml),\(toml)]\nz = { a = \(toml) }\nw = \(toml) # comment")
        #expect(root["x"] == expected)
        #expect(root["y"] == .array([expected, expected]))
        #expect(root["z"] == Self.table(["a": expected]))
        #expect(root["w"] == expected)
    }

    // MARK: Arrays

    static let arrays: [(String, TOML.Value)] = [
        ("[ 1, 2, 3 ]", .array([.integer(1), .integer(2), .integer(3)])),
        (#"[ "red", "yellow", "green" ]"#, .array([.string("red"), .string("yellow"), .string("green")])),
        ("[ [ 1, 2 ], [3, 4, 5] ]", .array([.array([.integer(1), .integer(2)]), .array([.integer(3), .integer(4), .integer(5)])])),
        (
            #"[ [ 1, 2 ], ["a", "b", "c"] ]"#,
            .array([.array([.integer(1), .integer(2)]), .array([.string("a"), .string("b"), .string("c")])])
        ),
        (
            #"[ "all", 'strings', """are the same""", '''type''' ]"#,
            .array([.string("all"), .string("strings"), .string("are the same"), .string("type")])
        ),
        ("[ 0.1, 0.2, 0.5, 1, 2, 5 ]", .array([.float(0.1), .float(0.2), .float(0.5), .integer(1), .integer(2), .integer(5)])),
        (
            #"[ "Foo Bar <foo@example.com>", { name = "Baz Qux", email = "bazqux@example.com" } ]"#,
            .array([.string("Foo Bar <foo@example.com>"), table(["name": .string("Baz Qux"), "email": .string("bazqux@example.com")])])
        ),
        ("[\n  1, 2, 3\n]", .array([.integer(1), .integer(2), .integer(3)])),
        ("[\n  1,\n  2, # this is ok\n]", .array([.integer(1), .integer(2)])),
        ("[\r\n# only a comment\r\n]", .array([])),
        ("[]", .array([])), ("[ ]", .array([])), ("[\n\n]", .array([])), ("[[]]", .array([.array([])])),
        ("[1,]", .array([.integer(1)])), ("[1\n,\n2\n,\n]", .array([.integer(1), .integer(2)])),
        ("[ { x = 1 }, { x = 2 } ]", .array([table(["x": .integer(1)]), table(["x": .integer(2)])])),
        (
            "[true,false,1979-05-27,07:32:00,nan]",
            .array([.boolean(true), .boolean(false), .localDate("1979-05-27"), .localTime("07:32:00"), .float(.nan)])
        ),
        ("[ \"\"\"\nmulti\nline\"\"\", '''\nraw''' ]", .array([.string("multi\nline"), .string("raw")])),
    ]

    @Test(arguments: arrays) func validArrays(toml: String, expected: TOML.Value) throws {
        let root = try Self.parse("x = \(toml)")
        #expect(root["x"] == expected)
    }

    // MARK: Tables

    static let tables: [(String, TOML.Table)] = [
        ("[table]", document(["table": table([:])])),
        (
            "[table-1]\nkey1 = \"some string\"\nkey2 = 123\n\n[table-2]\nkey1 = \"another string\"\nkey2 = 456",
            document([
                "table-1": table(["key1": .string("some string"), "key2": .integer(123)]),
                "table-2": table(["key1": .string("another string"), "key2": .integer(456)]),
            ])
        ),
        (
            "[dog.\"tater.man\"]\ntype.name = \"pug\"",
            document(["dog": table(["tater.man": table(["type": table(["name": .string("pug")])])])])
        ),
        (
            "[a.b.c]\n[ d.e.f ]\n[ g .  h  . i ]\n[ j . \"ʞ\" . 'l' ]",
            document([
                "a": table(["b": table(["c": table([:])])]), "d": table(["e": table(["f": table([:])])]),
                "g": table(["h": table(["i": table([:])])]), "j": table(["ʞ": table(["l": table([:])])]),
            ])
        ),
        ("[x.y.z.w]\n[x]", document(["x": table(["y": table(["z": table(["w": table([:])])])])])),
        ("[x.y]\na = 1\n[x]\nb = 2", document(["x": table(["y": table(["a": .integer(1)]), "b": .integer(2)])])),
        (
            "name = \"Fido\"\nbreed = \"pug\"\n[owner]\nname = \"Regina Dogman\"\nmember_since = 1999-08-04",
            document([
                "name": .string("Fido"), "breed": .string("pug"),
                "owner": table(["name": .string("Regina Dogman"), "member_since": .localDate("1999-08-04")]),
            ])
        ),
        (
            "[fruit]\napple.color = \"red\"\napple.taste.sweet = true\n[fruit.apple.texture]\nsmooth = true",
            document([
                "fruit": table([
                    "apple": table([
                        "color": .string("red"), "taste": table(["sweet": .boolean(true)]), "texture": table(["smooth": .boolean(true)]),
                    ])
                ])
            ])
        ),
        (
            "[fruit.apple]\n[animal]\n[fruit.orange]",
            document(["fruit": table(["apple": table([:]), "orange": table([:])]), "animal": table([:])])
        ),
        ("a.b = 1\n[a.c]\nd = 2", document(["a": table(["b": .integer(1), "c": table(["d": .integer(2)])])])),
        (
            "a.b.c = 1\n[a.b.d]\ne = 2",
            document(["a": table(["b": table(["c": .integer(1), "d": table(["e": .integer(2)])])])])
        ),
        // A table made by a header's path can take dotted keys from its parent's section once.
        (
            "[a.b.c]\nz = 1\n[a]\nb.d = 2\nb.e = 3",
            document(["a": table(["b": table(["c": table(["z": .integer(1)]), "d": .integer(2), "e": .integer(3)])])])
        ),
        ("[\"\"]\n\"\" = 1", document(["": table(["": .integer(1)])])),
        ("['a b'.\"c\"]", document(["a b": table(["c": table([:])])])),
    ]

    @Test(arguments: tables) func validTables(toml: String, expected: TOML.Table) throws {
        #expect(try Self.parse(toml) == expected)
    }

    // MARK: Arrays of tables

    static let arraysOfTables: [(String, TOML.Table)] = [
        (
            "[[products]]\nname = \"Hammer\"\nsku = 738594937\n\n[[products]]  # empty table within the array\n\n[[products]]\nname = \"Nail\"\nsku = 284758393\n\ncolor = \"gray\"",
            document([
                "products": .array([
                    table(["name": .string("Hammer"), "sku": .integer(738_594_937)]), table([:]),
                    table(["name": .string("Nail"), "sku": .integer(284_758_393), "color": .string("gray")]),
                ])
            ])
        ),
        (
            """
            [[fruits]]
            name = "apple"

            [fruits.physical]  # subtable
            color = "red"
            shape = "round"

            [[fruits.varieties]]  # nested array of tables
            name = "red delicious"

            [[fruits.varieties]]
            name = "granny smith"


            [[fruits]]
            name = "banana"

            [[fruits.varieties]]
            name = "plantain"
            """,
            document([
                "fruits": .array([
                    table([
                        "name": .string("apple"), "physical": table(["color": .string("red"), "shape": .string("round")]),
                        "varieties": .array([table(["name": .string("red delicious")]), table(["name": .string("granny smith")])]),
                    ]),
                    table(["name": .string("banana"), "varieties": .array([table(["name": .string("plantain")])])]),
                ])
            ])
        ),
        (
            "points = [ { x = 1, y = 2, z = 3 },\n           { x = 7, y = 8, z = 9 },\n           { x = 2, y = 4, z = 8 } ]",
            document([
                "points": .array([
                    table(["x": .integer(1), "y": .integer(2), "z": .integer(3)]),
                    table(["x": .integer(7), "y": .integer(8), "z": .integer(9)]),
                    table(["x": .integer(2), "y": .integer(4), "z": .integer(8)]),
                ])
            ])
        ),
        ("[[a.b]]\nx = 1\n[a]\ny = 2", document(["a": table(["b": .array([table(["x": .integer(1)])]), "y": .integer(2)])])),
        ("[a]\n[[a.b]]\n[[a.b]]", document(["a": table(["b": .array([table([:]), table([:])])])])),
        (
            "[[a]]\n[a.b]\nc = 1\n[[a]]\n[a.b]\nc = 2",
            document(["a": .array([table(["b": table(["c": .integer(1)])]), table(["b": table(["c": .integer(2)])])])])
        ),
        (
            "[[a]]\nb.c = 1\n[[a]]\nb.c = 2",
            document(["a": .array([table(["b": table(["c": .integer(1)])]), table(["b": table(["c": .integer(2)])])])])
        ),
    ]

    @Test(arguments: arraysOfTables) func validArraysOfTables(toml: String, expected: TOML.Table) throws {
        #expect(try Self.parse(toml) == expected)
    }

    // MARK: Inline tables

    static let inlineTables: [(String, TOML.Value)] = [
        (#"{ first = "Tom", last = "Preston-Werner" }"#, table(["first": .string("Tom"), "last": .string("Preston-Werner")])),
        ("{ x = 1, y = 2 }", table(["x": .integer(1), "y": .integer(2)])),
        (#"{ type.name = "pug" }"#, table(["type": table(["name": .string("pug")])])),
        ("{}", table([:])), ("{ }", table([:])), ("{a=1}", table(["a": .integer(1)])),
        ("{ a = { b = { c = 1 } } }", table(["a": table(["b": table(["c": .integer(1)])])])),
        ("{ a.b = 1, a.c = 2, d = [] }", table(["a": table(["b": .integer(1), "c": .integer(2)]), "d": .array([])])),
        ("{ a = [\n1,\n2 # comment\n] }", table(["a": .array([.integer(1), .integer(2)])])),
        ("{ 'a b' = 1, \"c\\td\" = 2 }", table(["a b": .integer(1), "c\td": .integer(2)])),
    ]

    @Test(arguments: inlineTables) func validInlineTables(toml: String, expected: TOML.Value) throws {
        let root = try Self.parse("x = \(toml)")
        #expect(root["x"] == expected)
    }

    // MARK: Whole documents

    static let documents: [(String, TOML.Table)] = [
        ("", document([:])),
        ("\n\n  \t\n", document([:])),
        ("# only a comment", document([:])),
        ("\u{FEFF}a = 1", document(["a": .integer(1)])),
        (
            "a = 1\r\nb = 2\r\n[c]\r\nd = [\r\n1,\r\n]\r\n",
            document(["a": .integer(1), "b": .integer(2), "c": table(["d": .array([.integer(1)])])])
        ),
        ("a = 1 # comment with ✋ and \t tab and \u{7E}", document(["a": .integer(1)])),
        ("a = 1\n# comment\n  # indented\n\tb = 2 #", document(["a": .integer(1), "b": .integer(2)])),
        ("[a] # header comment\n[[b]] # and here", document(["a": table([:]), "b": .array([table([:])])])),
        ("a = \"#\" # not the comment's start", document(["a": .string("#")])),
    ]

    @Test(arguments: documents) func validDocuments(toml: String, expected: TOML.Table) throws {
        #expect(try Self.parse(toml) == expected)
    }

    // MARK: Invalid documents

    /// Syntax errors: the document, then the line, column and message of the first problem.
    static let syntaxErrors: [(toml: String, line: Int, column: Int, message: String)] = [
        // Keys and key-value pairs.
        ("key = ", 1, 7, "expected a value (a string in quotes, a number, true or false, a date, an array or an inline table)"),
        ("key =\nother = 1", 1, 6, "expected a value (a string in quotes, a number, true or false, a date, an array or an inline table)"),
        ("key = # comment", 1, 7, "expected a value (a string in quotes, a number, true or false, a date, an array or an inline table)"),
        ("key = }", 1, 7, "expected a value (a string in quotes, a number, true or false, a date, an array or an inline table), found '}'"),
        ("mode", 1, 5, "expected '=' after the key \"mode\""),
        ("mode\nx = 1", 1, 5, "expected '=' after the key \"mode\""),
        ("mode \"x\"", 1, 6, "expected '=' after the key \"mode\", found '\"'"),
        ("a.b c = 1", 1, 5, "expected '=' after the key \"a.b\", found 'c'"),
        ("= 1", 1, 1, "expected a key, a [table] header or a comment, found '='"),
        ("a. = 1", 1, 4, "expected a key after '.', found '='"),
        ("a..b = 1", 1, 3, "expected a key after '.', found '.'"),
        (".a = 1", 1, 1, "expected a key, a [table] header or a comment, found '.'"),
        ("café = 1", 1, 4, "'é' cannot be in a bare key (only A-Z a-z 0-9 _ -): put the key in quotes"),
        ("a b = 1", 1, 3, "expected '=' after the key \"a\", found 'b'"),
        ("\"\"\"key\"\"\" = 1", 1, 1, "a key cannot be a multi-line string"),
        ("'''key''' = 1", 1, 1, "a key cannot be a multi-line string"),
        ("a = 1 b = 2", 1, 7, "expected the end of the line after the value, found 'b'"),
        ("a = 1,", 1, 6, "expected the end of the line after the value, found ','"),
        ("a = \"x\"\"y\"", 1, 8, "expected the end of the line after the value, found '\"'"),
        ("mode = 1\nmode = 2", 2, 1, "\"mode\" is defined twice; first at line 1"),
        ("mode = 1\n\"mode\" = 2", 2, 1, "\"mode\" is defined twice; first at line 1"),
        ("a.b = 1\na.b = 2", 2, 1, "\"a.b\" is defined twice; first at line 1"),
        ("a = 1\na.b = 2", 2, 1, "cannot add the key \"a.b\": \"a\" is already defined as an integer at line 1"),
        (
            "a = [1]\na.b = 2", 2, 1,
            "cannot add the key \"a.b\": \"a\" is already defined as an array at line 1; only arrays of tables ([[name]]) can be extended"
        ),
        ("a.b = 1\na = 2", 2, 1, "\"a\" is defined twice; first at line 1"),
        ("'a b' = 1\n\"a b\" = 2", 2, 1, "\"'a b'\" is defined twice; first at line 1"),
        ("\"\" = 1\n'' = 2", 2, 1, "\"''\" is defined twice; first at line 1"),
        ("key = tru", 1, 7, "tru is not a value: a string needs quotes, as in \"tru\""),
        ("mode = preferred", 1, 8, "preferred is not a value: a string needs quotes, as in \"preferred\""),
        ("on = True", 1, 6, "True is not a value: booleans are lowercase, true or false"),
        ("on = FALSE", 1, 6, "FALSE is not a value: booleans are lowercase, true or false"),
        ("on = truex", 1, 6, "truex is not a value: a string needs quotes, as in \"truex\""),
        ("x = none", 1, 5, "none is not a value: a string needs quotes, as in \"none\""),
        ("x = ✋", 1, 5, "expected a value (a string in quotes, a number, true or false, a date, an array or an inline table), found '✋'"),

        // Basic strings.
        ("s = \"abc", 1, 5, "unterminated string: the closing quote is missing"),
        ("s = \"abc\nt = 1", 1, 5, "unterminated string: the closing quote is missing"),
        ("s = \"abc\r\nt = 1", 1, 5, "unterminated string: the closing quote is missing"),
        ("s = \"abc\\\"", 1, 5, "unterminated string: the closing quote is missing"),
        ("s = \"a\\qb\"", 1, 7, "invalid escape \\q in a string"),
        ("s = \"\\e\"", 1, 6, "invalid escape \\e in a string"),
        ("s = \"\\x41\"", 1, 6, "invalid escape \\x in a string"),
        ("s = \"\\ \"", 1, 6, "invalid escape in a string: a backslash followed by a space"),
        ("s = \"abc\\\ndef\"", 1, 9, "invalid escape in a string: a backslash can end a line only in a multi-line string (\"\"\")"),
        ("s = \"\\u12\"", 1, 6, "invalid escape \\u12 in a string: \\u needs 4 hexadecimal digits"),
        ("s = \"\\u12G4\"", 1, 6, "invalid escape \\u12 in a string: \\u needs 4 hexadecimal digits"),
        ("s = \"\\U0001F60\"", 1, 6, "invalid escape \\U0001F60 in a string: \\U needs 8 hexadecimal digits"),
        ("s = \"\\uD800\"", 1, 6, "invalid escape \\uD800 in a string: U+D800 is not a Unicode scalar value"),
        ("s = \"\\UDFFF0000\"", 1, 6, "invalid escape \\UDFFF0000 in a string: U+DFFF0000 is not a Unicode scalar value"),
        ("s = \"\\U00110000\"", 1, 6, "invalid escape \\U00110000 in a string: U+110000 is not a Unicode scalar value"),
        ("s = \"a\u{7}b\"", 1, 7, "the control character U+0007 is not allowed in a string; write it as \\u0007"),
        ("s = \"a\u{0}b\"", 1, 7, "a NUL byte (U+0000) is not allowed in a string; write it as \\u0000"),
        ("s = \"a\u{7F}b\"", 1, 7, "the control character U+007F is not allowed in a string; write it as \\u007F"),
        ("s = \"a\u{1B}b\"", 1, 7, "the control character U+001B is not allowed in a string; write it as \\u001B"),
        ("s = \"a\rb\"", 1, 7, "a carriage return (U+000D) must be followed by a line feed: lines end with LF or CRLF"),

        // Multi-line basic strings.
        ("s = \"\"\"abc", 1, 5, "unterminated multi-line string: the closing \"\"\" is missing"),
        ("s = \"\"\"abc\n\ndef\"\"", 1, 5, "unterminated multi-line string: the closing \"\"\" is missing"),
        ("s = \"\"\"abc\\", 1, 5, "unterminated multi-line string: the closing \"\"\" is missing"),
        ("s = \"\"\"a\"\"\"\"\"\"", 1, 14, "too many quotes: at most two can come just before the closing three; escape the others (\\\")"),
        ("s = \"\"\"a\"\"\"b\"\"\"", 1, 12, "expected the end of the line after the value, found 'b'"),
        ("s = \"\"\"\n\\q\"\"\"", 2, 1, "invalid escape \\q in a string"),
        ("s = \"\"\"a \\  b\"\"\"", 1, 10, "invalid escape in a string: only spaces may follow a backslash that ends a line"),
        ("s = \"\"\"a\u{1}\"\"\"", 1, 9, "the control character U+0001 is not allowed in a string; write it as \\u0001"),
        ("s = \"\"\"a\rb\"\"\"", 1, 9, "a carriage return (U+000D) must be followed by a line feed: lines end with LF or CRLF"),
        ("s = \"\"\"a\\\rb\"\"\"", 1, 9, "invalid escape in a string: a backslash followed by a carriage return (U+000D)"),

        // Literal strings.
        ("s = 'abc", 1, 5, "unterminated string: the closing quote is missing"),
        ("s = 'abc\nt = 1", 1, 5, "unterminated string: the closing quote is missing"),
        (
            "s = 'a\u{8}'", 1, 7,
            "the control character U+0008 is not allowed in a string; use a basic string (\"...\") and write it as \\u0008"
        ),
        ("s = 'it's'", 1, 9, "expected the end of the line after the value, found 's'"),
        ("s = '''abc", 1, 5, "unterminated multi-line string: the closing ''' is missing"),
        ("s = '''a''''''", 1, 14, "too many quotes: at most two can come just before the closing three; escape the others (\\\")"),
        ("s = '''a\u{0}'''", 1, 9, "a NUL byte (U+0000) is not allowed in a string; use a basic string (\"...\") and write it as \\u0000"),

        // Integers.
        ("n = 99999999999999999999", 1, 5, "99999999999999999999 does not fit in 64 bits"),
        ("n = 9223372036854775808", 1, 5, "9223372036854775808 does not fit in 64 bits"),
        ("n = -9223372036854775809", 1, 5, "-9223372036854775809 does not fit in 64 bits"),
        ("n = 0x8000000000000000", 1, 5, "0x8000000000000000 is larger than the largest integer, 0x7FFFFFFFFFFFFFFF"),
        ("n = 0xFFFF_FFFF_FFFF_FFFF_F", 1, 5, "0xFFFF_FFFF_FFFF_FFFF_F is larger than the largest integer, 0x7FFFFFFFFFFFFFFF"),
        ("n = 012", 1, 5, "invalid number 012: leading zeros are not allowed"),
        ("n = 0_1", 1, 5, "invalid number 0_1: leading zeros are not allowed"),
        ("n = -01", 1, 5, "invalid number -01: leading zeros are not allowed"),
        ("n = 1__2", 1, 5, "invalid number 1__2: an underscore must be between two digits"),
        ("n = 1_", 1, 5, "invalid number 1_: an underscore must be between two digits"),
        ("n = _1", 1, 5, "_1 is not a value: a string needs quotes, as in \"_1\""),
        ("n = +_1", 1, 5, "invalid number +_1: a sign must be followed by digits, inf or nan"),
        ("n = 0x_1", 1, 5, "invalid number 0x_1: an underscore must be between two digits"),
        ("n = 0x", 1, 5, "invalid number 0x: expected hexadecimal digits after the prefix"),
        ("n = 0xG", 1, 5, "invalid number 0xG: expected hexadecimal digits after the prefix"),
        ("n = 0o8", 1, 5, "invalid number 0o8: expected octal digits after the prefix"),
        ("n = 0b102", 1, 5, "invalid number 0b102: expected binary digits after the prefix"),
        ("n = +0x1", 1, 5, "invalid number +0x1: hexadecimal numbers cannot have a sign"),
        ("n = -0b1", 1, 5, "invalid number -0b1: binary numbers cannot have a sign"),
        ("n = 0X1F", 1, 5, "invalid number 0X1F: the prefixes are lowercase: 0x, 0o, 0b"),
        ("n = 1a", 1, 5, "invalid number 1a: unexpected 'a'"),
        ("n = 1-2", 1, 5, "invalid number 1-2: unexpected '-'"),
        ("n = +", 1, 5, "invalid number +: a sign must be followed by digits"),
        ("n = ++1", 1, 5, "invalid number ++1: a sign must be followed by digits, inf or nan"),
        ("n = 1 2", 1, 7, "expected the end of the line after the value, found '2'"),
        ("n = 12:30", 1, 5, "invalid time 12:30: times are written HH:MM:SS, with seconds (07:32:00)"),

        // Floats.
        ("f = 1.", 1, 5, "invalid number 1.: a decimal point needs digits on both sides (1.0)"),
        ("f = .5", 1, 5, "invalid number .5: a decimal point needs digits on both sides (0.5)"),
        ("f = 1.e5", 1, 5, "invalid number 1.e5: a decimal point needs digits on both sides (1.0)"),
        ("f = 1e", 1, 5, "invalid number 1e: the exponent needs digits (1e6, 1.5e-3)"),
        ("f = 1e+", 1, 5, "invalid number 1e+: the exponent needs digits (1e6, 1.5e-3)"),
        ("f = 1e_5", 1, 5, "invalid number 1e_5: an underscore must be between two digits"),
        ("f = 1_.5", 1, 5, "invalid number 1_.5: an underscore must be between two digits"),
        ("f = 1._5", 1, 5, "invalid number 1._5: an underscore must be between two digits"),
        ("f = 1.5_", 1, 5, "invalid number 1.5_: an underscore must be between two digits"),
        ("f = 03.14", 1, 5, "invalid number 03.14: leading zeros are not allowed"),
        ("f = 1.2.3", 1, 5, "invalid number 1.2.3: unexpected '.'"),
        ("f = 1e5e5", 1, 5, "invalid number 1e5e5: unexpected 'e'"),
        ("f = 1e400", 1, 5, "1e400 is too large for a 64-bit float"),
        ("f = -1.8e308", 1, 5, "-1.8e308 is too large for a 64-bit float"),
        ("f = infinity", 1, 5, "infinity is not a value: a string needs quotes, as in \"infinity\""),
        ("f = -infinity", 1, 5, "invalid number -infinity: a sign must be followed by digits, inf or nan"),
        ("f = Inf", 1, 5, "Inf is not a value: a string needs quotes, as in \"Inf\""),
        ("f = NaN", 1, 5, "NaN is not a value: a string needs quotes, as in \"NaN\""),
        ("f = 0x1p3", 1, 5, "invalid number 0x1p3: expected hexadecimal digits after the prefix"),

        // Dates and times.
        ("d = 1979-13-01", 1, 5, "invalid date 1979-13-01: the month must be 01 to 12"),
        ("d = 1979-00-01", 1, 5, "invalid date 1979-00-01: the month must be 01 to 12"),
        ("d = 1979-02-29", 1, 5, "invalid date 1979-02-29: the day must be 01 to 28 in that month"),
        ("d = 1900-02-29", 1, 5, "invalid date 1900-02-29: the day must be 01 to 28 in that month"),
        ("d = 1979-04-31", 1, 5, "invalid date 1979-04-31: the day must be 01 to 30 in that month"),
        ("d = 1979-01-00", 1, 5, "invalid date 1979-01-00: the day must be 01 to 31 in that month"),
        ("d = 1979-5-27", 1, 5, "invalid date 1979-5-27: dates are written YYYY-MM-DD (1979-05-27)"),
        ("d = 1979-05-7", 1, 5, "invalid date 1979-05-7: dates are written YYYY-MM-DD (1979-05-27)"),
        ("d = 1979-05", 1, 5, "invalid date 1979-05: dates are written YYYY-MM-DD (1979-05-27)"),
        ("d = 1979-05-27x", 1, 5, "invalid date 1979-05-27x: unexpected 'x'"),
        ("d = 1979-05-27T", 1, 5, "invalid date-time 1979-05-27T: times are written HH:MM:SS, with seconds (07:32:00)"),
        ("d = 1979-05-27T07:32", 1, 5, "invalid date-time 1979-05-27T07:32: times are written HH:MM:SS, with seconds (07:32:00)"),
        ("d = 1979-05-27 07:32", 1, 5, "invalid date-time 1979-05-27 07:32: times are written HH:MM:SS, with seconds (07:32:00)"),
        ("d = 1979-05-27T24:00:00", 1, 5, "invalid date-time 1979-05-27T24:00:00: the hour must be 00 to 23"),
        (
            "d = 1979-05-27T07:32:00.", 1, 5,
            "invalid date-time 1979-05-27T07:32:00.: a decimal point in the seconds needs digits after it (07:32:00.5)"
        ),
        ("d = 1979-05-27T07:32:00+7:00", 1, 5, "invalid date-time 1979-05-27T07:32:00+7:00: the offset is written Z, +HH:MM or -HH:MM"),
        ("d = 1979-05-27T07:32:00+07", 1, 5, "invalid date-time 1979-05-27T07:32:00+07: the offset is written Z, +HH:MM or -HH:MM"),
        ("d = 1979-05-27T07:32:00+24:00", 1, 5, "invalid date-time 1979-05-27T07:32:00+24:00: the offset must be within ±23:59"),
        ("d = 1979-05-27T07:32:00Zx", 1, 5, "invalid date-time 1979-05-27T07:32:00Zx: unexpected 'x'"),
        ("d = 1979-05-27T07:32:00-07:00:00", 1, 5, "invalid date-time 1979-05-27T07:32:00-07:00:00: unexpected ':'"),
        ("d = 1979-05-27 07:32:00 Z", 1, 25, "expected the end of the line after the value, found 'Z'"),
        ("t = 7:32:00", 1, 5, "invalid number 7:32:00: a time is written HH:MM:SS (07:32:00)"),
        ("t = 07:32", 1, 5, "invalid time 07:32: times are written HH:MM:SS, with seconds (07:32:00)"),
        ("t = 07:60:00", 1, 5, "invalid time 07:60:00: the minute must be 00 to 59"),
        ("t = 07:32:61", 1, 5, "invalid time 07:32:61: the second must be 00 to 59 (60 for a leap second)"),
        ("t = 07:32:00Z", 1, 5, "invalid time 07:32:00Z: unexpected 'Z'"),
        ("t = 07:32:00:00", 1, 5, "invalid time 07:32:00:00: unexpected ':'"),

        // Arrays.
        ("a = [1, 2", 1, 5, "unterminated array: the closing ']' is missing"),
        ("a = [1, 2,\n", 1, 5, "unterminated array: the closing ']' is missing"),
        ("a = [", 1, 5, "unterminated array: the closing ']' is missing"),
        ("a = [1 2]", 1, 8, "expected ',' or ']' after an element of the array, found '2'"),
        (
            "a = [1,,2]", 1, 8,
            "expected a value (a string in quotes, a number, true or false, a date, an array or an inline table), found ','"
        ),
        ("a = [,]", 1, 6, "expected a value (a string in quotes, a number, true or false, a date, an array or an inline table), found ','"),
        ("a = [}]", 1, 6, "expected a value (a string in quotes, a number, true or false, a date, an array or an inline table), found '}'"),
        ("a = [1}", 1, 7, "expected ',' or ']' after an element of the array, found '}'"),
        (
            "a = [\u{2028}]", 1, 6,
            "expected a value (a string in quotes, a number, true or false, a date, an array or an inline table), found the character U+2028"
        ),
        ("a = [1 # comment ]", 1, 5, "unterminated array: the closing ']' is missing"),
        ("a = [\n1\n2]", 3, 1, "expected ',' or ']' after an element of the array, found '2'"),

        // Inline tables.
        ("t = {", 1, 5, "unterminated inline table: the closing '}' is missing"),
        ("t = { a = 1", 1, 5, "unterminated inline table: the closing '}' is missing"),
        ("t = { a = 1, }", 1, 14, "a trailing comma is not allowed in an inline table"),
        ("t = { a = 1,}", 1, 13, "a trailing comma is not allowed in an inline table"),
        (
            "t = {\na = 1 }", 1, 6,
            "expected a key or '}' in the inline table, found the end of the line (an inline table must be on one line)"
        ),
        (
            "t = { a = 1\n}", 1, 12,
            "expected ',' or '}' after a value in the inline table, found the end of the line (an inline table must be on one line)"
        ),
        (
            "t = { a = 1, \nb = 2 }", 1, 14,
            "expected a key in the inline table, found the end of the line (an inline table must be on one line)"
        ),
        (
            "t = { a = 1 # comment\n}", 1, 13,
            "expected ',' or '}' after a value in the inline table, found '#' (an inline table must be on one line)"
        ),
        ("t = { a = 1 b = 2 }", 1, 13, "expected ',' or '}' after a value in the inline table, found 'b'"),
        ("t = { a = 1, , b = 2 }", 1, 14, "expected a key in the inline table, found ','"),
        ("t = { a = 1, a = 2 }", 1, 14, "\"a\" is defined twice; first at line 1"),
        ("t = { a.b = 1, a = 2 }", 1, 16, "\"a\" is defined twice; first at line 1"),
        (
            "t = { a = {}, a.b = 1 }", 1, 15,
            "cannot add the key \"a.b\": \"a\" is an inline table (line 1), and inline tables cannot be extended"
        ),
        ("t = { a = 1 ]", 1, 13, "expected ',' or '}' after a value in the inline table, found ']'"),

        // Table headers.
        ("[a", 1, 3, "expected ']' to close the table header"),
        ("[a\nb = 1", 1, 3, "expected ']' to close the table header"),
        ("[a b]", 1, 4, "expected ']' to close the table header, found 'b'"),
        ("[a]]", 1, 4, "expected the end of the line after the table header, found ']'"),
        ("[]", 1, 2, "expected a key, found ']'"),
        ("[", 1, 2, "expected a key, found the end of the file"),
        ("[\n]", 1, 2, "expected a key, found the end of the line"),
        ("[=]", 1, 2, "expected a key, found '='"),
        ("[a.]", 1, 4, "expected a key after '.', found ']'"),
        ("[é]", 1, 2, "expected a key, found 'é'"),
        ("[a] b = 1", 1, 5, "expected the end of the line after the table header, found 'b'"),
        ("[a] # ok\n[b] c", 2, 5, "expected the end of the line after the table header, found 'c'"),
        ("[[a]", 1, 5, "expected ']]' to close the array of tables header"),
        ("[[a] ]", 1, 5, "expected ']]' to close the array of tables header, found a space"),
        ("[ [a]]", 1, 3, "expected a key, found '['"),
        ("[[[a]]]", 1, 3, "expected a key, found '['"),
        ("[\"\"\"a\"\"\"]", 1, 2, "a key cannot be a multi-line string"),

        // Tables defined twice, and tables against keys.
        ("[a]\n[a]", 2, 2, "table [a] is defined twice; first at line 1"),
        ("[a]\nb = 1\n\n[a]\nc = 2", 4, 2, "table [a] is defined twice; first at line 1"),
        ("[a.b]\n[a]\n[a]", 3, 2, "table [a] is defined twice; first at line 2"),
        ("[a]\n[\"a\"]", 2, 2, "table [a] is defined twice; first at line 1"),
        ("[a]\nb = 1\n[a.b]", 3, 4, "cannot define table [a.b]: \"a.b\" is already defined as an integer at line 2"),
        ("[a]\nb = 1\n[a.b.c]", 3, 4, "cannot define table [a.b.c]: \"a.b\" is already defined as an integer at line 2"),
        ("a = 1\n[a]", 2, 2, "cannot define table [a]: \"a\" is already defined as an integer at line 1"),
        ("[a.b]\n[a]\nb = 1", 3, 1, "\"b\" is defined twice; first at line 1"),
        // Dotted keys define their tables: no header may define them again.
        (
            "[fruit]\napple.color = \"red\"\napple.taste.sweet = true\n[fruit.apple]", 4, 8,
            "table [fruit.apple] is defined twice; first by the dotted key at line 2"
        ),
        (
            "[fruit]\napple.color = \"red\"\napple.taste.sweet = true\n[fruit.apple.taste]", 4, 14,
            "table [fruit.apple.taste] is defined twice; first by the dotted key at line 3"
        ),
        ("a.b = 1\n[a]", 2, 2, "table [a] is defined twice; first by the dotted key at line 1"),
        // ...and dotted keys cannot add to a table defined by a header.
        ("[a.b.c]\nz = 9\n[a]\nb.c.t = 1", 4, 3, "cannot add the key \"b.c.t\" here: table [a.b.c] has its own header at line 1"),
        (
            "[a.b.c.d]\nz = 9\n[a]\nb.c.d.k.t = 1", 4, 5,
            "cannot add the key \"b.c.d.k.t\" here: table [a.b.c.d] has its own header at line 1"
        ),
        ("[a.b]\n[a]\nb.c = 1", 3, 1, "cannot add the key \"b.c\" here: table [a.b] has its own header at line 1"),
        // A header's path defined by dotted keys in another section is closed to a header after it.
        ("[a.b.c]\n[a]\nb.d = 1\n[a.b]", 4, 4, "table [a.b] is defined twice; first by the dotted key at line 3"),
        ("[[a.b]]\n[a]\nb.y = 2", 3, 1, "cannot add the key \"b.y\": \"b\" is already defined as an array of tables at line 1"),

        // Inline tables and arrays are closed once written.
        ("a = {}\n[a]", 2, 2, "cannot define table [a]: \"a\" is an inline table (line 1), and inline tables cannot be extended"),
        ("a = {}\n[a.b]", 2, 2, "cannot define table [a.b]: \"a\" is an inline table (line 1), and inline tables cannot be extended"),
        (
            "a = { b = 1 }\na.c = 2", 2, 1,
            "cannot add the key \"a.c\": \"a\" is an inline table (line 1), and inline tables cannot be extended"
        ),
        (
            "a = { b = { c = 1 } }\n[a.b.d]", 2, 2,
            "cannot define table [a.b.d]: \"a\" is an inline table (line 1), and inline tables cannot be extended"
        ),
        (
            "[product]\ntype = { name = \"Nail\" }\ntype.edible = false", 3, 1,
            "cannot add the key \"type.edible\": \"type\" is an inline table (line 2), and inline tables cannot be extended"
        ),
        ("[product]\ntype.name = \"Nail\"\ntype = { edible = false }", 3, 1, "\"type\" is defined twice; first at line 2"),
        (
            "a = []\n[[a]]", 2, 3,
            "cannot define the array of tables [[a]]: \"a\" is already defined as an array at line 1; only arrays of tables ([[name]]) can be extended"
        ),
        (
            "a = [{}]\n[a.b]", 2, 2,
            "cannot define table [a.b]: \"a\" is already defined as an array at line 1; only arrays of tables ([[name]]) can be extended"
        ),
        ("a = 1\n[[a]]", 2, 3, "cannot define the array of tables [[a]]: \"a\" is already defined as an integer at line 1"),

        // Arrays of tables against tables.
        ("[[a]]\n[a]", 2, 2, "cannot define table [a]: \"a\" is already defined as an array of tables at line 1"),
        ("[a]\n[[a]]", 2, 3, "cannot define the array of tables [[a]]: \"a\" is already defined as a table at line 1"),
        ("[a.b]\n[[a]]", 2, 3, "cannot define the array of tables [[a]]: \"a\" is already defined as a table at line 1"),
        (
            "[[fruits]]\nname = \"apple\"\n[[fruits.varieties]]\nname = \"red delicious\"\n[fruits.varieties]\nname = \"granny smith\"", 5,
            9,
            "cannot define table [fruits.varieties]: \"fruits.varieties\" is already defined as an array of tables at line 3"
        ),
        (
            "[[fruits]]\nname = \"apple\"\n[fruits.physical]\ncolor = \"red\"\n[[fruits.physical]]\ncolor = \"green\"", 5, 10,
            "cannot define the array of tables [[fruits.physical]]: \"fruits.physical\" is already defined as a table at line 3"
        ),
        ("[[a]]\nb = 1\n[[a]]\nb = 1\nb = 2", 5, 1, "\"b\" is defined twice; first at line 4"),

        // Comments, line ends and the text itself.
        ("a = 1 # bell \u{7}", 1, 14, "the control character U+0007 is not allowed in a comment"),
        ("# NUL \u{0}", 1, 7, "a NUL byte (U+0000) is not allowed in a comment"),
        ("# DEL \u{7F}", 1, 7, "the control character U+007F is not allowed in a comment"),
        ("# lone \r carriage return", 1, 8, "a carriage return (U+000D) must be followed by a line feed: lines end with LF or CRLF"),
        ("a = 1\rb = 2", 1, 6, "a carriage return (U+000D) must be followed by a line feed: lines end with LF or CRLF"),
        ("\r", 1, 1, "a carriage return (U+000D) must be followed by a line feed: lines end with LF or CRLF"),
        ("a = 1\n\u{0}", 2, 1, "expected a key, a [table] header or a comment, found a NUL byte (U+0000)"),
        ("\u{C}a = 1", 1, 1, "expected a key, a [table] header or a comment, found the control character U+000C"),
        ("\u{A0}a = 1", 1, 1, "expected a key, a [table] header or a comment, found the character U+00A0"),
        ("a = 1\n\u{FEFF}b = 2", 2, 1, "expected a key, a [table] header or a comment, found the character U+FEFF"),
        ("\u{FEFF}a = 1\nb", 2, 2, "expected '=' after the key \"b\""),
        ("\u{FEFF}x", 1, 2, "expected '=' after the key \"x\""),
        ("é = 1", 1, 1, "expected a key, a [table] header or a comment, found 'é'"),
        ("a = \"é\"\nb = \"x\" ✋", 2, 9, "expected the end of the line after the value, found '✋'"),
    ]

    @Test(arguments: syntaxErrors) func syntaxError(toml: String, line: Int, column: Int, message: String) {
        guard let error = Self.error(toml) else { return }
        #expect(
            [String(error.line), String(error.column), error.message] == [String(line), String(column), message], "\(toml.debugDescription)"
        )
    }

    /// Bytes that are not UTF-8, anywhere, are said as such at their position.
    @Test(arguments: [
        ([UInt8]("s = \"a".utf8) + [0xFF] + [UInt8]("\"".utf8), 1, 7, "invalid UTF-8 (byte 0xFF): the file must be UTF-8 text"),
        ([UInt8]("# é ".utf8) + [0xC3], 1, 5, "invalid UTF-8 (byte 0xC3): the file must be UTF-8 text"),
        ([UInt8]("a = 1\n".utf8) + [0x80], 2, 1, "invalid UTF-8 (byte 0x80): the file must be UTF-8 text"),
        ([UInt8]("s = 'é".utf8) + [0xED, 0xA0, 0x80, 0x27], 1, 7, "invalid UTF-8 (byte 0xED): the file must be UTF-8 text"),
        ([UInt8]("s = '".utf8) + [0xC0, 0x80, 0x27], 1, 6, "invalid UTF-8 (byte 0xC0): the file must be UTF-8 text"),
        ([UInt8]("s = '".utf8) + [0xF4, 0x90, 0x80, 0x80, 0x27], 1, 6, "invalid UTF-8 (byte 0xF4): the file must be UTF-8 text"),
        ([UInt8]("x = ".utf8) + [0xFE], 1, 5, "invalid UTF-8 (byte 0xFE): the file must be UTF-8 text"),
        ([UInt8]("a".utf8) + [0xE2, 0x9C], 1, 2, "invalid UTF-8 (byte 0xE2): the file must be UTF-8 text"),
        ([UInt8]("[a]\nb = \"\\".utf8) + [0xFF] + [UInt8]("\"".utf8), 2, 7, "invalid UTF-8 (byte 0xFF): the file must be UTF-8 text"),
        ([0xEF, 0xBB], 1, 1, "invalid UTF-8 (byte 0xEF): the file must be UTF-8 text"),
    ])
    func invalidUTF8(bytes: [UInt8], line: Int, column: Int, message: String) {
        #expect(throws: TOML.SyntaxError(line: line, column: column, message: message)) { try TOML.parse(bytes) }
    }

    // MARK: Limits

    @Test func nestingLimit() throws {
        let limit = TOML.maximumNesting
        let deepest = "a = " + String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        #expect(try Self.parse(deepest)["a"] != nil)
        let tooDeep = "a = " + String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1)
        let message = "nested too deeply: tables and arrays can nest at most 128 levels"
        #expect(Self.error(tooDeep) == TOML.SyntaxError(line: 1, column: 5 + limit, message: message))
        let inline = "a = " + String(repeating: "{b=", count: limit + 1) + "1" + String(repeating: "}", count: limit + 1)
        #expect(Self.error(inline) == TOML.SyntaxError(line: 1, column: 5 + 3 * limit, message: message))
        let keys = (1...limit).map { _ in "k" }
        #expect(try Self.parse(keys.joined(separator: ".") + " = 1").count == 1)
        #expect(try Self.parse("[" + keys.joined(separator: ".") + "]").count == 1)
        #expect(Self.error(keys.joined(separator: ".") + ".k.k = 1") == TOML.SyntaxError(line: 1, column: 2 * limit + 1, message: message))
        #expect(Self.error("[" + keys.joined(separator: ".") + ".k]") == TOML.SyntaxError(line: 1, column: 2 * limit + 2, message: message))
        // Levels add up: a table's depth, then its dotted keys, then arrays in the value.
        let half = (1...(limit / 2)).map { _ in "k" }.joined(separator: ".")
        #expect(try Self.parse("[\(half)]\n\(half) = 1").count == 1)
        #expect(try Self.parse("[\(half)]\n\(half) = [1]").count == 1)
        #expect(Self.error("[\(half)]\n\(half) = [[1]]") == TOML.SyntaxError(line: 2, column: limit + 4, message: message))
    }

    /// Hostile shapes finish quickly and throw instead of exhausting the stack.
    @Test(arguments: [
        String(repeating: "[", count: 100_000),
        "a = " + String(repeating: "[", count: 100_000),
        "a = " + String(repeating: "{ b = ", count: 10_000),
        Array(repeating: "a", count: 100_000).joined(separator: ".") + " = 1",
        "[" + Array(repeating: "a", count: 100_000).joined(separator: ".") + "]\nb = 1",
        String(repeating: "\"", count: 100_000),
        String(repeating: "a = 1\n", count: 2),
    ])
    func hostileInput(text: String) {
        #expect(throws: TOML.SyntaxError.self) { try Self.parse(text) }
    }

    /// Work grows with the file, not its square: 20,000 tables, keys and array elements parse in well
    /// under a second even in a debug build.
    @Test func linearTime() throws {
        var text = ""
        for index in 0..<5_000 {
            text += "[[touch]]\nmatch = \"device \(index)\"\nscreen.name = 'DP-\(index)'\ncalibration = [1.0, 0, 0, 0, 1.0, 0]\n"
        }
        text += "[big]\n" + (0..<5_000).map { "key\($0) = \($0)" }.joined(separator: "\n")
        let clock = ContinuousClock()
        let start = clock.now
        let root = try Self.parse(text)
        let elapsed = clock.now - start
        guard case let .array(touches) = root["touch"], case let .table(big) = root["big"] else {
            Issue.record("wrong shape")
            return
        }
        #expect(touches.count == 5_000)
        #expect(big.count == 5_000)
        #expect(elapsed < .seconds(5))
    }

    // MARK: The public types

    @Test func descriptions() throws {
        let root = try Self.parse("a = 1\nb = [2.5, \"x\\n\", nan, -inf, 1979-05-27]\n[c]\n'd e' = { f = true }")
        #expect(root.description == #"{ a = 1, b = [2.5, "x\n", nan, -inf, 1979-05-27], c = { "d e" = { f = true } } }"#)
        #expect(TOML.SyntaxError(line: 3, column: 7, message: "oops").description == "line 3, column 7: oops")
        #expect(TOML.Value.float(1).description == "1.0")
        #expect(TOML.Table().description == "{}")
    }

    @Test func typeNames() {
        let values: [TOML.Value] = [
            .string(""), .integer(0), .float(0), .boolean(true), .offsetDateTime(""), .localDateTime(""), .localDate(""), .localTime(""),
            .array([]), .table(TOML.Table()),
        ]
        #expect(
            values.map(\.typeName) == [
                "a string", "an integer", "a float", "a boolean", "a date-time", "a date-time", "a date", "a time", "an array", "a table",
            ])
    }

    /// The example config shipped with the kiosk parses, with its keys in file order.
    @Test func exampleConfig() throws {
        let root = try TOML.parse(Array(try exampleText().utf8))
        #expect(!root.isEmpty)
    }
}
