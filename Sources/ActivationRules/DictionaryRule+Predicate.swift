public import Predicates

// How the dictionary form becomes a predicate, in the same language as the
// string form so both are evaluated, printed and explained alike. With $attachment one attachment:
//
//   reach(c)    = one of $attachment's types conforms to the category's types, e.g.
//                 ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "public.image";
//                 for web URLs, SUBQUERY($attachment.registeredTypeIdentifiers, $type,
//                 $type UTI-CONFORMS-TO "public.url" AND NOT $type UTI-CONFORMS-TO "public.file-url").@count > 0
//   in(S)       = the attachment's category (the first reached, in the order web page, web URL,
//                 image, movie, text, file; the root when none) is in the set S:
//                 OR over c in S of (reach(c) AND NOT reach(d) for each earlier d not in S);
//                 when S holds the root, NOT in(the tested categories outside S)
//   total       = extensionItems.@sum.attachments.@count
//   per item    = ($item.attachments.@count > max(K) AND
//                  SUBQUERY($item.attachments, $attachment, in(subtree of K)).@count > max(K))
//                 for each count key K that is present and non-zero (counts pool upwards; the
//                 first test follows from the second and only spares the count in the usual case)
//
//   strict: total >= max(1, min) [AND total <= max(Attachments)]
//           AND SUBQUERY(extensionItems, $item, SUBQUERY($item.attachments, $attachment,
//                   NOT in(accepted)).@count > 0 OR per-item violations).@count == 0
//   fuzzy:  total >= max(1, min) [AND total <= max(Attachments)]
//           AND SUBQUERY(extensionItems, $item, SUBQUERY($item.attachments, $attachment,
//                   in(accepted)).@count > 0).@count > 0
//           AND SUBQUERY(extensionItems, $item, SUBQUERY($item.attachments, $attachment,
//                   in(rejected)).@count > 0 OR per-item violations).@count == 0
//
// A rule whose values are all zero, or that accepts nothing, is FALSEPREDICATE.

extension DictionaryRule {
    /// The predicate the dictionary means, built from the constructs above and re-parsed from its
    /// canonical text (so its ranges point into ``PredicatePrinter/print(_:)-(PredicateNode)``'s output).
    public var derivedPredicate: PredicateNode {
        let built = buildPredicate()
        let text = PredicatePrinter.print(built)
        return (try? PredicateParser.parse(text)) ?? built
    }

    private func buildPredicate() -> PredicateNode {
        guard canActivate else { return P.constant(false) }
        let total = E.keyPath(
            E.object,
            [.key("extensionItems"), .collectionOperator("sum"), .key("attachments"), .collectionOperator("count")])
        var conjuncts: [PredicateNode] = [P.compare(total, .greaterThanOrEqualTo, E.integer(max(1, minimumCount ?? 0)))]
        if let maximum = maximumCount(for: .attachments) {
            conjuncts.append(P.compare(total, .lessThanOrEqualTo, E.integer(maximum)))
        }
        let accepted = membership(in: acceptedCategories)
        var failures = perItemViolations()
        if isStrict {
            let notAccepted = P.negate(accepted)
            if !notAccepted.isConstant(false) {
                failures.insert(P.compare(attachmentCount(notAccepted), .greaterThan, E.integer(0)), at: 0)
            }
        } else {
            // When every category is accepted, "one accepted attachment" is "one attachment", tested above.
            if !accepted.isConstant(true) {
                let good = P.compare(attachmentCount(accepted), .greaterThan, E.integer(0))
                conjuncts.append(P.compare(itemCount(good), .greaterThan, E.integer(0)))
            }
            let rejected = rejectedCategories
            if !rejected.isEmpty {
                failures.insert(P.compare(attachmentCount(membership(in: rejected)), .greaterThan, E.integer(0)), at: 0)
            }
        }
        if !failures.isEmpty { conjuncts.append(noItem(P.or(failures))) }
        return P.and(conjuncts)
    }

    /// `SUBQUERY(extensionItems, $item, predicate).@count == 0`.
    private func noItem(_ predicate: PredicateNode) -> PredicateNode {
        P.compare(itemCount(predicate), .equalTo, E.integer(0))
    }

    private func itemCount(_ predicate: PredicateNode) -> ExpressionNode {
        E.count(E.subquery(E.keyPath(E.object, [.key("extensionItems")]), "item", predicate))
    }

    private func attachmentCount(_ predicate: PredicateNode) -> ExpressionNode {
        E.count(E.subquery(E.keyPath(E.variable("item"), [.key("attachments")]), "attachment", predicate))
    }

