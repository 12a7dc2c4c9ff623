import CLazyLink
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
}
