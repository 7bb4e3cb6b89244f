import UniformTypes

/// A payload flattened for ``FastRule``: each distinct type identifier once, attachments as runs
/// of type numbers, items as runs of attachments.
struct FastPayload: Sendable {
    /// The distinct type identifiers, as written.
    let types: [String]
    /// Their lower-cased keys, for the conformance table.
    let typeKeys: [String]
    /// Attachment `a`'s types are `typeIDs[typeStart[a]..<typeStart[a + 1]]`.
    let typeStart: [Int]
    /// The type numbers of every attachment, one run after another.
    let typeIDs: [Int]
    /// Item `i`'s attachments are `attachmentStart[i]..<attachmentStart[i + 1]`.
    let attachmentStart: [Int]
    /// Whether item `i` has an `attachments` key at all (a missing key counts as nil, not 0).
    let hasAttachments: [Bool]

    init(_ payload: ActivationPayload) {
        var index: [String: Int] = [:]
        var types: [String] = []
        var typeStart: [Int] = [0]
        var typeIDs: [Int] = []
        var attachmentStart: [Int] = [0]
        var hasAttachments: [Bool] = []
        for item in payload.items {
            hasAttachments.append(item.attachments != nil)
            for attachment in item.attachments ?? [] {
                for type in attachment.registeredTypeIdentifiers {
                    let id: Int
                    if let known = index[type] {
                        id = known
                    } else {
                        id = types.count
                        index[type] = id
                        types.append(type)
                    }
                    typeIDs.append(id)
                }
                typeStart.append(typeIDs.count)
            }
            attachmentStart.append(typeStart.count - 1)
        }
        self.types = types
        self.typeKeys = types.map { UniformTypeIdentifier($0).key }
        self.typeStart = typeStart
        self.typeIDs = typeIDs
        self.attachmentStart = attachmentStart
        self.hasAttachments = hasAttachments
    }

    var itemCount: Int { hasAttachments.count }
    var attachmentCount: Int { typeStart.count - 1 }
}
