@_exported public import ExtensionFoundation
public import Foundation

/// `INIntent`: a request the app runs. A custom intent arrives as an instance of the class its
/// definition names when the app has one (declare `class OpenInCardDropIntent: INIntent` with its
/// parameters as computed properties over ``value(forKey:)``), else as a plain `INIntent`.
open class INIntent: NSObject {
    /// An identifier for this request.
    public internal(set) var identifier: String? = UUID().uuidString
    /// The parameter values, by parameter name.
    public var parameterValues: [String: Any] = [:]

    /// An intent (iOS makes them).
    public required override init() { super.init() }

    /// A parameter's value: a `String`, an `INFile`, a `URL`, an `NSNumber`, or nil.
    open func value(forKey key: String) -> Any? { parameterValues[key] }
}

/// `INIntentResponse`: how the intent ended (none yet when the app is asked to continue it).
open class INIntentResponse: NSObject {}

/// `INInteraction`: the intent and its response.
public final class INInteraction: NSObject, @unchecked Sendable {
    /// The intent.
    public let intent: INIntent
    /// The response (nil: the app is to handle the intent).
    public let intentResponse: INIntentResponse?

    /// An interaction.
    public init(intent: INIntent, response: INIntentResponse?) {
        self.intent = intent
        self.intentResponse = response
    }
}

/// `INFile`: a file parameter — its bytes, name, type and (when it is on disk) URL.
public final class INFile: NSObject, @unchecked Sendable {
    /// The file's name.
    public let filename: String
    /// Its type identifier (`public.png`).
    public let typeIdentifier: String?
    /// Where it is, inside the app's container.
    public let fileURL: URL?
    private let bytes: Data?

    /// A file from bytes.
    public init(data: Data, filename: String, typeIdentifier: String?) {
        self.bytes = data
        self.filename = filename
        self.typeIdentifier = typeIdentifier
        self.fileURL = nil
    }

    /// A file on disk.
    public init(fileURL: URL, filename: String?, typeIdentifier: String?) {
        self.bytes = nil
        self.filename = filename ?? fileURL.lastPathComponent
        self.typeIdentifier = typeIdentifier
        self.fileURL = fileURL
    }

    /// The contents ("if the file was created with a URL, accessing this property will memory map
    /// the file contents"; an unreadable file gives empty data).
    public var data: Data {
        if let bytes { return bytes }
        guard let fileURL else { return Data() }
        return (try? Data(contentsOf: fileURL, options: .mappedIfSafe)) ?? Data()
    }
}

extension NSUserActivity {
    /// The interaction SiriKit fills when it launches the app for an intent.
    public var interaction: INInteraction? { interactionObject as? INInteraction }
}
