import Testing

@testable import KioskKit

/// A controller that writes its appearance calls into a shared log as `"<name> <call>"`.
@MainActor
final class RecordingController: ViewController {
    let name: String
    let log: Recorded<String>
    init(_ name: String, _ log: Recorded<String>) {
        self.name = name
        self.log = log
        super.init()
    }
    override func viewWillAppear(_ animated: Bool) { log.values.append("\(name) willAppear") }
    override func viewDidAppear(_ animated: Bool) { log.values.append("\(name) didAppear") }
    override func viewWillDisappear(_ animated: Bool) { log.values.append("\(name) willDisappear") }
    override func viewDidDisappear(_ animated: Bool) { log.values.append("\(name) didDisappear") }
    func take() -> [String] {
        defer { log.values = [] }
        return log.values
    }
}

/// `present(_:animated:completion:)` and `dismiss`: where the presented views go, the appearance calls in
/// order as event tables, the styles, the transitions on the frame clock, and what is refused.
@MainActor @Suite(.serialized)
struct PresentationTests {
    /// A shown window whose root is `a`, on the animation bed's 320x240 screen.
    static func bed() -> (AnimationBed, RecordingController, Recorded<String>) {
        let animation = AnimationBed()
        let log = Recorded<String>()
        let root = RecordingController("A", log)
        animation.window.rootViewController = root
        log.values = []
        return (animation, root, log)
    }

    @Test func aFullScreenPresentationCoversThePresenterAndGivesItBack() {
        let (bed, a, log) = Self.bed()
        let b = RecordingController("B", log)
        var completions: [String] = []
        a.present(b, animated: false) { completions.append("presented") }
        #expect(log.values == ["A willDisappear", "B willAppear", "A didDisappear", "B didAppear"])
        #expect(completions == ["presented"])
        #expect(a.presentedViewController === b && b.presentingViewController === a && a.presentingViewController == nil)
        #expect(b.view.window === bed.window && b.view.frame == bed.window.bounds && a.view.isHidden)
        log.values = []
        b.dismiss(animated: false) { completions.append("dismissed") }
        #expect(log.values == ["B willDisappear", "A willAppear", "B didDisappear", "A didAppear"])
        #expect(completions == ["presented", "dismissed"])
        #expect(a.presentedViewController == nil && b.presentingViewController == nil && b.view.window == nil && !a.view.isHidden)
    }

    /// Up from the bottom on the frame clock, taking no touches on the way; the completion once it is in.
    @Test func coverVerticalComesUpOnTheFrameClock() {
        let (bed, a, log) = Self.bed()
        let b = RecordingController("B", log)
        b.view.backgroundColor = .blue
        var presented = false
        a.present(b, animated: true) { presented = true }
        #expect(log.values == ["A willDisappear", "B willAppear"] && b.isBeingPresented)
        #expect(b.view.frame.minY == 0 && b.view.presentationFrame.minY == 240)
        #expect(bed.render.bed.app.hitTest(Point(x: 100, y: 100), on: bed.screen)?.1 !== b.view)
        bed.advance(by: ViewController.presentationDuration / 2)
        let halfway = b.view.presentationFrame.minY
        #expect(halfway > 0 && halfway < 240 && !presented)
        bed.advance(by: ViewController.presentationDuration)
        #expect(presented && !b.isBeingPresented && b.view.presentationFrame.minY == 0)
        #expect(log.values == ["A willDisappear", "B willAppear", "A didDisappear", "B didAppear"])
        log.values = []
        b.dismiss(animated: true)
        #expect(b.isBeingDismissed && !a.view.isHidden)
        bed.advance(by: 1)
        #expect(log.values == ["B willDisappear", "A willAppear", "B didDisappear", "A didAppear"] && b.view.window == nil)
    }

