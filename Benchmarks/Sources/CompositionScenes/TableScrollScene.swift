import CPixmanBaseline
import KioskKit
import KioskTesting

/// The momentum-frame benchmark (issue 14): a full-screen 1920x1080 `TableView` of 10,000 rows of 44 pt
/// `TableViewCell`s with text in `textLabel`. One iteration moves the content by a few points, as one frame
/// of momentum does, and composes the frame. The offsets alternate between 0 and 4: rows 0...24 are in view
/// at both (row 24 spans 1056-1100, row 25 starts at 1100, below 1080 + 4), so no row comes into view, no
/// cell is reused or redrawn, and the frame only moves what is there: each cell's white and separator
/// (views of one colour, filled) and each label's text (its cache cropped to the text, OVER), 25 of each,
/// the cells covering the screen.
public enum TableScroll {
    public static let rowCount = 10_000
    public static let rowHeight = 44.0
    /// The content offsets (y) the frames alternate between; the scene starts at the first.
    public static let offsets: [Double] = [0, 4]
    /// The rows in view at every offset of `offsets`.
    public static let visibleRows = 0..<25

    /// The text of a row (Latin and CJK, as the kiosk's lists).
    public static func text(row: Int) -> String {
        "Ticket A \(row + 1) · Schalter \(row % 12 + 1) · 窗口 \(row % 12 + 1)"
    }

    /// The offset of the `step`th frame (step 0: the scene as made).
    public static func offset(step: Int) -> Double { offsets[step % offsets.count] }
}

/// A table cell that counts its draws: scrolling must move cached content, never redraw it.
@MainActor
final class CountingCell: TableViewCell {
    private(set) var drawCount = 0

    override func draw(_ rect: Rect) {
        drawCount += 1
        super.draw(rect)
    }
}

/// The table's rows: `TableScroll.rowCount` of them, each a `CountingCell` with its text in `textLabel`.
@MainActor
final class TableScrollRows: TableViewDataSource {
    static let identifier = "row"

    func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { TableScroll.rowCount }

    func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: Self.identifier, for: indexPath)
        cell.textLabel.text = TableScroll.text(row: indexPath.row)
        return cell
    }
}

/// Ours: a full-screen window holding the table view, through the real `Compositor` on the scene's
/// 1920x1080@60 in-memory screen and `SingleBufferOutput` (as `CompositionScene`). The first frame lays the
/// rows out and draws every cache once; each measured frame sets `contentOffset.y` and calls
/// `composePendingFrames()`. Every cell and label moves, so each frame's damage is the whole screen; the
/// cells cover it and are opaque, so the table's own white fill and the black background are culled.
@MainActor
public final class TableScrollScene {
    public let backend = InMemoryDisplayBackend()
    public let screen: Screen
    public let output: SingleBufferOutput
    public let compositor: Compositor
    public let window: Window
    public let tableView: TableView
    private let rows = TableScrollRows()
    private var step = 0

    /// `scanoutOutput` makes the output behave as DRM's (shadow + copy) instead of headless (in place).
    public init(scanoutOutput: Bool = false) {
        screen = SceneGeometry.connectScreen(on: backend)
        (output, compositor) = SceneGeometry.makeOutput(scanoutOutput: scanoutOutput)

        window = Window(screen: screen)
        window.identifier = "table"
        tableView = TableView(frame: SceneGeometry.screenRect)
        tableView.register(CountingCell.self, forCellReuseIdentifier: TableScrollRows.identifier)
        tableView.dataSource = rows
        window.addSubview(tableView)
        window.makeKeyAndVisible()

        // The first frame lays out the rows in view and draws each cache once (buffer age 0).
        tableView.contentOffset.y = TableScroll.offset(step: 0)
        compositor.composePendingFrames()
        precondition(output.presentedFrames == 1 && output.lastAge == 0, "the scene's first frame was not presented")
        precondition(output.lastDamage == Region(fullScreen), "the scene's first frame was not a full frame")
        // Adding the cells during that frame's layout asked for another: nothing changed, nothing is painted.
        compositor.composePendingFrames()
        precondition(output.presentedFrames == 1, "a frame after the first had damage")
        precondition(tableView.indexPathsForVisibleRows == expectedRows, "the rows in view are not \(TableScroll.visibleRows)")
        precondition(tableView.cellCount == TableScroll.visibleRows.count, "cells held beyond the rows in view")
        precondition(!contentWasRedrawn, "the first frame did not draw each cell once")
    }

    public var fullScreen: PixelRect {
        PixelRect(x: 0, y: 0, width: Int32(SceneGeometry.width), height: Int32(SceneGeometry.height))
    }

