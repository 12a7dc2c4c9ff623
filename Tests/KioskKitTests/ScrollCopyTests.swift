import Testing

@testable import KioskKit

/// A scroll moves the pixels that stay in view instead of compositing them again: every frame must be
/// what a full composition gives. The same scripted session runs twice, with and without scroll copies,
/// on each kind of output, and every frame is compared pixel for pixel.
@MainActor
struct ScrollCopyTests {
    final class Rows: TableViewDataSource {
        var prefix = "Row"
        func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { 200 }
        func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
            let cell = tableView.dequeueReusableCell(withIdentifier: "row") ?? TableViewCell(style: .value1, reuseIdentifier: "row")
            cell.textLabel.text = "\(prefix) \(indexPath.row)"
            cell.detailTextLabel?.text = "\(indexPath.row * 7 % 100)"
            return cell
        }
    }

    /// Runs the session; returns every frame presented and the area painted in all.
    private func session(copies: Bool, cachedMemory: Bool, buffers: Int, rotation: Rotation) -> (frames: [Bitmap], painted: Int) {
        let render = RenderBed(width: 320, height: 480, rotation: rotation, buffers: buffers, cachedMemory: cachedMemory)
        render.compositor.isScrollCopyEnabled = copies
        let window = Window(screen: Screen.main)
        window.backgroundColor = Color(rgb: 0xF2F2F7)
        window.makeKeyAndVisible()
        let rows = Rows()
        let table = TableView(frame: Rect(x: 10, y: 40, width: 280, height: 300))
        table.dataSource = rows
        window.addSubview(table)
        // A translucent window in front, over part of the table.
        let overlay = Window(frame: Rect(x: 150, y: 200, width: 150, height: 80))
        overlay.backgroundColor = Color(red: 1, green: 0, blue: 0, alpha: 0.4)
        overlay.windowLevel = .alert
        overlay.isHidden = false
        // A badge that leaves the table's content for the window as the table scrolls, and comes back.
        let badge = View(frame: Rect(x: 200, y: 60, width: 30, height: 30))
        badge.backgroundColor = Color(rgb: 0x00AA00)
        table.addSubview(badge)
        var frames: [Bitmap] = []
        var painted = 0
        let token = render.bed.app.instrumentation.observe { if case .painted(let region) = $0 { painted += region.area } }
        defer { token.cancel() }
        func frame() {
            let before = render.output.presented.count
            render.render()
            if render.output.presented.count > before {
                let last = render.output.lastFrame[render.screen.name]!
                let copy = Bitmap(width: last.width, height: last.height, format: .xrgb8888)
                copy.copy(from: last, rotation: .normal, region: Region(last.bounds))
                frames.append(copy)
            }
        }
        frame()
        for (step, y) in [4.0, 10, 54, 53, 300, 301, 1000, 990, -30, -12, 0, 2, 500, 480].enumerated() {
            table.contentOffset = Point(x: 0, y: y)
            if step == 5 { overlay.center.y += 25 }
            if step == 7 {
                // A row changes while scrolling: its cell is drawn again.
                rows.prefix = "Item"
                table.cellForRow(at: IndexPath(row: 24, section: 0))?.textLabel.text = "Changed"
            }
            if step == 9 { table.flashScrollIndicators() }
            if step == 10 {
                badge.removeFromSuperview()
                badge.frame = Rect(x: 295, y: 100, width: 20, height: 20)
                window.addSubview(badge)
            }
            if step == 12 {
                badge.removeFromSuperview()
                badge.frame = Rect(x: 200, y: 560, width: 30, height: 30)
                table.addSubview(badge)
            }
            frame()
        }
        return (frames, painted)
    }

    @Test(arguments: [(true, 1, Rotation.normal), (true, 2, Rotation.normal), (false, 2, Rotation.normal), (false, 3, Rotation.rotated90)])
    func everyFrameIsTheFullComposition(cachedMemory: Bool, buffers: Int, rotation: Rotation) {
        let copied = session(copies: true, cachedMemory: cachedMemory, buffers: buffers, rotation: rotation)
        let painted = session(copies: false, cachedMemory: cachedMemory, buffers: buffers, rotation: rotation)
        #expect(copied.frames.count == painted.frames.count && copied.frames.count == 15)
        // The copies did their part: much less was composited (the first frame, the jumps larger than the
        // table and what is in front of it are painted as before; about half, measured, in this session).
        #expect(Double(copied.painted) < Double(painted.painted) * 0.6, "\(copied.painted) vs \(painted.painted) pixels painted")
        for (index, (a, b)) in zip(copied.frames, painted.frames).enumerated() {
            #expect(samePixels(a, b), "frame \(index) differs")
        }
    }

    /// A view that leaves a scroll view's content for the window in the frame of a scroll shows where it
    /// went, and one that joins the content leaves nothing where it was (the copy's plan had taken both
    /// as content, damaged only inside the scroll view, and the main pass skipped them).
    @Test func aViewLeavingOrJoiningTheContentDuringAScrollIsPainted() {
        for copies in [true, false] {
            let r = RenderBed()
            r.compositor.isScrollCopyEnabled = copies
            let main = r.bed.window("main")
            main.backgroundColor = .white
            let scroll = ScrollView(frame: Rect(x: 0, y: 0, width: 160, height: 240))
            scroll.backgroundColor = .white
            scroll.contentSize = Size(width: 160, height: 1000)
            scroll.showsVerticalScrollIndicator = false
            let item = View(frame: Rect(x: 10, y: 10, width: 40, height: 40))
            item.backgroundColor = .red
            scroll.addSubview(item)
            main.addSubview(scroll)
            r.render()
            scroll.contentOffset = Point(x: 0, y: 20)
            item.removeFromSuperview()
            item.frame = Rect(x: 200, y: 100, width: 40, height: 40)
            main.addSubview(item)
            var frame = r.render()
            #expect(rgb(frame, 220, 120) == 0xFF0000, "copies \(copies)")
            scroll.contentOffset = Point(x: 0, y: 40)
            item.removeFromSuperview()
            item.frame = Rect(x: 10, y: 100, width: 40, height: 40)
            scroll.addSubview(item)
            frame = r.render()
            #expect(rgb(frame, 220, 120) == 0xFFFFFF, "copies \(copies)")
            #expect(rgb(frame, 20, 70) == 0xFF0000, "copies \(copies)")
        }
    }

    @Test func aSmallScrollPaintsOnlyTheStripThatCameIntoView() {
        let render = RenderBed(width: 320, height: 480, cachedMemory: true)
        let window = Window(screen: Screen.main)
        window.makeKeyAndVisible()
        let rows = Rows()
        let table = TableView(frame: window.bounds)
        table.dataSource = rows
        table.showsVerticalScrollIndicator = false
        window.addSubview(table)
        render.render()
        var painted: [Region] = []
        let token = render.bed.app.instrumentation.observe { if case .painted(let region) = $0 { painted.append(region) } }
        defer { token.cancel() }
        table.contentOffset = Point(x: 0, y: 4)
        render.render()
        // The 4 rows of pixels at the bottom, nothing else (row 10 was already partly in view).
        #expect(painted.map(\.extents) == [PixelRect(x: 0, y: 476, width: 320, height: 4)])
        #expect(render.output.presented.last!.damage.extents == PixelRect(x: 0, y: 0, width: 320, height: 480))
    }
}
