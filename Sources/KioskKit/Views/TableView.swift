import Geometry
import Glibc

/// Where a table view's rows come from (as `UITableViewDataSource`).
@MainActor
public protocol TableViewDataSource: AnyObject {
    /// 1 unless implemented.
    func numberOfSections(in tableView: TableView) -> Int
    func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int
    /// The cell for a row coming into view; take it from `dequeueReusableCell(withIdentifier:)`.
    func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell
    /// The title of a section's header (nil: no header unless the delegate gives a view).
    func tableView(_ tableView: TableView, titleForHeaderInSection section: Int) -> String?
}

extension TableViewDataSource {
    public func numberOfSections(in tableView: TableView) -> Int { 1 }
    public func tableView(_ tableView: TableView, titleForHeaderInSection section: Int) -> String? { nil }
}

/// What a table view asks and tells about its rows (as `UITableViewDelegate`); every method is optional.
/// Set it as the table view's `delegate`: it is a scroll view delegate too.
@MainActor
public protocol TableViewDelegate: ScrollViewDelegate {
    /// The row's height; `tableView.rowHeight` unless implemented.
    func tableView(_ tableView: TableView, heightForRowAt indexPath: IndexPath) -> Double
    /// The row to select instead (nil: none) when the user taps `indexPath`.
    func tableView(_ tableView: TableView, willSelectRowAt indexPath: IndexPath) -> IndexPath?
    func tableView(_ tableView: TableView, didSelectRowAt indexPath: IndexPath)
    func tableView(_ tableView: TableView, didDeselectRowAt indexPath: IndexPath)
    /// A view of your own for the section's header (nil: the title's, if any).
    func tableView(_ tableView: TableView, viewForHeaderInSection section: Int) -> View?
}

extension TableViewDelegate {
    public func tableView(_ tableView: TableView, heightForRowAt indexPath: IndexPath) -> Double { tableView.rowHeight }
    public func tableView(_ tableView: TableView, willSelectRowAt indexPath: IndexPath) -> IndexPath? { indexPath }
    public func tableView(_ tableView: TableView, didSelectRowAt indexPath: IndexPath) {}
    public func tableView(_ tableView: TableView, didDeselectRowAt indexPath: IndexPath) {}
    public func tableView(_ tableView: TableView, viewForHeaderInSection section: Int) -> View? { nil }
}

/// A scrolling list of rows in sections (as `UITableView`, plain style): only the rows in view have cells,
/// taken from a reuse pool as rows come into view and given back as they leave, so 10,000 rows cost the
/// memory of the dozen or so on screen. Section headers float at the top while their section is in view.
/// A tap highlights a row and selects it (`didSelectRowAt`); a drag scrolls and takes the highlight away.
@MainActor
open class TableView: ScrollView {
    /// Where the rows come from; a new one is asked for everything at the next layout (or query).
    public weak var dataSource: (any TableViewDataSource)? {
        didSet {
            guard dataSource !== oldValue else { return }
            discardRows()
            setNeedsLayout()
        }
    }

    /// The table view's delegate: a `TableViewDelegate` (which is also a scroll view delegate).
    public var tableDelegate: (any TableViewDelegate)? { delegate as? any TableViewDelegate }

    /// The height of each row unless the delegate says otherwise (44, as UIKit). A change lays the rows
    /// out again at the next layout, keeping the selection and the cells in view.
    public var rowHeight = 44.0 {
        didSet { if rowHeight != oldValue { geometryDidChange() } }
    }
    /// The height of a section's header when it has one (28, as UIKit's plain style).
    public var sectionHeaderHeight = 28.0 {
        didSet { if sectionHeaderHeight != oldValue { geometryDidChange() } }
    }
    public var allowsSelection = true

    override public init(frame: Rect = .zero) {
        super.init(frame: frame)
        backgroundColor = .white
        alwaysBounceVertical = true
    }

    // MARK: Geometry of the rows

    /// Per section: where its header starts, its header's height, and where each row starts (one more
    /// entry than rows: the section's end), in content coordinates.
    private struct SectionGeometry {
        var top: Double
        var headerHeight: Double
        var rowStarts: [Double]
        var bottom: Double { rowStarts.last ?? top + headerHeight }
        var rows: Int { rowStarts.count - 1 }
    }

