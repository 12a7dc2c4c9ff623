/// A C library the kiosk loads when it first needs it, not when the process starts.
///
/// Every shared library a program links is mapped and relocated before `main`, with all the libraries it
/// depends on in turn: linked directly, pango, cairo, libinput and libseat bring 58 libraries, which cost
/// `kiosk --version` 0.4 s of its 0.7 s on the test bed. Loaded on first use, they cost only the
/// commands and the phases that use them, and input's libraries load after the first frame.
///
/// A wrapper module has a `CLazy*` C target with a table of the functions it calls (each field a
/// pointer of the function's exact C type) and binds each name to its field in Swift, shadowing the C
/// declaration, so its code calls `libseat_open_seat(...)` as before:
///
///     let libseat_open_seat = LibSeatLibrary.shared.functions.libseat_open_seat!
///
/// The first use of any bound name loads the library (once, thread-safe: the library is a `static let`).
/// A program that wants to report a missing library calls `load()` first; a bound name used after a
/// failed load stops the program with the reason, as the dynamic loader would have at start.
public final class LazyLibrary<Functions>: @unchecked Sendable {
    // @unchecked: `outcome` is written once, in `init`, and only read after; `Functions` is a C struct of
    // function pointers.

    /// The library's file name as the dynamic loader looks it up, e.g. `libseat.so.1`.
    public let soname: String
    private let outcome: Result<Functions, LazyLinkError>

    /// Loads the library now with `load`, a `kiosk_lazy_*_load` function of a `CLazy*` target.
    public init(soname: String, load: (UnsafeMutablePointer<CChar>?, Int) -> UnsafePointer<Functions>?) {
        self.soname = soname
        var table: UnsafePointer<Functions>?
        do {
            try LazyLinkError.check(soname: soname) { error, size in
                table = load(error, size)
                return table != nil
            }
            outcome = .success(table!.pointee)
        } catch {
            outcome = .failure(error)
        }
    }

    /// Whether the library loaded; the error says which library and why not.
    public func load() throws(LazyLinkError) {
        _ = try outcome.get()
    }

    /// The library's functions. Stops the program if the library could not be loaded.
    public var functions: Functions {
        switch outcome {
        case let .success(functions): functions
        case let .failure(error): fatalError("\(error)")
        }
    }
}

/// A library that could not be loaded, or lacked a function: `cannot load libinput.so.10: cannot open
/// shared object file: No such file or directory` (dlopen's own words after ours).
public struct LazyLinkError: Error, Sendable, CustomStringConvertible {
    public let soname: String
    public let reason: String

    public init(soname: String, reason: String) {
        self.soname = soname
        self.reason = reason
    }

    /// Runs `load`, a C loader that writes why it failed into `error` (at most `size` bytes, NUL-ended)
    /// and returns false then; throws that reason.
    public static func check(
        soname: String, _ load: (_ error: UnsafeMutablePointer<CChar>?, _ size: Int) -> Bool
    ) throws(LazyLinkError) {
        var reason = [CChar](repeating: 0, count: 512)
        guard !reason.withUnsafeMutableBufferPointer({ load($0.baseAddress, $0.count) }) else { return }
        let text = String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        throw LazyLinkError(soname: soname, reason: text)
    }

    public var description: String {
        reason.hasPrefix(soname) ? "cannot load \(reason)" : "cannot load \(soname): \(reason)"
    }
}
