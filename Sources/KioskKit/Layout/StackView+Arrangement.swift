/// The constraints a stack view makes for its arrangement, as UIKit's (its `UISV-` constraints): the
/// visible arranged views chained along the axis between the stack's edges (or margins), the distribution's
/// lengths or spacer guides, and the alignment across it. Made again whole when anything about the
/// arrangement changed: a stack holds a handful of views, and the solver takes the new ones incrementally.
extension StackView {
    /// The stack's edges the views keep to: its own, or its margins'.
    private var canvas: any LayoutAnchoring { isLayoutMarginsRelativeArrangement ? layoutMarginsGuide : self }

    func rebuildArrangement() {
        LayoutConstraint.deactivate(arrangementConstraints)
        for spacer in spacers { removeLayoutGuide(spacer) }
        spacers = []
        tieBreakConstraints = [:]
        let views = arrangedSubviews.filter { !$0.isHidden }
        var made: [LayoutConstraint] = []
        if !views.isEmpty {
            made += chain(views)
            made += distribute(views)
            for view in views { made += align(view, first: views[0]) }
            made += hugTheCrossAxis(views)
        }
        for (index, constraint) in made.enumerated() where constraint.identifier == nil {
            constraint.identifier = "\(displayName).arrangement.\(index)"
        }
        arrangementConstraints = made
        LayoutConstraint.activate(made)
    }

    // MARK: Along the axis

    /// The edge anchors along the axis: leading and trailing of a row, top and bottom of a column.
    private func ends(_ item: any LayoutAnchoring) -> (start: LayoutAnchorSide, end: LayoutAnchorSide) {
        axis == .horizontal
            ? (.x(item.leadingAnchor), .x(item.trailingAnchor)) : (.y(item.topAnchor), .y(item.bottomAnchor))
    }

    private func length(_ item: any LayoutAnchoring) -> LayoutDimension {
        axis == .horizontal ? item.widthAnchor : item.heightAnchor
    }

    private func middle(_ item: any LayoutAnchoring) -> LayoutAnchorSide {
        axis == .horizontal ? .x(item.centerXAnchor) : .y(item.centerYAnchor)
    }

    /// First to the start, last to the end, and each after the one before: `spacing` apart for the fills,
    /// at least that for the equal distributions (their spacers share what is left).
    private func chain(_ views: [View]) -> [LayoutConstraint] {
        var made = [ends(views[0]).start.equal(ends(canvas).start), ends(views[views.count - 1]).end.equal(ends(canvas).end)]
        let exact = distribution == .fill || distribution == .fillEqually || distribution == .fillProportionally
        // No view is squeezed past nothing (the solver would give it a negative length).
        made += views.map { length($0).constraint(greaterThanOrEqualToConstant: 0) }
        for (previous, next) in zip(views, views.dropFirst()) {
            let gap = spacing(after: previous)
            made.append(exact ? ends(next).start.equal(ends(previous).end, gap) : ends(next).start.atLeast(ends(previous).end, gap))
        }
        return made
    }

    private func distribute(_ views: [View]) -> [LayoutConstraint] {
        switch distribution {
        case .fill:
            return tieBreaks(views)
        case .fillEqually:
            return views.dropFirst().map { length($0).constraint(equalTo: length(views[0])) }
        case .fillProportionally:
            return proportions(views)
        case .equalSpacing, .equalCentering:
            return spaced(views)
        }
    }

    /// UIKit settles a tie of hugging (or of compression resistance) "by index": here the last view
    /// stretches and shrinks first. The others hold their intrinsic length a little more, at priority 1:
    /// enough to break a tie, too little to outweigh a difference of a point (a point weighs 2 % more).
    private func tieBreaks(_ views: [View]) -> [LayoutConstraint] {
        views.dropLast().flatMap { view -> [LayoutConstraint] in
            guard let intrinsic = intrinsicLength(of: view) else { return [] }
            let pair = [
                with(length(view).constraint(lessThanOrEqualToConstant: intrinsic)) { $0.priority = 1 },
                with(length(view).constraint(greaterThanOrEqualToConstant: intrinsic)) { $0.priority = 1 },
            ]
            tieBreakConstraints[ObjectIdentifier(view)] = pair
            return pair
        }
    }

    /// The view's intrinsic length along the axis, nil when it has none.
    func intrinsicLength(of view: View) -> Double? {
        let size = view.intrinsicContentSize
        let intrinsic = axis == .horizontal ? size.width : size.height
        return intrinsic != View.noIntrinsicMetric && intrinsic.isFinite ? intrinsic : nil
    }

    /// Each view's share of the length left after the spacing, in proportion to its intrinsic length; views
    /// without one count as none. Just below required, so that a view's own required size wins.
    private func proportions(_ views: [View]) -> [LayoutConstraint] {
        let lengths = views.map { view in
            let size = view.intrinsicContentSize
            return max(axis == .horizontal ? size.width : size.height, 0)
        }
        let total = lengths.reduce(0, +)
        guard total > 0 else { return [] }
        let gaps = zip(views, views.dropFirst()).map { spacing(after: $0.0) }.reduce(0, +)
        return zip(views, lengths).map { view, intrinsic in
            let share = intrinsic / total
            return with(length(view).constraint(equalTo: length(canvas), multiplier: share, constant: -share * gaps)) {
                $0.priority = .required - 1
            }
        }
    }

