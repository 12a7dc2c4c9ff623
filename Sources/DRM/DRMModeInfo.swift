import CDRM
import Geometry

/// A display mode with its full timings (`drmModeModeInfo`), as the kernel reports and accepts them.
public struct DRMModeInfo: Hashable, Sendable, CustomStringConvertible {
    /// Pixel clock in kHz.
    public var clock: UInt32
    public var hdisplay, hsyncStart, hsyncEnd, htotal, hskew: UInt16
    public var vdisplay, vsyncStart, vsyncEnd, vtotal, vscan: UInt16
    /// The kernel's rounded refresh (integer Hz); `refreshRate` is the exact one.
    public var vrefresh: UInt32
    public var flags: UInt32
    public var type: UInt32
    public var name: String

    public init(
        clock: UInt32, hdisplay: UInt16, hsyncStart: UInt16, hsyncEnd: UInt16, htotal: UInt16, hskew: UInt16 = 0,
        vdisplay: UInt16, vsyncStart: UInt16, vsyncEnd: UInt16, vtotal: UInt16, vscan: UInt16 = 0,
        vrefresh: UInt32 = 0, flags: UInt32 = 0, type: UInt32 = 0, name: String = ""
    ) {
        self.clock = clock
        (self.hdisplay, self.hsyncStart, self.hsyncEnd, self.htotal, self.hskew) = (hdisplay, hsyncStart, hsyncEnd, htotal, hskew)
        (self.vdisplay, self.vsyncStart, self.vsyncEnd, self.vtotal, self.vscan) = (vdisplay, vsyncStart, vsyncEnd, vtotal, vscan)
        self.vrefresh = vrefresh
        self.flags = flags
        self.type = type
        self.name = name.isEmpty ? "\(hdisplay)x\(vdisplay)" : name
    }

    /// Whether `other` drives the display the same way, as the kernel's `drm_mode_equal` judges whether a
    /// modeset is needed: the timings and flags, not the type (preferred, driver, user) nor the name.
    public func hasSameTimings(as other: DRMModeInfo) -> Bool {
        var (a, b) = (self, other)
        (a.type, a.name, b.type, b.name) = (0, "", 0, "")
        return a == b
    }

    public var width: Int { Int(hdisplay) }
    public var height: Int { Int(vdisplay) }
    public var isPreferred: Bool { type & kiosk_drm_mode_type_preferred() != 0 }
    public var isInterlaced: Bool { flags & kiosk_drm_mode_flag_interlace() != 0 }
    public var isDoubleScan: Bool { flags & kiosk_drm_mode_flag_dblscan() != 0 }

    /// The exact vertical refresh in Hz, as the kernel's `drm_mode_vrefresh` computes it without rounding:
    /// `clock * 1000 / (htotal * vtotal)`, doubled for interlaced modes (two fields per frame), halved for
    /// double scan, divided by `vscan` when it is above 1. 0 for modes without timings.
    public var refreshRate: Double {
        guard htotal > 0, vtotal > 0 else { return 0 }
        var numerator = Double(clock) * 1000
        var denominator = Double(htotal) * Double(vtotal)
        if isInterlaced { numerator *= 2 }
        if isDoubleScan { denominator *= 2 }
        if vscan > 1 { denominator *= Double(vscan) }
        return numerator / denominator
    }

    /// `1920x1080@60.000i`: `DisplayMode`'s spelling, the project's one.
    public var description: String { DisplayMode(self).description }

    init(_ mode: drmModeModeInfo) {
        var copy = mode
        let name = withUnsafeBytes(of: &copy.name) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        self.init(
            clock: mode.clock, hdisplay: mode.hdisplay, hsyncStart: mode.hsync_start, hsyncEnd: mode.hsync_end,
            htotal: mode.htotal, hskew: mode.hskew, vdisplay: mode.vdisplay, vsyncStart: mode.vsync_start,
            vsyncEnd: mode.vsync_end, vtotal: mode.vtotal, vscan: mode.vscan, vrefresh: mode.vrefresh,
            flags: mode.flags, type: mode.type, name: name)
    }

    var cValue: drmModeModeInfo {
        var mode = drmModeModeInfo()
        mode.clock = clock
        (mode.hdisplay, mode.hsync_start, mode.hsync_end, mode.htotal, mode.hskew) = (hdisplay, hsyncStart, hsyncEnd, htotal, hskew)
        (mode.vdisplay, mode.vsync_start, mode.vsync_end, mode.vtotal, mode.vscan) = (vdisplay, vsyncStart, vsyncEnd, vtotal, vscan)
        mode.vrefresh = vrefresh
        mode.flags = flags
        mode.type = type
        withUnsafeMutableBytes(of: &mode.name) { raw in
            let bytes = Array(name.utf8.prefix(raw.count - 1))
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return mode
    }
}

extension DisplayMode {
    /// The window model's view of a kernel mode: its size, exact refresh and interlacing.
    public init(_ mode: DRMModeInfo) {
        self.init(width: mode.width, height: mode.height, refreshRate: mode.refreshRate, isInterlaced: mode.isInterlaced)
    }
}
