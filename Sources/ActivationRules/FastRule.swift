import Predicates
import UniformTypes

/// A second, specialised compilation of the predicate shapes activation rules use, evaluated over
/// a ``FastPayload`` with every type test answered from a precomputed bit table.
///
/// It accepts only predicates whose every construct it models and that cannot fail to evaluate on
/// a well-formed payload: `SUBQUERY` over `extensionItems`, `$item.attachments` and
/// `$attachment.registeredTypeIdentifiers`; `ANY`/`ALL`/`NONE` over a type list with
/// `UTI-CONFORMS-TO`, `UTI-EQUALS` or `==` against a constant; those operators on a `SUBQUERY`
/// type variable; `@count` of those collections and `extensionItems.@sum.attachments.@count`
/// compared with each other or with integers; `NOT`, `AND`, `OR`, `TRUEPREDICATE`, `FALSEPREDICATE`.
/// Anything else (and any payload with extra keys) is left to the general evaluator, which gives
/// the same answers more slowly; tests compare the two on every rule and payload they use. (One
/// difference remains: the general evaluator's step budget, which no realistic payload reaches.)
struct FastRule: Sendable {
    /// One type test, answered per distinct type by one bit.
    enum TypeTest: Hashable {
        case conforms(String)
        case equals(String)
        case identical(String)
    }

    /// One predicate instruction. Plain values only, so evaluating moves no reference counts.
    enum Node: Sendable {
        case constant(Bool)
        /// The negation of node `index`.
        case not(Int)
        /// Nodes `children[start..<start + count]`, all true.
        case and(start: Int, count: Int)
        /// Nodes `children[start..<start + count]`, one true.
        case or(start: Int, count: Int)
        /// A quantified test over the types of the attachment in a slot.
        case types(Quantifier, slot: Int, bit: UInt64)
        /// A test of the type in a slot.
        case type(slot: Int, bit: UInt64)
        /// Counts `counts[left]` and `counts[right]` compared.
        case compare(Int, ComparisonOperator, Int)
    }

    /// One count instruction; `body` is a node index.
    enum Count: Sendable {
        case constant(Int)
        case items
        case totalAttachments
        case attachments(itemSlot: Int)
        case types(attachmentSlot: Int)
        case subqueryItems(slot: Int, body: Int)
        case subqueryAttachments(itemSlot: Int, slot: Int, body: Int)
        case subqueryTypes(attachmentSlot: Int, slot: Int, body: Int)
    }

    /// The predicate instructions; the root is the last.
    let nodes: [Node]
    /// The count instructions.
    let counts: [Count]
    /// Child lists of `and` and `or` nodes.
    let children: [Int]
    let root: Int
    let slotCount: Int
    let tests: [TypeTest]
    /// For each declared type's key: the bits of the conformance and equality tests it passes.
    let table: [String: UInt64]
    /// The `==` tests: their bit and the exact string.
    let identicalTests: [(bit: UInt64, target: String)]
    let relations: TypeRelations

    /// Compiles `predicate`, or returns nil when it uses something this path does not model.
    init?(_ predicate: PredicateNode, relations: TypeRelations) {
        var compiler = Compiler()
        guard let root = compiler.predicate(predicate), compiler.tests.count <= 64 else { return nil }
        self.root = root
        self.nodes = compiler.nodes
        self.counts = compiler.counts
        self.children = compiler.children
        self.slotCount = compiler.slots.count
        self.tests = compiler.tests
        self.relations = relations
        let registry = relations.registry
        var table: [String: UInt64] = [:]
        for declaration in registry.allDeclarations { table[declaration.identifier.key] = 0 }
        for (index, test) in compiler.tests.enumerated() {
            let bit = UInt64(1) << UInt64(index)
            switch test {
            case .conforms(let target):
                let targetType = UniformTypeIdentifier(target)
                for declaration in registry.declarations(conformingTo: targetType) {
                    table[declaration.identifier.key, default: 0] |= bit
                }
                table[targetType.key, default: 0] |= bit
            case .equals(let target):
                table[UniformTypeIdentifier(target).key, default: 0] |= bit
            case .identical:
                break
            }
        }
        self.table = table
        self.identicalTests = compiler.tests.enumerated().compactMap { index, test in
            if case .identical(let target) = test { return (UInt64(1) << UInt64(index), target) }
            return nil
        }
    }

    /// The bits of the tests a type passes.
    func bits(type: String, key: String) -> UInt64 {
        var result: UInt64
        if let known = table[key], !key.hasPrefix("dyn.") {
            result = known
        } else {
            result = 0
            for (index, test) in tests.enumerated() {
                switch test {
                case .conforms(let target):
                    if relations.conforms(type, target) { result |= UInt64(1) << UInt64(index) }
                case .equals(let target):
                    if relations.equal(type, target) { result |= UInt64(1) << UInt64(index) }
                case .identical: break
                }
            }
        }
        for (bit, target) in identicalTests where type == target { result |= bit }
        return result
    }
}

// MARK: - Compiling

extension FastRule {
    /// What a variable holds.
    enum SlotKind { case item, attachment, type }

    struct Compiler {
        var slots: [SlotKind] = []
        var scope: [(name: String, slot: Int)] = []
        var tests: [TypeTest] = []
        var nodes: [Node] = []
        var counts: [Count] = []
        var children: [Int] = []

        mutating func add(_ node: Node) -> Int {
            nodes.append(node)
            return nodes.count - 1
        }

