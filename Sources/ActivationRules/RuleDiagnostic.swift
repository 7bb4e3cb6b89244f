public import Reporting

/// One finding about an activation rule: a lint warning, a release error, a syntax or evaluation
/// error, each with a stable code and, where it applies, the place in the file. The one
/// ``Reporting/Diagnostic`` type every module reports findings with.
public typealias RuleDiagnostic = Diagnostic

/// The codes of the findings about an activation rule.
///
/// Syntax errors use the code of ``Predicates/PredicateSyntaxError`` (`typographic-quote`,
/// `comment`, `unterminated-string`, …); evaluation errors are `evaluation-error`.
extension Diagnostic.Code {
    /// The file cannot be read.
    public static let unreadable: Self = "unreadable"
    /// The file is not a property list.
    public static let malformedPlist: Self = "malformed-plist"
    /// A dictionary in the XML plist has the same key twice; the last one is used.
    public static let duplicateKey: Self = "duplicate-key"
    /// No `NSExtensionActivationRule` where the system looks: the extension never appears.
    public static let missingRule: Self = "missing-rule"
    /// The rule is neither a string nor a dictionary.
    public static let invalidRuleType: Self = "invalid-rule-type"
    /// A key the system does not read (probably misspelt); the nearest real key is suggested.
    public static let unknownKey: Self = "unknown-key"
    /// A real key in the wrong dictionary.
    public static let misplacedKey: Self = "misplaced-key"
    /// A dictionary value of the wrong plist type (App Store upload rejects it, ITMS-90361).
    public static let valueType: Self = "value-type"
    /// A dictionary value that `intValue`/`boolValue` reads as 0 (or as a surprising number).
    public static let coercedValue: Self = "coerced-value"
    /// A negative count; it rejects the category like 0.
    public static let negativeCount: Self = "negative-count"
    /// `NSExtensionActivationUsesStrictMatching` = false without version 2 changes nothing.
    public static let strictMatchingIgnored: Self = "strict-matching-ignored"
    /// A key the system reads only on some platforms (`…SupportsLocationWithMaxCount`).
    public static let unsupportedKey: Self = "unsupported-key"
    /// A rule that can never activate (every value zero, nothing accepted).
    public static let neverActivates: Self = "never-activates"
    /// `TRUEPREDICATE` as the whole rule: App Store upload rejects it.
    public static let truePredicate: Self = "true-predicate"
    /// `%@`, `%K` or another format argument: a plist has no arguments to give.
    public static let formatArgument: Self = "format-argument"
    /// `FUNCTION(…)` or another function call: unsafe, refused by the system.
    public static let function: Self = "function"
    /// `CAST(…)`: refused by the system.
    public static let cast: Self = "cast"
    /// `$x := …`: refused by the system.
    public static let assignment: Self = "assignment"
    /// A type identifier no system type and no loaded declaration defines.
    public static let unknownType: Self = "unknown-type"
    /// A type test no declared type can pass (`"public.file-url" UTI-CONFORMS-TO "public.image"`).
    public static let unreachableType: Self = "unreachable-type"
    /// A key path component the evaluated value never has (`contentTypeUTI`).
    public static let unknownKeyPath: Self = "unknown-key-path"
    /// The rule failed to evaluate: on a device the extension silently does not appear.
    public static let evaluationError: Self = "evaluation-error"
}
