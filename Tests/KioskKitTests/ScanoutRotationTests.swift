import Testing

@testable import KioskKit

/// A display that turns frames by its plane (`FrameOutput.rotatesInScanout`): the compositor hands it the
/// frame upright, and the screenshot is still what the panel shows, turned.
@MainActor
struct ScanoutRotationTests {
    static func scene() {
        let window = Window(screen: Screen.main)
        window.backgroundColor = .white
        window.makeKeyAndVisible()
        // Off the centre, so each rotation puts it somewhere else.
        window.addSubview(CountingView(frame: Rect(x: 3, y: 5, width: 9, height: 4), color: .red))
        let corner = View(frame: Rect(x: 50, y: 30, width: 10, height: 10))
        corner.backgroundColor = Color(red: 0, green: 0, blue: 1, alpha: 0.5)
        window.addSubview(corner)
    }

    static func frame(rotation: Rotation, turnedByPlane: Bool, cachedMemory: Bool) -> (buffer: Bitmap, screenshot: Bitmap?) {
        let render = RenderBed(width: 64, height: 48, rotation: rotation, cachedMemory: cachedMemory)
        if turnedByPlane { render.output.scanoutRotations = [rotation] }
        scene()
        let buffer = render.render()
        let copy = Bitmap(width: buffer.width, height: buffer.height, format: .xrgb8888)
        copy.composite(buffer, operation: .source, destination: buffer.bounds)
        return (copy, render.compositor.scanoutImage(of: render.screen))
    }

    @Test(arguments: [Rotation.rotated180, .flipped, .flipped180], [false, true])
    func theFrameIsHandedOverUpright(rotation: Rotation, cachedMemory: Bool) throws {
        let upright = Self.frame(rotation: .normal, turnedByPlane: false, cachedMemory: cachedMemory).buffer
        let turned = Self.frame(rotation: rotation, turnedByPlane: false, cachedMemory: cachedMemory).buffer
        let byPlane = Self.frame(rotation: rotation, turnedByPlane: true, cachedMemory: cachedMemory)
        #expect(sameColours(byPlane.buffer, upright), "the buffer is not the upright frame")
        #expect(!sameColours(upright, turned))
        let screenshot = try #require(byPlane.screenshot)
        #expect(sameColours(screenshot, turned), "the screenshot is not what the panel shows")
    }

    @Test func aQuarterTurnIsNeverLeftToThePlane() {
        // The buffer keeps the mode's size: a display claiming 90 still gets the frame turned.
        let turned = Self.frame(rotation: .rotated90, turnedByPlane: false, cachedMemory: false).buffer
        let claimed = Self.frame(rotation: .rotated90, turnedByPlane: true, cachedMemory: false).buffer
        #expect(sameColours(claimed, turned))
    }
}
