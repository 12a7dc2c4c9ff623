/// An alert controller's view, the whole of its window: a dimmed backdrop, and the card (UIKit's look,
/// by constraints). An alert's card is 270 points wide, centred in the safe area unless the keyboard
/// would cover it: its bottom stays 8 points above `keyboardLayoutGuide` (required) while its centre
/// wants the safe area's (high), so it slides with the keyboard. An action sheet's cards sit at the bottom
/// of the safe area, as wide as the window less 8 points a side and at most 400, centred; the cancel
/// action has a card of its own below the others.
@MainActor
final class AlertView: View {
    weak var controller: AlertController?
    let style: AlertController.Style
    let backdrop = AlertBackdrop()
    /// The card of the title, message, text fields and buttons.
    let card = View()
    /// An action sheet's card of the cancel button; nil for an alert.
    let cancelCard: View?
    /// What the cards hold, remade when the alert changes (AlertView+Contents.swift).
    var column: StackView?
    var cancelColumn: StackView?
    private(set) var buttons: [AlertButton] = []

    static let alertWidth: Double = 270
    static let sheetMaxWidth: Double = 400
    /// Between the cards and the edges, and between the two cards of a sheet.
    static let margin: Double = 8
    static let cornerRadius: Double = 14
    static let backdropColor = Color(white: 0, alpha: 0.4)

    init(controller: AlertController) {
        self.controller = controller
        style = controller.preferredStyle
        cancelCard = style == .actionSheet ? View() : nil
        super.init(frame: .zero)
        identifier = "alert"
        backdrop.identifier = "alert.backdrop"
        backdrop.backgroundColor = Self.backdropColor
        backdrop.onTap = { [weak self] in self?.backdropTapped() }
        addSubview(backdrop)
        for (index, card) in [card, cancelCard].compactMap({ $0 }).enumerated() {
            card.identifier = index == 0 ? "alert.card" : "alert.cancelCard"
            card.backgroundColor = .white
            card.cornerRadius = Self.cornerRadius
            card.clipsToBounds = true
            card.translatesAutoresizingMaskIntoConstraints = false
            addSubview(card)
        }
        backdrop.translatesAutoresizingMaskIntoConstraints = false
        LayoutConstraint.activate([
            backdrop.leadingAnchor.constraint(equalTo: leadingAnchor), backdrop.trailingAnchor.constraint(equalTo: trailingAnchor),
            backdrop.topAnchor.constraint(equalTo: topAnchor), backdrop.bottomAnchor.constraint(equalTo: bottomAnchor),
        ])
        if style == .alert { placeAlertCard() } else { placeSheetCards() }
        rebuild()
    }

    private func placeAlertCard() {
        let safe = safeAreaLayoutGuide
        let centre = card.centerYAnchor.constraint(equalTo: safe.centerYAnchor)
        centre.priority = .defaultHigh
        // Below the top of the safe area if it can, but the keyboard's edge comes first.
        let top = card.topAnchor.constraint(greaterThanOrEqualTo: safe.topAnchor, constant: Self.margin)
        top.priority = LayoutPriority(999)
        LayoutConstraint.activate([
            card.widthAnchor.constraint(equalToConstant: Self.alertWidth),
            card.centerXAnchor.constraint(equalTo: safe.centerXAnchor),
            centre, top,
            card.bottomAnchor.constraint(lessThanOrEqualTo: keyboardLayoutGuide.topAnchor, constant: -Self.margin),
        ])
    }

