import Testing

@testable import KioskKit

/// `Compositor.scanoutImage`: what the control socket's screenshot sends is what the output was given,
/// at every rotation, through the shadow (scanout outputs) and through a buffer painted in place (cached
/// memory, unrotated), after a first full frame and after a partial one; nothing before a frame or while off.
@MainActor
struct ScanoutImageTests {
    @Test(arguments: Rotation.allCases, [false, true])
    func theImageIsTheFrameTheOutputGot(rotation: Rotation, cachedMemory: Bool) throws {
        let render = RenderBed(width: 64, height: 48, rotation: rotation, buffers: 2, cachedMemory: cachedMemory)
        #expect(render.compositor.scanoutImage(of: render.screen) == nil)
        let window = Window(screen: Screen.main)
        window.backgroundColor = .white
        window.makeKeyAndVisible()
        // Off the centre, so that every rotation and mirror moves it somewhere else.
        let view = CountingView(frame: Rect(x: 3, y: 5, width: 9, height: 4), color: .red)
        window.addSubview(view)
        render.render()
        let first = try #require(render.compositor.scanoutImage(of: render.screen))
        #expect(samePixels(first, render.output.lastFrame["Virtual-1"]!))
        view.center.x += 7
        render.render()
        let second = try #require(render.compositor.scanoutImage(of: render.screen))
        #expect(samePixels(second, render.output.lastFrame["Virtual-1"]!))
        #expect(!samePixels(first, second))
        try render.screen.setPower(.off)
        #expect(render.compositor.scanoutImage(of: render.screen) == nil)
    }
}
