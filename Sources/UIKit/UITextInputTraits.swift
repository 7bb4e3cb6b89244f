import Foundation

/// `UIKeyboardType`: the keyboard a text input asks for.
public enum UIKeyboardType: Int, Sendable {
    /// The default keyboard.
    case `default` = 0
    /// Letters, numbers and punctuation.
    case asciiCapable = 1
    /// Numbers and punctuation.
    case numbersAndPunctuation = 2
    /// For URLs.
    case URL = 3
    /// Digits.
    case numberPad = 4
    /// A phone pad.
    case phonePad = 5
    /// Names and phone numbers.
    case namePhonePad = 6
    /// For email addresses.
    case emailAddress = 7
    /// Digits and a decimal point.
    case decimalPad = 8
    /// For social handles.
    case twitter = 9
    /// For web searches.
    case webSearch = 10
    /// Digits, ASCII only.
    case asciiCapableNumberPad = 11
}

/// `UIReturnKeyType`: the title of the return key.
public enum UIReturnKeyType: Int, Sendable {
    /// Return.
    case `default` = 0
    /// Go.
    case go = 1
    /// Google.
    case google = 2
    /// Join.
    case join = 3
    /// Next.
    case next = 4
    /// Route.
    case route = 5
    /// Search.
    case search = 6
    /// Send.
    case send = 7
    /// Yahoo.
    case yahoo = 8
    /// Done.
    case done = 9
    /// Emergency Call.
    case emergencyCall = 10
    /// Continue.
    case `continue` = 11
}

/// `UITextAutocapitalizationType`: what is capitalised automatically.
public enum UITextAutocapitalizationType: Int, Sendable {
    /// Nothing.
    case none = 0
    /// Each word.
    case words = 1
    /// Each sentence.
    case sentences = 2
    /// Every character.
    case allCharacters = 3
}

/// `UITextAutocorrectionType`: whether autocorrection is on.
public enum UITextAutocorrectionType: Int, Sendable {
    /// The default.
    case `default` = 0
    /// Off.
    case no = 1
    /// On.
    case yes = 2
}

/// `UITextSpellCheckingType`: whether spell checking is on.
public enum UITextSpellCheckingType: Int, Sendable {
    /// The default.
    case `default` = 0
    /// Off.
    case no = 1
    /// On.
    case yes = 2
}

/// `UIKeyboardAppearance`: the keyboard's look.
public enum UIKeyboardAppearance: Int, Sendable {
    /// The default.
    case `default` = 0
    /// Dark.
    case dark = 1
    /// Light.
    case light = 2
}

/// `UITextContentType`: what a text input holds, for AutoFill.
public struct UITextContentType: RawRepresentable, Hashable, Sendable {
    /// The type's name.
    public var rawValue: String
    /// A content type.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// A URL.
    public static let URL = UITextContentType(rawValue: "url")
    /// An email address.
    public static let emailAddress = UITextContentType(rawValue: "email")
    /// A user name.
    public static let username = UITextContentType(rawValue: "username")
    /// A password.
    public static let password = UITextContentType(rawValue: "password")
    /// A name.
    public static let name = UITextContentType(rawValue: "name")
}

/// `UITextInputTraits`: the keyboard a text input asks for and how its typing is corrected.
/// ``UITextField`` and ``UITextView`` adopt it, as on iOS.
///
/// On iOS the traits are optional protocol properties each class declares again; here each class
/// holds one value of them and the protocol's implementations read and write it, so a subclass
/// sets a trait (in `init` or `viewDidLoad`) rather than overriding its property.
/// Apple documents the protocol at https://developer.apple.com/documentation/uikit/uitextinputtraits .
@preconcurrency @MainActor
public protocol UITextInputTraits: AnyObject {
    /// The keyboard's type.
    var keyboardType: UIKeyboardType { get set }
    /// The return key's title.
    var returnKeyType: UIReturnKeyType { get set }
    /// Automatic capitalisation.
    var autocapitalizationType: UITextAutocapitalizationType { get set }
    /// Autocorrection.
    var autocorrectionType: UITextAutocorrectionType { get set }
    /// Spell checking.
    var spellCheckingType: UITextSpellCheckingType { get set }
    /// The keyboard's look.
    var keyboardAppearance: UIKeyboardAppearance { get set }
    /// Whether the text is hidden as dots (the screen shows dots too).
    var isSecureTextEntry: Bool { get set }
    /// What the input holds, for AutoFill.
    var textContentType: UITextContentType? { get set }
}

/// The values of the ``UITextInputTraits`` of one text input, iOS's defaults until set.
package struct TextInputTraitValues: Sendable {
    var keyboardType: UIKeyboardType = .default
    var returnKeyType: UIReturnKeyType = .default
    var autocapitalizationType: UITextAutocapitalizationType = .sentences
    var autocorrectionType: UITextAutocorrectionType = .default
    var spellCheckingType: UITextSpellCheckingType = .default
    var keyboardAppearance: UIKeyboardAppearance = .default
    var isSecureTextEntry = false
    var textContentType: UITextContentType?
}

/// A text input that keeps its traits in one ``TextInputTraitValues``: the traits' one implementation.
@MainActor
package protocol TextInputTraitStorage: UITextInputTraits {
    /// The input's traits.
    var inputTraits: TextInputTraitValues { get set }
}

extension TextInputTraitStorage {
    /// The keyboard's type.
    public var keyboardType: UIKeyboardType {
        get { inputTraits.keyboardType }
        set { inputTraits.keyboardType = newValue }
    }
    /// The return key's title.
    public var returnKeyType: UIReturnKeyType {
        get { inputTraits.returnKeyType }
        set { inputTraits.returnKeyType = newValue }
    }
    /// Automatic capitalisation.
    public var autocapitalizationType: UITextAutocapitalizationType {
        get { inputTraits.autocapitalizationType }
        set { inputTraits.autocapitalizationType = newValue }
    }
    /// Autocorrection.
    public var autocorrectionType: UITextAutocorrectionType {
        get { inputTraits.autocorrectionType }
        set { inputTraits.autocorrectionType = newValue }
    }
    /// Spell checking.
    public var spellCheckingType: UITextSpellCheckingType {
        get { inputTraits.spellCheckingType }
        set { inputTraits.spellCheckingType = newValue }
    }
    /// The keyboard's look.
    public var keyboardAppearance: UIKeyboardAppearance {
        get { inputTraits.keyboardAppearance }
        set { inputTraits.keyboardAppearance = newValue }
    }
    /// Whether the text is hidden as dots (the screen shows dots too).
    public var isSecureTextEntry: Bool {
        get { inputTraits.isSecureTextEntry }
        set { inputTraits.isSecureTextEntry = newValue }
    }
    /// What the input holds, for AutoFill.
    public var textContentType: UITextContentType? {
        get { inputTraits.textContentType }
        set { inputTraits.textContentType = newValue }
    }
}
