public import Foundation

/// `UIAlertController`: an alert or action sheet, presented with `present(_:animated:completion:)`.
/// The screen shows it over the dimmed sheet, with its title, message, text fields and actions; the
/// scripted user answers it with `alert ACTION-TITLE` (or `tap ACTION-TITLE`). Apple: "When a person
/// taps that action, the alert controller executes the block you provided when creating the action
/// object" — after the alert is dismissed, as on a device.
@preconcurrency @MainActor
open class UIAlertController: UIViewController {
    /// Alert or action sheet.
    public enum Style: Int, Sendable {
        /// A sheet from the bottom.
        case actionSheet = 0
        /// A box in the middle.
        case alert = 1
    }

    private var storedPreferredStyle: Style = .alert
    private var storedActions: [UIAlertAction] = []
    private var storedTextFields: [UITextField] = []
    /// Whether an action was chosen (an alert left on screen unanswered is reported).
    private(set) var answered = false

    /// An alert with `title`, `message` and `preferredStyle`.
    public convenience init(title: String?, message: String?, preferredStyle: UIAlertController.Style) {
        self.init(nibName: nil, bundle: nil)
        self.title = title
        self.message = message
        storedPreferredStyle = preferredStyle
    }

    /// More detail under the title.
    open var message: String? { didSet { UIKitThread.check("UIAlertController.message", self) } }
    /// Alert or action sheet.
    open var preferredStyle: UIAlertController.Style { storedPreferredStyle }
    /// The actions, in the order added (Apple: "the order in which you add those actions determines
    /// their order in the resulting alert").
    open var actions: [UIAlertAction] { storedActions }
    /// The action shown bold, chosen by return.
    open var preferredAction: UIAlertAction?
    /// The text fields (alerts only), in the order added.
    open var textFields: [UITextField]? { storedTextFields.isEmpty ? nil : storedTextFields }
    /// On a phone an action sheet is not a popover: nil.
    open var popoverPresentationController: UIPopoverPresentationController? { nil }

    /// Adds a button for `action`.
    open func addAction(_ action: UIAlertAction) {
        UIKitThread.check("UIAlertController.addAction(_:)", self)
        action.alertController = self
        storedActions.append(action)
    }

    /// Adds a text field, configured by `configurationHandler` before the alert shows.
    open func addTextField(configurationHandler: ((UITextField) -> Void)? = nil) {
        UIKitThread.check("UIAlertController.addTextField(configurationHandler:)", self)
        let field = UITextField()
        field.borderStyle = .roundedRect
        storedTextFields.append(field)
        configurationHandler?(field)
        if isViewLoaded { view.addSubview(field) }
    }

    /// The alert's view holds its text fields.
    open override func loadView() {
        view = UIView(frame: UIScreen.main.bounds)
        for field in storedTextFields { view.addSubview(field) }
    }

    /// The first text field takes the keyboard when the alert shows, as on iOS.
    override func didAppearOnScreen() {
        _ = storedTextFields.first?.becomeFirstResponder()
    }

    /// Chooses `action` as a tap would: the alert is dismissed, then the handler runs.
    func choose(_ action: UIAlertAction) {
        answered = true
        dismiss(animated: true) { action.handler?(action) }
    }
}

/// `UIAlertAction`: a button of an alert.
@preconcurrency @MainActor
open class UIAlertAction: NSObject {
    /// How the button looks.
    public enum Style: Int, Sendable {
        /// Plain.
        case `default` = 0
        /// Cancels (bold, last).
        case cancel = 1
        /// Destroys data (red).
        case destructive = 2

        var name: String {
            switch self {
            case .default: "default"
            case .cancel: "cancel"
            case .destructive: "destructive"
            }
        }
    }

    /// The button's title.
    open private(set) var title: String?
    /// How the button looks.
    open private(set) var style: Style = .default
    /// Whether it can be chosen (Apple: "Actions are enabled by default when you create them").
    open var isEnabled = true { didSet { UIKitThread.check("UIAlertAction.isEnabled", self) } }
    let handler: ((UIAlertAction) -> Void)?
    weak var alertController: UIAlertController?

    /// An action with `title` and `style` that runs `handler` when chosen.
    public convenience init(title: String?, style: UIAlertAction.Style, handler: ((UIAlertAction) -> Void)? = nil) {
        self.init(handler: handler)
        self.title = title
        self.style = style
    }

    init(handler: ((UIAlertAction) -> Void)?) {
        self.handler = handler
        super.init()
    }

    /// An action with no title.
    public override convenience init() { self.init(handler: nil) }
}

/// `UIPopoverPresentationController`: where a popover points (only on iPad; nil on the phone).
@preconcurrency @MainActor
open class UIPopoverPresentationController: NSObject {
    /// The view it points at.
    open var sourceView: UIView?
    /// The rectangle it points at.
    open var sourceRect: CGRect = .zero
    /// The bar button it points at.
    open var barButtonItem: UIBarButtonItem?
}
