import CLazyLink
import Foundation
import Glibc
import Graphics
import LazyLink
import LibInput
import Seat
import Testing
import XKB

/// Libraries loaded on first use: a missing library or function is an error that names it, and every
/// table the wrappers bind resolves on this system.
@Suite struct LazyLinkTests {
    /// `kiosk_lazy_link` into a table of `names.count` pointers: the slots, or dlerror's text.
    func link(_ soname: String, _ names: [String]) -> Result<[UnsafeMutableRawPointer?], LazyLinkError> {
        var slots = [UnsafeMutableRawPointer?](repeating: nil, count: names.count)
        var reason = [CChar](repeating: 0, count: 256)
        let cNames = names.map { strdup($0) }
        defer { for name in cNames { free(name) } }
        let status = cNames.map { UnsafePointer($0) }.withUnsafeBufferPointer { names in
            slots.withUnsafeMutableBufferPointer { slots in
                kiosk_lazy_link(soname, names.baseAddress, slots.baseAddress, names.count, &reason, reason.count)
            }
        }
        guard status == 0 else {
            return .failure(
                LazyLinkError(
                    soname: soname, reason: String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)))
        }
        return .success(slots)
    }

    @Test func resolvesFunctions() throws {
        let slots = try link("libm.so.6", ["cos", "sin"]).get()
        #expect(slots.allSatisfy { $0 != nil })
        let cosine = unsafeBitCast(slots[0], to: (@convention(c) (Double) -> Double).self)
        #expect(cosine(0) == 1)
    }

    @Test func aMissingLibraryIsNamed() {
        guard case let .failure(error) = link("libkiosk-no-such-library.so.7", ["f"]) else {
            Issue.record("a library that does not exist was loaded")
            return
        }
        #expect(
            error.description
                == "cannot load libkiosk-no-such-library.so.7: cannot open shared object file: No such file or directory")
    }

    @Test func aMissingFunctionIsNamed() {
        guard case let .failure(error) = link("libm.so.6", ["cos", "kiosk_no_such_function"]) else {
            Issue.record("a function that does not exist was resolved")
            return
        }
        #expect(error.description.hasSuffix("undefined symbol: kiosk_no_such_function"))
    }

    /// A library object whose load failed says why, every time it is asked.
    @Test func aFailedLoadIsKept() {
        let library = LazyLibrary<Int>(soname: "libkiosk-no-such-library.so.7") { reason, size in
            _ = "libkiosk-no-such-library.so.7: cannot open shared object file".withCString { strncpy(reason!, $0, size) }
            return nil
        }
        #expect(throws: LazyLinkError.self) { try library.load() }
        #expect(throws: LazyLinkError.self) { try library.load() }
    }

    /// Every function each wrapper calls is in the library this system has.
    @Test func everyTableResolves() throws {
        try PangoCairoLibrary.shared.load()
        try LibInputLibrary.shared.load()
        try XKBCommonLibrary.shared.load()
        try LibSeatLibrary.shared.load()
    }

    /// Each wrapper calls its lazily loaded library only through its table: every function in the table
    /// has its Swift binding (`let name = Library.shared.functions.name!`), and every call of the library's
    /// prefix in the wrapper's sources is one of them. A call bound to the C declaration links the library
    /// at exec (the release build's footprint check caught it twice: xkb_keymap_key_repeats,
    /// pango_layout_is_ellipsized).
    @Test(arguments: [
        (
            "CLazyPangoCairo/include/lazy_pangocairo.h", "Graphics", "PangoCairoLibrary.swift", #"\b(pango|cairo|g)_[a-z0-9_]+\("#,
            ["cairo_rectangle_t"]
        ),
        ("CLazyXKBCommon/include/lazy_xkbcommon.h", "XKB", "XKBCommonLibrary.swift", #"\bxkb_[a-z0-9_]+\("#, ["xkb_rule_names"]),
        (
            "CLazyLibSeat/include/lazy_libseat.h", "Seat", "LibSeatLibrary.swift", #"\blibseat_[a-z0-9_]+\("#,
            ["libseat_log_level", "libseat_seat_listener"]
        ),
        (
            "CLazyLibInput/include/lazy_libinput.h", "LibInput", "LibInputLibrary.swift", #"\blibinput_[a-z0-9_]+\("#,
            ["libinput_interface", "libinput_log_priority"]
        ),
    ])
    func everyCallGoesThroughTheTable(header: String, module: String, bindings: String, calls: String, types: [String]) throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        let table = try String(contentsOf: sources.appendingPathComponent(header), encoding: .utf8)
        let listed = Set(table.matches(of: try Regex(#"F\(([a-z0-9_]+)\)"#)).compactMap { $0.output[1].substring.map(String.init) })
        let bound = try String(contentsOf: sources.appendingPathComponent(module).appendingPathComponent(bindings), encoding: .utf8)
        let lets = Set(bound.matches(of: try Regex(#"(?m)^let ([a-z0-9_]+) = "#)).compactMap { $0.output[1].substring.map(String.init) })
        #expect(listed.subtracting(lets).isEmpty, "in the table without a binding: \(listed.subtracting(lets).sorted())")
        #expect(lets.subtracting(listed).isEmpty, "bound but not in the table: \(lets.subtracting(listed).sorted())")
        let pattern = try Regex(calls)
        let folder = sources.appendingPathComponent(module)
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".swift") && file != bindings {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            let called = Set(text.matches(of: pattern).map { String(text[$0.range].dropLast()) }).subtracting(types)
            #expect(called.subtracting(listed).isEmpty, "\(module)/\(file) calls outside the table: \(called.subtracting(listed).sorted())")
        }
    }
}
