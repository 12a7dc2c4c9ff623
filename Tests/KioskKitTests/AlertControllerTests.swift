import Testing

@testable import KioskKit

/// A 640x480 animation bed whose key window "main" has a root controller to present from.
@MainActor
struct AlertBed {
    let animation: AnimationBed
    let root = ViewController()

    init(width: Int = 640, height: Int = 480) {
        animation = AnimationBed(width: width, height: height)
        animation.window.identifier = "main"
        animation.window.rootViewController = root
    }

    var test: TestBed { animation.render.bed }

    /// Presents `alert`, animated, and lets it come in.
    func show(_ alert: AlertController, animated: Bool = true) {
        root.present(alert, animated: animated)
        animation.advance(by: 1)
    }

    /// Taps the centre of `view` through `Application.sendEvent` (down, 60 ms, up).
    func tap(_ view: View) {
        let window = view.window!
        let point = window.convert(view.convert(Point(x: view.bounds.midX, y: view.bounds.midY), to: nil), to: nil as Window?)
        tap(at: point)
    }

    func tap(at point: Point) {
        let touch = test.touchDown(at: point, time: animation.clock.now)
        animation.advance(by: 0.06)
        test.touch(touch, .ended, time: animation.clock.now)
    }
}

extension AlertController {
    var alertView: AlertView { view as! AlertView }
    /// The button of the action titled `title`.
    func button(_ title: String) -> AlertButton { alertView.buttons.first { $0.action.title == title }! }
}

