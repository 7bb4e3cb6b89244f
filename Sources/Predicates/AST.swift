/// A parsed predicate: something that evaluates to true or false.
///
/// `==` and `hash(into:)` compare the structure only; ``range`` and ``height`` are left out, so
/// `try PredicateParser.parse(node.canonicalText) == node` holds for every parsed node.
public struct PredicateNode: Sendable, Hashable {
    /// The kinds of predicate.
    public indirect enum Kind: Sendable, Hashable {
        /// `TRUEPREDICATE` (true) or `FALSEPREDICATE` (false).
        case constant(Bool)
        /// `NOT p` / `!p`.
        case not(PredicateNode)
        /// `p AND q AND …` (flattened: never directly contains another `.and`).
        case and([PredicateNode])
        /// `p OR q OR …` (flattened: never directly contains another `.or`).
        case or([PredicateNode])
        /// `[ANY|ALL|NONE] left op[options] right`.
        case comparison(Comparison)
    }

    /// What this node is.
    public var kind: Kind
    /// Where it was written (``SourceRange/synthesized`` for nodes built in code).
    public var range: SourceRange
    /// The height of the tree below and including this node (1 for a leaf).
    public let height: Int

    /// Creates a node; the height is computed from the children.
    public init(_ kind: Kind, range: SourceRange = .synthesized) {
        self.kind = kind
        self.range = range
        switch kind {
        case .constant: height = 1
        case .not(let inner): height = inner.height + 1
        case .and(let children), .or(let children): height = (children.map(\.height).max() ?? 0) + 1
        case .comparison(let comparison): height = Swift.max(comparison.left.height, comparison.right.height) + 1
        }
    }

    /// Structural equality; ranges are ignored.
    public static func == (lhs: PredicateNode, rhs: PredicateNode) -> Bool { lhs.kind == rhs.kind }
    /// Hashes the structure only.
    public func hash(into hasher: inout Hasher) { hasher.combine(kind) }
}

/// `[quantifier] left operator[options] right`.
public struct Comparison: Sendable, Hashable {
    /// `ANY`/`SOME`, `ALL` or `NONE` before the left side, if any.
    public var quantifier: Quantifier?
    /// The left expression.
    public var left: ExpressionNode
    /// The operator.
    public var comparisonOperator: ComparisonOperator
    /// `[c]`, `[d]`, `[cd]`, … after the operator.
    public var options: StringOptions
    /// The right expression.
    public var right: ExpressionNode

    /// Creates a comparison.
    public init(
        quantifier: Quantifier? = nil, left: ExpressionNode, _ comparisonOperator: ComparisonOperator,
        options: StringOptions = [], right: ExpressionNode
    ) {
        self.quantifier = quantifier
        self.left = left
        self.comparisonOperator = comparisonOperator
        self.options = options
        self.right = right
    }
}

/// The aggregate qualifier of a comparison. `SOME` parses as ``any``.
public enum Quantifier: String, Sendable, Hashable, CaseIterable {
    /// `ANY` / `SOME`: true when some element satisfies the comparison.
    case any = "ANY"
    /// `ALL`: true when every element does (true for an empty collection).
    case all = "ALL"
    /// `NONE`: true when no element does.
    case none = "NONE"
}

/// A comparison operator; the raw value is the canonical spelling.
public enum ComparisonOperator: String, Sendable, Hashable, CaseIterable {
    /// `==` (also `=`).
    case equalTo = "=="
    /// `!=` (also `<>`).
    case notEqualTo = "!="
    /// `<`.
    case lessThan = "<"
    /// `<=` (also `=<`).
    case lessThanOrEqualTo = "<="
    /// `>`.
    case greaterThan = ">"
    /// `>=` (also `=>`).
    case greaterThanOrEqualTo = ">="
    /// `BETWEEN {low, high}`, inclusive.
    case between = "BETWEEN"
    /// `IN`: membership in an array, dictionary values, or a substring.
    case `in` = "IN"
    /// `CONTAINS`: substring, or membership when the left side is a collection.
    case contains = "CONTAINS"
    /// `BEGINSWITH`.
    case beginsWith = "BEGINSWITH"
    /// `ENDSWITH`.
    case endsWith = "ENDSWITH"
    /// `LIKE` with `?` and `*` wildcards, whole string.
    case like = "LIKE"
    /// `MATCHES`: a regular expression matched against the whole string.
    case matches = "MATCHES"
    /// `UTI-CONFORMS-TO`, decided by ``EvaluationEnvironment/conforms``.
    case utiConformsTo = "UTI-CONFORMS-TO"
    /// `UTI-EQUALS`, decided by ``EvaluationEnvironment/equalTypes``.
    case utiEquals = "UTI-EQUALS"
}

