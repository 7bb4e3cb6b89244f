/// One finding about an activation rule: a lint warning, a release error, a syntax or evaluation
/// error, each with a stable code and, where it applies, the place in the file.
public struct RuleDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How serious a finding is.
    public enum Severity: String, Sendable, Hashable, Comparable {
        /// Something to know; the rule works as written.
        case note
        /// Probably a mistake, or a behaviour that surprises people; the rule still works.
        case warning
        /// The rule is broken, never activates, or would be rejected by App Store upload.
        case error

        private var rank: Int {
            switch self {
            case .note: return 0
            case .warning: return 1
            case .error: return 2
            }
        }

        /// Orders by seriousness: note < warning < error.
        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
    }

    /// A stable, kebab-case name for what was found (`unknown-key`, `true-predicate`, …).
    ///
    /// Syntax errors use the code of ``Predicates/PredicateSyntaxError`` (`typographic-quote`,
    /// `comment`, `unterminated-string`, …); evaluation errors are `evaluation-error`.
    public struct Code: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
        /// The kebab-case name.
        public let rawValue: String
        /// Creates a code from its name.
        public init(_ rawValue: String) { self.rawValue = rawValue }
        /// Creates a code from a literal name.
        public init(stringLiteral value: String) { self.rawValue = value }
        /// The name.
        public var description: String { rawValue }

        /// The file cannot be read.
        public static let unreadable: Code = "unreadable"
        /// The file is not a property list.
        public static let malformedPlist: Code = "malformed-plist"
        /// A dictionary in the XML plist has the same key twice; the last one is used.
        public static let duplicateKey: Code = "duplicate-key"
        /// No `NSExtensionActivationRule` where the system looks: the extension never appears.
        public static let missingRule: Code = "missing-rule"
        /// The rule is neither a string nor a dictionary.
        public static let invalidRuleType: Code = "invalid-rule-type"
        /// A key the system does not read (probably misspelt); the nearest real key is suggested.
        public static let unknownKey: Code = "unknown-key"
        /// A real key in the wrong dictionary.
        public static let misplacedKey: Code = "misplaced-key"
        /// A dictionary value of the wrong plist type (App Store upload rejects it, ITMS-90361).
        public static let valueType: Code = "value-type"
        /// A dictionary value that `intValue`/`boolValue` reads as 0 (or as a surprising number).
        public static let coercedValue: Code = "coerced-value"
        /// A negative count; it rejects the category like 0.
        public static let negativeCount: Code = "negative-count"
        /// `NSExtensionActivationUsesStrictMatching` = false without version 2 changes nothing.
        public static let strictMatchingIgnored: Code = "strict-matching-ignored"
        /// A key the system reads only on some platforms (`…SupportsLocationWithMaxCount`).
        public static let unsupportedKey: Code = "unsupported-key"
        /// A rule that can never activate (every value zero, nothing accepted).
        public static let neverActivates: Code = "never-activates"
        /// `TRUEPREDICATE` as the whole rule: App Store upload rejects it.
        public static let truePredicate: Code = "true-predicate"
        /// `%@`, `%K` or another format argument: a plist has no arguments to give.
        public static let formatArgument: Code = "format-argument"
        /// `FUNCTION(…)` or another function call: unsafe, refused by the system.
        public static let function: Code = "function"
        /// `CAST(…)`: refused by the system.
        public static let cast: Code = "cast"
        /// `$x := …`: refused by the system.
        public static let assignment: Code = "assignment"
        /// A type identifier no system type and no loaded declaration defines.
        public static let unknownType: Code = "unknown-type"
        /// A type test no declared type can pass (`"public.file-url" UTI-CONFORMS-TO "public.image"`).
        public static let unreachableType: Code = "unreachable-type"
        /// A key path component the evaluated value never has (`contentTypeUTI`).
        public static let unknownKeyPath: Code = "unknown-key-path"
        /// The rule failed to evaluate: on a device the extension silently does not appear.
        public static let evaluationError: Code = "evaluation-error"
    }

    /// How serious it is.
    public var severity: Severity
    /// What was found.
    public var code: Code
    /// A sentence saying what is wrong and how to fix it.
    public var message: String
    /// The file the rule came from, when it came from one.
    public var file: String?
    /// The 1-based line in ``file`` (or in the predicate text when there is no file position).
    public var line: Int?
    /// The 1-based column on ``line``, in characters.
    public var column: Int?
    /// The source line and a caret under the offending text, when the finding is inside a predicate.
    public var excerpt: String?

    /// Creates a diagnostic.
    public init(
        _ severity: Severity, _ code: Code, _ message: String, file: String? = nil, line: Int? = nil,
        column: Int? = nil, excerpt: String? = nil
    ) {
        self.severity = severity
        self.code = code
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        self.excerpt = excerpt
    }

    /// `file:line:column: severity: message [code]`, leaving out the parts that are unknown.
    public var description: String {
        var location = file ?? ""
        if let line {
            location += (location.isEmpty ? "" : ":") + "\(line)"
            if let column { location += ":\(column)" }
        }
        let prefix = location.isEmpty ? "" : location + ": "
        return "\(prefix)\(severity.rawValue): \(message) [\(code)]"
    }

    /// ``description`` followed by the excerpt, if any.
    public var rendered: String {
        guard let excerpt else { return description }
        return description + "\n" + excerpt
    }
}

extension Array where Element == RuleDiagnostic {
    /// Whether any diagnostic is an error.
    public var containsError: Bool { contains { $0.severity == .error } }
}