    private var sections: [SectionGeometry] = []
    private var loaded = false

    public var numberOfSections: Int {
        loadIfNeeded()
        return sections.count
    }

    public func numberOfRows(inSection section: Int) -> Int {
        loadIfNeeded()
        return sections.indices.contains(section) ? sections[section].rows : 0
    }

    /// The row's rectangle in content coordinates (`.null` for a row that does not exist).
    public func rectForRow(at indexPath: IndexPath) -> Rect {
        loadIfNeeded()
        guard sections.indices.contains(indexPath.section), (0..<sections[indexPath.section].rows).contains(indexPath.row) else {
            return .null
        }
        let starts = sections[indexPath.section].rowStarts
        return Rect(x: 0, y: starts[indexPath.row], width: bounds.width, height: starts[indexPath.row + 1] - starts[indexPath.row])
    }

    /// The row at `point` (content coordinates), if any.
    public func indexPathForRow(at point: Point) -> IndexPath? {
        loadIfNeeded()
        guard point.x >= 0, point.x < bounds.width else { return nil }
        for (index, section) in sections.enumerated() where point.y >= section.top && point.y < section.bottom {
            guard let row = Self.row(containing: point.y, in: section.rowStarts) else { return nil }
            return IndexPath(row: row, section: index)
        }
        return nil
    }

    /// The index of the interval of `starts` containing `y` (binary search).
    private static func row(containing y: Double, in starts: [Double]) -> Int? {
        guard starts.count > 1, y >= starts[0], y < starts[starts.count - 1] else { return nil }
        var low = 0, high = starts.count - 1
        while high - low > 1 {
            let middle = (low + high) / 2
            if starts[middle] <= y { low = middle } else { high = middle }
        }
        return low
    }

    /// Asks the data source again for everything: sections, rows, heights, cells. Visible cells go back
    /// to the reuse pool and the selection is cleared, as UIKit.
    public func reloadData() {
        discardRows()
        loadIfNeeded()
        setNeedsLayout()
    }

    /// Cells back to the pool, headers gone, no selection, and the data source to be asked again.
    private func discardRows() {
        for (_, cell) in visibleCellsByPath { recycle(cell) }
        visibleCellsByPath.removeAll()
        for (_, header) in headerViews { header.removeFromSuperview() }
        headerViews.removeAll()
        selectedPath = nil
        highlight = nil
        loaded = false
    }

    /// Heights changed: the rows' places are worked out again, and the cells move to them.
    private func geometryDidChange() {
        loaded = false
        setNeedsLayout()
    }

    private func loadIfNeeded() {
        guard !loaded else { return }
        loaded = true
        sections.removeAll()
        guard let dataSource else {
            contentSize = Size(width: bounds.width, height: 0)
            return
        }
        var y = 0.0
        for section in 0..<max(dataSource.numberOfSections(in: self), 0) {
            let hasHeader =
                dataSource.tableView(self, titleForHeaderInSection: section) != nil
                || tableDelegate?.tableView(self, viewForHeaderInSection: section) != nil
            let headerHeight = hasHeader ? sectionHeaderHeight : 0
            let rows = max(dataSource.tableView(self, numberOfRowsInSection: section), 0)
            var starts: [Double] = []
            starts.reserveCapacity(rows + 1)
            var rowY = y + headerHeight
            starts.append(rowY)
            let delegate = tableDelegate
            for row in 0..<rows {
                rowY += max(delegate?.tableView(self, heightForRowAt: IndexPath(row: row, section: section)) ?? rowHeight, 0)
                starts.append(rowY)
            }
            sections.append(SectionGeometry(top: y, headerHeight: headerHeight, rowStarts: starts))
            y = rowY
        }
        contentSize = Size(width: bounds.width, height: y)
    }

    // MARK: Inserting, deleting and reloading rows

    /// How rows come, go or change in `insertRows`, `deleteRows` and `reloadRows` (as
    /// `UITableView.RowAnimation`'s cases that fit a kiosk's table).
    public enum RowAnimation: Sendable {
        /// At once.
        case none
        /// New rows fade in, deleted rows fade out, the rows between slide to their new places.
        case fade
        /// The table's choice: `fade`.
        case automatic
    }

    /// How long the rows take to fade and slide (UIKit's row animations take about as long).
    public static let rowAnimationDuration: TimeInterval = 0.3