    private func perItemViolations() -> [PredicateNode] {
        ActivationCategory.tested.compactMap { category in
            guard let maximum = maximumCount(for: category) else { return nil }
            let subtree = Set(ActivationCategory.allCases.filter { $0.isWithin(category) })
            // The first test is implied by the second; it only saves counting in the usual case.
            let items = E.count(E.keyPath(E.variable("item"), [.key("attachments")]))
            return P.and([
                P.compare(items, .greaterThan, E.integer(maximum)),
                P.compare(attachmentCount(membership(in: subtree)), .greaterThan, E.integer(maximum)),
            ])
        }
    }

    /// in(S): the attachment's category is in `categories`.
    func membership(in categories: Set<ActivationCategory>) -> PredicateNode {
        if categories.contains(.attachments) {
            let outside = Set(ActivationCategory.tested.filter { !categories.contains($0) })
            return outside.isEmpty ? P.constant(true) : P.negate(membership(in: outside))
        }
        let tested = ActivationCategory.tested
        var terms: [PredicateNode] = []
        for (index, category) in tested.enumerated() where categories.contains(category) {
            let earlier = tested[..<index].filter { !categories.contains($0) }
            terms.append(P.and([reach(category)] + earlier.map { P.negate(reach($0)) }))
        }
        return terms.isEmpty ? P.constant(false) : P.or(terms)
    }

    /// reach(c): one of the attachment's types conforms to the category's types.
    func reach(_ category: ActivationCategory) -> PredicateNode {
        let types = E.keyPath(E.variable("attachment"), [.key("registeredTypeIdentifiers")])
        let (targets, excluded) = category.membership
        if excluded.isEmpty {
            return P.or(
                targets.map { target in
                    PredicateNode(
                        .comparison(Comparison(quantifier: .any, left: types, .utiConformsTo, right: E.string(target))))
                })
        }
        let element = E.variable("type")
        let test = P.and(
            targets.map { P.compare(element, .utiConformsTo, E.string($0)) }
                + excluded.map { P.negate(P.compare(element, .utiConformsTo, E.string($0))) })
        return P.compare(E.count(E.subquery(types, "type", test)), .greaterThan, E.integer(0))
    }
}

extension PredicateNode {
    fileprivate func isConstant(_ value: Bool) -> Bool {
        if case .constant(let constant) = kind { return constant == value }
        return false
    }
}

/// Builders for predicate nodes.
private enum P {
    static func constant(_ value: Bool) -> PredicateNode { PredicateNode(.constant(value)) }
    static func compare(_ left: ExpressionNode, _ op: ComparisonOperator, _ right: ExpressionNode) -> PredicateNode {
        PredicateNode(.comparison(Comparison(left: left, op, right: right)))
    }
    static func negate(_ node: PredicateNode) -> PredicateNode {
        switch node.kind {
        case .not(let inner): return inner
        case .constant(let value): return constant(!value)
        default: return PredicateNode(.not(node))
        }
    }
    static func and(_ nodes: [PredicateNode]) -> PredicateNode {
        let flat = nodes.flatMap { node -> [PredicateNode] in
            if case .and(let inner) = node.kind { return inner }
            return [node]
        }
        return flat.count == 1 ? flat[0] : PredicateNode(.and(flat))
    }
    static func or(_ nodes: [PredicateNode]) -> PredicateNode {
        let flat = nodes.flatMap { node -> [PredicateNode] in
            if case .or(let inner) = node.kind { return inner }
            return [node]
        }
        return flat.count == 1 ? flat[0] : PredicateNode(.or(flat))
    }
}

/// Builders for expression nodes.
private enum E {
    static let object = ExpressionNode(.evaluatedObject)
    static func variable(_ name: String) -> ExpressionNode { ExpressionNode(.variable(name)) }
    static func string(_ text: String) -> ExpressionNode { ExpressionNode(.constant(.string(text))) }
    static func integer(_ value: Int) -> ExpressionNode { ExpressionNode(.constant(.integer(value))) }
    static func keyPath(_ base: ExpressionNode, _ components: [KeyPathComponent]) -> ExpressionNode {
        ExpressionNode(.keyPath(base: base, components: components))
    }
    static func subquery(_ collection: ExpressionNode, _ variable: String, _ predicate: PredicateNode) -> ExpressionNode
    {
        ExpressionNode(.subquery(collection: collection, variable: variable, predicate: predicate))
    }
    static func count(_ base: ExpressionNode) -> ExpressionNode { keyPath(base, [.collectionOperator("count")]) }
}
