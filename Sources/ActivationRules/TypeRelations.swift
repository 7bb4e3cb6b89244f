public import Predicates
public import UniformTypes

/// The `UTI-CONFORMS-TO` and `UTI-EQUALS` relations of a ``UniformTypes/TypeRegistry``, shaped for
/// the predicate evaluator and made fast for the targets a rule names.
///
/// For each target identifier written in the rule, a precompiled checker answers "does this type
/// conform?" with one hash lookup; other targets fall back to ``TypeRegistry/conforms(_:to:)``.
public struct TypeRelations: Sendable {
    /// The registry the relations come from.
    public let registry: TypeRegistry
    private let checkers: [String: @Sendable (String) -> Bool]

    /// Prepares the relations for `targets`, the identifiers on the right of the rule's UTI operators.
    public init(registry: TypeRegistry, targets: some Sequence<String>) {
        self.registry = registry
        var checkers: [String: @Sendable (String) -> Bool] = [:]
        for target in targets where checkers[target] == nil {
            checkers[target] = registry.conformanceChecker(to: UniformTypeIdentifier(target))
        }
        self.checkers = checkers
    }

    /// Whether `type` conforms to `target` (reflexive, transitive, case-insensitive).
    public func conforms(_ type: String, _ target: String) -> Bool {
        if let checker = checkers[target] { return checker(type) }
        return registry.conforms(UniformTypeIdentifier(type), to: UniformTypeIdentifier(target))
    }

    /// Whether two identifiers name the same type (case-insensitively).
    public func equal(_ type: String, _ other: String) -> Bool {
        type == other || UniformTypeIdentifier(type) == UniformTypeIdentifier(other)
    }

    /// An evaluation environment whose UTI operators use these relations; no variables and no
    /// format arguments, as on a device.
    public var environment: EvaluationEnvironment {
        let relations = self
        return EvaluationEnvironment(
            conforms: { relations.conforms($0, $1) }, equalTypes: { relations.equal($0, $1) })
    }

    /// The string constants on the right (or left) of every UTI operator in `predicate`.
    public static func targets(of predicate: PredicateNode) -> Set<String> {
        var result: Set<String> = []
        PredicateWalker.visit(predicate) { node in
            guard case .comparison(let comparison) = node.kind,
                comparison.comparisonOperator == .utiConformsTo || comparison.comparisonOperator == .utiEquals
            else { return }
            for side in [comparison.left, comparison.right] {
                if case .constant(.string(let text)) = side.kind { result.insert(text) }
            }
        } expression: { _ in
        }
        return result
    }
}
