public import Foundation
public import UniformTypeIdentifiers

/// Apple's `LocalizedStringResource` (Foundation on iOS 16+; swift-corelibs-foundation has none):
/// the key of a localizable string, written as a literal.
public struct LocalizedStringResource: Sendable, Hashable, ExpressibleByStringInterpolation, CustomStringConvertible {
    /// The key (the literal).
    public var key: String
    /// A resource from a literal.
    public init(stringLiteral value: String) { key = value }
    /// A resource whose key is `key`.
    public init(_ key: String) { self.key = key }
    /// The key.
    public var description: String { key }
}

/// `IntentDescription`: what the intent does, as Shortcuts shows it.
public struct IntentDescription: Sendable, Hashable, ExpressibleByStringInterpolation {
    /// The text.
    public var text: String
    /// A description from a literal.
    public init(stringLiteral value: String) { text = value }
    /// A description of `text`.
    public init(_ text: LocalizedStringResource) { self.text = text.key }
}

/// `IntentDialog`: what the system says or shows when the intent ends.
public struct IntentDialog: Sendable, Hashable, ExpressibleByStringInterpolation, CustomStringConvertible {
    /// The text.
    public var text: String
    /// A dialog from a literal.
    public init(stringLiteral value: String) { text = value }
    /// The text.
    public var description: String { text }
}

/// Apple's `AppIntent` (AppIntents, iOS 16+): "An interface for providing an app-specific
/// capability to system experiences like Siri, Spotlight, Shortcuts". The system makes the intent
/// with `init()`, sets its `@Parameter`s and calls ``perform()``; with ``openAppWhenRun`` true the
/// app is launched (or brought) to the foreground first, otherwise "the system launches your app in
/// a limited mode in the background and executes the intent's perform()".
///
/// On this device (`exthost shortcut run`), the intents are found as iOS finds them: in the bundle's
/// `Metadata.appintents/extract.actionsdata`, each action by its type name (`mangledTypeName`, else
/// `<app module>.<type name>`).
public protocol AppIntent: Sendable {
    /// What `perform()` returns.
    associatedtype PerformResult: IntentResult
    /// "A short, localized, human-readable string that describes the app intent".
    static var title: LocalizedStringResource { get }
    /// "A description of the app intent that the system shows to people."
    static var description: IntentDescription? { get }
    /// "A Boolean value that indicates whether the system opens the app when it runs the intent."
    static var openAppWhenRun: Bool { get }
    /// "Creates an app intent" (the system sets the parameters afterwards).
    init()
    /// "Performs the intent after resolving the provided parameters."
    func perform() async throws -> PerformResult
}

extension AppIntent {
    /// None.
    public static var description: IntentDescription? { nil }
    /// `false` by default: the intent runs in a background launch.
    public static var openAppWhenRun: Bool { false }
}

/// `IntentResult`: what `perform()` returns (`.result()`, `.result(value:)`, `.result(dialog:)`).
public protocol IntentResult: Sendable {
    /// What it says, for the report (`.result()`, `.result(value: 3)`, …).
    var summary: String { get }
}

/// `ReturnsValue`: a result that hands a value to the shortcut's next action
/// (`-> some IntentResult & ReturnsValue<String>`).
public protocol ReturnsValue<Value>: IntentResult {
    /// The value's type.
    associatedtype Value
}

/// `ProvidesDialog`: a result with a dialog (`-> some IntentResult & ProvidesDialog`).
public protocol ProvidesDialog: IntentResult {}

/// The result `.result(…)` makes (Apple's `IntentResultContainer`, here with one type parameter:
/// the value's, `Never` for none; it adopts `ReturnsValue` and `ProvidesDialog` whatever it holds).
public struct IntentResultContainer<Value: Sendable>: IntentResult, ReturnsValue, ProvidesDialog {
    /// `value:`.
    public let value: Value?
    /// `dialog:`.
    public let dialog: IntentDialog?

    /// The report's words.
    public var summary: String {
        var parts: [String] = []
        if let value { parts.append("value: \(value)") }
        if let dialog { parts.append("dialog: \"\(dialog.text)\"") }
        return ".result(\(parts.joined(separator: ", ")))"
    }
}

extension IntentResult {
    /// "Creates an intent result" with nothing to return.
    public static func result() -> Self where Self == IntentResultContainer<Never> {
        IntentResultContainer(value: nil, dialog: nil)
    }
    /// A result with a value for the next action of a shortcut.
    public static func result<Value>(value: Value) -> Self where Self == IntentResultContainer<Value> {
        IntentResultContainer(value: value, dialog: nil)
    }
    /// A result with a dialog.
    public static func result(dialog: IntentDialog) -> Self where Self == IntentResultContainer<Never> {
        IntentResultContainer(value: nil, dialog: dialog)
    }
    /// A result with a value and a dialog.
    public static func result<Value>(value: Value, dialog: IntentDialog) -> Self
    where Self == IntentResultContainer<Value> {
        IntentResultContainer(value: value, dialog: dialog)
    }
}

/// Apple's `IntentFile`: "A type that represents a file, including its data, filename, and type"
/// — a file parameter.
public struct IntentFile: Sendable, Hashable {
    private let bytes: Data?
    /// "The name of the file."
    public var filename: String
    /// "The file's uniform type identifier."
    public var type: UTType?
    /// "A file URL to the file" when it is on disk (here: a copy in the app's `tmp/`).
    public let fileURL: URL?
    /// "A Boolean value that indicates whether the system removes the file after the intent completes."
    public var removedOnCompletion = false

    /// A file from bytes.
    public init(data: Data, filename: String, type: UTType? = nil) {
        bytes = data
        self.filename = filename
        self.type = type
        fileURL = nil
    }

    /// A file on disk.
    public init(fileURL: URL, filename: String? = nil, type: UTType? = nil) {
        bytes = nil
        self.filename = filename ?? fileURL.lastPathComponent
        self.type = type
        self.fileURL = fileURL
    }

    /// "The file's data" (a file on disk is read when asked; an unreadable one gives empty data).
    public var data: Data {
        if let bytes { return bytes }
        guard let fileURL else { return Data() }
        return (try? Data(contentsOf: fileURL, options: .mappedIfSafe)) ?? Data()
    }
}