/// The `[c]`, `[d]`, `[n]`, `[l]` letters after a comparison operator.
public struct StringOptions: OptionSet, Sendable, Hashable {
    /// The option bits.
    public let rawValue: UInt8
    /// Creates options from bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// `c`: case-insensitive.
    public static let caseInsensitive = StringOptions(rawValue: 1)
    /// `d`: diacritic-insensitive (é matches e).
    public static let diacriticInsensitive = StringOptions(rawValue: 2)
    /// `n`: normalized; accepted and has no further effect (comparison is already canonical).
    public static let normalized = StringOptions(rawValue: 4)
    /// `l`: locale-sensitive; accepted and has no effect here.
    public static let localeSensitive = StringOptions(rawValue: 8)

    /// The option letters in canonical order, e.g. `"cd"`.
    public var letters: String {
        var result = ""
        if contains(.caseInsensitive) { result += "c" }
        if contains(.diacriticInsensitive) { result += "d" }
        if contains(.localeSensitive) { result += "l" }
        if contains(.normalized) { result += "n" }
        return result
    }
}

/// A parsed expression: something that evaluates to a value.
///
/// Like ``PredicateNode``, equality ignores ``range`` and ``height``.
public struct ExpressionNode: Sendable, Hashable {
    /// The kinds of expression.
    public indirect enum Kind: Sendable, Hashable {
        /// A literal: string, number, `TRUE`/`FALSE`, `NULL`.
        case constant(PlistValue)
        /// `SELF`, the object the predicate is evaluated against.
        case evaluatedObject
        /// `$name`.
        case variable(String)
        /// `base.component.component…`; `a.b` is `.keyPath(base: SELF, [a, b])`.
        case keyPath(base: ExpressionNode, components: [KeyPathComponent])
        /// `{e, e, …}`.
        case aggregate([ExpressionNode])
        /// `SUBQUERY(collection, $variable, predicate)`.
        case subquery(collection: ExpressionNode, variable: String, predicate: PredicateNode)
        /// `left op right` for `+ - * / **`.
        case arithmetic(ArithmeticOperator, ExpressionNode, ExpressionNode)
        /// `-e`.
        case negate(ExpressionNode)
        /// `%@`, `%d`, …: the `index`-th format argument (0-based) with its conversion letters.
        case argument(index: Int, specifier: String)
        /// `name(arguments…)`, including `FUNCTION(…)`; never evaluable in this module.
        case function(name: String, arguments: [ExpressionNode])
        /// `CAST(value, type)`; never evaluable in this module.
        case cast(ExpressionNode, ExpressionNode)
        /// `$name := value`; never evaluable in this module.
        case assignment(variable: String, value: ExpressionNode)
    }

    /// What this node is.
    public var kind: Kind
    /// Where it was written.
    public var range: SourceRange
    /// The height of the tree below and including this node (1 for a leaf).
    public let height: Int

    /// Creates a node; the height is computed from the children.
    public init(_ kind: Kind, range: SourceRange = .synthesized) {
        self.kind = kind
        self.range = range
        switch kind {
        case .constant, .evaluatedObject, .variable, .argument: height = 1
        case .keyPath(let base, let components):
            let indexHeight =
                components.map { component -> Int in
                    if case .index(let expression) = component { return expression.height }
                    return 0
                }.max() ?? 0
            height = Swift.max(base.height, indexHeight) + 1
        case .aggregate(let elements), .function(_, let elements):
            height = (elements.map(\.height).max() ?? 0) + 1
        case .subquery(let collection, _, let predicate): height = Swift.max(collection.height, predicate.height) + 1
        case .arithmetic(_, let left, let right), .cast(let left, let right):
            height = Swift.max(left.height, right.height) + 1
        case .negate(let inner), .assignment(_, let inner): height = inner.height + 1
        }
    }

    /// Structural equality; ranges are ignored.
    public static func == (lhs: ExpressionNode, rhs: ExpressionNode) -> Bool { lhs.kind == rhs.kind }
    /// Hashes the structure only.
    public func hash(into hasher: inout Hasher) { hasher.combine(kind) }
}

/// One step of a key path.
public enum KeyPathComponent: Sendable, Hashable {
    /// `.name` (a dictionary key; mapped over arrays).
    case key(String)
    /// `.@name`: a collection operator such as `@count`, `@sum`, `@avg`, `@min`, `@max`,
    /// `@distinctUnionOfObjects`, `@unionOfObjects`, `@unionOfArrays`, `@distinctUnionOfArrays`.
    case collectionOperator(String)
    /// `[expression]`: an array index or a dictionary key.
    case index(ExpressionNode)
    /// `[FIRST]`.
    case first
    /// `[LAST]`.
    case last
    /// `[SIZE]`.
    case size
    /// `%K`: a key named by the `index`-th format argument.
    case argumentKey(index: Int)
}

/// A binary arithmetic operator; the raw value is its spelling.
public enum ArithmeticOperator: String, Sendable, Hashable, CaseIterable {
    /// `+`.
    case add = "+"
    /// `-`.
    case subtract = "-"
    /// `*`.
    case multiply = "*"
    /// `/` (always a real division).
    case divide = "/"
    /// `**`.
    case power = "**"

    /// Binding strength: `**` 3, `*` `/` 2, `+` `-` 1.
    var precedence: Int {
        switch self {
        case .add, .subtract: return 1
        case .multiply, .divide: return 2
        case .power: return 3
        }
    }
}
