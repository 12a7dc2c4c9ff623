import DRM
import KioskKit
import Testing

@testable import DRMDisplay

/// The overlay and cursor planes an output offers the compositor on an in-memory card
/// (`DRMDisplay+Planes.swift`): what `planes(for:)` says, what `accepts` answers when the card takes or
/// refuses a proposal, and what a present with layers on planes commits.
@MainActor @Suite struct PlaneProposalTests {
    static let overlay: UInt32 = 103
    static let cursor: UInt32 = 104

    /// HDMI-A-1 on CRTC 31 (primary plane 101), with an overlay plane that blends premultiplied and a
    /// cursor plane of ARGB8888 only, lit and showing the app's first frame.
    static func litWithPlanes(refusing refusal: (String, (InMemoryCard.Commit) -> Bool)? = nil) throws -> SeamFixture {
        let card = InMemoryCard(crtcs: [31])
        card.addConnector(40, type: 11, index: 1, modes: [Modes.fullHD], crtcs: [31])
        card.addPlane(overlay, .overlay, formats: [DRMFormat.xrgb8888, DRMFormat.argb8888], crtcs: [31], extra: ["pixel blend mode": 1])
        card.addPlane(cursor, .cursor, formats: [DRMFormat.argb8888], crtcs: [31])
        if let refusal { card.refuse(refusal.0, when: refusal.1) }
        return try SeamFixture.shown(card)
    }

    static func layer(on plane: DisplayPlane, _ rect: PixelRect) -> PlaneLayer {
        PlaneLayer(plane: plane, destination: rect, format: .argb32Premultiplied, content: nil)
    }

    @Test func theOverlayAndTheCursorPlaneAreOffered() throws {
        let fixture = try Self.litWithPlanes()
        let screen = try #require(fixture.screen("HDMI-A-1"))
        let planes = fixture.display.planes(for: screen)
        #expect(planes.map(\.id) == [Self.overlay, Self.cursor])
        #expect(planes.map(\.kind) == [.overlay, .cursor])
        #expect(planes[0].formats == [.argb32Premultiplied, .xrgb8888] && planes[0].requiredSize == nil)
        #expect(planes[1].formats == [.argb32Premultiplied])
        #expect(planes[1].requiredSize == DisplayPlane.BufferSize(width: 64, height: 64))
        #expect(fixture.logs.contains("planes for layers on CRTC 31", at: .info))
    }

    @Test func noPlanesAreOfferedBeforeTheFirstFrame() throws {
        let card = InMemoryCard(crtcs: [31])
        card.addConnector(40, type: 11, index: 1, modes: [Modes.fullHD], crtcs: [31])
        card.addPlane(Self.cursor, .cursor, formats: [DRMFormat.argb8888], crtcs: [31])
        let fixture = try SeamFixture(card: card)
        fixture.probe()
        #expect(fixture.display.planes(for: try #require(fixture.screen("HDMI-A-1"))).isEmpty)
    }

    @Test func aProposalTheCardTakesIsAcceptedWithATestOnlyCommit() throws {
        let fixture = try Self.litWithPlanes()
        let screen = try #require(fixture.screen("HDMI-A-1"))
        let planes = fixture.display.planes(for: screen)
        let before = fixture.card.commits.count
        let layers = [Self.layer(on: planes[0], PixelRect(x: 100, y: 100, width: 320, height: 240))]
        #expect(fixture.display.accepts(layers, for: screen))
        let checks = fixture.commits(since: before)
        #expect(checks.count == 1 && checks.allSatisfy { $0.isTestOnly && $0.passed })
        #expect(checks.first?.showsFramebuffer(on: Self.overlay) == true)
        #expect(checks.first?.value(Self.overlay, "CRTC_W") == 320 && checks.first?.value(Self.overlay, "CRTC_X") == 100)
        #expect(checks.first?.value(Self.overlay, "pixel blend mode") == 1)
        #expect(fixture.card.values[Self.overlay]?["FB_ID"] == 0, "a check changes nothing")
    }

    @Test func aProposalTheCardRefusesIsNotAcceptedSoTheCompositorComposesIt() throws {
        let fixture = try Self.litWithPlanes(refusing: ("no overlay with the cursor", { $0.showsFramebuffer(on: Self.overlay) }))
        let screen = try #require(fixture.screen("HDMI-A-1"))
        let planes = fixture.display.planes(for: screen)
        let before = fixture.card.commits.count
        let overlay = Self.layer(on: planes[0], PixelRect(x: 0, y: 0, width: 200, height: 100))
        let cursor = Self.layer(on: planes[1], PixelRect(x: 10, y: 20, width: 64, height: 64))
        #expect(!fixture.display.accepts([overlay, cursor], for: screen))
        #expect(fixture.display.accepts([cursor], for: screen), "the cursor alone is taken")
        let checks = fixture.commits(since: before)
        #expect(checks.map(\.refusal) == ["no overlay with the cursor", nil])
        #expect(checks.allSatisfy { $0.isTestOnly })
        #expect(fixture.logs.contains("the driver refused a 200x100 layer on", at: .info))
        #expect(fixture.logs.contains("trying fewer planes", at: .info))
    }

    @Test func aPlaneOnlyPresentCommitsOnlyThatPlane() throws {
        let fixture = try Self.litWithPlanes()
        let screen = try #require(fixture.screen("HDMI-A-1"))
        let output = try #require(fixture.display.outputs[40])
        let primaryFramebuffer = fixture.card.values[101]?["FB_ID"]
        let cursor = Self.layer(on: fixture.display.planes(for: screen)[1], PixelRect(x: -8, y: 30, width: 64, height: 64))
        let before = fixture.card.commits.count
        fixture.display.present(nil, for: screen, damage: Region(), planes: [cursor])
        let presented = try #require(fixture.commits(since: before).first)
        #expect(fixture.commits(since: before).count == 1)
        #expect(!presented.isTestOnly && presented.passed && presented.flags.contains(.pageFlipEvent))
        #expect(presented.objects == [Self.cursor], "no CRTC, connector or primary plane property: \(presented)")
        #expect(presented.value(Self.cursor, "CRTC_X") == UInt64(bitPattern: -8))
        #expect(fixture.card.values[101]?["FB_ID"] == primaryFramebuffer, "the composed frame stays")
        #expect(fixture.card.values[Self.cursor]?["CRTC_ID"] == 31)
        #expect(output.planesInUse == [Self.cursor])

        // Its flip completes when the card's events are read; a present without the layer turns the plane off.
        fixture.display.readEvents()
        #expect(!output.flipPending)
        fixture.display.present(nil, for: screen, damage: Region(), planes: [])
        let off = try #require(fixture.card.commits.last)
        #expect(off.objects == [Self.cursor] && off.value(Self.cursor, "FB_ID") == 0)
        #expect(fixture.card.values[Self.cursor]?["FB_ID"] == 0)
        #expect(output.planesInUse.isEmpty)
    }
}
