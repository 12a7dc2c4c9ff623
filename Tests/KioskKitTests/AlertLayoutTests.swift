import Testing

@testable import KioskKit

/// Where an alert's views go, by frames in its window: the card's size and place, the two-button row,
/// the list of buttons, an action sheet's cards, the card above the keyboard; and golden images.
@MainActor @Suite(.serialized)
struct AlertLayoutTests {
    /// `view`'s frame in its window.
    func frame(_ view: View) -> Rect { view.convert(view.bounds, to: nil) }

    @Test func anAlertIsA270PointCardCentredWithTwoButtonsSideBySide() {
        let bed = AlertBed()
        let alert = AlertController(title: "Checked in", message: "Your room is 12.", preferredStyle: .alert)
        alert.addAction(AlertAction(title: "OK", style: .default))
        alert.addAction(AlertAction(title: "Cancel", style: .cancel))
        bed.show(alert)
        let view = alert.alertView
        #expect(view.backdrop.frame == bed.animation.window.bounds && view.backdrop.backgroundColor == Color(white: 0, alpha: 0.4))
        #expect(view.card.backgroundColor == .white && view.card.cornerRadius == 14)
        let card = frame(view.card)
        #expect(card.width == 270 && card.minX == 185 && abs(card.midY - 240) <= 0.5)
        let cancel = frame(alert.button("Cancel"))
        let ok = frame(alert.button("OK"))
        // The cancel action on the left, both 44 high along the card's bottom, a hairline between (the
        // 269 points left are shared as whole points: 135 and 134).
        #expect(cancel.minX == card.minX && ok.maxX == card.maxX && abs(cancel.width - ok.width) <= 1 && ok.minX == cancel.maxX + 1)
        #expect(cancel.minY == ok.minY && cancel.height == 44 && ok.maxY == card.maxY)
        let title = frame(try! #require(view.card.subview(identified: "alert.title")))
        let message = frame(try! #require(view.card.subview(identified: "alert.message")))
        #expect(title.minY == card.minY + 20 && message.minY > title.maxY && cancel.minY == message.maxY + 21)
    }

    /// Three actions or more go one per row, the cancel action last.
    @Test func moreActionsGoOnePerRowCancelLast() {
        let bed = AlertBed()
        let alert = AlertController(title: "Room", message: nil, preferredStyle: .alert)
        for (title, style) in [("Cancel", AlertAction.Style.cancel), ("Single", .default), ("Double", .default)] {
            alert.addAction(AlertAction(title: title, style: style))
        }
        bed.show(alert)
        let card = frame(alert.alertView.card)
        let rows = ["Single", "Double", "Cancel"].map { frame(alert.button($0)) }
        #expect(rows.allSatisfy { $0.width == 270 && $0.minX == card.minX && $0.height == 44 })
        #expect(rows[1].minY == rows[0].maxY + 1 && rows[2].minY == rows[1].maxY + 1 && rows[2].maxY == card.maxY)
    }

    /// An action sheet: at the bottom, 400 wide at most and centred (else the window less 8 a side), the
    /// actions one per row, the cancel action in its own card below.
    @Test(arguments: [(640, 480, 120.0, 400.0), (320, 240, 8, 304)])
    func anActionSheetSitsAtTheBottom(width: Int, height: Int, x: Double, cardWidth: Double) {
        let bed = AlertBed(width: width, height: height)
        let sheet = AlertController(title: nil, message: "Choose a room", preferredStyle: .actionSheet)
        sheet.addAction(AlertAction(title: "Cancel", style: .cancel))
        sheet.addAction(AlertAction(title: "Single", style: .default))
        sheet.addAction(AlertAction(title: "Double", style: .default))
        bed.show(sheet)
        let view = sheet.alertView
        let card = frame(view.card)
        let cancelCard = frame(try! #require(view.cancelCard))
        #expect(card.minX == x && card.width == cardWidth && cancelCard.minX == x && cancelCard.width == cardWidth)
        #expect(cancelCard.maxY == Double(height) - 8 && card.maxY == cancelCard.minY - 8)
        let single = frame(sheet.button("Single"))
        let double = frame(sheet.button("Double"))
        #expect(single.height == 57 && double.minY == single.maxY + 1 && double.maxY == card.maxY && single.width == cardWidth)
        #expect(frame(sheet.button("Cancel")) == cancelCard)
    }

    /// A 640x480 screen with the on-screen keyboard, and a key window whose root presents.
    static func keyboardBed() -> (TextBed, Window, ViewController) {
        let text = TextBed(width: 640, height: 480)
        let window = Window(screen: Screen.main)
        let root = ViewController()
        window.rootViewController = root
        window.makeKeyAndVisible()
        return (text, window, root)
    }

    /// With a text field, the first field takes the keyboard once the alert is in, and the card moves
    /// above the keyboard; Return runs the preferred action, once the alert is gone.
    @Test func theCardMovesAboveTheKeyboardAndReturnRunsThePreferredAction() {
        let (text, window, root) = Self.keyboardBed()
        let alert = AlertController(title: "Booking code", message: "On your confirmation", preferredStyle: .alert)
        var calls: [String] = []
        alert.addTextField {
            $0.placeholder = "Code"
            $0.autocapitalizationType = .none
        }
        alert.addTextField { $0.isSecureTextEntry = true }
        let check = AlertAction(title: "Check in", style: .default) { _ in calls.append("check in \(alert.textFields![0].text)") }
        alert.addAction(AlertAction(title: "Cancel", style: .cancel) { _ in calls.append("cancel") })
        alert.addAction(check)
        alert.preferredAction = check
        root.present(alert, animated: true)
        text.settle()
        let field = alert.textFields![0]
        #expect(field.isFirstResponder)
        text.tap(field)
        text.settle()
        let keyboard = try! #require(text.keyboardWindow)
        let card = alert.alertView.card
        #expect(!keyboard.isHidden && card.frame.maxY == keyboard.frame.minY - 8 && card.presentationFrame == card.frame)
        #expect(card.frame.minX == 185 && card.frame.midY < 240)
        text.tapKeys(["key.a", "key.b"])
        text.tapKeys(["key.return"])
        #expect(calls.isEmpty && alert.isBeingDismissed)
        text.settle()
        #expect(calls == ["check in ab"] && root.presentedViewController == nil && window.isKeyWindow)
    }

    /// Return does nothing while the preferred action is disabled; the field keeps the keyboard.
    @Test func returnWithADisabledActionDoesNothing() {
        let (text, _, root) = Self.keyboardBed()
        let alert = AlertController(title: "Code", message: nil, preferredStyle: .alert)
        alert.addTextField()
        let ok = AlertAction(title: "OK", style: .default)
        ok.isEnabled = false
        alert.addAction(ok)
        root.present(alert, animated: false)
        text.settle()
        text.tapKeys(["key.return"])
        text.settle()
        #expect(!alert.isBeingDismissed && alert.textFields![0].isFirstResponder && text.keyboardWindow?.isHidden == false)
    }

    // MARK: Golden images

    private func image(_ bed: AlertBed) -> Bitmap {
        bed.animation.render.render()
        return bed.animation.frame()
    }

    @Test func goldenAlertWithTwoActions() throws {
        let bed = AlertBed()
        let alert = AlertController(title: "Checked in", message: "Your room is 12, on the first floor.", preferredStyle: .alert)
        alert.addAction(AlertAction(title: "Cancel", style: .cancel))
        alert.addAction(AlertAction(title: "Key card", style: .default))
        bed.show(alert)
        try expectGolden(image(bed), named: "alert-two-actions")
    }

    @Test func goldenActionSheet() throws {
        let bed = AlertBed()
        let sheet = AlertController(title: "Room", message: "Choose a room type", preferredStyle: .actionSheet)
        sheet.addAction(AlertAction(title: "Single", style: .default))
        sheet.addAction(AlertAction(title: "Double", style: .default))
        sheet.addAction(AlertAction(title: "Release booking", style: .destructive))
        sheet.addAction(AlertAction(title: "Cancel", style: .cancel))
        bed.show(sheet)
        try expectGolden(image(bed), named: "alert-action-sheet")
    }

    @Test func goldenAlertWithATextFieldAboveTheKeyboard() throws {
        let (text, window, root) = Self.keyboardBed()
        window.backgroundColor = Color(rgb: 0xF2F2F7)
        window.isOpaque = true
        let alert = AlertController(title: "Booking code", message: "It is on your confirmation.", preferredStyle: .alert)
        alert.addTextField {
            $0.placeholder = "Code"
            $0.autocapitalizationType = .none
        }
        alert.addAction(AlertAction(title: "Cancel", style: .cancel))
        alert.addAction(AlertAction(title: "Check in", style: .default))
        root.present(alert, animated: true)
        text.settle()
        text.tapKeys(["key.k", "key.e", "key.y"])
        // Past the caret's blink: it shows (a whole number of periods since the last edit).
        text.clock.advance(by: 1)
        text.compositor.composePendingFrames()
        try expectGolden(text.output.lastFrame[Screen.main.name]!, named: "alert-text-field-keyboard")
    }
}

extension View {
    /// The first view below this one with `identifier`.
    func subview(identified identifier: String) -> View? {
        for view in subviews {
            if view.identifier == identifier { return view }
            if let found = view.subview(identified: identifier) { return found }
        }
        return nil
    }
}
