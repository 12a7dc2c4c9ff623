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
    "hit-frontmost", "hit-non-interactive", "hit-pass-through", "hit-window", "scale-up", "pixman-scale-up",
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
    if arguments.count >= 3 {
        let path = arguments[2] + "/composition-frame.png"
        try scene.output.buffer.writePNG(to: path)
        try scaleUp.shadow.writePNG(to: arguments[2] + "/scale-up-last-frame.png")
        print("wrote \(path) and scale-up-last-frame.png")
    }
    exit(differing == 0 && scaleUpLargest <= 3 ? 0 : 1)
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
case "memcpy":
    let copy = FrameMemcpy()
    microseconds = measured(iterations) { copy.copy() }
case "hit-window":
    let scene = HitTestScene(kind: .frontmostWindow)
    microseconds = measured(iterations) { _ = scene.hitTestFrontmostWindow() }
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
