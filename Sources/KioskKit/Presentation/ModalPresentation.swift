/// How a presented controller is shown (as `UIModalPresentationStyle`).
public enum ModalPresentationStyle: Int, Sendable {
    /// Over the whole window; the controllers under it disappear once it is in (their views are hidden).
    case fullScreen = 0
    /// A centred card over a dimmed window (UIKit's iPad form sheet): `preferredContentSize`, else 540 by
    /// 620 points, never closer than 20 points to the window's safe area. The views under it stay.
    case formSheet = 2
    /// Over the whole window, the views under it staying (for a presented view with see-through parts).
    case overFullScreen = 5
    /// What UIKit chooses: `fullScreen` here (a kiosk has no page sheets to pull down).
    case automatic = -2

    /// The style as laid out.
    var resolved: ModalPresentationStyle { self == .automatic ? .fullScreen : self }
    /// Whether the presenter's views are hidden, and it disappears, once the presented one is in.
    var coversPresenter: Bool { resolved == .fullScreen }
}

/// How a presented controller comes in and goes (as `UIModalTransitionStyle`).
public enum ModalTransitionStyle: Int, Sendable {
    /// Up from the bottom edge, and back down.
    case coverVertical = 0
    /// A fade.
    case crossDissolve = 2
}

/// A controller's place in a presentation: the one it presents (held), the one presenting it (not), and
/// the view it is shown in.
struct PresentationLinks {
    var presented: ViewController?
    weak var presenting: ViewController?
    /// The view holding the presented controller's view (and a form sheet's dimming) in the window.
    var container: PresentationContainer?
    /// The window of its own an alert is shown in while presented.
    var ownWindow: Window?
    /// Whether it is on its way in or out.
    var isBeingPresented = false
    var isBeingDismissed = false
}

/// The view a presentation puts in the presenter's window: the whole window, holding the presented
/// controller's view (as a card over a dimmed backdrop for a form sheet). It takes no touches while it
/// comes in or goes.
@MainActor
final class PresentationContainer: View {
    let style: ModalPresentationStyle
    /// A form sheet's dimming, behind the card; nil for the full-screen styles.
    let dimming: View?
    /// The presented controller's view (the card of a form sheet).
    let content: View
    /// The card's wanted size (the controller's `preferredContentSize`); the card follows a change.
    var preferredSize: Size {
        didSet { if preferredSize != oldValue { placeContent() } }
    }

    /// UIKit's form sheet: 540 by 620, with its corners rounded.
    static let formSheetSize = Size(width: 540, height: 620)

    init(presenting content: View, style: ModalPresentationStyle, preferredSize: Size, in window: Window) {
        self.style = style.resolved
        self.content = content
        self.preferredSize = preferredSize
        if self.style == .formSheet {
            let dimming = View(frame: Rect(size: window.bounds.size))
            dimming.identifier = "presentation.dimming"
            dimming.backgroundColor = Color(white: 0, alpha: 0.4)
            dimming.autoresizingMask = [.flexibleWidth, .flexibleHeight]
            self.dimming = dimming
        } else {
            dimming = nil
        }
        super.init(frame: Rect(size: window.bounds.size))
        identifier = "presentation"
        autoresizingMask = [.flexibleWidth, .flexibleHeight]
        if let dimming { addSubview(dimming) }
        if self.style == .formSheet {
            content.cornerRadius = 10
            content.clipsToBounds = true
        } else {
            content.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        }
        addSubview(content)
        placeContent()
    }

    /// Where the content rests: the whole container, or the card centred in the safe area.
    var restingFrame: Rect {
        guard style == .formSheet else { return Rect(size: bounds.size) }
        let safe = bounds.inset(by: safeAreaInsets).insetBy(dx: 20, dy: 20)
        let wanted = preferredSize.width > 0 && preferredSize.height > 0 ? preferredSize : Self.formSheetSize
        let size = Size(width: min(wanted.width, safe.width), height: min(wanted.height, safe.height))
        return Rect(
            x: (safe.midX - size.width / 2).rounded(), y: (safe.midY - size.height / 2).rounded(), width: size.width, height: size.height)
    }

    func placeContent() {
        content.frame = restingFrame
    }

    /// A form sheet's card stays centred as the window turns or a status bar comes.
    override func layoutSubviews() {
        super.layoutSubviews()
        if style == .formSheet, !Animator.changesAnimate { placeContent() }
    }

    // MARK: Coming in and going

    /// The content (and the dimming) where a presentation with `transition` starts and a dismissal ends.
    func showOutside(_ transition: ModalTransitionStyle) {
        dimming?.alpha = 0
        switch transition {
        case .coverVertical: content.center.y = restingFrame.midY + bounds.height
        case .crossDissolve: content.alpha = 0
        }
    }

    /// The content at rest, in place and opaque.
    func showInPlace() {
        dimming?.alpha = 1
        content.alpha = 1
        placeContent()
    }
}
