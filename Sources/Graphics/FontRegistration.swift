import CLazyPangoCairo
import LazyLink

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// fontconfig's application fonts (`FcConfigAppFontAddFile`), loaded with the first registration;
/// fontconfig itself is already loaded then, with pango, which links it.
enum FontconfigApplicationLibrary {
    static let shared = LazyLibrary(soname: KIOSK_LAZY_FONTCONFIG_SONAME, load: kiosk_lazy_fontconfig_application_load)
}

/// Why a font file could not be registered: it names the file.
public struct FontRegistrationError: Error, Sendable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        /// It cannot be read (`errno` from `access(2)`).
        case unreadable(errno: Int32)
        /// fontconfig read no font from it (`FcConfigAppFontAddFile` returned false).
        case notAFont
        /// The text libraries could not be loaded.
        case textUnavailable(String)
    }

    public let path: String
    public let reason: Reason

    public var description: String {
        switch reason {
        case .unreadable(let code): "font file \(path): cannot be read: \(String(cString: strerror(code)))"
        case .notAFont: "font file \(path): fontconfig finds no font in it (TrueType, OpenType, WOFF or a collection of them)"
        case .textUnavailable(let reason): "font file \(path): the text libraries cannot be loaded: \(reason)"
        }
    }
}

extension Font {
    /// Makes the fonts of a font file the app ships (TrueType, OpenType, a collection) usable by their
    /// family names from now on, in this process only (fontconfig's application fonts: nothing is
    /// installed or written). Returns the families the file holds, e.g. `["Inter"]`.
    ///
    /// Call it on the thread that draws (the main thread) before the text that uses the fonts: that
    /// thread's pango font map forgets what it looked up before (`pango_fc_font_map_config_changed`), so a
    /// family asked for earlier, and drawn then in a substitute, is found now. Calls `access`,
    /// `FcConfigGetCurrent`, `FcConfigAppFontAddFile` and `FcConfigGetFonts`.
    @discardableResult
    public static func register(fileAt path: String) throws(FontRegistrationError) -> [String] {
        do {
            try PangoCairoLibrary.shared.load()
            try FontconfigApplicationLibrary.shared.load()
        } catch {
            throw FontRegistrationError(path: path, reason: .textUnavailable(error.description))
        }
        // This thread's pango context first: it finishes the start-up's font preparation, whose thread is
        // the only other one in fontconfig, so the configuration is not changed under it.
        let context = PangoThreadContext.current
        guard access(path, R_OK) == 0 else { throw FontRegistrationError(path: path, reason: .unreadable(errno: errno)) }
        let fontconfig = FontconfigApplicationLibrary.shared.functions
        let config = fontconfig.FcConfigGetCurrent()
        guard fontconfig.FcConfigAppFontAddFile(config, path) != 0 else { throw FontRegistrationError(path: path, reason: .notAFont) }
        pango_fc_font_map_config_changed(OpaquePointer(pango_context_get_font_map(context)))
        return families(inApplicationFontsFrom: path)
    }

    /// The families of the application fonts that came from `path`, each once, in the file's order.
    private static func families(inApplicationFontsFrom path: String) -> [String] {
        let fontconfig = FontconfigApplicationLibrary.shared.functions
        guard let set = fontconfig.FcConfigGetFonts(fontconfig.FcConfigGetCurrent(), FcSetApplication) else { return [] }
        var families: [String] = []
        for index in 0..<Int(set.pointee.nfont) {
            guard let pattern = set.pointee.fonts[index] else { continue }
            var file: UnsafeMutablePointer<FcChar8>?
            var family: UnsafeMutablePointer<FcChar8>?
            guard fontconfig.FcPatternGetString(pattern, FC_FILE, 0, &file) == FcResultMatch, let file,
                String(cString: file) == path, fontconfig.FcPatternGetString(pattern, FC_FAMILY, 0, &family) == FcResultMatch,
                let family
            else { continue }
            let name = String(cString: family)
            if !families.contains(name) { families.append(name) }
        }
        return families
    }
}
