import KioskTesting
import Testing

@testable import KioskKit

/// `PageControl` as UIPageControl: a tap beside the current dot moves one page (`.valueChanged`), the page
/// pinned to the pages, no dot for a single page when asked, its size, and its look.
@MainActor
@Suite(.serialized)
struct PageControlTests {
    @Test func aTapBesideTheCurrentDotMovesOnePage() {
        let bed = AnimationBed()
        let dots = PageControl(frame: Rect(x: 60, y: 100, width: 200, height: 26))
        dots.numberOfPages = 3
        bed.window.addSubview(dots)
        let sent = Recorded<Int>()
        dots.addAction(for: .valueChanged) { control in sent.values.append((control as! PageControl).currentPage) }
        func tap(_ x: Double, y: Double = 113) {
            let touch = bed.render.bed.touchDown(at: Point(x: x, y: y), time: bed.clock.now)
            bed.render.bed.touch(touch, .ended, time: bed.clock.now)
        }
        // The dots' centres are at 144, 160 and 176 on the screen.
        #expect(dots.dotCenter(0).x + 60 == 144 && dots.dotCenter(2).x + 60 == 176)
        tap(70)
        #expect(dots.currentPage == 0 && sent.values.isEmpty, "before the first page: nothing")
        tap(250)
        tap(165)
        tap(250)
        #expect(dots.currentPage == 2 && sent.values == [1, 2])
        tap(170, y: 134)
        #expect(dots.currentPage == 1, "the touch area reaches 44 points tall")
        dots.currentPage = 0
        #expect(sent.values == [1, 2, 1], "set: nothing sent")
    }

    @Test func thePageStaysAmongThePages() {
        _ = AnimationBed()
        let dots = PageControl()
        dots.numberOfPages = 5
        dots.currentPage = 9
        #expect(dots.currentPage == 4)
        dots.numberOfPages = 2
        #expect(dots.currentPage == 1)
        dots.currentPage = -3
        #expect(dots.currentPage == 0)
        #expect(dots.intrinsicContentSize == Size(width: 16 + 8 + 16, height: 26) && dots.size(forNumberOfPages: 0).width == 0)
        dots.hidesForSinglePage = true
        #expect(dots.showsDots)
        dots.numberOfPages = 1
        #expect(!dots.showsDots && !dots.isHidden, "the dots go; the view's isHidden stays the app's")
        dots.hidesForSinglePage = false
        #expect(dots.showsDots)
    }

    @Test func theLook() throws {
        let r = RenderBed(width: 200, height: 60)
        let window = r.bed.window("main")
        window.backgroundColor = .white
        let plain = PageControl(frame: Rect(x: 0, y: 2, width: 200, height: 26))
        plain.numberOfPages = 5
        plain.currentPage = 1
        let tinted = PageControl(frame: Rect(x: 0, y: 30, width: 200, height: 26))
        tinted.numberOfPages = 3
        tinted.currentPage = 2
        tinted.currentPageIndicatorTintColor = Color(rgb: 0x0A84FF)
        for dots in [plain, tinted] { window.addSubview(dots) }
        try expectGolden(r.render(), named: "page-controls")
    }
}
