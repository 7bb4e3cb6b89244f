public import Foundation

/// `UITableViewCell`: one row of a table. Its text shows on the screen — from
/// ``contentConfiguration`` (a ``UIListContentConfiguration``) or the classic ``textLabel`` and
/// ``detailTextLabel``.
///
/// `init(style:reuseIdentifier:)` is `required` here: a table makes a registered cell class by
/// calling it ("creates the cell and initializes it by calling its init(style:reuseIdentifier:)
/// method", Apple), and Swift on Linux can call an initializer through a class only when it is
/// required. A subclass that overrides it writes `required override init(style:reuseIdentifier:)`.
@preconcurrency @MainActor
open class UITableViewCell: UIView {
    /// The classic layouts.
    public enum CellStyle: Int, Sendable {
        /// A title.
        case `default` = 0
        /// A title and a value on the right.
        case value1 = 1
        /// A value and a title.
        case value2 = 2
        /// A title and a subtitle.
        case subtitle = 3
    }

    /// What shows on the right.
    public enum AccessoryType: Int, Sendable {
        /// Nothing.
        case none = 0
        /// A chevron.
        case disclosureIndicator = 1
        /// An ⓘ and a chevron.
        case detailDisclosureButton = 2
        /// A check mark.
        case checkmark = 3
        /// An ⓘ.
        case detailButton = 4
    }

    /// How a selected cell looks.
    public enum SelectionStyle: Int, Sendable {
        /// Not highlighted.
        case none = 0
        /// Blue (grey since iOS 7).
        case blue = 1
        /// Grey.
        case gray = 2
        /// The default.
        case `default` = 3
    }

    /// The layout.
    public let cellStyle: CellStyle
    /// The identifier it is reused under.
    public let reuseIdentifier: String?
    /// The view to add subviews to.
    public let contentView = UIView()
    private var storedTextLabel: UILabel?
    private var storedDetailTextLabel: UILabel?
    private var storedImageView: UIImageView?
    private var storedContentView: UIView?

    /// A cell with `style`, reused under `reuseIdentifier`.
    public required init(style: UITableViewCell.CellStyle, reuseIdentifier: String?) {
        cellStyle = style
        self.reuseIdentifier = reuseIdentifier
        super.init(frame: CGRect(x: 0, y: 0, width: UIScreen.main.bounds.width, height: 44))
        addSubview(contentView)
    }

    /// A cell from a storyboard prototype (reads `reuseIdentifier`, `style`).
    public required init?(coder: NSCoder) {
        cellStyle = CellStyle(rawValue: coder.decodeInteger(forKey: "style")) ?? .default
        reuseIdentifier = coder.decodeObject(forKey: "reuseIdentifier") as? String
        super.init(coder: coder)
        addSubview(contentView)
    }

    /// A default cell.
    public override convenience init(frame: CGRect) {
        self.init(style: .default, reuseIdentifier: nil)
        self.frame = frame
    }

    /// The title label (made on first use).
    open var textLabel: UILabel? {
        if let storedTextLabel { return storedTextLabel }
        let label = UILabel()
        contentView.addSubview(label)
        storedTextLabel = label
        return label
    }

    /// The detail label (nil for the default style).
    open var detailTextLabel: UILabel? {
        guard cellStyle != .default else { return nil }
        if let storedDetailTextLabel { return storedDetailTextLabel }
        let label = UILabel()
        contentView.addSubview(label)
        storedDetailTextLabel = label
        return label
    }

    /// The image view (made on first use).
    open var imageView: UIImageView? {
        if let storedImageView { return storedImageView }
        let view = UIImageView()
        contentView.insertSubview(view, at: 0)
        storedImageView = view
        return view
    }

    /// What shows on the right.
    open var accessoryType: AccessoryType = .none
    /// A view shown on the right instead.
    open var accessoryView: UIView?
    /// How a selected cell looks.
    open var selectionStyle: SelectionStyle = .default
    /// Whether the cell is selected.
    open private(set) var isSelected = false
    /// Whether the cell is highlighted.
    open var isHighlighted = false
    /// A view behind a selected cell.
    open var selectedBackgroundView: UIView?
    /// Where separators start.
    open var separatorInset: UIEdgeInsets = .zero

    /// The content the cell shows (a ``UIListContentConfiguration``): it replaces the content view.
    open var contentConfiguration: (any UIContentConfiguration)? {
        didSet {
            UIKitThread.check("UITableViewCell.contentConfiguration", self)
            storedContentView?.removeFromSuperview()
            storedContentView = nil
            if let contentConfiguration {
                let view = contentConfiguration.makeContentView()
                contentView.addSubview(view)
                storedContentView = view
            }
        }
    }