    /// New rows at `indexPaths` (their places after the insert): the data source must already count them,
    /// as UIKit's, or the update stops the program naming the section and the counts.
    public func insertRows(at indexPaths: [IndexPath], with animation: RowAnimation) {
        update(deleted: [], inserted: indexPaths, reloaded: [], animation: animation, operation: "insert")
    }

    /// Rows gone from `indexPaths` (their places before the delete); the data source must already count
    /// them out. A deleted selected row is no longer selected; the selection of rows that move follows them.
    public func deleteRows(at indexPaths: [IndexPath], with animation: RowAnimation) {
        update(deleted: indexPaths, inserted: [], reloaded: [], animation: animation, operation: "delete")
    }

    /// The data source is asked again for the rows at `indexPaths` (heights and cells); the others keep
    /// their cells.
    public func reloadRows(at indexPaths: [IndexPath], with animation: RowAnimation) {
        update(deleted: [], inserted: [], reloaded: indexPaths, animation: animation, operation: "reload")
    }

    private func update(
        deleted: [IndexPath], inserted: [IndexPath], reloaded: [IndexPath], animation: RowAnimation, operation: String
    ) {
        loadIfNeeded()
        let before = sections.map(\.rows)
        // The counts alone first: the geometry is worked out again once the cells have their new paths (its
        // new content size may scroll, and the delegate hears of it).
        let after =
            dataSource.map { source in
                (0..<max(source.numberOfSections(in: self), 0)).map { max(source.tableView(self, numberOfRowsInSection: $0), 0) }
            } ?? []
        // What UIKit raises (NSInternalInconsistencyException) on an update the data source does not match.
        func invalid(_ reason: String) -> Never {
            preconditionFailure("TableView: invalid update (\(operation)Rows): \(reason)")
        }
        guard after.count == before.count else {
            invalid(
                "the data source has \(after.count) sections, the table had \(before.count) (sections are not inserted or deleted here)")
        }
        for path in deleted + reloaded where !(before.indices.contains(path.section) && (0..<before[path.section]).contains(path.row)) {
            invalid("row \(path.row) of section \(path.section) does not exist before the update")
        }
        for path in inserted where !(after.indices.contains(path.section) && (0..<after[path.section]).contains(path.row)) {
            invalid("row \(path.row) of section \(path.section) does not exist after the update")
        }
        let gone = Set(deleted), new = Set(inserted), again = Set(reloaded)
        for section in before.indices {
            let removed = gone.count { $0.section == section }, added = new.count { $0.section == section }
            guard after[section] == before[section] + added - removed else {
                invalid(
                    "section \(section) has \(after[section]) rows after the update, and had \(before[section]) before, "
                        + "with \(added) inserted and \(removed) deleted")
            }
        }
        // Where each row that stays goes: the rows kept, in order, fill the places not inserted.
        var moved: [IndexPath: IndexPath] = [:]
        for section in before.indices {
            let kept = (0..<before[section]).filter { !gone.contains(IndexPath(row: $0, section: section)) }
            let places = (0..<after[section]).filter { !new.contains(IndexPath(row: $0, section: section)) }
            for (old, place) in zip(kept, places) { moved[IndexPath(row: old, section: section)] = IndexPath(row: place, section: section) }
        }
        let animated = animation != .none && window != nil
        if let highlight, gone.contains(highlight.path) || again.contains(highlight.path) { endHighlight() }
        var leaving: [TableViewCell] = []
        var sliding: [(cell: TableViewCell, from: Rect, to: IndexPath)] = []
        var cells: [IndexPath: TableViewCell] = [:]
        for (path, cell) in visibleCellsByPath {
            if gone.contains(path) || again.contains(path) {
                if animated { leaving.append(cell) } else { recycle(cell) }
            } else if let place = moved[path] {
                cells[place] = cell
                if animated { sliding.append((cell, cell.frame, place)) }
            }
        }
        visibleCellsByPath = cells
        selectedPath = selectedPath.flatMap { moved[$0] }
        highlight = highlight.flatMap { highlight in moved[highlight.path].map { ($0, highlight.touch) } }
        for (_, header) in headerViews { header.removeFromSuperview() }
        headerViews.removeAll()
        loaded = false
        loadIfNeeded()
        guard animated else { return setNeedsLayout() }
        // The new places now; then the way there: the cells still in view slide from where they were, the
        // ones that came fade in, the deleted and reloaded ones fade out where they were.
        setNeedsLayout()
        layoutIfNeeded()
        // Those whose new place is out of view went back to the pool in the layout.
        let slides = sliding.filter { visibleCellsByPath[$0.to] === $0.cell }.map { ($0.cell, $0.from, rectForRow(at: $0.to)) }
        let arriving = visibleCellsByPath.values.filter { cell in !slides.contains { $0.0 === cell } }
        View.performWithoutAnimation {
            for (cell, from, _) in slides { cell.frame = from }
            for cell in arriving { cell.alpha = 0 }
        }
        View.animate(withDuration: Self.rowAnimationDuration) {
            for (cell, _, to) in slides { cell.frame = to }
            for cell in arriving { cell.alpha = 1 }
            for cell in leaving { cell.alpha = 0 }
        } completion: { [weak self] _ in
            for cell in leaving {
                cell.alpha = 1
                self?.recycle(cell)
            }
        }
    }