    private func placeSheetCards() {
        guard let cancelCard else { return }
        let safe = safeAreaLayoutGuide
        // As wide as the window less the margins, unless that is more than 400.
        let wide = card.widthAnchor.constraint(equalTo: widthAnchor, constant: -2 * Self.margin)
        wide.priority = LayoutPriority(999)
        LayoutConstraint.activate([
            card.centerXAnchor.constraint(equalTo: centerXAnchor), wide,
            card.widthAnchor.constraint(lessThanOrEqualToConstant: Self.sheetMaxWidth),
            card.leadingAnchor.constraint(greaterThanOrEqualTo: leadingAnchor, constant: Self.margin),
            card.topAnchor.constraint(greaterThanOrEqualTo: safe.topAnchor, constant: Self.margin),
            cancelCard.centerXAnchor.constraint(equalTo: card.centerXAnchor),
            cancelCard.widthAnchor.constraint(equalTo: card.widthAnchor),
            cancelCard.bottomAnchor.constraint(equalTo: safe.bottomAnchor, constant: -Self.margin),
        ])
        sheetGap = card.bottomAnchor.constraint(equalTo: cancelCard.topAnchor, constant: -Self.margin)
        sheetBottom = card.bottomAnchor.constraint(equalTo: safe.bottomAnchor, constant: -Self.margin)
    }

    /// An action sheet's main card above the cancel card, or at the bottom when there is no cancel action.
    private var sheetGap: LayoutConstraint?
    private var sheetBottom: LayoutConstraint?

    // MARK: Changes

    func textDidChange() { rebuild() }
    func actionsDidChange() { rebuild() }
    func fieldsDidChange() { rebuild() }

    func enabledDidChange(of action: AlertAction) {
        for button in buttons where button.action === action { button.isEnabled = action.isEnabled }
    }

    /// Makes the cards' contents again for the alert as it is now.
    func rebuild() {
        guard let controller else { return }
        let contents = AlertContents(controller: controller)
        column?.removeFromSuperview()
        cancelColumn?.removeFromSuperview()
        column = contents.column(in: card)
        buttons = contents.buttons
        if let cancelCard {
            let hasCancel = controller.cancelAction != nil
            cancelColumn = hasCancel ? contents.cancelColumn(in: cancelCard) : nil
            buttons += contents.cancelButtons
            cancelCard.isHidden = !hasCancel
            sheetGap?.isActive = hasCancel
            sheetBottom?.isActive = !hasCancel
            // A sheet of a cancel action alone shows its card only.
            card.isHidden = column == nil
        }
        for button in buttons {
            button.addAction(for: .touchUpInside) { [weak self] control in
                guard let button = control as? AlertButton else { return }
                self?.controller?.choose(button.action)
            }
        }
    }

    /// A tap on the backdrop: an action sheet's cancel action (a tap beside the sheet is UIKit's way out
    /// of it); nothing for an alert, which wants an answer.
    private func backdropTapped() {
        guard style == .actionSheet, let controller, let cancel = controller.cancelAction else { return }
        controller.choose(cancel)
    }

    // MARK: Coming and going

    /// At rest (`shown`) or out of sight: an alert fades in from 1.2 times its size and fades out; an
    /// action sheet slides up from below the window and back down. The backdrop fades with both.
    func setAppearance(shown: Bool, dismissing: Bool) {
        backdrop.alpha = shown ? 1 : 0
        let cards = [card, cancelCard].compactMap { $0 }
        switch style {
        case .alert:
            card.alpha = shown ? 1 : 0
            // UIKit's alert shrinks into place as it comes and only fades as it goes.
            card.transform = shown || dismissing ? .identity : AffineTransform(scaleX: 1.2, y: 1.2)
        case .actionSheet:
            let below = window?.bounds.height ?? bounds.height
            for card in cards { card.transform = shown ? .identity : AffineTransform(translationX: 0, y: below) }
        }
    }
}

/// The dimming behind an alert's card, which hears taps on it.
@MainActor
final class AlertBackdrop: View {
    var onTap: (@MainActor () -> Void)?

    // The backdrop takes the touches on it: none goes on to the window.
    override func touchesBegan(_ touches: Set<Touch>, with event: Event) {}
    override func touchesMoved(_ touches: Set<Touch>, with event: Event) {}
    override func touchesCancelled(_ touches: Set<Touch>, with event: Event) {}

    override func touchesEnded(_ touches: Set<Touch>, with event: Event) {
        guard let touch = touches.first, bounds.contains(touch.location(in: self)) else { return }
        onTap?()
    }
}