    /// A list configuration for the cell's style, to fill and assign to ``contentConfiguration``.
    open func defaultContentConfiguration() -> UIListContentConfiguration {
        switch cellStyle {
        case .subtitle: .subtitleCell()
        case .value1: .valueCell()
        case .value2: .valueCell()
        case .default: .cell()
        }
    }

    /// Selects or deselects the cell.
    open func setSelected(_ selected: Bool, animated: Bool) { isSelected = selected }
    /// Highlights or unhighlights the cell.
    open func setHighlighted(_ highlighted: Bool, animated: Bool) { isHighlighted = highlighted }
    /// Called before the cell is reused for another row.
    open func prepareForReuse() {}

    /// The text, detail and image the cell shows.
    var shownContent: (text: String?, detail: String?, image: UIImage?) {
        if let list = contentConfiguration as? UIListContentConfiguration {
            return (list.text, list.secondaryText, list.image)
        }
        return (storedTextLabel?.text, storedDetailTextLabel?.text, storedImageView?.image)
    }
}

/// `UIContentConfiguration`: content a cell shows, which makes its own view.
@preconcurrency @MainActor
public protocol UIContentConfiguration {
    /// A view showing this content.
    func makeContentView() -> any UIView & UIContentView
}

/// `UIContentView`: a view showing a content configuration.
@preconcurrency @MainActor
public protocol UIContentView: AnyObject {
    /// The configuration shown.
    var configuration: any UIContentConfiguration { get set }
}

/// `UIListContentConfiguration`: a list row's text, secondary text and image.
public struct UIListContentConfiguration: UIContentConfiguration, Sendable {
    /// How text looks.
    public struct TextProperties: Sendable {
        /// The font.
        public var font: UIFont = .preferredFont(forTextStyle: .body)
        /// The colour.
        public var color: UIColor = .label
        /// The most lines (0: any).
        public var numberOfLines = 0
        /// The alignment.
        public var alignment: NSTextAlignment = .natural
    }

    /// How the image looks.
    public struct ImageProperties: Sendable {
        /// The tint.
        public var tintColor: UIColor?
        /// The largest size.
        public var maximumSize: CGSize = .zero
    }

    /// The title.
    public var text: String?
    /// The title with attributes.
    public var attributedText: NSAttributedString? {
        get { text.map { NSAttributedString(string: $0) } }
        set { text = newValue?.string }
    }
    /// The secondary text.
    public var secondaryText: String?
    /// The secondary text with attributes.
    public var secondaryAttributedText: NSAttributedString? {
        get { secondaryText.map { NSAttributedString(string: $0) } }
        set { secondaryText = newValue?.string }
    }
    /// The image.
    public var image: UIImage?
    /// How the title looks.
    public var textProperties = TextProperties()
    /// How the secondary text looks.
    public var secondaryTextProperties = TextProperties()
    /// How the image looks.
    public var imageProperties = ImageProperties()

    /// A plain cell's configuration.
    public static func cell() -> UIListContentConfiguration { UIListContentConfiguration() }
    /// A cell with a subtitle.
    public static func subtitleCell() -> UIListContentConfiguration { UIListContentConfiguration() }
    /// A cell with a value on the right.
    public static func valueCell() -> UIListContentConfiguration { UIListContentConfiguration() }
    /// A grouped table's header.
    public static func groupedHeader() -> UIListContentConfiguration { UIListContentConfiguration() }

    /// A view with a label for the text and one for the secondary text.
    @MainActor
    public func makeContentView() -> any UIView & UIContentView { UIListContentView(configuration: self) }
}

/// `UIListContentView`: shows a ``UIListContentConfiguration``.
@preconcurrency @MainActor
open class UIListContentView: UIView, UIContentView {
    private let textLabel = UILabel()
    private let secondaryLabel = UILabel()
    private let imageView = UIImageView()

    /// A view showing `configuration`.
    public init(configuration: UIListContentConfiguration) {
        listConfiguration = configuration
        super.init(frame: .zero)
        addSubview(imageView)
        addSubview(textLabel)
        addSubview(secondaryLabel)
        apply()
    }

    /// A view from a storyboard.
    public required init?(coder: NSCoder) {
        listConfiguration = UIListContentConfiguration()
        super.init(coder: coder)
    }

