public import Predicates

/// A readable tree saying how a rule reached its outcome: each node's text, its value, the nodes
/// below it, and whether it decided its parent's outcome.
public struct Explanation: Sendable, Hashable, Codable {
    /// What the node is: a predicate's canonical text, a key, an attachment, an attempt.
    public var text: String
    /// What it came to (`true`, `false`, a value, `error: …`), if anything.
    public var value: String?
    /// The nodes evaluated below it, in order.
    public var children: [Explanation]
    /// Whether this node decided its parent's outcome.
    public var isDecisive: Bool

    // The JSON order: text, value, decisive, children (a node's own fields before its subtree).
    private enum CodingKeys: String, CodingKey {
        case text, value
        case isDecisive = "decisive"
        case children
    }

    /// Creates a node.
    public init(_ text: String, value: String? = nil, children: [Explanation] = [], isDecisive: Bool = false) {
        self.text = text
        self.value = value
        self.children = children
        self.isDecisive = isDecisive
    }

    /// The tree of a traced predicate evaluation, made readable.
    ///
    /// Literal nodes (`"public.image" → "public.image"`) and the variable and `SELF` lookups under a
    /// key path are left out. Besides the trace's own decisive marks (the false operand of a false
    /// `AND`, the element that settled an `ANY`, …), a comparison marks its computed operands, and
    /// a `SUBQUERY(…).@count` operand marks the elements that made its count too small (those that
    /// did not match) or too large (those that did).
    public init(trace node: TraceNode) {
        self = Explanation.convert(node)
    }

    private static func convert(_ node: TraceNode) -> Explanation {
        let value: String
        switch node.value {
        case .bool(let flag): value = flag ? "true" : "false"
        case .value(let plist): value = Explanation.short(plist.description)
        case .error(let error): value = "error: \(error.message)"
        }
        var children = node.children.map(convert)
        if case .bool(let outcome) = node.value, children.count == 2,
            case .value(let leftValue) = node.children[0].value, case .value(let rightValue) = node.children[1].value
        {
            // A comparison of two values: a counted operand whose elements made the difference
            // decides it; otherwise every computed operand does.
            if let left = leftValue.number, let right = rightValue.number {
                children[0].markElements(matching: outcome ? left >= right : left > right)
                children[1].markElements(matching: outcome ? right >= left : right > left)
            }
            let counted = children.indices.filter { children[$0].children.contains(where: \.isDecisive) }
            for index in children.indices where !Explanation.isNoise(node.children[index]) {
                children[index].isDecisive = counted.isEmpty || counted.contains(index)
            }
        }
        children = zip(node.children, children).filter { !Explanation.isNoise($0.0) }.map(\.1)
        if node.text.hasPrefix("["), children.count == 1 {
            // A SUBQUERY element: its predicate's value is its value.
            children[0].isDecisive = true
        }
        return Explanation(node.text, value: value, children: children, isDecisive: node.isDecisive)
    }

    /// A literal (its text is its value), or a variable or `SELF` lookup.
    private static func isNoise(_ node: TraceNode) -> Bool {
        if case .value(let plist) = node.value, node.text == plist.description { return true }
        return node.text == "SELF" || (node.text.hasPrefix("$") && !node.text.contains("."))
    }

    /// Marks the `[i] $x = …` element children whose value is `matching` (when this node counts them).
    private mutating func markElements(matching: Bool) {
        let wanted = matching ? "true" : "false"
        for index in children.indices where children[index].text.hasPrefix("[") && children[index].value == wanted {
            children[index].isDecisive = true
        }
    }

    /// The deepest node reached by following decisive children from here: where the outcome was
    /// decided. The walk stops at a node all of whose several children decided it together (a false
    /// `OR`, a true `AND`).
    public var decidingPath: [Explanation] {
        var path = [self]
        var current = self
        while let next = current.children.first(where: \.isDecisive),
            current.children.count == 1 || !current.children.allSatisfy(\.isDecisive)
        {
            path.append(next)
            current = next
        }
        return path
    }

    /// The number of nodes in the tree.
    public var nodeCount: Int { 1 + children.reduce(0) { $0 + $1.nodeCount } }

    static func short(_ text: String) -> String {
        text.count > 120 ? String(text.prefix(117)) + "…" : text
    }
}
