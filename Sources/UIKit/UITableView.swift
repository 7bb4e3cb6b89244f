public import Foundation
import HeadlessScreens

/// `UITableView`: rows in sections, from a data source. When the table is in a window (and after
/// `reloadData()`, at the next layout), it asks its data source for the sections, the rows and a
/// cell for each visible row, as UIKit does ("the table view redisplays only those rows that are
/// visible": here the first 50). The scripted user's `select ROW` (or `tap` on a row's text) selects
/// a row as a finger does: `tableView(_:willSelectRowAt:)`, then `tableView(_:didSelectRowAt:)`.
@preconcurrency @MainActor
open class UITableView: UIScrollView {
    /// The table's look.
    public enum Style: Int, Sendable {
        /// Plain rows.
        case plain = 0
        /// Grouped sections.
        case grouped = 1
        /// Grouped sections with rounded insets.
        case insetGrouped = 2

        var name: String {
            switch self {
            case .plain: "plain"
            case .grouped: "grouped"
            case .insetGrouped: "insetGrouped"
            }
        }
    }

    /// How rows animate in and out (recorded; nothing moves).
    public enum RowAnimation: Int, Sendable {
        /// Fade.
        case fade = 0
        /// From the right.
        case right = 1
        /// From the left.
        case left = 2
        /// From the top.
        case top = 3
        /// From the bottom.
        case bottom = 4
        /// None.
        case none = 5
        /// Middle.
        case middle = 6
        /// The system's choice.
        case automatic = 100
    }

    /// Where a row ends up when scrolled to.
    public enum ScrollPosition: Int, Sendable {
        /// Nowhere in particular.
        case none = 0
        /// At the top.
        case top = 1
        /// In the middle.
        case middle = 2
        /// At the bottom.
        case bottom = 3
    }

    /// The separators' look.
    public enum SeparatorStyle: Int, Sendable {
        /// None.
        case none = 0
        /// A line.
        case singleLine = 1
    }

    /// A row height computed from the content.
    public static let automaticDimension: CGFloat = -1

    /// One row on screen.
    struct LoadedRow {
        var indexPath: IndexPath
        var cell: UITableViewCell
    }

    /// How many rows are asked for (a phone shows about a dozen; the rest would need scrolling).
    static let loadedRowLimit = 50

    /// The table's look.
    public let style: Style
    /// The data source, asked for sections, rows and cells.
    open weak var dataSource: (any UITableViewDataSource)? { didSet { needsReload = true } }
    /// The delegate, told about selection and asked for heights.
    open weak var delegate: (any UITableViewDelegate)?
    /// The height of a row.
    open var rowHeight: CGFloat = UITableView.automaticDimension
    /// An estimate of a row's height.
    open var estimatedRowHeight: CGFloat = UITableView.automaticDimension
    /// The height of a section header.
    open var sectionHeaderHeight: CGFloat = UITableView.automaticDimension
    /// The height of a section footer.
    open var sectionFooterHeight: CGFloat = UITableView.automaticDimension
    /// The separators' look.
    open var separatorStyle: SeparatorStyle = .singleLine
    /// The separators' colour.
    open var separatorColor: UIColor?
    /// The separators' insets.
    open var separatorInset: UIEdgeInsets = .zero
    /// A view above the rows.
    open var tableHeaderView: UIView?
    /// A view below the rows.
    open var tableFooterView: UIView?
    /// A view behind the rows.
    open var backgroundView: UIView?
    /// Whether rows can be selected (`true`).
    open var allowsSelection = true
    /// Whether several rows can be selected.
    open var allowsMultipleSelection = false
    /// Whether the table is editing.
    open private(set) var isEditing = false

    private var registered: [String: UITableViewCell.Type] = [:]
    private var reusable: [String: [UITableViewCell]] = [:]
    private var needsReload = true
    private var rowsPerSection: [Int] = []
    private var selected: [IndexPath] = []
    private(set) var loadedRows: [LoadedRow] = []

    /// A table with `frame` and `style`.
    public init(frame: CGRect, style: Style) {
        self.style = style
        super.init(frame: frame)
    }

    /// A plain table with `frame`.
    public override convenience init(frame: CGRect) { self.init(frame: frame, style: .plain) }

    /// A table from a storyboard.
    public required init?(coder: NSCoder) {
        style = Style(rawValue: coder.decodeInteger(forKey: "style")) ?? .plain
        super.init(coder: coder)
    }

    // MARK: - Cells