    private var listConfiguration: UIListContentConfiguration { didSet { apply() } }

    /// The configuration shown.
    open var configuration: any UIContentConfiguration {
        get { listConfiguration }
        set { if let list = newValue as? UIListContentConfiguration { listConfiguration = list } }
    }

    private func apply() {
        textLabel.text = listConfiguration.text
        textLabel.font = listConfiguration.textProperties.font
        secondaryLabel.text = listConfiguration.secondaryText
        secondaryLabel.isHidden = listConfiguration.secondaryText == nil
        imageView.image = listConfiguration.image
        imageView.isHidden = listConfiguration.image == nil
    }
}

/// `UITableViewController`: a view controller whose view is a table, and which is its data source and
/// delegate. A subclass overrides the data source and delegate methods.
@preconcurrency @MainActor
open class UITableViewController: UIViewController, UITableViewDataSource, UITableViewDelegate {
    private let tableStyle: UITableView.Style

    /// A controller with a table of `style`.
    public init(style: UITableView.Style) {
        tableStyle = style
        super.init(nibName: nil, bundle: nil)
    }

    /// A controller with a plain table.
    public override init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) {
        tableStyle = .plain
        super.init(nibName: nibNameOrNil, bundle: nibBundleOrNil)
    }

    /// A controller from a storyboard.
    public required init?(coder: NSCoder) {
        tableStyle = .plain
        super.init(coder: coder)
    }

    // Apple declares it implicitly unwrapped:

    // swift-format-ignore: NeverUseImplicitlyUnwrappedOptionals
    /// The table (the view).
    open var tableView: UITableView! {
        get { view as? UITableView }
        set { view = newValue }
    }

    /// Whether the selection clears when the view appears (`true`).
    open var clearsSelectionOnViewWillAppear = true

    /// The view is a table whose data source and delegate are this controller.
    open override func loadView() {
        if let table = storyboardView?() {  // the storyboard's table, connected as it says
            view = table
            return
        }
        let table = UITableView(frame: UIScreen.main.bounds, style: tableStyle)
        table.dataSource = self
        table.delegate = self
        view = table
    }

    /// Clears the selection when ``clearsSelectionOnViewWillAppear``.
    open override func viewWillAppear(_ animated: Bool) {
        super.viewWillAppear(animated)
        if clearsSelectionOnViewWillAppear, let selected = tableView?.indexPathsForSelectedRows {
            for indexPath in selected { tableView.deselectRow(at: indexPath, animated: animated) }
        }
    }

    /// One section.
    open func numberOfSections(in tableView: UITableView) -> Int { 1 }
    /// No rows.
    open func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { 0 }
    /// A default cell.
    open func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        UITableViewCell(style: .default, reuseIdentifier: nil)
    }
    /// No header.
    open func tableView(_ tableView: UITableView, titleForHeaderInSection section: Int) -> String? { nil }
    /// No footer.
    open func tableView(_ tableView: UITableView, titleForFooterInSection section: Int) -> String? { nil }
    /// Editable.
    open func tableView(_ tableView: UITableView, canEditRowAt indexPath: IndexPath) -> Bool { true }
    /// `true`.
    open func tableView(_ tableView: UITableView, shouldHighlightRowAt indexPath: IndexPath) -> Bool { true }
    /// The same row.
    open func tableView(_ tableView: UITableView, willSelectRowAt indexPath: IndexPath) -> IndexPath? { indexPath }
    /// Nothing.
    open func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) {}
    /// The same row.
    open func tableView(_ tableView: UITableView, willDeselectRowAt indexPath: IndexPath) -> IndexPath? { indexPath }
    /// Nothing.
    open func tableView(_ tableView: UITableView, didDeselectRowAt indexPath: IndexPath) {}
    /// The table's row height.
    open func tableView(_ tableView: UITableView, heightForRowAt indexPath: IndexPath) -> CGFloat {
        tableView.rowHeight
    }
    /// Nothing.
    open func tableView(_ tableView: UITableView, willDisplay cell: UITableViewCell, forRowAt indexPath: IndexPath) {}
    /// None.
    open func tableView(_ tableView: UITableView, viewForHeaderInSection section: Int) -> UIView? { nil }
    /// The table's header height.
    open func tableView(_ tableView: UITableView, heightForHeaderInSection section: Int) -> CGFloat {
        tableView.sectionHeaderHeight
    }
    /// Nothing.
    open func scrollViewDidScroll(_ scrollView: UIScrollView) {}
}
