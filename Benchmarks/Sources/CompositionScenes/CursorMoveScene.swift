@_spi(KioskRuntime) import KioskKit

/// The mouse cursor moving over the issue-4 scene (`CompositionScene`): a 16x16 ring in a system overlay
/// window that asks for the cursor plane, as the runtime's does. With `onCursorPlane` the output offers a
/// 64x64 ARGB cursor plane (virtio-gpu's): a move presents the plane at its new place and composes nothing;
/// without, each move composes the ring's old and new place (what every motion cost before planes).
@MainActor
public final class CursorMoveScene {
    public let scene: CompositionScene
    public let cursor: Window
    /// Moves so far.
    public private(set) var moves = 0

    final class Ring: View {
        override func draw(_ rect: Rect) {
            guard let context = DrawingContext.current else { return }
            context.fillEllipse(in: bounds, color: Color(white: 0, alpha: 0.8))
            context.fillEllipse(in: bounds.insetBy(dx: 2, dy: 2), color: .white)
            context.fillEllipse(in: bounds.insetBy(dx: 5, dy: 5), color: Color(white: 0, alpha: 0.8))
        }
    }

    public init(onCursorPlane: Bool) {
        scene = CompositionScene()
        if onCursorPlane {
            scene.output.cursorPlane = DisplayPlane(
                id: 33, kind: .cursor, formats: [.argb32Premultiplied], zOrder: 2,
                requiredSize: DisplayPlane.BufferSize(width: 64, height: 64))
        }
        cursor = Window(frame: Rect(x: 400, y: 200, width: 16, height: 16))
        cursor.isSystemOverlay = true
        cursor.isUserInteractionEnabled = false
        cursor.planePreference = .cursor
        cursor.addSubview(Ring(frame: cursor.bounds))
        cursor.isHidden = false
        scene.compositor.composePendingFrames()
    }

    /// Frames composed so far (a cursor on its plane composes none after the first).
    public var framesComposed: Int { scene.output.presentedFrames }
    public var planeMoves: Int { scene.output.planeMoves }

    /// The cursor moved by a pixel (right and down, then back), and the frame (or the plane) presented.
    public func move() {
        moves += 1
        let delta = moves % 2 == 1 ? 1.0 : -1.0
        cursor.frame.origin = Point(x: cursor.frame.origin.x + delta, y: cursor.frame.origin.y + delta)
        scene.compositor.composePendingFrames()
    }
}
