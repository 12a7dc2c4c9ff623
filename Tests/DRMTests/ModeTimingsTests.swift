import DRM
import Testing

/// `hasSameTimings(as:)` judges as the kernel's `drm_mode_equal`: the timings and flags, not the type bits
/// nor the name, so the console's mode (the fb helper's copy, typed by it) is the connector's preferred one.
struct ModeTimingsTests {
    let mode = DRMModeInfo(
        clock: 148_500, hdisplay: 1920, hsyncStart: 2008, hsyncEnd: 2052, htotal: 2200, vdisplay: 1080, vsyncStart: 1084,
        vsyncEnd: 1089, vtotal: 1125, vrefresh: 60, flags: 0x5, type: 0x48, name: "1920x1080")

    @Test func typeAndNameDoNotCount() {
        var console = mode
        console.type = 0x40
        console.name = "console"
        #expect(console != mode)
        #expect(console.hasSameTimings(as: mode))
    }

    @Test func timingsAndFlagsDo() {
        var other = mode
        other.clock = 148_352
        #expect(!other.hasSameTimings(as: mode))
        other = mode
        other.flags = 0xA
        #expect(!other.hasSameTimings(as: mode))
        other = mode
        other.vtotal = 1126
        #expect(!other.hasSameTimings(as: mode))
    }
}