    /// Registers `cellClass` for `identifier` (Apple: dequeuing then "creates the cell and initializes
    /// it by calling its init(style:reuseIdentifier:) method").
    open func register(_ cellClass: AnyClass?, forCellReuseIdentifier identifier: String) {
        registered[identifier] = cellClass as? UITableViewCell.Type
    }

    /// A cell to reuse, or nil when none is registered for `identifier` and none is free.
    open func dequeueReusableCell(withIdentifier identifier: String) -> UITableViewCell? {
        if var free = reusable[identifier], !free.isEmpty {
            let cell = free.removeLast()
            reusable[identifier] = free
            cell.prepareForReuse()
            return cell
        }
        guard let type = registered[identifier] else { return nil }
        return type.init(style: .default, reuseIdentifier: identifier)
    }

    /// A cell for `indexPath` (Apple: "This method always returns a valid cell"). On iOS an
    /// identifier with nothing registered raises; here a default cell is made and the screen's
    /// diagnostics say so.
    open func dequeueReusableCell(withIdentifier identifier: String, for indexPath: IndexPath) -> UITableViewCell {
        if let cell = dequeueReusableCell(withIdentifier: identifier) { return cell }
        UIKitDiagnostics.record(
            .unregisteredCell,
            "dequeueReusableCell(withIdentifier: \"\(identifier)\", for:) found no cell class registered for "
                + "\"\(identifier)\": iOS raises NSInternalInconsistencyException (register(_:forCellReuseIdentifier:) "
                + "first)", object: self)
        return UITableViewCell(style: .default, reuseIdentifier: identifier)
    }

    // MARK: - Data

    /// Asks the data source again, at the next layout (Apple: "Reloads the rows and sections of the
    /// table view").
    open func reloadData() {
        UIKitThread.check("UITableView.reloadData()", self)
        needsReload = true
        if window != nil { MainQueue.nextTurn { [weak self] in self?.loadRowsIfNeeded() } }
    }

    /// Reloads the rows at `indexPaths`.
    open func reloadRows(at indexPaths: [IndexPath], with animation: RowAnimation) { reloadData() }
    /// Reloads the sections in `sections`.
    open func reloadSections(_ sections: IndexSet, with animation: RowAnimation) { reloadData() }
    /// Inserts rows (the data source is asked again).
    open func insertRows(at indexPaths: [IndexPath], with animation: RowAnimation) { reloadData() }
    /// Deletes rows (the data source is asked again).
    open func deleteRows(at indexPaths: [IndexPath], with animation: RowAnimation) { reloadData() }
    /// Inserts sections (the data source is asked again).
    open func insertSections(_ sections: IndexSet, with animation: RowAnimation) { reloadData() }
    /// Deletes sections (the data source is asked again).
    open func deleteSections(_ sections: IndexSet, with animation: RowAnimation) { reloadData() }
    /// Begins a group of changes.
    open func beginUpdates() {}
    /// Ends a group of changes (the data source is asked again).
    open func endUpdates() { reloadData() }
    /// Performs a group of changes, then `completion`.
    open func performBatchUpdates(_ updates: (() -> Void)?, completion: ((Bool) -> Void)? = nil) {
        updates?()
        reloadData()
        if let completion { MainQueue.nextTurn { completion(true) } }
    }

    /// The number of sections (from the last load).
    open var numberOfSections: Int {
        loadRowsIfNeeded()
        return rowsPerSection.count
    }

    /// The number of rows in `section`.
    open func numberOfRows(inSection section: Int) -> Int {
        loadRowsIfNeeded()
        return rowsPerSection.indices.contains(section) ? rowsPerSection[section] : 0
    }

    /// The cell shown for `indexPath`, nil when the row is not loaded.
    open func cellForRow(at indexPath: IndexPath) -> UITableViewCell? {
        loadRowsIfNeeded()
        return loadedRows.first { $0.indexPath == indexPath }?.cell
    }

    /// The cells shown.
    open var visibleCells: [UITableViewCell] {
        loadRowsIfNeeded()
        return loadedRows.map(\.cell)
    }

    /// The index paths of the cells shown.
    open var indexPathsForVisibleRows: [IndexPath]? {
        loadRowsIfNeeded()
        return loadedRows.map(\.indexPath)
    }

    /// The index path of `cell`.
    open func indexPath(for cell: UITableViewCell) -> IndexPath? {
        loadedRows.first { $0.cell === cell }?.indexPath
    }

    /// Scrolls so that `indexPath` is visible (nothing moves).
    open func scrollToRow(at indexPath: IndexPath, at scrollPosition: ScrollPosition, animated: Bool) {}

