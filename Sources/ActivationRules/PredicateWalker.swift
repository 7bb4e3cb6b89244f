public import Predicates

/// Visits every predicate and expression node of a tree, parents before children.
public enum PredicateWalker {
    /// Calls `predicate` for each predicate node and `expression` for each expression node.
    ///
    /// Trees deeper than a few thousand levels cannot reach here: the parser's depth limit stops
    /// them first.
    public static func visit(
        _ node: PredicateNode, predicate: (PredicateNode) -> Void, expression: (ExpressionNode) -> Void
    ) {
        predicate(node)
        switch node.kind {
        case .constant: break
        case .not(let inner): visit(inner, predicate: predicate, expression: expression)
        case .and(let children), .or(let children):
            for child in children { visit(child, predicate: predicate, expression: expression) }
        case .comparison(let comparison):
            visit(comparison.left, predicate: predicate, expression: expression)
            visit(comparison.right, predicate: predicate, expression: expression)
        }
    }

    /// Calls `predicate` and `expression` for `node` and everything below it.
    public static func visit(
        _ node: ExpressionNode, predicate: (PredicateNode) -> Void, expression: (ExpressionNode) -> Void
    ) {
        expression(node)
        switch node.kind {
        case .constant, .evaluatedObject, .variable, .argument: break
        case .keyPath(let base, let components):
            visit(base, predicate: predicate, expression: expression)
            for component in components {
                if case .index(let index) = component { visit(index, predicate: predicate, expression: expression) }
            }
        case .aggregate(let elements), .function(_, let elements):
            for element in elements { visit(element, predicate: predicate, expression: expression) }
        case .subquery(let collection, _, let inner):
            visit(collection, predicate: predicate, expression: expression)
            visit(inner, predicate: predicate, expression: expression)
        case .arithmetic(_, let left, let right), .cast(let left, let right):
            visit(left, predicate: predicate, expression: expression)
            visit(right, predicate: predicate, expression: expression)
        case .negate(let inner), .assignment(_, let inner):
            visit(inner, predicate: predicate, expression: expression)
        }
    }
}
