/// The kernel's connector names, `<TYPE>-<n>` (`HDMI-A-1`, `DSI-1`), as `/sys/class/drm/cardN-<name>`, the
/// kernel's `video=` option, sway, kanshi and Slint write them.
public enum ConnectorName {
    /// The kernel's connector type names (drm_connector_enum_list), plus `HEADLESS`, the name our headless
    /// backend gives its screens (`HEADLESS-1`), so a config written for it validates too. `Unknown` is
    /// real: simpledrm's (the firmware's framebuffer as a DRM card, an x86 panel PC before its GPU driver
    /// loads) connector is `Unknown-1`.
    public static let types = [
        "Unknown", "VGA", "DVI-I", "DVI-D", "DVI-A", "Composite", "SVIDEO", "LVDS", "Component", "DIN", "DP", "HDMI-A",
        "HDMI-B", "TV", "eDP", "Virtual", "DSI", "DPI", "Writeback", "SPI", "USB", "HEADLESS",
    ]

    /// How the valid names are described in messages.
    public static let validSpelling = "a connector name (TYPE-n, e.g. HDMI-A-1, DP-1, eDP-1, DSI-1)"

    /// Whether `name` is `TYPE-n` with a known TYPE (case as the kernel writes it) and n from 1: the kernel
    /// numbers connectors of a type from 1 and never pads with zeros, so `HDMI-A-0` and `HDMI-A-01`
    /// name nothing.
    public static func isValid(_ name: String) -> Bool {
        guard let (type, number) = split(name) else { return false }
        return types.contains(String(type)) && isConnectorNumber(number)
    }

    /// The valid name `name` was probably meant to be (`hdmi-a-1` → `HDMI-A-1`), or nil.
    /// Also X11's spellings (xrandr's `HDMI1`, `DP1`, `eDP1`, `VGA1`, `DVI1`, and the modesetting
    /// driver's `HDMI-1`), which people copy from a desktop: `HDMI1` and `HDMI-1` are `HDMI-A-1`.
    public static func correction(of name: String) -> String? {
        let digits = name.reversed().prefix { $0.isASCII && $0.isNumber }.count
        let number = name.suffix(digits)
        var type = name.dropLast(digits)
        if type.hasSuffix("-") { type = type.dropLast() }
        guard isConnectorNumber(number), !type.isEmpty else { return nil }
        let lowered = type.lowercased()
        guard let known = types.first(where: { $0.lowercased() == lowered }) ?? x11Types[lowered] else { return nil }
        let corrected = "\(known)-\(number)"
        return corrected == name ? nil : corrected
    }

    /// X11 type names that are not the kernel's: HDMI is HDMI-A (HDMI-B, dual link, is nearly unseen), DVI
    /// is DVI-I (the connector that carries both).
    private static let x11Types = ["hdmi": "HDMI-A", "dvi": "DVI-I"]

    private static func split(_ name: String) -> (type: Substring, number: Substring)? {
        guard let dash = name.lastIndex(of: "-") else { return nil }
        return (name[..<dash], name[name.index(after: dash)...])
    }

    /// 1 to 999999: six digits is far beyond any machine and keeps the number an `Int` everywhere.
    private static func isConnectorNumber(_ text: Substring) -> Bool {
        guard let first = text.first, first != "0", text.count <= 6 else { return false }
        return text.allSatisfy { $0.isASCII && $0.isNumber }
    }
}