    private var expectedRows: [IndexPath] { TableScroll.visibleRows.map { IndexPath(row: $0, section: 0) } }

    // MARK: The measured operation

    /// One momentum frame: the content offset moved to the next of `TableScroll.offsets`, then
    /// `composePendingFrames()` (the layout keeps the same rows; the output presents the frame and calls
    /// `framePresented` at once, as a flip that lands).
    public func composeNextFrame() {
        step += 1
        tableView.contentOffset.y = TableScroll.offset(step: step)
        compositor.composePendingFrames()
    }

    // MARK: What the benchmarks check

    /// Prepares the output to check every following frame against `damage` (age 1).
    public func expectFrames(damage: Region?) {
        output.expectedDamage = damage
    }

    /// Whether a cell was made, reused or drawn again since the scene's first frame, or the rows in view
    /// changed (none may: the frames move cached content only).
    public var contentWasRedrawn: Bool {
        tableView.cellCount != TableScroll.visibleRows.count || tableView.indexPathsForVisibleRows != expectedRows
            || tableView.visibleCells.contains { ($0 as? CountingCell)?.drawCount != 1 }
    }

    /// One more frame (not measured), checking first that no view the frame paints waits for `draw(_:)`:
    /// the compositor redraws a cache only for a dirty view (a resize makes it dirty too) or one never
    /// drawn, and labels cannot count their draws as the cells do (`textLabel` is a plain `Label`). False
    /// when something was or would have been redrawn.
    public func composeCheckedFrame() -> Bool {
        let clean =
            tableView.dirtyRect.isNull
            && tableView.visibleCells.allSatisfy { cell in
                cell.dirtyRect.isNull && cell.contentView.dirtyRect.isNull && cell.textLabel.dirtyRect.isNull
            }
        composeNextFrame()
        return clean && !contentWasRedrawn
    }
}

/// Raw pixman compositing what the compositor composites for the same frame: per row in view (25), the
/// cell's white background filled over its 1920x44 and its separator's grey over its 1904x1
/// (`pixman_image_fill_boxes`, `PIXMAN_OP_SRC`: a cell and its separator are views of one colour, which
/// the compositor fills without a bitmap), then the label's text with `PIXMAN_OP_OVER` from a bitmap of the
/// box around it (the compositor crops a label's cache to what its `draw(_:)` marks: 248-281x16 of
/// 1888x44), at the same positions (clipped to the screen: row 0 starts 4 px above it at offset 4, row 24
/// ends 16-20 px below it), back to front in the compositor's order (the table inserts each new cell at
/// the back, so row 24 comes first), into an x8r8g8b8 1920x1080 image. The text is drawn by the same code
/// (a real `TableViewCell` per row laid out at the table's width, its `textLabel`'s `draw(_:)`), recorded
/// and replayed into its box as the compositor does (`PixelBuffer.cropped`). The scanout variant adds one
/// SRC copy of the image into a second one.
public final class TableScrollBaseline {
    /// A rectangle of one colour in a cell, in the cell's pixels.
    private struct Fill {
        let x: Int32, y: Int32, width: Int32, height: Int32
        let color: pixman_color_t
    }

    private struct Row {
        /// The cell's background first, then its other views of one colour, back to front.
        let fills: [Fill]
        let label: PixelBuffer
        let labelImage: OpaquePointer
        /// Where the label's box sits in the cell.
        let labelOrigin: (x: Int32, y: Int32)
    }

    private let rows: [Row]
    private let shadow = PixelBuffer(width: SceneGeometry.width, height: SceneGeometry.height)
    private let output = PixelBuffer(width: SceneGeometry.width, height: SceneGeometry.height)
    private let shadowImage: OpaquePointer
    private let outputImage: OpaquePointer
    private var step = 0

    @MainActor
    public init() {
        rows = TableScroll.visibleRows.map { row in
            let cell = TableViewCell(style: .default, reuseIdentifier: nil)
            cell.frame = Rect(x: 0, y: 0, width: SceneGeometry.screenRect.width, height: TableScroll.rowHeight)
            cell.textLabel.text = TableScroll.text(row: row)
            cell.layoutIfNeeded()
            // The cell's views of one colour (its background, the separator; the highlight is hidden), as
            // the compositor fills them: opaque colours, replaced (SRC).
            let filled = [cell] + cell.subviews.filter { !$0.isHidden && $0.backgroundColor != nil }
            let fills = filled.map { view in
                let frame = view === cell ? cell.bounds : view.frame
                return Fill(
                    x: Int32(frame.minX), y: Int32(frame.minY), width: Int32(frame.width), height: Int32(frame.height),
                    color: Self.pixmanColor(view.backgroundColor!))
            }
            let label = cell.textLabel
            // The label's text as the compositor caches it: recorded, then replayed into the box it marks.
            let (labelPixels, x, y) = PixelBuffer.cropped(width: Int(label.bounds.width), height: Int(label.bounds.height)) {
                Self.draw(label, in: $0, bounds: $1)
            }
            // The label's frame in the cell (its superview, the content view, fills the cell).
            return Row(
                fills: fills, label: labelPixels, labelImage: labelPixels.makeImage(PIXMAN_a8r8g8b8),
                labelOrigin: (Int32(label.frame.minX) + Int32(x), Int32(label.frame.minY) + Int32(y)))
        }
        shadowImage = shadow.makeImage(PIXMAN_x8r8g8b8)
        outputImage = output.makeImage(PIXMAN_x8r8g8b8)
    }

