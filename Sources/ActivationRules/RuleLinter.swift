public import Predicates
public import UniformTypes

/// The lint checks of a string rule on a parsed predicate: release errors,
/// constructs the system refuses, unknown and unreachable types, invented key paths.
///
/// Syntax problems (typographic quotes, `//` comments, unbalanced quotes) are found by the parser;
/// ``ActivationRule`` turns them into diagnostics.
public struct RuleLinter: Sendable {
    /// A finding inside the predicate text, before it is placed in a file.
    public struct Finding: Sendable, Hashable {
        /// How serious.
        public var severity: RuleDiagnostic.Severity
        /// What.
        public var code: RuleDiagnostic.Code
        /// The sentence.
        public var message: String
        /// Where in the predicate text.
        public var range: SourceRange
    }

    /// The registry that decides which types exist.
    public var registry: TypeRegistry
    /// ``ActivationOptions/allowDevelopmentRules`` turns the `TRUEPREDICATE` error into a warning.
    public var options: ActivationOptions

    /// Creates a linter.
    public init(registry: TypeRegistry, options: ActivationOptions) {
        self.registry = registry
        self.options = options
    }

    /// The keys the evaluated value has (`extensionItems`, each with `attachments` of `registeredTypeIdentifiers`, `attributedTitle`, `attributedContentText`, `userInfo`); anything below `userInfo` is free.
    static let knownKeys = [
        "extensionItems", "attachments", "registeredTypeIdentifiers", "attributedTitle", "attributedContentText",
        "userInfo", "fileProviderItem",
    ]

    /// Every finding, in source order.
    public func lint(_ predicate: PredicateNode) -> [Finding] {
        var findings: [Finding] = []
        switch predicate.kind {
        case .constant(true):
            findings.append(
                Finding(
                    severity: options.allowDevelopmentRules ? .warning : .error, code: .truePredicate,
                    message: "TRUEPREDICATE activates for everything: allowed only during development; Xcode warns "
                        + "and App Store upload rejects it (\"Invalid Info.plist value\")",
                    range: predicate.range))
        case .constant(false):
            findings.append(
                Finding(
                    severity: .warning, code: .neverActivates, message: "FALSEPREDICATE: the extension never appears",
                    range: predicate.range))
        default: break
        }
        PredicateWalker.visit(predicate) { node in
            lintPredicate(node, into: &findings)
        } expression: { node in
            lintExpression(node, into: &findings)
        }
        return findings.sorted { $0.range.utf8.lowerBound < $1.range.utf8.lowerBound }
    }

    // MARK: - Expressions

    private func lintExpression(_ node: ExpressionNode, into findings: inout [Finding]) {
        switch node.kind {
        case .argument(_, let specifier):
            findings.append(
                Finding(
                    severity: .error, code: .formatArgument,
                    message: "%\(specifier) is a format argument, and a rule in Info.plist has no arguments to give; "
                        + "write the value itself (a key path, or a quoted string)", range: node.range))
        case .keyPath(_, let components):
            var afterFreeKey = false
            for component in components {
                switch component {
                case .argumentKey:
                    findings.append(
                        Finding(
                            severity: .error, code: .formatArgument,
                            message:
                                "%K is a format argument, and a rule in Info.plist has no arguments to give; write the key",
                            range: node.range))
                case .key(let key) where !afterFreeKey:
                    if key == "userInfo" || key == "fileProviderItem" { afterFreeKey = true }
                    guard !RuleLinter.knownKeys.contains(key) else { continue }
                    var message =
                        "key '\(key)' is not part of what a rule sees (extensionItems → attachments → "
                        + "registeredTypeIdentifiers); it reads as nil"
                    if let near = Suggestion.nearest(to: key, in: RuleLinter.knownKeys) {
                        message += "; did you mean '\(near)'?"
                    }
                    findings.append(
                        Finding(severity: .warning, code: .unknownKeyPath, message: message, range: node.range))
                default: continue
                }
            }
        case .function(let name, _):
            findings.append(
                Finding(
                    severity: .error, code: .function,
                    message: "\(name)(…) calls a function; the system refuses such predicates as unsafe, so the "
                        + "extension never appears", range: node.range))
        case .cast:
            findings.append(
                Finding(
                    severity: .error, code: .cast,
                    message: "CAST(…) is refused in an activation rule, so the extension never appears",
                    range: node.range))
        case .assignment(let variable, _):
            findings.append(
                Finding(
                    severity: .error, code: .assignment,
                    message: "$\(variable) := … assigns a variable; the system refuses it in an activation rule",
                    range: node.range))
        default: break
        }
    }

    // MARK: - Predicates

    private func lintPredicate(_ node: PredicateNode, into findings: inout [Finding]) {
        switch node.kind {
        case .comparison(let comparison):
            lintTypes(in: comparison, range: node.range, into: &findings)
        case .and(let children):
            lintReachability(of: children, range: node.range, into: &findings)
        default: break
        }
    }