    // MARK: Cells and reuse

    private var visibleCellsByPath: [IndexPath: TableViewCell] = [:]
    private var reusePool: [String: [TableViewCell]] = [:]
    private var registeredClasses: [String: TableViewCell.Type] = [:]
    /// The cells the table holds, on screen and in the reuse pool: its memory is bounded by this, not by
    /// the number of rows.
    public var cellCount: Int { visibleCellsByPath.count + reusePool.values.reduce(0) { $0 + $1.count } }

    /// Cells of `cellClass` are made for `identifier` when the pool has none.
    public func register(_ cellClass: TableViewCell.Type, forCellReuseIdentifier identifier: String) {
        registeredClasses[identifier] = cellClass
    }

    /// A cell that left the screen, ready to be filled in again; else a new one of the registered class;
    /// nil when neither exists (then make one with this identifier).
    public func dequeueReusableCell(withIdentifier identifier: String) -> TableViewCell? {
        if var pool = reusePool[identifier], let cell = pool.popLast() {
            reusePool[identifier] = pool
            cell.prepareForReuse()
            return cell
        }
        guard let cellClass = registeredClasses[identifier] else { return nil }
        return cellClass.init(style: .default, reuseIdentifier: identifier)
    }

    /// As `dequeueReusableCell(withIdentifier:)`, for a registered identifier (a missing registration is a
    /// programming error, as in UIKit).
    public func dequeueReusableCell(withIdentifier identifier: String, for indexPath: IndexPath) -> TableViewCell {
        guard let cell = dequeueReusableCell(withIdentifier: identifier) else {
            preconditionFailure("TableView: no cell class registered for reuse identifier \"\(identifier)\"")
        }
        return cell
    }

    /// The cells on screen, top to bottom.
    public var visibleCells: [TableViewCell] { indexPathsForVisibleRows.compactMap { visibleCellsByPath[$0] } }

    /// The rows that have cells on screen, in order.
    public var indexPathsForVisibleRows: [IndexPath] { visibleCellsByPath.keys.sorted() }

    /// The cell of a row on screen (nil when the row is not in view).
    public func cellForRow(at indexPath: IndexPath) -> TableViewCell? { visibleCellsByPath[indexPath] }

    private func recycle(_ cell: TableViewCell) {
        cell.removeFromSuperview()
        cell.isHighlighted = false
        cell.isSelected = false
        guard let identifier = cell.reuseIdentifier else { return }
        reusePool[identifier, default: []].append(cell)
    }

    override open func layoutSubviews() {
        super.layoutSubviews()
        loadIfNeeded()
        if contentSize.width != bounds.width { contentSize.width = bounds.width }
        tileRows()
        tileHeaders()
    }

