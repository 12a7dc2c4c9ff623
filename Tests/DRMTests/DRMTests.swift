import DRM
import Foundation
import Testing

@Suite struct DRMModeTests {
    /// Exact refresh rates from real timings (CEA-861 and QEMU's EDID).
    static let refreshCases: [(DRMModeInfo, Double)] = [
        // 1920x1080@60 (CEA VIC 16): 148.5 MHz, 2200 x 1125 -> exactly 60.
        (
            DRMModeInfo(
                clock: 148_500, hdisplay: 1920, hsyncStart: 2008, hsyncEnd: 2052, htotal: 2200,
                vdisplay: 1080, vsyncStart: 1084, vsyncEnd: 1089, vtotal: 1125), 60.0
        ),
        // 1920x1080@59.94 (VIC 16 at 1000/1001): 148.352 MHz.
        (
            DRMModeInfo(
                clock: 148_352, hdisplay: 1920, hsyncStart: 2008, hsyncEnd: 2052, htotal: 2200,
                vdisplay: 1080, vsyncStart: 1084, vsyncEnd: 1089, vtotal: 1125), 148_352_000.0 / (2200 * 1125)
        ),
        // 1920x1080i@60 (VIC 5): 74.25 MHz, 2200 x 1125, interlaced: two fields per frame.
        (
            DRMModeInfo(
                clock: 74_250, hdisplay: 1920, hsyncStart: 2008, hsyncEnd: 2052, htotal: 2200,
                vdisplay: 1080, vsyncStart: 1084, vsyncEnd: 1094, vtotal: 1125, flags: 1 << 4), 60.0
        ),
        // 320x200 double scan: 12.587 MHz, 400 x 449 * 2.
        (
            DRMModeInfo(
                clock: 12_587, hdisplay: 320, hsyncStart: 336, hsyncEnd: 384, htotal: 400,
                vdisplay: 200, vsyncStart: 206, vsyncEnd: 207, vtotal: 224, flags: 1 << 5), 12_587_000.0 / (400 * 224 * 2)
        ),
        // QEMU's 1280x800 (virtio-gpu EDID): 83.5 MHz, 1680 x 831.
        (
            DRMModeInfo(
                clock: 83_500, hdisplay: 1280, hsyncStart: 1352, hsyncEnd: 1480, htotal: 1680,
                vdisplay: 800, vsyncStart: 803, vsyncEnd: 809, vtotal: 831), 83_500_000.0 / (1680 * 831)
        ),
    ]

    @Test(arguments: refreshCases)
    func refreshRate(mode: DRMModeInfo, expected: Double) {
        #expect(abs(mode.refreshRate - expected) < 1e-9)
    }

    @Test func flagsAndDescription() {
        let mode = DRMModeInfo(
            clock: 74_250, hdisplay: 1920, hsyncStart: 2008, hsyncEnd: 2052, htotal: 2200,
            vdisplay: 1080, vsyncStart: 1084, vsyncEnd: 1094, vtotal: 1125, flags: 1 << 4, type: 1 << 3)
        #expect(mode.isInterlaced && mode.isPreferred && !mode.isDoubleScan)
        #expect(mode.description == "1920x1080@60.000i")
        #expect(mode.name == "1920x1080")
        let empty = DRMModeInfo(
            clock: 0, hdisplay: 0, hsyncStart: 0, hsyncEnd: 0, htotal: 0, vdisplay: 0, vsyncStart: 0, vsyncEnd: 0, vtotal: 0)
        #expect(empty.refreshRate == 0)
    }
}

@Suite struct DRMConnectorNameTests {
    /// The kernel's names, as in `/sys/class/drm/card0-<name>` (values of DRM_MODE_CONNECTOR_*).
    @Test(arguments: [
        (UInt32(1), "VGA"), (2, "DVI-I"), (3, "DVI-D"), (7, "LVDS"), (10, "DP"), (11, "HDMI-A"),
        (12, "HDMI-B"), (14, "eDP"), (15, "Virtual"), (16, "DSI"), (17, "DPI"),
    ])
    func typeNames(type: UInt32, name: String) {
        #expect(DRMConnector.typeName(type) == name)
    }

