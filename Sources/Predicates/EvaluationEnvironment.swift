/// What a predicate is evaluated with besides the object: `$variables`, format arguments, the
/// type-identifier relations behind `UTI-CONFORMS-TO`/`UTI-EQUALS`, and a step budget.
///
/// This module knows nothing about types: the activation-rule layer supplies `conforms` and
/// `equalTypes` from its type registry.
public struct EvaluationEnvironment: Sendable {
    /// Values of free `$variables`, by name (case-sensitive, without the `$`).
    ///
    /// `nil` (the default, like `evaluateWithObject:`) makes any free variable an evaluation error.
    /// A dictionary (like `evaluateWithObject:substitutionVariables:`) makes a name it lacks nil,
    /// which is what Apple does: `a == $X` with only `x` bound is false, not an error.
    public var variables: [String: PlistValue]?
    /// Values for `%@`/`%K`/`%d`… placeholders in order; `nil` makes any placeholder an
    /// evaluation error (a rule in a plist has no arguments to give).
    public var arguments: [PlistValue]?
    /// `UTI-CONFORMS-TO`: whether the first type identifier conforms to the second.
    public var conforms: @Sendable (String, String) -> Bool
    /// `UTI-EQUALS`: whether two type identifiers name the same type.
    public var equalTypes: @Sendable (String, String) -> Bool
    /// The most node and element evaluations one evaluation may perform before it fails with
    /// ``PredicateEvaluationError/Kind/budgetExceeded`` (default 10 000 000).
    public var maxSteps: Int

    /// Creates an environment. Without relations, both UTI operators compare identifiers
    /// case-insensitively (`public.JPEG` equals and conforms to `public.jpeg`, nothing else).
    public init(
        variables: [String: PlistValue]? = nil,
        arguments: [PlistValue]? = nil,
        conforms: @escaping @Sendable (String, String) -> Bool = EvaluationEnvironment.sameIdentifier,
        equalTypes: @escaping @Sendable (String, String) -> Bool = EvaluationEnvironment.sameIdentifier,
        maxSteps: Int = 10_000_000
    ) {
        self.variables = variables
        self.arguments = arguments
        self.conforms = conforms
        self.equalTypes = equalTypes
        self.maxSteps = maxSteps
    }

    /// Case-insensitive identifier equality: the default for both UTI relations.
    public static let sameIdentifier: @Sendable (String, String) -> Bool = { left, right in
        left == right || left.lowercased() == right.lowercased()
    }
}
