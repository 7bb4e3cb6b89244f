public import Foundation

/// `UITextField`: one line of editable text. Tapping it gives it the keyboard; the scripted user's
/// `type` then enters text one character at a time, as a keyboard does: the delegate's
/// `textField(_:shouldChangeCharactersIn:replacementString:)` is asked for each, `editingChanged`
/// is sent and `UITextField.textDidChangeNotification` posted; `\n` presses return
/// (`textFieldShouldReturn(_:)`).
@preconcurrency @MainActor
open class UITextField: UIControl, TextInputTraitStorage {
    /// Why editing ended.
    public enum DidEndEditingReason: Int, Sendable {
        /// The field resigned.
        case committed = 0
    }

    /// The border's look.
    public enum BorderStyle: Int, Sendable {
        /// None.
        case none = 0
        /// A line.
        case line = 1
        /// A bezel.
        case bezel = 2
        /// Rounded.
        case roundedRect = 3
    }

    /// When an overlay view shows.
    public enum ViewMode: Int, Sendable {
        /// Never.
        case never = 0
        /// While editing.
        case whileEditing = 1
        /// Unless editing.
        case unlessEditing = 2
        /// Always.
        case always = 3
    }

    /// Posted after the text changed (object: the field).
    public static let textDidChangeNotification = Notification.Name("UITextFieldTextDidChangeNotification")
    /// Posted when editing began.
    public static let textDidBeginEditingNotification = Notification.Name("UITextFieldTextDidBeginEditingNotification")
    /// Posted when editing ended.
    public static let textDidEndEditingNotification = Notification.Name("UITextFieldTextDidEndEditingNotification")

    /// A field with `frame`.
    public override init(frame: CGRect) { super.init(frame: frame) }

    /// A field from a storyboard (reads `text`, `placeholder`).
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        text = coder.decodeObject(forKey: "text") as? String
        placeholder = coder.decodeObject(forKey: "placeholder") as? String
    }

    /// The text (`""` when empty, as on iOS).
    open var text: String? {
        get { storedText }
        set {
            UIKitThread.check("UITextField.text", self)
            storedText = newValue ?? ""
        }
    }
    private var storedText = ""

    /// The text with attributes.
    open var attributedText: NSAttributedString? {
        get { NSAttributedString(string: storedText) }
        set { text = newValue?.string }
    }

    /// Shown while the field is empty.
    open var placeholder: String? { didSet { UIKitThread.check("UITextField.placeholder", self) } }
    /// The placeholder with attributes.
    open var attributedPlaceholder: NSAttributedString? {
        get { placeholder.map { NSAttributedString(string: $0) } }
        set { placeholder = newValue?.string }
    }
    /// The font.
    open var font: UIFont?
    /// The text colour.
    open var textColor: UIColor?
    /// The alignment.
    open var textAlignment: NSTextAlignment = .natural
    /// The border's look.
    open var borderStyle: BorderStyle = .none
    /// When the clear button shows.
    open var clearButtonMode: ViewMode = .never
    /// Whether editing clears the text.
    open var clearsOnBeginEditing = false
    /// Whether the font shrinks to fit.
    open var adjustsFontSizeToFitWidth = false
    /// A view on the left.
    open var leftView: UIView?
    /// When the left view shows.
    open var leftViewMode: ViewMode = .never
    /// A view on the right.
    open var rightView: UIView?
    /// When the right view shows.
    open var rightViewMode: ViewMode = .never
    /// Its ``UITextInputTraits`` (the keyboard it asks for, how typing is corrected).
    package var inputTraits = TextInputTraitValues()
    /// Whether return is enabled only with text.
    open var enablesReturnKeyAutomatically = false

    /// The delegate, asked before and told after each change.
    open weak var delegate: (any UITextFieldDelegate)?

    /// Whether the field has the keyboard.
    open var isEditing: Bool { isFirstResponder }

    /// A field can have the keyboard while enabled.
    open override var canBecomeFirstResponder: Bool { isEnabled }

    /// Asks the delegate whether editing may begin, then takes the keyboard.
    open override func becomeFirstResponder() -> Bool {
        guard !isFirstResponder else { return true }
        guard delegate?.textFieldShouldBeginEditing(self) ?? true else { return false }
        return super.becomeFirstResponder()
    }

    override func firstResponderDidBegin() {
        if clearsOnBeginEditing { storedText = "" }
        delegate?.textFieldDidBeginEditing(self)
        sendActions(for: .editingDidBegin)
        NotificationCenter.default.post(name: Self.textDidBeginEditingNotification, object: self)
    }

    override func firstResponderShouldEnd() -> Bool { delegate?.textFieldShouldEndEditing(self) ?? true }

    override func firstResponderDidEnd() {
        delegate?.textFieldDidEndEditing(self, reason: .committed)
        sendActions(for: .editingDidEnd)
        NotificationCenter.default.post(name: Self.textDidEndEditingNotification, object: self)
    }

    /// Types `text` as the keyboard would.
    /// - Returns: how many characters the delegate refused.
    func typeAsKeyboard(_ text: String) -> Int {
        var refused = 0
        for character in text {
            if character == "\n" {
                _ = delegate?.textFieldShouldReturn(self)
                let exits = !handlers.filter { $0.events.contains(.editingDidEndOnExit) }.isEmpty
                sendActions(for: .editingDidEndOnExit)
                if exits { resignFirstResponder() }
                continue
            }
            let range = NSRange(location: storedText.utf16.count, length: 0)
            let allowed =
                delegate?.textField(self, shouldChangeCharactersIn: range, replacementString: String(character))
                ?? true
            guard allowed else {
                refused += 1
                continue
            }
            appendTyped(character)
        }
        return refused
    }

    private func appendTyped(_ character: Character) {
        storedText.append(character)
        UIKitThread.noteChange()
        sendActions(for: .editingChanged)
        NotificationCenter.default.post(name: Self.textDidChangeNotification, object: self)
        delegate?.textFieldDidChangeSelection(self)
    }
}

