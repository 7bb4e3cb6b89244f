public import Foundation

/// `UITextView`: editable (or read-only) text of any length. The scripted user's `type` enters text
/// one character at a time when it has the keyboard: the delegate's
/// `textView(_:shouldChangeTextIn:replacementText:)` is asked for each, then `textViewDidChange(_:)`
/// is called and `UITextView.textDidChangeNotification` posted.
@preconcurrency @MainActor
open class UITextView: UIScrollView, TextInputTraitStorage {
    /// Posted after the text changed (object: the text view).
    public static let textDidChangeNotification = Notification.Name("UITextViewTextDidChangeNotification")
    /// Posted when editing began.
    public static let textDidBeginEditingNotification = Notification.Name("UITextViewTextDidBeginEditingNotification")
    /// Posted when editing ended.
    public static let textDidEndEditingNotification = Notification.Name("UITextViewTextDidEndEditingNotification")

    /// A text view with `frame`.
    public override init(frame: CGRect) { super.init(frame: frame) }

    /// A text view with `frame` and a text container (kept for the signature; text is not laid out).
    public convenience init(frame: CGRect, textContainer: AnyObject?) { self.init(frame: frame) }

    /// A text view from a storyboard (reads `text`, `editable`).
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        storedText = coder.decodeObject(forKey: "text") as? String ?? ""
        if coder.containsValue(forKey: "editable") { isEditable = coder.decodeBool(forKey: "editable") }
    }

    // Apple declares it implicitly unwrapped:

    // swift-format-ignore: NeverUseImplicitlyUnwrappedOptionals
    /// The text (`""` when empty).
    open var text: String! {
        get { storedText }
        set {
            UIKitThread.check("UITextView.text", self)
            storedText = newValue ?? ""
            textChanged(byTyping: false)
        }
    }
    private var storedText = ""

    // Apple declares it implicitly unwrapped:

    // swift-format-ignore: NeverUseImplicitlyUnwrappedOptionals
    /// The text with attributes.
    open var attributedText: NSAttributedString! {
        get { NSAttributedString(string: storedText) }
        set { text = newValue?.string ?? "" }
    }

    /// The font.
    open var font: UIFont?
    /// The text colour.
    open var textColor: UIColor?
    /// The alignment.
    open var textAlignment: NSTextAlignment = .natural
    /// Whether the text can be edited (a read-only text view cannot have the keyboard).
    open var isEditable = true { didSet { UIKitThread.check("UITextView.isEditable", self) } }
    /// Whether the text can be selected.
    open var isSelectable = true
    /// The selection.
    open var selectedRange = NSRange(location: 0, length: 0)
    /// The insets of the text.
    open var textContainerInset = UIEdgeInsets(top: 8, left: 0, bottom: 8, right: 0)
    /// Its ``UITextInputTraits`` (the keyboard it asks for, how typing is corrected).
    package var inputTraits = TextInputTraitValues()
    /// Whether the font follows the person's text size.
    open var adjustsFontForContentSizeCategory = false

    /// The delegate, asked before and told after each change.
    open weak var delegate: (any UITextViewDelegate)?
    /// Told after each change the person types (not after code sets ``text``), as
    /// `textDidChangeNotification` is posted: the compose sheet re-validates its content here.
    package var textDidChangeHandlers: [() -> Void] = []
    /// The placeholder a compose sheet shows while the text is empty.
    package var placeholderText: String?

    /// An editable text view can have the keyboard.
    open override var canBecomeFirstResponder: Bool { isEditable }

    /// Asks the delegate whether editing may begin, then takes the keyboard.
    open override func becomeFirstResponder() -> Bool {
        guard !isFirstResponder else { return true }
        guard delegate?.textViewShouldBeginEditing(self) ?? true else { return false }
        return super.becomeFirstResponder()
    }

    override func firstResponderDidBegin() {
        delegate?.textViewDidBeginEditing(self)
        NotificationCenter.default.post(name: Self.textDidBeginEditingNotification, object: self)
    }

    override func firstResponderShouldEnd() -> Bool { delegate?.textViewShouldEndEditing(self) ?? true }

    override func firstResponderDidEnd() {
        delegate?.textViewDidEndEditing(self)
        NotificationCenter.default.post(name: Self.textDidEndEditingNotification, object: self)
    }

    override func didScroll() { delegate?.scrollViewDidScroll(self) }

    /// Types `text` as the keyboard would.
    /// - Returns: how many characters the delegate refused.
    func typeAsKeyboard(_ text: String) -> Int {
        var refused = 0
        for character in text {
            let range = NSRange(location: storedText.utf16.count, length: 0)
            guard delegate?.textView(self, shouldChangeTextIn: range, replacementText: String(character)) ?? true else {
                refused += 1
                continue
            }
            storedText.append(character)
            selectedRange = NSRange(location: storedText.utf16.count, length: 0)
            UIKitThread.noteChange()
            textChanged(byTyping: true)
        }
        return refused
    }

    private func textChanged(byTyping typing: Bool) {
        if typing {
            delegate?.textViewDidChangeSelection(self)
            delegate?.textViewDidChange(self)
            NotificationCenter.default.post(name: Self.textDidChangeNotification, object: self)
            for handler in textDidChangeHandlers { handler() }
        }
    }
}

/// `UITextViewDelegate`: asked before and told after a text view's editing. Every method is
/// optional (a default here), as in Objective-C.
@preconcurrency @MainActor
public protocol UITextViewDelegate: UIScrollViewDelegate {
    /// Whether editing may begin (default `true`).
    func textViewShouldBeginEditing(_ textView: UITextView) -> Bool
    /// Whether editing may end (default `true`).
    func textViewShouldEndEditing(_ textView: UITextView) -> Bool
    /// Editing began.
    func textViewDidBeginEditing(_ textView: UITextView)
    /// Editing ended.
    func textViewDidEndEditing(_ textView: UITextView)
    /// Whether `text` may replace the characters in `range` (default `true`).
    func textView(_ textView: UITextView, shouldChangeTextIn range: NSRange, replacementText text: String) -> Bool
    /// The text changed (by the person, not by code).
    func textViewDidChange(_ textView: UITextView)
    /// The selection changed.
    func textViewDidChangeSelection(_ textView: UITextView)
}

extension UITextViewDelegate {
    /// `true`.
    public func textViewShouldBeginEditing(_ textView: UITextView) -> Bool { true }
    /// `true`.
    public func textViewShouldEndEditing(_ textView: UITextView) -> Bool { true }
    /// Nothing.
    public func textViewDidBeginEditing(_ textView: UITextView) {}
    /// Nothing.
    public func textViewDidEndEditing(_ textView: UITextView) {}
    /// `true`.
    public func textView(_ textView: UITextView, shouldChangeTextIn range: NSRange, replacementText text: String)
        -> Bool
    { true }
    /// Nothing.
    public func textViewDidChange(_ textView: UITextView) {}
    /// Nothing.
    public func textViewDidChangeSelection(_ textView: UITextView) {}
}