    @Test func crossDissolveFades() {
        let (bed, a, _) = Self.bed()
        let b = ViewController()
        b.modalTransitionStyle = .crossDissolve
        a.present(b, animated: true)
        bed.advance(by: ViewController.presentationDuration / 2)
        #expect(b.view.presentationAlpha > 0 && b.view.presentationAlpha < 1 && b.view.presentationFrame.minY == 0)
        bed.advance(by: 1)
        #expect(b.view.presentationAlpha == 1)
    }

    /// A form sheet is a card centred over a dimmed window; the presenter stays in sight and hears nothing.
    @Test func aFormSheetIsACardAndThePresenterStays() {
        let bed = TestBed()
        let window = bed.window("main")
        let log = Recorded<String>()
        let a = RecordingController("A", log)
        window.rootViewController = a
        log.values = []
        let b = RecordingController("B", log)
        b.modalPresentationStyle = .formSheet
        a.present(b, animated: false)
        #expect(log.values == ["B willAppear", "B didAppear"] && !a.view.isHidden)
        #expect(b.view.frame.short == "690 230 540 620" && b.view.cornerRadius == 10)
        let container = try! #require(b.view.superview as? PresentationContainer)
        #expect(container.dimming?.frame == window.bounds && container.dimming?.backgroundColor == Color(white: 0, alpha: 0.4))
        // The card asks for its own size; a window too small keeps it 20 points inside.
        b.preferredContentSize = Size(width: 3000, height: 300)
        #expect(b.view.frame.short == "20 390 1880 300")
        log.values = []
        a.dismiss(animated: false)
        #expect(log.values == ["B willDisappear", "B didDisappear"])
    }

    @Test func overFullScreenKeepsThePresenterInSight() {
        let (_, a, log) = Self.bed()
        let b = RecordingController("B", log)
        b.modalPresentationStyle = .overFullScreen
        a.present(b, animated: false)
        #expect(log.values == ["B willAppear", "B didAppear"] && !a.view.isHidden)
    }

    /// A child presents through its outermost container; dismissing a presenter takes everything it
    /// presents, the ones above at once.
    @Test func presentingFromAChildAndDismissingAChain() {
        let (_, a, log) = Self.bed()
        let child = ViewController()
        a.addChild(child)
        a.view.addSubview(child.view)
        child.didMove(toParent: a)
        let b = RecordingController("B", log)
        let c = RecordingController("C", log)
        child.present(b, animated: false)
        #expect(b.presentingViewController === a && a.presentedViewController === b)
        b.present(c, animated: false)
        #expect(c.presentingViewController === b)
        log.values = []
        a.dismiss(animated: false)
        #expect(
            log.values == [
                "C willDisappear", "B willAppear", "C didDisappear", "B didAppear", "B willDisappear", "A willAppear", "B didDisappear",
                "A didAppear",
            ])
        #expect(a.presentedViewController == nil && b.presentedViewController == nil && c.view.window == nil)
    }

    /// A navigation controller's visible controller is one presented over it, else its top one.
    @Test func theVisibleControllerOfANavigationControllerIsOnePresentedOverIt() {
        let bed = AnimationBed()
        let top = ViewController()
        let navigation = NavigationController(rootViewController: top)
        bed.window.rootViewController = navigation
        #expect(navigation.visibleViewController === top)
        let sheet = ViewController()
        top.present(sheet, animated: false)
        #expect(navigation.presentedViewController === sheet && navigation.visibleViewController === sheet)
        sheet.dismiss(animated: false)
        #expect(navigation.visibleViewController === top)
    }

    /// What UIKit warns about and ignores: nothing happens, and nothing is left half done.
    @Test func refusedPresentations() {
        let (_, a, log) = Self.bed()
        let b = RecordingController("B", log)
        a.present(b, animated: false)
        log.values = []
        let c = ViewController()
        a.present(c, animated: false)
        #expect(a.presentedViewController === b && c.presentingViewController == nil)
        b.present(b, animated: false)
        let loose = ViewController()
        loose.present(ViewController(), animated: false)
        #expect(loose.presentedViewController == nil)
        var ran = false
        loose.dismiss(animated: false) { ran = true }
        #expect(ran && log.values.isEmpty)
    }
}