    /// The rows in view get cells (from the pool, else the data source makes them); the others give
    /// theirs back.
    private func tileRows() {
        let top = contentOffset.y, bottom = contentOffset.y + bounds.height
        var wanted: [IndexPath] = []
        for (index, section) in sections.enumerated() where section.bottom > top && section.top < bottom && section.rows > 0 {
            let first = Self.row(containing: max(top, section.rowStarts[0]), in: section.rowStarts) ?? 0
            var row = first
            while row < section.rows, section.rowStarts[row] < bottom {
                wanted.append(IndexPath(row: row, section: index))
                row += 1
            }
        }
        let wantedSet = Set(wanted)
        for (path, cell) in visibleCellsByPath where !wantedSet.contains(path) {
            // The row under the finger left the view (a programmatic scroll): the press is over. Its cell
            // leaves the table, so the touch's end, which comes up that cell's chain, would never reach it.
            if path == highlight?.path { endHighlight() }
            visibleCellsByPath[path] = nil
            recycle(cell)
        }
        guard let dataSource else { return }
        for path in wanted {
            let frame = rectForRow(at: path)
            if let cell = visibleCellsByPath[path] {
                if cell.frame != frame { cell.frame = frame }
                continue
            }
            let cell = dataSource.tableView(self, cellForRowAt: path)
            cell.frame = frame
            cell.isSelected = path == selectedPath
            cell.isHighlighted = path == highlight?.path
            visibleCellsByPath[path] = cell
            // Below the headers and the indicators.
            insertSubview(cell, at: 0)
        }
    }

    // MARK: Section headers

    private var headerViews: [Int: View] = [:]

    /// Headers of the sections in view; each floats at the top of the visible area (below the top inset)
    /// while its section is in view, pushed up by the next one (UIKit's plain style).
    private func tileHeaders() {
        let top = contentOffset.y + adjustedContentInset.top, bottom = contentOffset.y + bounds.height
        var shown: Set<Int> = []
        for (index, section) in sections.enumerated() where section.headerHeight > 0 && section.bottom > top && section.top < bottom {
            shown.insert(index)
            let header = headerViews[index] ?? makeHeader(for: index)
            headerViews[index] = header
            let y = min(max(section.top, top), section.bottom - section.headerHeight)
            let frame = Rect(x: 0, y: y, width: bounds.width, height: section.headerHeight)
            if header.frame != frame { header.frame = frame }
        }
        for (index, header) in headerViews where !shown.contains(index) {
            header.removeFromSuperview()
            headerViews[index] = nil
        }
    }

    private func makeHeader(for section: Int) -> View {
        let header =
            tableDelegate?.tableView(self, viewForHeaderInSection: section)
            ?? TableSectionHeader(title: dataSource?.tableView(self, titleForHeaderInSection: section) ?? "")
        // In front of the cells, behind the indicators (which `didAddSubview` brings forward).
        addSubview(header)
        return header
    }

    // MARK: Selection

    private var selectedPath: IndexPath?
    private var highlight: (path: IndexPath, touch: Touch)?

    /// The selected row (nil when none).
    public var indexPathForSelectedRow: IndexPath? { selectedPath }

    /// Selects a row from code (no delegate call, as UIKit), scrolling it into view when asked.
    public func selectRow(at indexPath: IndexPath?, animated: Bool, scrollPosition: ScrollPosition) {
        if let selectedPath, selectedPath != indexPath { visibleCellsByPath[selectedPath]?.isSelected = false }
        selectedPath = indexPath
        guard let indexPath else { return }
        visibleCellsByPath[indexPath]?.isSelected = true
        if scrollPosition != .none { scrollToRow(at: indexPath, at: scrollPosition, animated: animated) }
    }

    /// Deselects a row from code (no delegate call).
    public func deselectRow(at indexPath: IndexPath, animated: Bool) {
        guard selectedPath == indexPath else { return }
        selectedPath = nil
        visibleCellsByPath[indexPath]?.isSelected = false
    }

    /// Where `scrollToRow` puts the row (as `UITableView.ScrollPosition`).
    public enum ScrollPosition: Sendable {
        case none, top, middle, bottom
    }

    /// Scrolls so that the row is at `position` (`.none`: just into view).
    public func scrollToRow(at indexPath: IndexPath, at position: ScrollPosition, animated: Bool) {
        let rect = rectForRow(at: indexPath)
        guard !rect.isNull else { return }
        // Within the insets: the part of the view the content is meant to be seen in (clear of a bar or
        // the keyboard over it).
        var offset = contentOffset
        let inset = adjustedContentInset, visible = bounds.height - inset.top - inset.bottom
        switch position {
        case .top: offset.y = rect.minY - inset.top
        case .middle: offset.y = rect.midY - inset.top - visible / 2
        case .bottom: offset.y = rect.maxY - inset.top - visible
        case .none: return scrollRectToVisible(rect, animated: animated)
        }
        offset.y = min(max(offset.y, minimumContentOffset.y), maximumContentOffset.y)
        setContentOffset(offset, animated: animated)
    }

