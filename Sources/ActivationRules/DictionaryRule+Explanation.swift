import Foundation

// Explaining a dictionary rule in terms of its keys: which category each attachment fell in, which
// key accepted or rejected it, and which count was exceeded. The same decisions as
// `derivedPredicate`, computed directly so they can be named.

extension DictionaryRule {
    /// Where an attachment falls: its category and the type and target that put it there.
    struct Placement {
        var category: ActivationCategory
        var type: String?
        var target: String?
    }

    /// The first category (in test order) one of `types` reaches; the root when none does.
    func placement(of types: [String], relations: TypeRelations) -> Placement {
        for category in ActivationCategory.tested {
            let (targets, excluded) = category.membership
            for type in types {
                guard !excluded.contains(where: { relations.conforms(type, $0) }) else { continue }
                if let target = targets.first(where: { relations.conforms(type, $0) }) {
                    return Placement(category: category, type: type, target: target)
                }
            }
        }
        return Placement(category: .attachments, type: nil, target: nil)
    }

    /// `Key = value` for a category's key as read.
    func keyText(_ category: ActivationCategory) -> String {
        let name = category.key.replacingOccurrences(of: "NSExtensionActivation", with: "")
        guard let value = values[category] else { return name }
        return category.isBoolean ? "\(name) = \(value != 0 ? "YES" : "NO")" : "\(name) = \(value)"
    }

    /// Evaluates the rule against one payload in terms of its keys.
    ///
    /// - Returns: whether it activates and the explanation tree.
    func explain(_ payload: ActivationPayload, relations: TypeRelations) -> (Bool, Explanation) {
        var children: [Explanation] = []
        let mode =
            isStrict
            ? "strict matching (\(version == 0 ? "no DictionaryVersion" : "DictionaryVersion \(version)")\(usesStrictMatching ? ", UsesStrictMatching" : "")): every attachment must be accepted"
            : "fuzzy matching (version \(version)): one accepted attachment is enough; rejected ones still fail"
        children.append(Explanation(mode))
        guard hasNonZeroValue else {
            return (
                false,
                Explanation(
                    "every value is zero: never activates", value: "false", children: children, isDecisive: true)
            )
        }
        guard !acceptedCategories.isEmpty else {
            return (
                false,
                Explanation(
                    "no key accepts anything: never activates", value: "false", children: children, isDecisive: true)
            )
        }
        var outcome = true
        var decided = false
        func check(_ node: inout Explanation, passes: Bool) {
            if !passes, !decided {
                node.isDecisive = true
                decided = true
            }
            if !passes { outcome = false }
        }
        let total = payload.attachmentCount
        let minimum = max(1, minimumCount ?? 0)
        var totalNode = Explanation(
            "attachments over all items: \(total), at least \(minimum)"
                + (minimumCount == nil
                    ? " (a dictionary rule never activates without attachments)" : " (AttachmentsWithMinCount)"),
            value: String(total >= minimum))
        check(&totalNode, passes: total >= minimum)
        children.append(totalNode)
        if let maximum = maximumCount(for: .attachments) {
            var node = Explanation(
                "at most \(maximum) over all items (\(keyText(.attachments)))", value: String(total <= maximum))
            check(&node, passes: total <= maximum)
            children.append(node)
        }
        var anyAccepted = false
        var itemNodes: [Explanation] = []
        for (itemIndex, item) in payload.items.enumerated() {
            var itemChildren: [Explanation] = []
            let attachments = item.attachments ?? []
            var placements: [ActivationCategory] = []
            for (index, attachment) in attachments.enumerated() {
                let placement = placement(of: attachment.registeredTypeIdentifiers, relations: relations)
                placements.append(placement.category)
                let list = attachment.registeredTypeIdentifiers.joined(separator: ", ")
                var text = "attachment \(index + 1) [\(list)]: \(placement.category.displayName)"
                if let type = placement.type, let target = placement.target {
                    text += type.lowercased() == target ? " (\(type))" : " (\(type) conforms to \(target))"
                } else {
                    text += " (reaches no category's types)"
                }
                let decision = decision(for: placement.category)
                var node: Explanation
                switch decision {
                case .accepted(let key):
                    anyAccepted = true
                    node = Explanation(text + " → accepted by \(keyText(key))", value: "accepted")
                case .rejected(let key):
                    node = Explanation(text + " → rejected by \(keyText(key))", value: "rejected")
                    check(&node, passes: false)
                case .unspecified:
                    let names = placement.category.lineage.map { category -> String in
                        category.key.replacingOccurrences(of: "NSExtensionActivationSupports", with: "")
                            .replacingOccurrences(of: "WithMaxCount", with: "")
                    }
                    let list =
                        names.count > 1
                        ? names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "") : names[0]
                    node = Explanation(
                        text + " → no key accepts it (no \(list) key)",
                        value: isStrict ? "not accepted" : "ignored")
                    if isStrict { check(&node, passes: false) }
                }
                itemChildren.append(node)
            }
            for category in ActivationCategory.tested {
                guard let maximum = maximumCount(for: category) else { continue }
                let count = placements.filter { $0.isWithin(category) }.count
                guard count > 0 else { continue }
                var node = Explanation(
                    "\(category.displayName) attachments (and those below) in this item: \(count), at most \(maximum) (\(keyText(category)))",
                    value: String(count <= maximum))
                check(&node, passes: count <= maximum)
                itemChildren.append(node)
            }
            itemNodes.append(
                Explanation(
                    "item \(itemIndex + 1): \(attachments.count) attachment\(attachments.count == 1 ? "" : "s")",
                    children: itemChildren, isDecisive: itemChildren.contains(where: \.isDecisive)))
        }
        children.append(contentsOf: itemNodes)
        if !isStrict {
            var node = Explanation("at least one attachment accepted (fuzzy matching)", value: String(anyAccepted))
            check(&node, passes: anyAccepted)
            children.append(node)
        }
        let text = outcome ? "the dictionary rule accepts this payload" : "the dictionary rule rejects this payload"
        if outcome {
            children = children.map {
                var copy = $0; copy.isDecisive = true; return copy
            }
        }
        return (outcome, Explanation(text, value: String(outcome), children: children, isDecisive: true))
    }
}