    deinit {
        for row in rows { pixman_image_unref(row.labelImage) }
        pixman_image_unref(shadowImage)
        pixman_image_unref(outputImage)
    }

    /// An opaque colour as the compositor fills it (`Color.premultipliedShorts`, cairo's rounding).
    private static func pixmanColor(_ color: Color) -> pixman_color_t {
        precondition(color.isOpaque, "the scene's cells are opaque")
        let c = color.premultipliedShorts
        return pixman_color_t(red: c.red, green: c.green, blue: c.blue, alpha: c.alpha)
    }

    @MainActor
    private static func draw(_ view: View, in context: DrawingContext, bounds: Rect) {
        let previous = DrawingContext.current
        DrawingContext.current = context
        view.draw(bounds)
        DrawingContext.current = previous
    }

    /// The next frame, at the same offsets as `TableScrollScene.composeNextFrame`.
    public func composeNextFrame() {
        step += 1
        compose(offset: TableScroll.offset(step: step))
    }

    /// The frame, then the whole image copied (pixman SRC) into a second x8r8g8b8 image: the pixman work
    /// of the frame on a scanout output, shadow plus copy.
    public func composeNextFrameAndCopy() {
        composeNextFrame()
        pixman_image_composite32(
            PIXMAN_OP_SRC, shadowImage, nil, outputImage, 0, 0, 0, 0, 0, 0,
            Int32(SceneGeometry.width), Int32(SceneGeometry.height))
    }

    /// The rows in view at content offset `offset`: per row, back to front, the cell's fills (SRC) and its
    /// label (OVER). Calls `pixman_image_fill_boxes` 49 times (row 24's separator is below the screen) and
    /// `pixman_image_composite32` 25 times.
    public func compose(offset: Double) {
        for row in TableScroll.visibleRows.reversed() {
            let top = Int32((Double(row) * TableScroll.rowHeight - offset).rounded())
            for fill in rows[row].fills {
                self.fill(fill.color, x: fill.x, y: top + fill.y, width: fill.width, height: fill.height)
            }
            let label = rows[row].label, origin = rows[row].labelOrigin
            composite(
                PIXMAN_OP_OVER, rows[row].labelImage, x: origin.x, y: top + origin.y, width: label.width, height: label.height)
        }
    }

    /// A rectangle with its top left at (`x`, `y`) filled with `color` (SRC), clipped to the screen.
    private func fill(_ color: pixman_color_t, x: Int32, y: Int32, width: Int32, height: Int32) {
        var box = pixman_box32_t(
            x1: max(x, 0), y1: max(y, 0), x2: min(x + width, Int32(SceneGeometry.width)),
            y2: min(y + height, Int32(SceneGeometry.height)))
        guard box.x2 > box.x1, box.y2 > box.y1 else { return }
        var color = color
        _ = pixman_image_fill_boxes(PIXMAN_OP_SRC, shadowImage, &color, 1, &box)
    }

    /// `image` (`width` x `height`) with its top left at (`x`, `y`), clipped to the screen.
    private func composite(_ op: pixman_op_t, _ image: OpaquePointer, x: Int32, y: Int32, width: Int, height: Int) {
        let left = max(x, 0), top = max(y, 0)
        let right = min(x + Int32(width), Int32(SceneGeometry.width)), bottom = min(y + Int32(height), Int32(SceneGeometry.height))
        guard right > left, bottom > top else { return }
        pixman_image_composite32(op, image, nil, shadowImage, left - x, top - y, 0, 0, left, top, right - left, bottom - top)
    }

    /// Black again (not measured): for the pixel check, which proves the rows cover the screen.
    public func clear() {
        shadow.data.initializeMemory(as: UInt8.self, repeating: 0, count: shadow.stride * shadow.height)
    }

    /// How many pixels of the composited image differ in colour from `frame` (XRGB, the same size).
    public func differingPixels(from frame: Bitmap) -> Int { shadow.differingPixels(from: frame) }
}
