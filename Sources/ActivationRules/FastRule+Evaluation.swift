import Predicates

extension FastRule {
    /// Evaluates the rule on a flattened payload.
    func evaluate(_ payload: FastPayload) -> Bool {
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: max(1, payload.types.count)) { bits in
            for index in payload.types.indices {
                bits[index] = self.bits(type: payload.types[index], key: payload.typeKeys[index])
            }
            return nodes.withUnsafeBufferPointer { nodes in
                counts.withUnsafeBufferPointer { counts in
                    children.withUnsafeBufferPointer { children in
                        payload.typeIDs.withUnsafeBufferPointer { typeIDs in
                            payload.typeStart.withUnsafeBufferPointer { typeStart in
                                withUnsafeTemporaryAllocation(of: Int.self, capacity: max(1, slotCount)) { slots in
                                    let machine = Machine(
                                        nodes: nodes, counts: counts, children: children,
                                        bits: UnsafeBufferPointer(bits), typeIDs: typeIDs, typeStart: typeStart,
                                        attachmentStart: payload.attachmentStart,
                                        hasAttachments: payload.hasAttachments,
                                        slots: slots)
                                    return machine.evaluate(root)
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// The evaluation state; every buffer is borrowed for the duration of one `evaluate`.
    private struct Machine {
        let nodes: UnsafeBufferPointer<Node>
        let counts: UnsafeBufferPointer<Count>
        let children: UnsafeBufferPointer<Int>
        /// The test bits of each distinct type.
        let bits: UnsafeBufferPointer<UInt64>
        let typeIDs: UnsafeBufferPointer<Int>
        let typeStart: UnsafeBufferPointer<Int>
        let attachmentStart: [Int]
        let hasAttachments: [Bool]
        /// The current item, attachment or type position of each slot.
        let slots: UnsafeMutableBufferPointer<Int>

        func evaluate(_ index: Int) -> Bool {
            switch nodes[index] {
            case .constant(let value):
                return value
            case .not(let inner):
                return !evaluate(inner)
            case .and(let start, let count):
                for position in start..<(start + count) where !evaluate(children[position]) { return false }
                return true
            case .or(let start, let count):
                for position in start..<(start + count) where evaluate(children[position]) { return true }
                return false
            case .types(let quantifier, let slot, let bit):
                let attachment = slots[slot]
                let range = typeStart[attachment]..<typeStart[attachment + 1]
                switch quantifier {
                case .any:
                    for position in range where bits[typeIDs[position]] & bit != 0 { return true }
                    return false
                case .all:
                    for position in range where bits[typeIDs[position]] & bit == 0 { return false }
                    return true
                case .none:
                    for position in range where bits[typeIDs[position]] & bit != 0 { return false }
                    return true
                }
            case .type(let slot, let bit):
                return bits[typeIDs[slots[slot]]] & bit != 0
            case .compare(let left, let op, let right):
                let a = count(left)
                let b = count(right)
                switch op {
                case .equalTo: return a == b
                case .notEqualTo: return a != b
                default:
                    guard let a, let b else { return false }
                    switch op {
                    case .lessThan: return a < b
                    case .lessThanOrEqualTo: return a <= b
                    case .greaterThan: return a > b
                    default: return a >= b
                    }
                }
            }
        }

        /// A count, or nil where the general evaluator's value would be nil (a missing `attachments`).
        func count(_ index: Int) -> Int? {
            switch counts[index] {
            case .constant(let value):
                return value
            case .items:
                return hasAttachments.count
            case .totalAttachments:
                return typeStart.count - 1
            case .attachments(let itemSlot):
                let item = slots[itemSlot]
                guard hasAttachments[item] else { return nil }
                return attachmentStart[item + 1] - attachmentStart[item]
            case .types(let attachmentSlot):
                let attachment = slots[attachmentSlot]
                return typeStart[attachment + 1] - typeStart[attachment]
            case .subqueryItems(let slot, let body):
                var matched = 0
                for item in 0..<hasAttachments.count {
                    slots[slot] = item
                    if evaluate(body) { matched += 1 }
                }
                return matched
            case .subqueryAttachments(let itemSlot, let slot, let body):
                let item = slots[itemSlot]
                var matched = 0
                for attachment in attachmentStart[item]..<attachmentStart[item + 1] {
                    slots[slot] = attachment
                    if evaluate(body) { matched += 1 }
                }
                return matched
            case .subqueryTypes(let attachmentSlot, let slot, let body):
                let attachment = slots[attachmentSlot]
                var matched = 0
                for position in typeStart[attachment]..<typeStart[attachment + 1] {
                    slots[slot] = position
                    if evaluate(body) { matched += 1 }
                }
                return matched
            }
        }
    }
}