    /// Turns editing on or off.
    open func setEditing(_ editing: Bool, animated: Bool) { isEditing = editing }

    // MARK: - Selection

    /// The selected row.
    open var indexPathForSelectedRow: IndexPath? { selected.first }
    /// The selected rows.
    open var indexPathsForSelectedRows: [IndexPath]? { selected.isEmpty ? nil : selected }

    /// Selects `indexPath` (without telling the delegate, as on iOS).
    open func selectRow(at indexPath: IndexPath?, animated: Bool, scrollPosition: ScrollPosition) {
        UIKitThread.check("UITableView.selectRow(at:animated:scrollPosition:)", self)
        guard let indexPath else {
            selected = []
            return
        }
        if !allowsMultipleSelection { selected = [] }
        if !selected.contains(indexPath) { selected.append(indexPath) }
        cellForRow(at: indexPath)?.setSelected(true, animated: animated)
    }

    /// Deselects `indexPath` (without telling the delegate).
    open func deselectRow(at indexPath: IndexPath, animated: Bool) {
        UIKitThread.check("UITableView.deselectRow(at:animated:)", self)
        selected.removeAll { $0 == indexPath }
        cellForRow(at: indexPath)?.setSelected(false, animated: animated)
    }

    /// What a finger on a row does: highlight (if the delegate allows), `willSelectRowAt` (which may
    /// redirect or refuse), deselect the previous row, select, `didSelectRowAt`.
    func selectAsFinger(_ indexPath: IndexPath) {
        guard allowsSelection, delegate?.tableView(self, shouldHighlightRowAt: indexPath) ?? true else { return }
        let target: IndexPath?
        if let delegate { target = delegate.tableView(self, willSelectRowAt: indexPath) } else { target = indexPath }
        guard let target else { return }
        if !allowsMultipleSelection {
            for previous in selected where previous != target {
                guard let deselect = delegate.map({ $0.tableView(self, willDeselectRowAt: previous) }) ?? previous
                else {
                    continue
                }
                deselectRow(at: deselect, animated: false)
                delegate?.tableView(self, didDeselectRowAt: deselect)
            }
        }
        selectRow(at: target, animated: false, scrollPosition: .none)
        delegate?.tableView(self, didSelectRowAt: target)
    }

    // MARK: - Loading

    override func movedToWindow(_ window: UIWindow?) {
        if window != nil { loadRowsIfNeeded() }
    }

    /// Asks the data source for the sections, rows and the cells of the first rows, when needed.
    func loadRowsIfNeeded() {
        guard needsReload else { return }
        needsReload = false
        for row in loadedRows {
            row.cell.removeFromSuperview()
            if let identifier = row.cell.reuseIdentifier { reusable[identifier, default: []].append(row.cell) }
        }
        loadedRows = []
        guard let dataSource else {
            rowsPerSection = []
            return
        }
        let sections = max(0, dataSource.numberOfSections(in: self))
        rowsPerSection = (0..<sections).map { max(0, dataSource.tableView(self, numberOfRowsInSection: $0)) }
        selected.removeAll { !rowsPerSection.indices.contains($0.section) || $0.row >= rowsPerSection[$0.section] }
        var loaded: [LoadedRow] = []
        outer: for section in 0..<sections {
            for row in 0..<rowsPerSection[section] {
                guard loaded.count < Self.loadedRowLimit else { break outer }
                let indexPath = IndexPath(row: row, section: section)
                let cell = dataSource.tableView(self, cellForRowAt: indexPath)
                cell.setSelected(selected.contains(indexPath), animated: false)
                addSubview(cell)
                delegate?.tableView(self, willDisplay: cell, forRowAt: indexPath)
                loaded.append(LoadedRow(indexPath: indexPath, cell: cell))
            }
        }
        loadedRows = loaded
    }

    /// The number of rows in every section.
    var rowCount: Int {
        loadRowsIfNeeded()
        return rowsPerSection.reduce(0, +)
    }

    /// The position of `indexPath` counting rows across sections from 0.
    func flatIndex(of indexPath: IndexPath) -> Int {
        rowsPerSection.prefix(indexPath.section).reduce(0, +) + indexPath.row
    }

    /// The index path of the row at `flatIndex`, counting across sections from 0.
    func indexPath(flatIndex: Int) -> IndexPath {
        var remaining = flatIndex
        for (section, count) in rowsPerSection.enumerated() {
            if remaining < count { return IndexPath(row: remaining, section: section) }
            remaining -= count
        }
        return IndexPath(row: 0, section: 0)
    }

    override func didScroll() { delegate?.scrollViewDidScroll(self) }
}
