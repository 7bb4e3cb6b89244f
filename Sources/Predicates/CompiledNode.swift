import Foundation

/// A compiled predicate node: the AST plus what can be computed before evaluation.
final class CompiledNode: Sendable {
    enum Kind: Sendable {
        case constant(Bool)
        case not(CompiledNode)
        case and([CompiledNode])
        case or([CompiledNode])
        case comparison(CompiledComparison)
    }

    let kind: Kind
    let source: PredicateNode

    init(_ kind: Kind, source: PredicateNode) {
        self.kind = kind
        self.source = source
    }
}

/// A compiled comparison with its right-hand side prepared when it is a constant.
final class CompiledComparison: Sendable {
    let quantifier: Quantifier?
    let left: CompiledExpression
    let op: ComparisonOperator
    let options: StringOptions
    let right: CompiledExpression
    /// The right-hand constant string, folded for the options; `nil` when not constant.
    let foldedRight: String?
    /// The compiled `MATCHES` pattern when the right side is a constant, or its compile error.
    let regex: Result<NSRegularExpression, PredicateEvaluationError>?

    init(_ comparison: Comparison, left: CompiledExpression, right: CompiledExpression) {
        self.quantifier = comparison.quantifier
        self.left = left
        self.op = comparison.comparisonOperator
        self.options = comparison.options
        self.right = right
        if case .constant(.string(let string)) = comparison.right.kind {
            foldedRight = StringFolding.fold(string, comparison.options)
            if comparison.comparisonOperator == .matches {
                regex = StringFolding.regex(string, options: comparison.options, range: comparison.right.range)
            } else {
                regex = nil
            }
        } else {
            foldedRight = nil
            regex = nil
        }
    }
}

/// A compiled expression node.
final class CompiledExpression: Sendable {
    enum Kind: Sendable {
        case constant(PlistValue)
        case evaluatedObject
        /// A free `$variable`, looked up in the environment.
        case variable(String)
        /// A `$variable` bound by an enclosing SUBQUERY: its slot in the bindings stack.
        case boundVariable(Int)
        /// `$variable.key` for a SUBQUERY-bound variable: the hot path of activation rules.
        case boundVariableKey(Int, String)
        case keyPath(CompiledExpression, [CompiledComponent])
        case aggregate([CompiledExpression])
        case subquery(CompiledExpression, String, CompiledNode)
        /// `SUBQUERY(…).@count` followed by the remaining components.
        case subqueryCount(CompiledExpression, String, CompiledNode, [CompiledComponent])
        case arithmetic(ArithmeticOperator, CompiledExpression, CompiledExpression)
        case negate(CompiledExpression)
        case argument(Int, String)
        case unsupported(String)
    }

    let kind: Kind
    let source: ExpressionNode

    init(_ kind: Kind, source: ExpressionNode) {
        self.kind = kind
        self.source = source
    }
}

/// A compiled key-path component.
enum CompiledComponent: Sendable {
    case key(String)
    case collectionOperator(String)
    case index(CompiledExpression)
    case first, last, size
    case argumentKey(Int)
}

/// Turns AST nodes into compiled nodes, resolving SUBQUERY variables to binding slots.
struct Compiler {
    /// The SUBQUERY variables in scope, outermost first; a name's index is its binding slot.
    private var scope: [String] = []

    static func compile(_ node: PredicateNode) -> CompiledNode {
        var compiler = Compiler()
        return compiler.compile(node)
    }

    mutating func compile(_ node: PredicateNode) -> CompiledNode {
        switch node.kind {
        case .constant(let value): return CompiledNode(.constant(value), source: node)
        case .not(let inner): return CompiledNode(.not(compile(inner)), source: node)
        case .and(let children): return CompiledNode(.and(children.map { compile($0) }), source: node)
        case .or(let children): return CompiledNode(.or(children.map { compile($0) }), source: node)
        case .comparison(let comparison):
            let left = compile(comparison.left)
            let right = compile(comparison.right)
            return CompiledNode(.comparison(CompiledComparison(comparison, left: left, right: right)), source: node)
        }
    }

    mutating func compile(_ node: ExpressionNode) -> CompiledExpression {
        switch node.kind {
        case .constant(let value): return CompiledExpression(.constant(value), source: node)
        case .evaluatedObject: return CompiledExpression(.evaluatedObject, source: node)
        case .variable(let name):
            if let slot = scope.lastIndex(of: name) { return CompiledExpression(.boundVariable(slot), source: node) }
            return CompiledExpression(.variable(name), source: node)
        case .keyPath(let base, let components):
            let compiledComponents = components.map { compile($0) }
            if case .subquery(let collection, let variable, let predicate) = base.kind,
                case .collectionOperator("count") = components.first
            {
                let (compiledCollection, compiledPredicate) = compileSubquery(collection, variable, predicate)
                return CompiledExpression(
                    .subqueryCount(
                        compiledCollection, variable, compiledPredicate, Array(compiledComponents.dropFirst())),
                    source: node)
            }
            let compiledBase = compile(base)
            if case .boundVariable(let slot) = compiledBase.kind, compiledComponents.count == 1,
                case .key(let key) = compiledComponents[0]
            {
                return CompiledExpression(.boundVariableKey(slot, key), source: node)
            }
            return CompiledExpression(.keyPath(compiledBase, compiledComponents), source: node)
        case .aggregate(let elements):
            return CompiledExpression(.aggregate(elements.map { compile($0) }), source: node)
        case .subquery(let collection, let variable, let predicate):
            let (compiledCollection, compiledPredicate) = compileSubquery(collection, variable, predicate)
            return CompiledExpression(.subquery(compiledCollection, variable, compiledPredicate), source: node)
        case .arithmetic(let op, let left, let right):
            return CompiledExpression(.arithmetic(op, compile(left), compile(right)), source: node)
        case .negate(let inner): return CompiledExpression(.negate(compile(inner)), source: node)
        case .argument(let index, let specifier): return CompiledExpression(.argument(index, specifier), source: node)
        case .function(let name, _):
            return CompiledExpression(.unsupported("function call \(name)(…) is not supported"), source: node)
        case .cast:
            return CompiledExpression(.unsupported("CAST(…) is not supported"), source: node)
        case .assignment(let variable, _):
            return CompiledExpression(.unsupported("assignment to $\(variable) is not supported"), source: node)
        }
    }

    /// The collection is compiled in the outer scope, the predicate with the variable bound.
    private mutating func compileSubquery(_ collection: ExpressionNode, _ variable: String, _ predicate: PredicateNode)
        -> (CompiledExpression, CompiledNode)
    {
        let compiledCollection = compile(collection)
        scope.append(variable)
        let compiledPredicate = compile(predicate)
        scope.removeLast()
        return (compiledCollection, compiledPredicate)
    }

    mutating func compile(_ component: KeyPathComponent) -> CompiledComponent {
        switch component {
        case .key(let name): return .key(name)
        case .collectionOperator(let name): return .collectionOperator(name)
        case .index(let expression): return .index(compile(expression))
        case .first: return .first
        case .last: return .last
        case .size: return .size
        case .argumentKey(let index): return .argumentKey(index)
        }
    }
}