        mutating func add(_ count: Count) -> Int {
            counts.append(count)
            return counts.count - 1
        }

        mutating func bit(_ test: TypeTest) -> UInt64 {
            if let index = tests.firstIndex(of: test) { return UInt64(1) << UInt64(index) }
            tests.append(test)
            return UInt64(1) << UInt64(tests.count - 1)
        }

        func slot(_ name: String, _ kind: SlotKind) -> Int? {
            guard let slot = scope.last(where: { $0.name == name })?.slot, slots[slot] == kind else { return nil }
            return slot
        }

        /// Compiles a predicate; returns its node index.
        mutating func predicate(_ node: PredicateNode) -> Int? {
            switch node.kind {
            case .constant(let value): return add(.constant(value))
            case .not(let inner):
                guard let compiled = predicate(inner) else { return nil }
                return add(.not(compiled))
            case .and(let list), .or(let list):
                var compiled: [Int] = []
                for child in list {
                    guard let index = predicate(child) else { return nil }
                    compiled.append(index)
                }
                let start = children.count
                children += compiled
                if case .and = node.kind { return add(.and(start: start, count: compiled.count)) }
                return add(.or(start: start, count: compiled.count))
            case .comparison(let comparison):
                guard let compiled = self.comparison(comparison) else { return nil }
                return add(compiled)
            }
        }

        mutating func comparison(_ comparison: Comparison) -> Node? {
            let op = comparison.comparisonOperator
            if let test = typeTest(op, options: comparison.options, comparison.right) {
                if let quantifier = comparison.quantifier {
                    guard let slot = typeList(comparison.left) else { return nil }
                    return .types(quantifier, slot: slot, bit: bit(test))
                }
                guard case .variable(let name) = comparison.left.kind, let slot = slot(name, .type) else { return nil }
                return .type(slot: slot, bit: bit(test))
            }
            guard comparison.quantifier == nil, comparison.options.isEmpty,
                [.equalTo, .notEqualTo, .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo].contains(
                    op),
                let left = count(comparison.left), let right = count(comparison.right)
            else { return nil }
            return .compare(add(left), op, add(right))
        }

        func typeTest(_ op: ComparisonOperator, options: StringOptions, _ right: ExpressionNode) -> TypeTest? {
            guard case .constant(.string(let target)) = right.kind else { return nil }
            switch op {
            case .utiConformsTo: return .conforms(target)
            case .utiEquals: return .equals(target)
            case .equalTo where options.isEmpty: return .identical(target)
            default: return nil
            }
        }

        /// `$attachment.registeredTypeIdentifiers`: the slot of the attachment.
        func typeList(_ expression: ExpressionNode) -> Int? {
            guard case .keyPath(let base, let components) = expression.kind,
                components.count == 1, case .key("registeredTypeIdentifiers") = components[0],
                case .variable(let name) = base.kind
            else { return nil }
            return slot(name, .attachment)
        }

        mutating func count(_ expression: ExpressionNode) -> Count? {
            switch expression.kind {
            case .constant(.integer(let value)): return .constant(value)
            case .keyPath(let base, let components):
                guard case .collectionOperator("count") = components.last else { return nil }
                let path = Array(components.dropLast())
                if case .subquery(let collection, let variable, let inner) = base.kind, path.isEmpty {
                    return subqueryCount(collection, variable, inner)
                }
                if case .evaluatedObject = base.kind {
                    // Inside a SUBQUERY, SELF is the element, not the payload.
                    guard scope.isEmpty else { return nil }
                    if path.count == 1, case .key("extensionItems") = path[0] { return .items }
                    if path.count == 3, case .key("extensionItems") = path[0],
                        case .collectionOperator("sum") = path[1],
                        case .key("attachments") = path[2]
                    {
                        return .totalAttachments
                    }
                    return nil
                }
                guard case .variable(let name) = base.kind, path.count == 1, case .key(let key) = path[0] else {
                    return nil
                }
                if key == "attachments", let slot = slot(name, .item) { return .attachments(itemSlot: slot) }
                if key == "registeredTypeIdentifiers", let slot = slot(name, .attachment) {
                    return .types(attachmentSlot: slot)
                }
                return nil
            default:
                return nil
            }
        }

        mutating func subqueryCount(_ collection: ExpressionNode, _ variable: String, _ inner: PredicateNode) -> Count?
        {
            guard case .keyPath(let base, let components) = collection.kind, components.count == 1,
                case .key(let key) = components[0]
            else { return nil }
            let kind: SlotKind
            var parent = -1
            switch base.kind {
            case .evaluatedObject where key == "extensionItems" && scope.isEmpty:
                kind = .item
            case .variable(let name) where key == "attachments":
                guard let slot = slot(name, .item) else { return nil }
                kind = .attachment
                parent = slot
            case .variable(let name) where key == "registeredTypeIdentifiers":
                guard let slot = slot(name, .attachment) else { return nil }
                kind = .type
                parent = slot
            default:
                return nil
            }
            let slot = slots.count
            slots.append(kind)
            scope.append((variable, slot))
            defer { scope.removeLast() }
            guard let body = predicate(inner) else { return nil }
            switch kind {
            case .item: return .subqueryItems(slot: slot, body: body)
            case .attachment: return .subqueryAttachments(itemSlot: parent, slot: slot, body: body)
            case .type: return .subqueryTypes(attachmentSlot: parent, slot: slot, body: body)
            }
        }
    }
}