    // Touches on the cells come up the responder chain (cells, their content views and their labels do
    // not handle them; a control added to a cell's `contentView` does, and the row then stays as it is).

    override open func touchesBegan(_ touches: Set<Touch>, with event: Event) {
        // A highlight whose touch is over (its end went elsewhere) is left from a press that is done.
        if let highlight, highlight.touch.phase == .ended || highlight.touch.phase == .cancelled { endHighlight() }
        guard allowsSelection, highlight == nil, let touch = touches.first, isInACell(touch.view),
            let path = indexPathForRow(at: touch.location(in: self))
        else { return }
        highlight = (path, touch)
        visibleCellsByPath[path]?.isHighlighted = true
    }

    override open func touchesMoved(_ touches: Set<Touch>, with event: Event) {
        guard let highlight, touches.contains(highlight.touch) else { return }
        if indexPathForRow(at: highlight.touch.location(in: self)) != highlight.path { endHighlight() }
    }

    override open func touchesEnded(_ touches: Set<Touch>, with event: Event) {
        guard let highlight, touches.contains(highlight.touch) else { return }
        let path = highlight.path
        endHighlight()
        guard indexPathForRow(at: highlight.touch.location(in: self)) == path else { return }
        let delegate = tableDelegate
        guard let chosen = delegate == nil ? path : delegate?.tableView(self, willSelectRowAt: path) else { return }
        if let previous = selectedPath, previous != chosen {
            deselectRow(at: previous, animated: false)
            delegate?.tableView(self, didDeselectRowAt: previous)
        }
        selectRow(at: chosen, animated: false, scrollPosition: .none)
        delegate?.tableView(self, didSelectRowAt: chosen)
    }

    override open func touchesCancelled(_ touches: Set<Touch>, with event: Event) {
        guard let highlight, touches.contains(highlight.touch) else { return }
        endHighlight()
    }

    /// Whether `view` is a cell or inside one (a touch on a section header selects nothing).
    private func isInACell(_ view: View?) -> Bool {
        var current = view
        while let view = current, view !== self {
            if view is TableViewCell { return true }
            current = view.superview
        }
        return false
    }

    private func endHighlight() {
        if let path = highlight?.path { visibleCellsByPath[path]?.isHighlighted = false }
        highlight = nil
    }
}

/// The header of a section with a title: the title in grey capitals' weight on a light grey band.
@MainActor
final class TableSectionHeader: View {
    let label: Label

    init(title: String) {
        label = Label(text: title, font: .system(size: 15, weight: .medium))
        super.init(frame: .zero)
        backgroundColor = Color(rgb: 0xF2F2F7)
        isOpaque = true
        identifier = "section-header"
        label.textColor = Color(rgb: 0x6D6D72)
        addSubview(label)
    }

    override func layoutSubviews() {
        label.frame = Rect(x: 16, y: 0, width: max(bounds.width - 32, 0), height: bounds.height)
    }
}

/// A row of a table view (as `UITableViewCell`): a title, optionally a detail text, an accessory, and a
/// grey highlight while pressed or selected. Subclass it for rows of your own (override
/// `init(style:reuseIdentifier:)` and `prepareForReuse`).
@MainActor
open class TableViewCell: View {
    /// How the labels are laid out (as `UITableViewCell.CellStyle`).
    public enum CellStyle: Sendable {
        /// The title alone.
        case `default`
        /// The title with the detail text under it.
        case subtitle
        /// The title on the left, the detail text on the right.
        case value1
    }

    public enum AccessoryType: Sendable {
        case none, disclosureIndicator, checkmark
    }

    public enum SelectionStyle: Sendable {
        case none, `default`
    }

    public let style: CellStyle
    public let reuseIdentifier: String?
    /// Where the labels are; subviews of your own go here.
    public let contentView = View()
    public let textLabel = Label()
    /// The detail text for the `subtitle` and `value1` styles, nil for `default`.
    public let detailTextLabel: Label?
    private let accessoryLabel = Label()

