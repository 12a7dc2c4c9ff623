import CLazyXKBCommon
import Glibc

/// The Compose sequences of a locale: which keysym and text a dead key and the key after it give
/// (`dead_acute`, `e` → `é`), or the Compose key and the keys after it (`Multi_key`, `o`, `"` → `ö`).
/// A `KeyboardState` made with a table follows its sequences.
///
/// The sequences come from libX11's Compose files (`/usr/share/X11/locale/*/Compose`, Debian's
/// `libx11-data`), unless the user has one of their own: xkbcommon reads `XCOMPOSEFILE`, else
/// `$XDG_CONFIG_HOME/XCompose` (`~/.config/XCompose`), else `~/.XCompose`, before the locale's file
/// (Compose(5)).
///
/// Not `Sendable`: xkbcommon's reference counts are not atomic. One owner (the runtime's main actor)
/// creates and uses it.
public final class ComposeTable {
    /// The `struct xkb_compose_table *`, released in `deinit`. It holds its own reference to its context.
    let pointer: OpaquePointer
    /// The locale whose Compose file was asked for, e.g. `de_DE.UTF-8`.
    public let locale: String

    /// Compiles the Compose file of `locale` (`xkb_compose_table_new_from_locale`), by default the
    /// locale of the environment (`ComposeTable.environmentLocale`).
    ///
    /// Throws naming the locale and what xkbcommon logged when the locale has no Compose file (libX11's
    /// locale data is missing, or `compose.dir` lists no file for it). Compiling takes a few
    /// milliseconds (it parses some 6,000 lines for a UTF-8 locale): do it once.
    public init(locale: String? = nil) throws(XKBError) {
        let (name, variable) = locale.map { ($0, nil) } ?? Self.environmentLocale()
        let detail = "locale \"\(name)\"" + (variable.map { " (\($0))" } ?? "")
        pointer = try withLoggingContext { (context, messages) throws(XKBError) -> OpaquePointer in
            try xkbCreate("xkb_compose_table_new_from_locale", detail: detail, messages: messages()) {
                xkb_compose_table_new_from_locale(context, name, XKB_COMPOSE_COMPILE_NO_FLAGS)
            }
        }
        self.locale = name
    }

    deinit {
        xkb_compose_table_unref(pointer)
    }

    /// The locale that decides the character type, as locale(7) orders its variables: the first of
    /// `LC_ALL`, `LC_CTYPE` and `LANG` that is set and not empty, with its name; else `"C"` and nil.
    /// Read from the environment rather than `setlocale(LC_CTYPE, NULL)`, which says `"C"` until the
    /// program calls `setlocale`, which nothing in the kiosk does.
    ///
    /// xkbcommon takes `"C"` as `en_US.UTF-8` (`get_locale_compose_file_path`: libX11's `compose.dir`
    /// gives C the ISO 8859-1 file, and xkbcommon reads UTF-8 files only), so a kiosk started without a
    /// locale still has dead keys and the Compose key. `C.UTF-8` is `en_US.UTF-8` in `compose.dir` itself.
    public static func environmentLocale() -> (name: String, variable: String?) {
        for variable in ["LC_ALL", "LC_CTYPE", "LANG"] {
            if let value = getenv(variable), value.pointee != 0 { return (String(cString: value), variable) }
        }
        return ("C", nil)
    }
}