/// `UITextFieldDelegate`: asked before and told after a field's editing. Every method is optional
/// (a default here), as in Objective-C.
@preconcurrency @MainActor
public protocol UITextFieldDelegate: NSObjectProtocol {
    /// Whether editing may begin (default `true`).
    func textFieldShouldBeginEditing(_ textField: UITextField) -> Bool
    /// Editing began.
    func textFieldDidBeginEditing(_ textField: UITextField)
    /// Whether editing may end (default `true`).
    func textFieldShouldEndEditing(_ textField: UITextField) -> Bool
    /// Editing ended.
    func textFieldDidEndEditing(_ textField: UITextField)
    /// Editing ended, with the reason (default: calls ``textFieldDidEndEditing(_:)``).
    func textFieldDidEndEditing(_ textField: UITextField, reason: UITextField.DidEndEditingReason)
    /// Whether `string` may replace the characters in `range` (default `true`).
    func textField(_ textField: UITextField, shouldChangeCharactersIn range: NSRange, replacementString string: String)
        -> Bool
    /// The selection changed.
    func textFieldDidChangeSelection(_ textField: UITextField)
    /// Whether the clear button may clear the text (default `true`).
    func textFieldShouldClear(_ textField: UITextField) -> Bool
    /// Return was pressed; whether to process it (default `true`).
    func textFieldShouldReturn(_ textField: UITextField) -> Bool
}

extension UITextFieldDelegate {
    /// `true`.
    public func textFieldShouldBeginEditing(_ textField: UITextField) -> Bool { true }
    /// Nothing.
    public func textFieldDidBeginEditing(_ textField: UITextField) {}
    /// `true`.
    public func textFieldShouldEndEditing(_ textField: UITextField) -> Bool { true }
    /// Nothing.
    public func textFieldDidEndEditing(_ textField: UITextField) {}
    /// Calls ``UITextFieldDelegate/textFieldDidEndEditing(_:)``.
    public func textFieldDidEndEditing(_ textField: UITextField, reason: UITextField.DidEndEditingReason) {
        textFieldDidEndEditing(textField)
    }
    /// `true`.
    public func textField(
        _ textField: UITextField, shouldChangeCharactersIn range: NSRange, replacementString string: String
    ) -> Bool { true }
    /// Nothing.
    public func textFieldDidChangeSelection(_ textField: UITextField) {}
    /// `true`.
    public func textFieldShouldClear(_ textField: UITextField) -> Bool { true }
    /// `true`.
    public func textFieldShouldReturn(_ textField: UITextField) -> Bool { true }
}