    @Test func fullNameAndPanels() {
        let hdmi = DRMConnector(
            id: DRMConnectorID(rawValue: 40), type: 11, typeIndex: 2, status: .connected, modes: [],
            physicalWidthMillimeters: 0, physicalHeightMillimeters: 0, encoderID: nil, possibleCRTCs: [], properties: [])
        #expect(hdmi.name == "HDMI-A-2" && !hdmi.isBuiltInPanel)
        let dsi = DRMConnector(
            id: DRMConnectorID(rawValue: 41), type: 16, typeIndex: 1, status: .connected, modes: [],
            physicalWidthMillimeters: 0, physicalHeightMillimeters: 0, encoderID: nil, possibleCRTCs: [], properties: [])
        #expect(dsi.name == "DSI-1" && dsi.isBuiltInPanel)
        #expect(DRMConnector.typeName(999) == "Unknown999")
    }
}

@Suite struct DRMErrorTests {
    @Test func openingAMissingCardNamesThePathAndErrno() {
        #expect(throws: DRMError(operation: "open", errno: ENOENT, detail: "/dev/dri/card99")) {
            try DRMDevice.open(path: "/dev/dri/card99")
        }
        let error = DRMError(operation: "drmModeSetCrtc", errno: EACCES, detail: "CRTC 41")
        #expect(error.description == "drmModeSetCrtc(CRTC 41): Permission denied (errno 13)")
        #expect(error.isAccessLost)
    }

    /// A file that is not a DRM device: every getter reports the C function and the errno.
    @Test func callsOnANonDRMFileThrow() throws {
        let device = try DRMDevice.open(path: "/dev/null")
        #expect(!device.isKMS)
        #expect(!device.supportsDumbBuffers)
        do {
            _ = try device.resources()
            Issue.record("drmModeGetResources on /dev/null succeeded")
        } catch {
            #expect(error.operation == "drmModeGetResources" && error.detail == "/dev/null" && error.errno != 0)
        }
        do {
            try device.setCRTC(DRMCRTCID(rawValue: 1), framebuffer: nil, connectors: [], mode: nil)
            Issue.record("drmModeSetCrtc on /dev/null succeeded")
        } catch {
            // drmIoctl returns -1 and sets errno (ENOTTY for an ioctl /dev/null does not know).
            #expect(error.operation == "drmModeSetCrtc" && error.errno == ENOTTY)
        }
        #expect(throws: DRMError.self) { try device.createDumbBuffer(width: 64, height: 64) }
    }
}

@Suite struct DRMAtomicRequestTests {
    /// What was set is kept in order, a property set twice twice (the kernel takes the last).
    @Test func keepsTheChangesSetOnIt() throws {
        let request = DRMAtomicRequest()
        try request.set(object: 31, property: DRMPropertyID(rawValue: 7), value: 1)
        try request.set(object: 101, property: DRMPropertyID(rawValue: 9), value: 600)
        try request.set(object: 31, property: DRMPropertyID(rawValue: 7), value: 0)
        #expect(
            request.changes == [
                .init(object: 31, property: DRMPropertyID(rawValue: 7), value: 1),
                .init(object: 101, property: DRMPropertyID(rawValue: 9), value: 600),
                .init(object: 31, property: DRMPropertyID(rawValue: 7), value: 0),
            ])
    }
}

@Suite struct EDIDTests {
    /// QEMU's generated EDID for a virtio-gpu head (captured from the test VM's card0-Virtual-1/edid).
    static func qemuLike() -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 128)
        bytes[0..<8] = [0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00]
        // "RHT": R=18, H=8, T=20 -> 0b0_10010_01000_10100 = 0x4914
        bytes[8] = 0x49
        bytes[9] = 0x14
        bytes[10] = 0x34
        bytes[11] = 0x12
        bytes[12] = 0x01
        bytes[18] = 1
        bytes[19] = 4
        // A monitor name descriptor at 72 and a serial string at 90.
        bytes[72..<77] = [0, 0, 0, 0xFC, 0]
        bytes.replaceSubrange(77..<90, with: "QEMU Monitor\n".utf8)
        bytes[90..<95] = [0, 0, 0, 0xFF, 0]
        bytes.replaceSubrange(95..<108, with: "SN-1234\n     ".utf8)
        bytes[127] = UInt8((256 - Int(bytes[0..<127].reduce(0, { $0 &+ $1 })) % 256) % 256)
        return bytes
    }

    @Test func parsesMakeModelSerial() throws {
        let edid = try #require(EDID(bytes: Self.qemuLike()))
        #expect(edid.make == "RHT" && edid.model == "QEMU Monitor" && edid.serial == "SN-1234" && edid.productCode == 0x1234)
    }

    @Test func rejectsBadHeaderOrChecksum() {
        var bytes = Self.qemuLike()
        bytes[127] &+= 1
        #expect(EDID(bytes: bytes) == nil)
        #expect(EDID(bytes: [0, 1, 2]) == nil)
    }
}
