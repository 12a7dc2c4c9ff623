import CompositionScenes
import Foundation
import KioskKit

// Runs one benchmark scenario in a plain loop, for `valgrind --tool=callgrind` (instruction counts are
// repeatable; perf counters are not available on these machines) or a quick timing without
// package-benchmark:
//
//   .build/release/CompositionProfile <scenario> [iterations]
//   .build/release/CompositionProfile check [folder]   (compositor frame == raw pixman baseline, PNGs)
//
// Setup (scene, first frame) happens before the loop; under callgrind, start with
// `--collect-atstart=no --toggle-collect='*CompositionProfile*measured*'` to count the loop only.

let scenarios = [
    "full-frame", "scanout-frame", "copy", "damage-200", "move-200", "pixman", "pixman-copy", "memcpy",
    "hit-frontmost", "hit-non-interactive", "hit-pass-through", "hit-window", "hit-grid-build", "scale-up", "pixman-scale-up",
    "cross-fade", "scanout-cross-fade", "pixman-cross-fade", "pixman-cross-fade-copy", "table-scroll", "scanout-table-scroll",
    "pixman-table-scroll", "pixman-table-scroll-copy", "cursor-move", "cursor-move-composed", "tap", "tap-gestures", "touch-down",
    "touch-down-gestures",
]
let arguments = CommandLine.arguments
if arguments.count >= 2, arguments[1] == "check" {
    // The baseline must composite the same pixels as the compositor's full frame, or it is not a baseline.
    let scene = CompositionScene()
    scene.composeFullFrame()
    let baseline = PixmanBaseline()
    baseline.compositeLayers()
    let differing = baseline.differingPixels(from: scene.output.buffer)
    print("compositor frame vs raw pixman baseline: \(differing) of \(SceneGeometry.width * SceneGeometry.height) pixels differ")
    // The scale-up, each frame of the animation alone onto a black shadow, both ways. The two fixed-point
    // matrices round differently (ours is taken relative to the drawn area's corner, the baseline's is in
    // screen coordinates), which can move a 7-bit bilinear weight by one step: 2 in a channel across a
    // black-white edge, 3 with pixman's truncation. More than that fails.
    var scaleUpPixels = 0, scaleUpLargest: UInt32 = 0
    var scaleUp = ScaleUpScene()
    for frame in 0..<ScaleUpAnimation.frameCount {
        scaleUp = ScaleUpScene(frame: frame)
        let scaleUpBaseline = ScaleUpBaseline(frame: frame)
        scaleUp.composeNextFrame()
        scaleUpBaseline.composeNextFrame()
        let difference = scaleUpBaseline.difference(from: scaleUp.shadow)
        scaleUpPixels = max(scaleUpPixels, difference.pixels)
        scaleUpLargest = max(scaleUpLargest, difference.largest)
    }
    print(
        "scale-up, composite(_:transform:) vs raw pixman, each of \(ScaleUpAnimation.frameCount) frames: at most "
            + "\(scaleUpPixels) pixels differ, by at most \(scaleUpLargest)")
    // The cross-fade, each of its steps through the compositor (in sequence, as measured) on each output
    // against raw pixman's two composites onto black: the same composites with the same mask alphas, so
    // no pixel may differ, as for the full frame. One scene at a time (each resets the application).
    var crossFadePixels = 0
    for scanout in [false, true] {
        let crossFade = CrossFadeScene(scanoutOutput: scanout)
        crossFade.expectFrames(damage: Region(crossFade.fullScreen))
        let crossFadeBaseline = CrossFadeBaseline()
        for step in 0..<CrossFadeAnimation.frameCount {
            crossFade.composeNextFrame()
            crossFadeBaseline.clear()
            crossFadeBaseline.composeNextFrame()
            crossFadePixels = max(crossFadePixels, crossFadeBaseline.differingPixels(from: crossFade.output.buffer))
            if arguments.count >= 3, !scanout, step == CrossFadeAnimation.frameCount / 2 - 1 {
                try crossFade.output.buffer.writePNG(to: arguments[2] + "/cross-fade-middle-frame.png")
            }
        }
        precondition(crossFade.output.unexpectedFrames == 0, "cross-fade: unexpected damage")
        precondition(!crossFade.contentWasRedrawn, "cross-fade: a window's content was redrawn")
    }
    print(
        "cross-fade, compositor (in place and scanout) vs raw pixman, each of \(CrossFadeAnimation.frameCount) "
            + "steps: at most \(crossFadePixels) pixels differ")
    // The table scroll, a few frames through the compositor (both offsets, on each output) against raw
    // pixman compositing the rows in view at the same offset onto black: the cells cover the screen, so
    // no pixel may differ, and nothing may have been redrawn.
    var tablePixels = 0
    let tableBaseline = TableScrollBaseline()
    for scanout in [false, true] {
        let table = TableScrollScene(scanoutOutput: scanout)
        table.expectFrames(damage: Region(table.fullScreen))
        for frame in 0..<4 {
            precondition(table.composeCheckedFrame(), "table scroll: a cell or label was redrawn")
            tableBaseline.clear()
            tableBaseline.compose(offset: table.tableView.contentOffset.y)
            tablePixels = max(tablePixels, tableBaseline.differingPixels(from: table.output.buffer))
            if arguments.count >= 3, !scanout, frame == 0 {
                try table.output.buffer.writePNG(to: arguments[2] + "/table-scroll-frame.png")
            }
        }
        precondition(table.output.unexpectedFrames == 0, "table scroll: unexpected damage")
    }
    print("table scroll, compositor (in place and scanout) vs raw pixman, offsets 4 and 0 twice: at most \(tablePixels) pixels differ")
    if arguments.count >= 3 {
        let path = arguments[2] + "/composition-frame.png"
        try scene.output.buffer.writePNG(to: path)
        try scaleUp.shadow.writePNG(to: arguments[2] + "/scale-up-last-frame.png")
        print("wrote \(path), scale-up-last-frame.png, cross-fade-middle-frame.png and table-scroll-frame.png")
    }
    exit(differing == 0 && scaleUpLargest <= 3 && crossFadePixels == 0 && tablePixels == 0 ? 0 : 1)
}
guard arguments.count >= 2, scenarios.contains(arguments[1]) else {
    FileHandle.standardError.write("usage: CompositionProfile <\(scenarios.joined(separator: "|"))> [iterations]\n".data(using: .utf8)!)
    exit(2)
}
let scenario = arguments[1]
let iterations = arguments.count > 2 ? Int(arguments[2]) ?? 100 : 100

