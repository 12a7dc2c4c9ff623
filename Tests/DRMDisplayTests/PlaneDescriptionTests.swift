import DRM
import KioskKit
import Testing

@testable import DRMDisplay

/// What the compositor is told of a CRTC's planes (`DRMDisplay.displayPlanes`), from the planes as the DRM
/// wrapper reads them: virtio-gpu's, vkms's, and the cases a board's driver brings.
@Suite struct PlaneDescriptionTests {
    static let crtc = DRMCRTCID(rawValue: 40)
    static let other = DRMCRTCID(rawValue: 41)
    static let nv12: UInt32 = 0x3231_564E  // 'NV12'
    static let cursor64 = DisplayPlane.BufferSize(width: 64, height: 64)
    static let mode = DisplayPlane.BufferSize(width: 1280, height: 800)

    static func plane(
        _ id: UInt32, _ kind: DRMPlane.Kind, formats: [UInt32] = [DRMFormat.xrgb8888, DRMFormat.argb8888], crtcs: [DRMCRTCID] = [crtc],
        properties: [DRMProperty] = []
    ) -> DRMPlane {
        DRMPlane(id: DRMPlaneID(rawValue: id), possibleCRTCs: crtcs, currentCRTC: nil, kind: kind, formats: formats, properties: properties)
    }

    static func describe(_ planes: [DRMPlane], taken: Set<UInt32> = []) -> [DisplayPlane] {
        DRMDisplay.displayPlanes(of: planes, crtc: crtc, taken: taken, cursorSize: cursor64, modeSize: mode)
    }

    @Test func virtioGPUHasItsCursorPlaneOnly() {
        let planes = Self.describe([Self.plane(31, .primary), Self.plane(33, .cursor, formats: [DRMFormat.argb8888])])
        #expect(
            planes == [
                DisplayPlane(
                    id: 33, kind: .cursor, formats: [.argb32Premultiplied], zOrder: 2, requiredSize: Self.cursor64, maximumSize: Self.mode)
            ])
    }

    @Test func overlaysStackUnderTheCursorWithoutZpos() {
        let planes = Self.describe([Self.plane(31, .primary), Self.plane(35, .overlay), Self.plane(37, .overlay), Self.plane(49, .cursor)])
        #expect(planes.map(\.id) == [35, 37, 49])
        #expect(planes.map(\.zOrder) == [1, 1, 2])
        #expect(planes.map(\.kind) == [.overlay, .overlay, .cursor])
        #expect(planes[0].formats == [.argb32Premultiplied, .xrgb8888] && planes[0].requiredSize == nil)
    }

    @Test func zposOrdersThePlanes() {
        let zpos = { (value: UInt64) in DRMProperty(id: DRMPropertyID(rawValue: 9), name: "zpos", value: value, kind: .range) }
        let planes = Self.describe([Self.plane(35, .overlay, properties: [zpos(5)]), Self.plane(36, .overlay, properties: [zpos(3)])])
        #expect(planes.map(\.zOrder) == [5, 3])
    }

    @Test func planesOfAnotherCRTCTakenOrWithoutTheKiosksFormatsAreLeftOut() {
        let planes = Self.describe(
            [
                Self.plane(35, .overlay, crtcs: [Self.other]), Self.plane(36, .overlay), Self.plane(37, .overlay, formats: [Self.nv12]),
                Self.plane(38, .overlay, crtcs: [Self.other, Self.crtc]),
            ], taken: [36])
        #expect(planes.map(\.id) == [38])
    }

    @Test func argbOnlyWhereItBlendsPremultiplied() {
        let blend = { (cases: [(String, UInt64)]) in
            DRMProperty(id: DRMPropertyID(rawValue: 11), name: "pixel blend mode", value: 0, kind: .enumeration(cases))
        }
        let coverageOnly = Self.describe([Self.plane(35, .overlay, properties: [blend([("None", 0), ("Coverage", 2)])])])
        #expect(coverageOnly.first?.formats == [.xrgb8888])
        let premultiplied = Self.describe([Self.plane(35, .overlay, properties: [blend([("None", 0), ("Pre-multiplied", 1)])])])
        #expect(premultiplied.first?.formats == [.argb32Premultiplied, .xrgb8888])
    }
}