    private static func constantString(_ expression: ExpressionNode) -> String? {
        if case .constant(.string(let text)) = expression.kind { return text }
        return nil
    }

    private static func isTypeList(_ expression: ExpressionNode) -> Bool {
        guard case .keyPath(_, let components) = expression.kind, case .key(let last)? = components.last else {
            return false
        }
        return last == "registeredTypeIdentifiers"
    }

    private func isKnown(_ identifier: String) -> Bool {
        let type = UniformTypeIdentifier(identifier)
        return registry.isDeclared(type) || (type.isDynamic && registry.declaration(for: type) != nil)
    }

    private func lintTypes(in comparison: Comparison, range: SourceRange, into findings: inout [Finding]) {
        let op = comparison.comparisonOperator
        let isTypeOperator = op == .utiConformsTo || op == .utiEquals
        let comparesTypeList =
            (op == .equalTo || op == .in || op == .contains)
            && (RuleLinter.isTypeList(comparison.left) || RuleLinter.isTypeList(comparison.right))
        guard isTypeOperator || comparesTypeList else { return }
        var constants: [ExpressionNode] = [comparison.left, comparison.right].filter {
            RuleLinter.constantString($0) != nil
        }
        for side in [comparison.left, comparison.right] {
            if case .aggregate(let elements) = side.kind {
                constants += elements.filter { RuleLinter.constantString($0) != nil }
            }
        }
        for constant in constants {
            guard let identifier = RuleLinter.constantString(constant), !isKnown(identifier) else { continue }
            var message = "'\(identifier)' is not a type any system or loaded bundle declares"
            let candidates = registry.allDeclarations.map(\.identifier.rawValue)
            if let near = Suggestion.nearest(to: identifier, in: candidates) {
                message += "; did you mean '\(near)'?"
            } else {
                message += "; pass the declaring Info.plist with --declarations"
            }
            findings.append(Finding(severity: .warning, code: .unknownType, message: message, range: constant.range))
        }
        guard isTypeOperator, comparison.quantifier == nil, let left = RuleLinter.constantString(comparison.left),
            let right = RuleLinter.constantString(comparison.right)
        else { return }
        let holds =
            op == .utiConformsTo
            ? registry.conforms(UniformTypeIdentifier(left), to: UniformTypeIdentifier(right))
            : UniformTypeIdentifier(left) == UniformTypeIdentifier(right)
        findings.append(
            Finding(
                severity: holds ? .note : .warning, code: .unreachableType,
                message: holds
                    ? "\"\(left)\" \(op.rawValue) \"\(right)\" compares two constants: always true"
                    : "\"\(left)\" \(op.rawValue) \"\(right)\" is always false: no attachment can change it, so this test never passes",
                range: range))
    }

    /// In one AND, the type tests on the same expression (`$type UTI-CONFORMS-TO "public.image"
    /// AND $type UTI-EQUALS "public.file-url"`) must be passable by some declared type.
    private func lintReachability(of children: [PredicateNode], range: SourceRange, into findings: inout [Finding]) {
        var groups: [ExpressionNode: [(conforms: Bool, equals: Bool, target: String, positive: Bool)]] = [:]
        for child in children {
            var node = child
            var positive = true
            if case .not(let inner) = node.kind {
                node = inner
                positive = false
            }
            guard case .comparison(let comparison) = node.kind, comparison.quantifier == nil,
                comparison.comparisonOperator == .utiConformsTo || comparison.comparisonOperator == .utiEquals,
                RuleLinter.constantString(comparison.left) == nil,
                let target = RuleLinter.constantString(comparison.right)
            else { continue }
            groups[comparison.left, default: []].append(
                (
                    comparison.comparisonOperator == .utiConformsTo, comparison.comparisonOperator == .utiEquals,
                    target,
                    positive
                ))
        }
        for (expression, tests) in groups where tests.count > 1 && tests.contains(where: \.positive) {
            let candidates = registry.allDeclarations.map(\.identifier) + tests.map { UniformTypeIdentifier($0.target) }
            let reachable = candidates.contains { type in
                tests.allSatisfy { test in
                    let target = UniformTypeIdentifier(test.target)
                    let holds = test.equals ? type == target : registry.conforms(type, to: target)
                    return holds == test.positive
                }
            }
            guard !reachable else { continue }
            let described = tests.map {
                "\($0.positive ? "" : "NOT ")\($0.equals ? "UTI-EQUALS" : "UTI-CONFORMS-TO") \"\($0.target)\""
            }
            findings.append(
                Finding(
                    severity: .warning, code: .unreachableType,
                    message: "no type can pass all of \(expression) \(described.joined(separator: " AND ")): "
                        + "this conjunction is always false", range: range))
        }
    }
}
