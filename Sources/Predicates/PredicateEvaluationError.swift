/// Why a predicate could not be evaluated against an object.
///
/// An evaluation error is a value, never a trap. In an activation rule it means the extension
/// does not appear.
public struct PredicateEvaluationError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        /// The kebab-case name, e.g. `undefined-variable`.
        public let rawValue: String
        private init(_ rawValue: String) { self.rawValue = rawValue }

        /// A `$variable` with no binding.
        public static let undefinedVariable = Kind("undefined-variable")
        /// Operands of the wrong types for the operator (a number `CONTAINS` a string, `<` between
        /// a string and a number, a UTI operator on an array, …).
        public static let typeMismatch = Kind("type-mismatch")
        /// A key read from a value that has no keys (a string, a number).
        public static let invalidKeyPath = Kind("invalid-key-path")
        /// `ANY`/`ALL`/`NONE`/`SUBQUERY`/`BETWEEN` given something that is not a collection.
        public static let notACollection = Kind("not-a-collection")
        /// An array index outside the array.
        public static let indexOutOfRange = Kind("index-out-of-range")
        /// A `MATCHES` pattern that is not a valid regular expression.
        public static let invalidRegularExpression = Kind("invalid-regular-expression")
        /// A `%@`/`%K` placeholder with no argument to fill it.
        public static let missingArgument = Kind("missing-argument")
        /// `FUNCTION(…)`, `CAST(…)`, `$x := …` or another construct this evaluator does not run.
        public static let unsupportedExpression = Kind("unsupported-expression")
        /// Arithmetic on non-numbers, division by zero, or a result that is not finite.
        public static let arithmetic = Kind("arithmetic")
        /// More than ``EvaluationEnvironment/maxSteps`` evaluation steps.
        public static let budgetExceeded = Kind("budget-exceeded")

        /// The raw name.
        public var description: String { rawValue }
    }

    /// What kind of failure.
    public var kind: Kind
    /// What went wrong, naming the values involved.
    public var message: String
    /// The node whose evaluation failed.
    public var range: SourceRange
    /// An underlying error (for example the regular-expression compiler's), if any.
    public var cause: (any Error & Sendable)?

    /// Creates an error.
    public init(_ kind: Kind, _ message: String, range: SourceRange, cause: (any Error & Sendable)? = nil) {
        self.kind = kind
        self.message = message
        self.range = range
        self.cause = cause
    }

    /// The kind, in the common-error position.
    public var code: Kind { kind }

    /// `kind: message`.
    public var description: String { "\(kind): \(message)" }
}
