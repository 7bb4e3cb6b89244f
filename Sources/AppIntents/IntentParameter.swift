import Foundation
public import UniformTypeIdentifiers

/// Apple's `@Parameter` (`IntentParameter`): "A property wrapper for app intent parameters". The
/// system sets the value before `perform()`; an optional type makes the parameter optional.
// @unchecked Sendable: the one mutable value is read and written only under `lock`.
@propertyWrapper
public final class IntentParameter<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value?
    /// The title Shortcuts shows.
    public let title: LocalizedStringResource
    /// The parameter's description.
    public let description: IntentDescription?

    /// A parameter.
    public init(title: LocalizedStringResource, description: IntentDescription? = nil) {
        self.title = title
        self.description = description
    }

    /// A file parameter taking files of `supportedContentTypes` (kept for Shortcuts' picker; any file
    /// given is set).
    public init(
        title: LocalizedStringResource, description: IntentDescription? = nil, supportedContentTypes: [UTType]
    ) {
        self.title = title
        self.description = description
        self.supportedContentTypes = supportedContentTypes
    }

    /// The content types a file parameter takes (empty: any).
    public private(set) var supportedContentTypes: [UTType] = []

    /// A parameter with a default value.
    public init(title: LocalizedStringResource, description: IntentDescription? = nil, default value: Value) {
        self.title = title
        self.description = description
        self.value = value
    }

    /// The value the system set. The system never calls `perform()` with a required parameter
    /// unset (exthost reports it instead), so reading one that is unset is a programmer error —
    /// reading it outside `perform()` — and traps, naming the parameter.
    public var wrappedValue: Value {
        get {
            if let value = lock.withLock({ value }) { return value }
            if let none = Optional<Any>.none as? Value { return none }
            // Read before the system set it (never inside perform()).
            fatalError("the parameter '\(title)' was read before the system set it")  // programmer error
        }
        set { lock.withLock { value = newValue } }
    }

    /// The wrapper itself (`$name`).
    public var projectedValue: IntentParameter<Value> { self }
}

/// `@Parameter`, as apps spell it.
public typealias Parameter = IntentParameter

/// Sets a parameter from what the system resolved, converting as Shortcuts does.
protocol SettableIntentParameter: AnyObject {
    /// Sets `value` (a `String`, `URL`, `Double`, `Bool` or `IntentFile`); false when it does not fit.
    func set(_ value: Any) -> Bool
    /// Whether it is required (not optional) and has no value.
    var isMissing: Bool { get }
}

extension IntentParameter: SettableIntentParameter {
    var isMissing: Bool { lock.withLock { value == nil } && !(Optional<Any>.none is Value) }

    func set(_ given: Any) -> Bool {
        var candidates: [Any] = [given]
        if let number = given as? Double {
            if number.rounded() == number, abs(number) < 1e18 { candidates.append(Int(number)) }
            candidates.append(number != 0)
        }
        if let text = given as? String {
            if let url = URL(string: text), url.scheme != nil { candidates.append(url) }
            if let number = Double(text) { candidates.append(number) }
            if let number = Int(text) { candidates.append(number) }
        }
        if let url = given as? URL { candidates.append(url.absoluteString) }
        for candidate in candidates {
            if let typed = candidate as? Value {
                lock.withLock { value = typed }
                return true
            }
        }
        return false
    }
}
