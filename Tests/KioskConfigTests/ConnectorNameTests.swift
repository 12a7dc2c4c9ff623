import KioskConfig
import Testing

@Suite struct ConnectorNameTests {
    @Test(arguments: [
        "HDMI-A-1", "HDMI-B-2", "DP-1", "eDP-1", "DSI-1", "DPI-1", "LVDS-1", "VGA-1", "DVI-I-1", "DVI-D-2",
        "DVI-A-1", "Composite-1", "SVIDEO-1", "Component-1", "DIN-1", "TV-1", "Virtual-1", "Writeback-1",
        "SPI-1", "USB-1", "HEADLESS-1", "DP-12", "Unknown-1",
    ])
    func valid(name: String) {
        #expect(ConnectorName.isValid(name))
    }

    /// Kernel names are case-sensitive, numbered from 1 without padding.
    @Test(arguments: [
        "", "HDMI", "HDMI-A", "HDMI-A-", "HDMI-A-0", "HDMI-A-01", "hdmi-a-1", "EDP-1", "HDMI-1", "DP-1a",
        "DP--1", "lobby-tv", "DP-1234567", "DP-١",
    ])
    func invalid(name: String) {
        #expect(!ConnectorName.isValid(name))
    }

    @Test func corrections() {
        #expect(ConnectorName.correction(of: "hdmi-a-1") == "HDMI-A-1")
        #expect(ConnectorName.correction(of: "EDP-1") == "eDP-1")
        #expect(ConnectorName.correction(of: "HDMI-A-1") == nil)
        #expect(ConnectorName.correction(of: "lobby-tv") == nil)
        #expect(ConnectorName.correction(of: "HDMI-A-0") == nil)
    }

    /// X11's names, copied from xrandr on a desktop.
    @Test(arguments: [
        ("HDMI1", "HDMI-A-1"), ("HDMI-1", "HDMI-A-1"), ("hdmi2", "HDMI-A-2"), ("DP1", "DP-1"), ("eDP1", "eDP-1"),
        ("VGA1", "VGA-1"), ("DVI1", "DVI-I-1"), ("LVDS1", "LVDS-1"), ("DSI1", "DSI-1"),
    ])
    func x11Spellings(name: String, kernel: String) {
        #expect(ConnectorName.correction(of: name) == kernel)
    }
}