    public var accessoryType: AccessoryType = .none {
        didSet { if accessoryType != oldValue { updateAccessory() } }
    }
    public var selectionStyle: SelectionStyle = .default {
        didSet { updateHighlight() }
    }
    /// Shown while pressed.
    public var isHighlighted = false {
        didSet { updateHighlight() }
    }
    /// Shown while the row is the table's selection.
    public var isSelected = false {
        didSet { updateHighlight() }
    }
    /// The highlight's grey over the whole cell, and the separator, one pixel along the bottom inset like
    /// the text: views of one colour each (as UIKit's selected background and separator views), which the
    /// compositor fills without a bitmap, so a cell costs no memory for its pixels.
    private let highlightView = View()
    private let separatorView = View()

    /// UIKit's cell highlight and separator greys.
    static let highlightColor = Color(rgb: 0xD1D1D6)
    static let separatorColor = Color(rgb: 0xC6C6C8)

    public required init(style: CellStyle, reuseIdentifier: String?) {
        self.style = style
        self.reuseIdentifier = reuseIdentifier
        detailTextLabel = style == .default ? nil : Label()
        super.init(frame: .zero)
        backgroundColor = .white
        isOpaque = true
        textLabel.font = .system(size: 17)
        if let detailTextLabel {
            detailTextLabel.font = .system(size: style == .subtitle ? 13 : 17)
            detailTextLabel.textColor = Color(rgb: 0x8A8A8E)
            if style == .value1 { detailTextLabel.textAlignment = .right }
            contentView.addSubview(detailTextLabel)
        }
        contentView.addSubview(textLabel)
        accessoryLabel.textColor = Color(rgb: 0xC4C4C7)
        accessoryLabel.font = .system(size: 24)
        accessoryLabel.textAlignment = .center
        accessoryLabel.isHidden = true
        highlightView.backgroundColor = Self.highlightColor
        highlightView.isHidden = true
        separatorView.backgroundColor = Self.separatorColor
        for view in [highlightView, separatorView] {
            view.isUserInteractionEnabled = false
            addSubview(view)
        }
        addSubview(contentView)
        addSubview(accessoryLabel)
    }

    private func updateHighlight() {
        highlightView.isHidden = selectionStyle == .none || !(isHighlighted || isSelected)
    }

    /// Called before the cell is handed out again by `dequeueReusableCell`: clear what the last row set.
    open func prepareForReuse() {}

    private func updateAccessory() {
        switch accessoryType {
        case .none:
            accessoryLabel.isHidden = true
        case .disclosureIndicator:
            accessoryLabel.text = "›"
            accessoryLabel.textColor = Color(rgb: 0xC4C4C7)
            accessoryLabel.isHidden = false
        case .checkmark:
            accessoryLabel.text = "✓"
            accessoryLabel.textColor = Color(red: 0, green: 122.0 / 255, blue: 1)
            accessoryLabel.isHidden = false
        }
        setNeedsLayout()
    }

    override open func layoutSubviews() {
        super.layoutSubviews()
        let accessoryWidth = accessoryType == .none ? 0.0 : 36.0
        highlightView.frame = Rect(x: 0, y: 0, width: bounds.width, height: bounds.height)
        separatorView.frame = Rect(x: 16, y: bounds.height - 1, width: max(bounds.width - 16, 0), height: 1)
        contentView.frame = Rect(x: 0, y: 0, width: max(bounds.width - accessoryWidth, 0), height: bounds.height)
        accessoryLabel.frame = Rect(x: bounds.width - accessoryWidth - 4, y: 0, width: accessoryWidth, height: bounds.height)
        let width = max(contentView.bounds.width - 32, 0), height = bounds.height
        switch style {
        case .default:
            textLabel.frame = Rect(x: 16, y: 0, width: width, height: height)
        case .subtitle:
            textLabel.frame = Rect(x: 16, y: (height / 2 - 20).rounded(), width: width, height: 22)
            detailTextLabel?.frame = Rect(x: 16, y: (height / 2 + 2).rounded(), width: width, height: 18)
        case .value1:
            textLabel.frame = Rect(x: 16, y: 0, width: (width * 0.6).rounded(), height: height)
            detailTextLabel?.frame = Rect(x: 16 + (width * 0.6).rounded(), y: 0, width: (width * 0.4).rounded(), height: height)
        }
    }

}
