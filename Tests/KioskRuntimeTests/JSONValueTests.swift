import Foundation
import Testing

@testable import KioskRuntime

/// The control socket's JSON reader: what it reads, the message and byte for each malformed line, and that
/// no line of bytes traps it; Base64 against RFC 4648's vectors.
@Suite struct JSONValueTests {
    @Test(arguments: [
        (#"{"command":"status"}"#, JSONValue.object([("command", .string("status"))])),
        (
            #" { "a" : 1 , "b":-0.5e2,"c":true,"d":false,"e":null } "#,
            .object([("a", .number(1)), ("b", .number(-50)), ("c", .bool(true)), ("d", .bool(false)), ("e", .null)])
        ),
        (#"{}"#, .object([])),
        (#"[1,[2,{"x":[]}]]"#, .array([.number(1), .array([.number(2), .object([("x", .array([]))])])])),
        (#""caf\u00e9 \ud83d\ude00 \"q\" \\ \/ \b\f\n\r\t""#, .string("café 😀 \"q\" \\ / \u{8}\u{C}\n\r\t")),
        (#""Grüße""#, .string("Grüße")),
        (#"0"#, .number(0)),
        (#"-0.0"#, .number(0)),
        (#"1E+2"#, .number(100)),
        (#"123456789012"#, .number(123_456_789_012)),
    ])
    func reads(_ text: String, _ expected: JSONValue) throws {
        #expect(try JSONValue.parse(text) == expected)
    }

    /// Each malformed line: the message and the byte it points at.
    @Test(arguments: [
        ("", "expected a value, found end of line", 0),
        ("{", "expected a key in quotes, found end of line", 1),
        ("{\"a\"}", "expected ':' after the key, found '}'", 4),
        ("{\"a\":}", "expected a value, found '}'", 5),
        ("{\"a\":1,}", "expected a key in quotes, found '}'", 7),
        ("{\"a\":1 \"b\":2}", "expected ',' or '}', found '\"'", 7),
        ("{a:1}", "expected a key in quotes, found 'a'", 1),
        ("{\"a\":1}}", "unexpected '}' after the value", 7),
        ("{\"a\":1,\"a\":2}", "the key \"a\" is given twice", 7),
        ("[1,2", "expected ',' or ']', found end of line", 4),
        ("[1,]", "expected a value, found ']'", 3),
        ("tru", "expected a value, found 't'", 0),
        ("nul", "expected a value, found 'n'", 0),
        ("NaN", "expected a value, found 'N'", 0),
        ("+1", "expected a value, found '+'", 0),
        (".5", "expected a value, found '.'", 0),
        ("01", "a number cannot start with 0", 0),
        ("-", "expected a digit, found end of line", 1),
        ("1.", "expected a digit after '.', found end of line", 2),
        ("1e", "expected a digit in the exponent, found end of line", 2),
        ("1e999", "1e999 is out of range", 0),
        ("\"abc", "a string is not closed before the end of the line", 4),
        ("\"a\tb\"", "a control character (0x9) inside a string; write it escaped", 2),
        ("\"\\x\"", "\\'x' is not an escape", 1),
        ("\"\\u12\"", "\\u needs four hex digits, found '\"'", 5),
        ("\"\\ud83d\"", "a lone surrogate \\ud83d (its pair must follow)", 1),
        ("\"\\ude00\"", "a lone surrogate \\ude00", 1),
        ("{\"command\":\"status\"} x", "unexpected 'x' after the value", 21),
        (String(repeating: "[", count: 17) + String(repeating: "]", count: 17), "nested deeper than 16 levels", 16),
    ])
    func refuses(_ text: String, _ message: String, _ offset: Int) {
        #expect(throws: JSONError(message: message, offset: offset)) { try JSONValue.parse(text) }
    }

    @Test func refusesBytesThatAreNotUTF8() {
        #expect(throws: JSONError(message: "a string holds bytes that are not UTF-8", offset: 1)) {
            try JSONValue.parse([0x22, 0xC3, 0x28, 0x22])
        }
        #expect(throws: JSONError(message: "expected a value, found byte 0xff", offset: 0)) { try JSONValue.parse([0xFF]) }
    }

    /// Random lines, and random mutations of a request: an answer or an error, never a trap; whatever it
    /// reads, Foundation reads too (and the same way).
    @Test func randomBytesNeverTrap() throws {
        var random = SystemRandomNumberGenerator()
        let request = Array(#"{"command":"power","state":"off","screen":"HDMI-A-1","value":0.5,"x":[1,{"y":null}]}"#.utf8)
        for round in 0..<5000 {
            var bytes: [UInt8]
            if round % 2 == 0 {
                bytes = (0..<Int.random(in: 0...40, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            } else {
                bytes = request
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...127, using: &random)
                }
            }
            if let value = try? JSONValue.parse(bytes), case .object = value {
                let theirs = try? JSONSerialization.jsonObject(with: Data(bytes))
                #expect(theirs is [String: Any], "\(String(decoding: bytes, as: UTF8.self))")
            }
        }
    }

    @Test func base64() {
        // RFC 4648, section 10.
        let vectors = ["": "", "f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==", "fooba": "Zm9vYmE=", "foobar": "Zm9vYmFy"]
        for (plain, encoded) in vectors {
            #expect(Base64.encode(Array(plain.utf8)) == encoded)
            #expect(Base64.decode(encoded) == Array(plain.utf8))
        }
        let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 7919) }
        #expect(Base64.encode(bytes) == Data(bytes).base64EncodedString())
        #expect(Base64.decode(Base64.encode(bytes)) == bytes)
        for bad in ["Zg=", "Z===", "Zm9v!A==", "Zm 9v"] { #expect(Base64.decode(bad) == nil, "\(bad)") }
    }
}