    /// Spacer guides between neighbours, of one length: from edge to edge (`equalSpacing`), or from centre to
    /// centre (`equalCentering`, below the views' hugging, so that the least spacing wins when they do not fit).
    private func spaced(_ views: [View]) -> [LayoutConstraint] {
        var made: [LayoutConstraint] = []
        let centred = distribution == .equalCentering
        for (previous, next) in zip(views, views.dropFirst()) {
            let spacer = LayoutGuide()
            spacer.identifier = "\(displayName).spacer.\(spacers.count)"
            addLayoutGuide(spacer)
            spacers.append(spacer)
            made.append(ends(spacer).start.equal(centred ? middle(previous) : ends(previous).end))
            made.append(ends(spacer).end.equal(centred ? middle(next) : ends(next).start))
        }
        for spacer in spacers.dropFirst() {
            made.append(
                with(length(spacer).constraint(equalTo: length(spacers[0]))) { $0.priority = centred ? .defaultLow - 1 : .required })
        }
        return made
    }

    // MARK: Across the axis

    private func sides(_ item: any LayoutAnchoring) -> (start: LayoutAnchorSide, end: LayoutAnchorSide) {
        axis == .horizontal ? (.y(item.topAnchor), .y(item.bottomAnchor)) : (.x(item.leadingAnchor), .x(item.trailingAnchor))
    }

    /// The alignment as laid out: a column takes the baseline alignments as `fill`.
    private var effectiveAlignment: Alignment {
        axis == .vertical && (alignment == .firstBaseline || alignment == .lastBaseline) ? .fill : alignment
    }

    private func align(_ view: View, first: View) -> [LayoutConstraint] {
        let mine = sides(view), stack = sides(canvas)
        let alignment = effectiveAlignment
        switch alignment {
        case .fill:
            return [mine.start.equal(stack.start), mine.end.equal(stack.end)]
        case .leading:
            return [mine.start.equal(stack.start), mine.end.atMost(stack.end)]
        case .trailing:
            return [mine.end.equal(stack.end), mine.start.atLeast(stack.start)]
        case .center:
            let centre = axis == .horizontal ? LayoutAnchorSide.y(view.centerYAnchor) : .x(view.centerXAnchor)
            let stackCentre = axis == .horizontal ? LayoutAnchorSide.y(canvas.centerYAnchor) : .x(canvas.centerXAnchor)
            return [centre.equal(stackCentre), mine.start.atLeast(stack.start)]
        case .firstBaseline, .lastBaseline:
            var made = [mine.start.atLeast(stack.start), mine.end.atMost(stack.end)]
            if view !== first {
                let last = alignment == .lastBaseline
                let anchor = last ? view.lastBaselineAnchor : view.firstBaselineAnchor
                made.append(anchor.constraint(equalTo: last ? first.lastBaselineAnchor : first.firstBaselineAnchor))
            }
            return made
        }
    }

    /// Where the views do not fill the stack across the axis, the stack is as wide (tall) as the widest
    /// (tallest) view when nothing else sizes it: a pull weaker than any the app would set, towards each
    /// view's far side (UIKit's "ambiguity suppression").
    private func hugTheCrossAxis(_ views: [View]) -> [LayoutConstraint] {
        guard effectiveAlignment != .fill else { return [] }
        let stack = sides(canvas)
        return views.flatMap { view -> [LayoutConstraint] in
            let mine = sides(view)
            return [
                with(mine.start.equal(stack.start)) { $0.priority = .fittingSizeLevel - 1 },
                with(mine.end.equal(stack.end)) { $0.priority = .fittingSizeLevel - 1 },
            ]
        }
    }
}

/// An x or a y anchor, so that the arrangement is written once for both axes.
@MainActor
enum LayoutAnchorSide {
    case x(LayoutXAxisAnchor)
    case y(LayoutYAxisAnchor)

    func equal(_ other: LayoutAnchorSide, _ constant: Double = 0) -> LayoutConstraint { relate(other, .equal, constant) }
    func atLeast(_ other: LayoutAnchorSide, _ constant: Double = 0) -> LayoutConstraint { relate(other, .greaterThanOrEqual, constant) }
    func atMost(_ other: LayoutAnchorSide, _ constant: Double = 0) -> LayoutConstraint { relate(other, .lessThanOrEqual, constant) }

    private func relate(_ other: LayoutAnchorSide, _ relation: LayoutConstraint.Relation, _ constant: Double) -> LayoutConstraint {
        switch (self, other) {
        case (.x(let a), .x(let b)):
            switch relation {
            case .equal: return a.constraint(equalTo: b, constant: constant)
            case .greaterThanOrEqual: return a.constraint(greaterThanOrEqualTo: b, constant: constant)
            case .lessThanOrEqual: return a.constraint(lessThanOrEqualTo: b, constant: constant)
            }
        case (.y(let a), .y(let b)):
            switch relation {
            case .equal: return a.constraint(equalTo: b, constant: constant)
            case .greaterThanOrEqual: return a.constraint(greaterThanOrEqualTo: b, constant: constant)
            case .lessThanOrEqual: return a.constraint(lessThanOrEqualTo: b, constant: constant)
            }
        default:
            preconditionFailure("StackView: an x anchor related to a y anchor")
        }
    }
}

/// `value` after `change`: a constraint made with its priority in one expression.
@MainActor
func with<T: AnyObject>(_ value: T, _ change: (T) -> Void) -> T {
    change(value)
    return value
}