/// The loop that is measured (callgrind toggles collection on this function).
@inline(never)
func measured(_ iterations: Int, _ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<iterations { body() }
    return Double(DispatchTime.now().uptimeNanoseconds - start) / Double(iterations) / 1000
}

/// `body` once, measured, then `after` (not measured), `iterations` times: for an operation that needs
/// undoing before the next. Callgrind collects inside `measuredStep` only, by the same toggle (so this
/// function's name must not contain "measured": a second toggle on the way in would turn collection off).
func stepwise(_ iterations: Int, _ body: () -> Void, after: () -> Void) -> Double {
    var nanoseconds: UInt64 = 0
    for _ in 0..<iterations {
        let start = DispatchTime.now().uptimeNanoseconds
        measuredStep(body)
        nanoseconds += DispatchTime.now().uptimeNanoseconds - start
        after()
    }
    return Double(nanoseconds) / Double(iterations) / 1000
}

@inline(never)
func measuredStep(_ body: () -> Void) { body() }

var microseconds: Double
switch scenario {
case "full-frame", "scanout-frame", "copy":
    // full-frame paints in place (headless); scanout-frame and copy use a shadow, as DRM does.
    let scene = CompositionScene(scanoutOutput: scenario != "full-frame")
    microseconds =
        scenario == "copy" ? measured(iterations) { scene.copyShadowToOutput() } : measured(iterations) { scene.composeFullFrame() }
case "damage-200":
    let scene = CompositionScene()
    scene.expectFrames(damage: scene.damagedRegion)
    microseconds = measured(iterations) { scene.composeDamagedUpdate() }
    precondition(scene.output.unexpectedFrames == 0, "unexpected damage")
case "move-200":
    let scene = CompositionScene(withMovingView: true)
    scene.expectFrames(damage: scene.movedViewRegion)
    microseconds = measured(iterations) { scene.composeMovedView() }
    precondition(scene.output.unexpectedFrames == 0, "unexpected damage")
case "pixman", "pixman-copy":
    let baseline = PixmanBaseline()
    microseconds =
        scenario == "pixman"
        ? measured(iterations) { baseline.compositeLayers() } : measured(iterations) { baseline.compositeLayersAndCopy() }
case "scale-up":
    let scene = ScaleUpScene()
    microseconds = measured(iterations) { scene.composeNextFrame() }
case "pixman-scale-up":
    let baseline = ScaleUpBaseline()
    microseconds = measured(iterations) { baseline.composeNextFrame() }
case "cross-fade", "scanout-cross-fade":
    // cross-fade paints in place (headless); scanout-cross-fade uses a shadow and copies, as DRM does.
    let scene = CrossFadeScene(scanoutOutput: scenario == "scanout-cross-fade")
    scene.expectFrames(damage: Region(scene.fullScreen))
    microseconds = measured(iterations) { scene.composeNextFrame() }
    precondition(scene.output.unexpectedFrames == 0, "unexpected damage")
    precondition(!scene.contentWasRedrawn, "a window's content was redrawn")
case "pixman-cross-fade", "pixman-cross-fade-copy":
    let baseline = CrossFadeBaseline()
    microseconds =
        scenario == "pixman-cross-fade"
        ? measured(iterations) { baseline.composeNextFrame() } : measured(iterations) { baseline.composeNextFrameAndCopy() }
case "table-scroll", "scanout-table-scroll":
    // table-scroll paints in place (headless); scanout-table-scroll uses a shadow and copies, as DRM does.
    let scene = TableScrollScene(scanoutOutput: scenario == "scanout-table-scroll")
    scene.expectFrames(damage: Region(scene.fullScreen))
    microseconds = measured(iterations) { scene.composeNextFrame() }
    precondition(scene.output.unexpectedFrames == 0, "unexpected damage")
    precondition(scene.composeCheckedFrame(), "a cell or label was redrawn")
case "pixman-table-scroll", "pixman-table-scroll-copy":
    let baseline = TableScrollBaseline()
    microseconds =
        scenario == "pixman-table-scroll"
        ? measured(iterations) { baseline.composeNextFrame() } : measured(iterations) { baseline.composeNextFrameAndCopy() }
case "cursor-move", "cursor-move-composed":
    // On a cursor plane a move composes nothing: no frame, only the plane moved.
    let scene = CursorMoveScene(onCursorPlane: scenario == "cursor-move")
    let frames = scene.framesComposed, planeMoves = scene.planeMoves
    microseconds = measured(iterations) { scene.move() }
    if scenario == "cursor-move" {
        precondition(scene.framesComposed == frames && scene.planeMoves - planeMoves == scene.moves, "a cursor move composed a frame")
    } else {
        precondition(scene.framesComposed == frames + scene.moves, "a composed cursor move made no frame")
    }
case "tap", "tap-gestures":
    let scene = TouchDispatchScene(withGestureRecognizers: scenario == "tap-gestures")
    microseconds = measured(iterations) { scene.tap(timestamp: 1) }
    precondition(scene.delivered > 0 && (scenario == "tap" || scene.recognized == iterations), "the taps did not arrive")
case "touch-down", "touch-down-gestures":
    // Only the touch-down is measured (and counted by callgrind); the touch is lifted after each. It lands
    // where hit-frontmost's does, on subview 0 of the frontmost window, behind its 99 others.
    let scene = TouchDispatchScene(withGestureRecognizers: scenario == "touch-down-gestures", throughAllViews: true)
    microseconds = stepwise(iterations, { scene.touchDown(timestamp: 1) }, after: { scene.lift() })
    precondition(scene.landed == iterations && (scenario == "touch-down" || scene.recognized == iterations), "the touches did not arrive")
case "memcpy":
    let copy = FrameMemcpy()
    microseconds = measured(iterations) { copy.copy() }
case "hit-window":
    let scene = HitTestScene(kind: .frontmostWindow)
    microseconds = measured(iterations) { _ = scene.hitTestFrontmostWindow() }
case "hit-grid-build":
    // What a grid costs to make: before each hit test a subview of the frontmost window moves by half a
    // point and back (away from the touch), so the window's grid of 100 frames is made again each time.
    let scene = HitTestScene(kind: .frontmostWindow)
    let moved = scene.windows.last!.subviews.last!
    var offset = 0.5
    microseconds = measured(iterations) {
        moved.center.x += offset
        offset = -offset
        precondition(scene.hitTest()?.1 === scene.expectedView)
    }
default:
    let kind: HitTestScene.Kind =
        switch scenario {
        case "hit-frontmost": .frontmostWindow
        case "hit-non-interactive": .throughNonInteractiveWindows
        default: .throughPassThroughWindows
        }
    let scene = HitTestScene(kind: kind)
    microseconds = measured(iterations) { _ = scene.hitTest() }
}
print(String(format: "%@: %.3f µs per iteration (mean of %d)", scenario, microseconds, iterations))
