/// Something a device would have shown going wrong in the extension's user interface, explained.
public struct UIDiagnostic: Codable, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: String, Codable, Sendable {
        /// UIKit state was changed off the main thread (what the Main Thread Checker reports on a device).
        case offMainThread
        /// Post was tapped while the compose sheet's `isContentValid()` returned `false` (the button
        /// was disabled: nothing happened).
        case postWhileContentInvalid
        /// A control was tapped that a finger could not use (disabled, hidden, covered): nothing happened.
        case tapIgnored
        /// The sheet closed but the extension never completed or cancelled its request: on a device
        /// the host app waits until the system ends the extension.
        case requestNeverCompleted
        /// An alert stayed on screen with no action chosen.
        case alertNeverAnswered
        /// A presentation UIKit refuses (the presenting view controller's view is not in a window yet,
        /// or it is already presenting something): nothing was presented.
        case presentationRefused
        /// A layout constraint was activated between views with no common ancestor: iOS raises and
        /// ends the extension.
        case constraintWithoutCommonAncestor
        /// A table asked for a cell under an identifier with no registered class: iOS raises and ends
        /// the extension.
        case unregisteredCell
        /// A storyboard connects an outlet the class does not declare (a stored property of that name
        /// taking the object): iOS raises NSUnknownKeyException and ends the extension.
        case unknownOutlet
        /// A storyboard asked for by name is missing or unreadable, or has no view controller with
        /// the Storyboard ID asked for: iOS raises NSInvalidArgumentException and ends the extension.
        case storyboardRefused
    }

    /// What went wrong.
    public var kind: Kind
    /// The explanation.
    public var message: String
    /// Where in the program (`ShareViewController.viewDidLoad() at ShareViewController.swift:42`),
    /// when known.
    public var callSite: String?
    /// The script's line that led to it, when a step did.
    public var line: Int?
    /// How many times it happened (the same call site off the main thread counts once, with a number).
    public var count: Int?

    /// A diagnostic.
    public init(kind: Kind, message: String, callSite: String? = nil, line: Int? = nil, count: Int? = nil) {
        self.kind = kind
        self.message = message
        self.callSite = callSite
        self.line = line
        self.count = count
    }

    /// The message with its call site, line and count.
    public var description: String {
        var text = message
        if let callSite { text += " (at \(callSite))" }
        if let line { text += " [script line \(line)]" }
        if let count, count > 1 { text += " ×\(count)" }
        return text
    }
}