/// AlertController's rules and behaviour: the key window's order (reference 002), handlers after the
/// dismissal, disabled actions, the cancel rules, an action sheet's backdrop, refused input.
@MainActor @Suite(.serialized)
struct AlertControllerTests {
    /// Reference 002's order: the alert's window is shown, then becomes key (the main window resigning);
    /// on dismissal it resigns, the main window becomes key again, and only then is the alert's hidden.
    @Test(arguments: [AlertController.Style.alert, .actionSheet])
    func theKeyWindowGoesToTheAlertAndBack(style: AlertController.Style) {
        let bed = AlertBed()
        _ = bed.test.takeLog()
        let alert = AlertController(title: "Checked in", message: "Room 12", preferredStyle: style)
        alert.addAction(AlertAction(title: "OK", style: .default))
        bed.show(alert)
        #expect(
            bed.test.takeLog() == [
                "window.visible AlertController.window", "window.resign-key main", "window.key AlertController.window",
            ])
        let window = try! #require(alert.view.window)
        #expect(window.windowLevel == (style == .alert ? .alert : .alert + 1) && window.screen === bed.animation.screen)
        bed.tap(alert.button("OK"))
        bed.animation.advance(by: 1)
        #expect(
            bed.test.takeLog() == [
                "window.resign-key AlertController.window", "window.key main", "window.hidden AlertController.window",
            ])
        #expect(bed.animation.window.isKeyWindow && window.isHidden && bed.root.presentedViewController == nil)
    }

    /// The handler runs once the alert is gone (not as it goes, as UIKit), and once for a double tap.
    @Test func theHandlerRunsOnceAfterTheDismissal() {
        let bed = AlertBed()
        let alert = AlertController(title: "Delete?", message: nil, preferredStyle: .alert)
        var calls: [String] = []
        alert.addAction(
            AlertAction(title: "Delete", style: .destructive) { action in
                let gone = alert.view.window?.isHidden ?? true
                calls.append("\(action.title!) gone: \(gone) presented: \(bed.root.presentedViewController != nil)")
            })
        bed.show(alert)
        let button = alert.button("Delete")
        #expect(button.titleColor == AlertButton.destructiveColor)
        bed.tap(button)
        #expect(calls.isEmpty && alert.isBeingDismissed)
        // A second tap on the way out does nothing.
        alert.choose(alert.actions[0])
        bed.animation.advance(by: ViewController.presentationDuration / 2)
        #expect(calls.isEmpty && alert.alertView.card.presentationAlpha < 1)
        bed.animation.advance(by: 1)
        #expect(calls == ["Delete gone: true presented: false"])
        bed.animation.advance(by: 1)
        #expect(calls.count == 1)
    }

    /// A disabled action's button does nothing; enabled again, it works (the button follows at once).
    @Test func aDisabledActionDoesNothing() {
        let bed = AlertBed()
        let alert = AlertController(title: "Pay", message: nil, preferredStyle: .alert)
        var ran = 0
        let pay = AlertAction(title: "Pay", style: .default) { _ in ran += 1 }
        pay.isEnabled = false
        alert.addAction(pay)
        bed.show(alert)
        let button = alert.button("Pay")
        #expect(!button.isEnabled)
        bed.tap(button)
        bed.animation.advance(by: 1)
        #expect(ran == 0 && !alert.isBeingDismissed && alert.view.window?.isHidden == false)
        pay.isEnabled = true
        #expect(button.isEnabled)
        bed.tap(button)
        bed.animation.advance(by: 1)
        #expect(ran == 1)
    }

    /// One cancel action at most (a second is refused, UIKit raises); an action added twice is refused;
    /// the preferred action must be one of the actions; action sheets take no text fields.
    @Test func refusedInput() {
        let alert = AlertController(title: nil, message: nil, preferredStyle: .alert)
        let cancel = AlertAction(title: "Cancel", style: .cancel)
        alert.addAction(cancel)
        alert.addAction(AlertAction(title: "Close", style: .cancel))
        alert.addAction(cancel)
        #expect(alert.actions.map(\.title) == ["Cancel"])
        let ok = AlertAction(title: "OK", style: .default)
        alert.preferredAction = ok
        #expect(alert.preferredAction == nil)
        alert.addAction(ok)
        alert.preferredAction = ok
        #expect(alert.preferredAction === ok)
        #expect(alert.textFields == nil)
        alert.addTextField { $0.placeholder = "Code" }
        #expect(alert.textFields?.map(\.placeholder) == ["Code"])
        let sheet = AlertController(title: nil, message: nil, preferredStyle: .actionSheet)
        sheet.addTextField()
        #expect(sheet.textFields == nil)
    }

    /// The preferred action's title is bold; without one, the cancel action's.
    @Test func theBoldTitle() {
        let alert = AlertController(title: "T", message: nil, preferredStyle: .alert)
        let ok = AlertAction(title: "OK", style: .default)
        alert.addAction(AlertAction(title: "Cancel", style: .cancel))
        alert.addAction(ok)
        #expect(alert.button("Cancel").font.weight == .bold && alert.button("OK").font.weight == .regular)
        alert.preferredAction = ok
        #expect(alert.button("Cancel").font.weight == .regular && alert.button("OK").font.weight == .bold)
    }

    /// A tap beside an action sheet is its cancel action; beside an alert, or a sheet without a cancel
    /// action, nothing.
    @Test func theBackdropOfAnActionSheetCancels() {
        let bed = AlertBed()
        var calls: [String] = []
        let sheet = AlertController(title: nil, message: nil, preferredStyle: .actionSheet)
        sheet.addAction(AlertAction(title: "Room 1", style: .default) { _ in calls.append("room") })
        sheet.addAction(AlertAction(title: "Cancel", style: .cancel) { _ in calls.append("cancel") })
        bed.show(sheet)
        bed.tap(at: Point(x: 320, y: 20))
        #expect(calls.isEmpty && sheet.isBeingDismissed)
        bed.animation.advance(by: 1)
        #expect(calls == ["cancel"] && bed.root.presentedViewController == nil)

        for style in [AlertController.Style.alert, .actionSheet] {
            let alert = AlertController(title: "T", message: nil, preferredStyle: style)
            alert.addAction(AlertAction(title: "OK", style: style == .alert ? .cancel : .default) { _ in calls.append("ok") })
            bed.show(alert)
            bed.tap(at: Point(x: 20, y: 20))
            bed.animation.advance(by: 1)
            #expect(bed.root.presentedViewController === alert && !alert.isBeingDismissed)
            alert.dismiss(animated: false)
        }
        #expect(calls == ["cancel"])
    }

    /// An alert fades in from 1.2 times its size; an action sheet slides up; both on the frame clock.
    @Test func comingIn() {
        let bed = AlertBed()
        let alert = AlertController(title: "T", message: nil, preferredStyle: .alert)
        bed.root.present(alert, animated: true)
        let card = alert.alertView.card
        bed.animation.advance(by: ViewController.presentationDuration / 2)
        // Half way from 1.2 times its size, and faded in part.
        #expect(card.presentationAlpha > 0 && card.presentationAlpha < 1)
        #expect(card.presentationFrame.width > 270 && card.presentationFrame.width < 324)
        bed.animation.advance(by: 1)
        #expect(card.presentationAlpha == 1 && card.transform == .identity && alert.alertView.backdrop.presentationAlpha == 1)
        alert.dismiss(animated: false)

        let sheet = AlertController(title: "T", message: nil, preferredStyle: .actionSheet)
        sheet.addAction(AlertAction(title: "A", style: .default))
        bed.root.present(sheet, animated: true)
        bed.animation.advance(by: 0)
        let resting = sheet.alertView.card.frame
        bed.animation.advance(by: ViewController.presentationDuration / 2)
        let halfway = sheet.alertView.card.presentationFrame.minY
        // On its way up from a window's height below.
        #expect(halfway > resting.minY && halfway < resting.minY + 480)
        bed.animation.advance(by: 1)
        #expect(sheet.alertView.card.presentationFrame == resting)
    }

    /// The alert's appearance calls are its presentation's, as UIKit's: `viewDidAppear(true)` once it is in
    /// (not as its window shows), `viewDidDisappear(true)` once it is gone; `false` without animation. Its
    /// text field takes the keyboard as it comes in, not after.
    @Test func theAppearanceCallsFollowThePresentation() {
        let bed = AlertBed()
        var calls: [String] = []
        let token = bed.test.app.instrumentation.observe { event in
            if case .appearanceChanged(let controller, let appeared, let animated) = event, controller is AlertController {
                calls.append("\(appeared ? "appeared" : "disappeared") \(animated)")
            }
        }
        defer { token.cancel() }
        let alert = AlertController(title: "Name", message: nil, preferredStyle: .alert)
        alert.addTextField()
        alert.addAction(AlertAction(title: "OK", style: .default))
        bed.root.present(alert, animated: true)
        #expect(calls.isEmpty && alert.textFields?.first?.isFirstResponder == true)
        bed.animation.advance(by: ViewController.presentationDuration / 2)
        #expect(calls.isEmpty)
        bed.animation.advance(by: 1)
        #expect(calls == ["appeared true"])
        alert.dismiss(animated: true)
        bed.animation.advance(by: ViewController.presentationDuration / 2)
        #expect(calls == ["appeared true"])
        bed.animation.advance(by: 1)
        #expect(calls == ["appeared true", "disappeared true"] && alert.view.window == nil)
        bed.root.present(alert, animated: false)
        alert.dismiss(animated: false)
        #expect(calls.suffix(2) == ["appeared false", "disappeared false"])
    }
}
