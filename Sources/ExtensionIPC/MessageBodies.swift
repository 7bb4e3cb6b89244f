public import Foundation
public import HeadlessScreens

// The bodies of ``Message`` cases, in the order of a share: handshake, loads, security scopes,
// progress and logs, the end of the request.

// MARK: - Handshake

/// Which side of the connection a peer is.
public enum PeerRole: String, Codable, Hashable, Sendable {
    /// The app that opened the share sheet (`exthost share`).
    case host
    /// The share extension process.
    case `extension`
}

/// The first frame the extension sends.
public struct Hello: Codable, Hashable, Sendable {
    /// The protocol version the sender speaks (``WireFormat/protocolVersion``).
    public var protocolVersion: UInt16
    /// The sender's role.
    public var role: PeerRole
    /// The sender's pid as it sees itself.
    public var pid: Int32
    /// A name for logs (the extension's bundle identifier or executable name).
    public var name: String?

    /// A hello.
    public init(protocolVersion: UInt16 = WireFormat.protocolVersion, role: PeerRole, pid: Int32, name: String? = nil) {
        self.protocolVersion = protocolVersion
        self.role = role
        self.pid = pid
        self.name = name
    }
}

/// The host's answer to ``Hello``: the context to work on.
public struct Welcome: Codable, Equatable, Sendable {
    /// The protocol version the host speaks.
    public var protocolVersion: UInt16
    /// The extension context.
    public var context: ContextDescription
    /// The App Group identifiers the extension may write (its entitlements).
    public var appGroups: [String]
    /// How many ``Message/contextPart(_:)`` messages follow with the rest of the attachments, when
    /// the context does not fit in one frame (nil: none follow).
    public var parts: Int?
    /// How security scopes are enforced: `kernel` when the host brokers the extension's opens (an
    /// in-place load then answers with the original's path, ``FileReply/originalPath``); nil when
    /// only the API enforces them (an in-place load answers with a descriptor, while accessed).
    public var scopeEnforcement: String?
    /// The steps of the scripted user (`exthost share --ui`) for an extension with a view
    /// controller; nil: the default (a compose sheet gets `tap Post`, other controllers nothing).
    public var userScript: UIScript?
    /// Set when the context holds more attachments than one page: the items then carry no
    /// attachments, and the extension asks for each page of them when it needs it
    /// (``Message/pageRequest(_:)``), so neither side holds every description in one message.
    public var paging: ContextPaging?

    /// A welcome.
    public init(
        protocolVersion: UInt16 = WireFormat.protocolVersion, context: ContextDescription, appGroups: [String],
        parts: Int? = nil, scopeEnforcement: String? = nil, userScript: UIScript? = nil, paging: ContextPaging? = nil
    ) {
        self.protocolVersion = protocolVersion
        self.context = context
        self.appGroups = appGroups
        self.parts = parts
        self.scopeEnforcement = scopeEnforcement
        self.userScript = userScript
        self.paging = paging
    }

    /// This welcome with its attachments left for pages of `pageSize`: the items without their
    /// attachments and ``paging`` set; nil when the context has at most `pageSize` attachments
    /// (it then travels whole) or `pageSize` is below 1.
    public func paged(pageSize: Int) -> Welcome? {
        let counts = context.items.map(\.attachments.count)
        guard pageSize >= 1, counts.reduce(0, +) > pageSize else { return nil }
        var head = self
        head.context.items = context.items.map {
            ItemDescription(title: $0.title, contentText: $0.contentText, attachments: [])
        }
        head.parts = nil
        head.paging = ContextPaging(pageSize: pageSize, attachmentCounts: counts)
        return head
    }

    /// This welcome as frames that each fit in ``WireFormat/maximumPayloadSize``: itself when it
    /// fits, otherwise a welcome whose items carry no attachments (``parts`` set) followed by
    /// context parts of at most `budget` encoded bytes of attachments each.
    public func split(budget: Int = 512 << 10) -> [Message] {
        let encoder = JSONEncoder()
        let costs = context.items.map { FrameBudget.costs(of: $0.attachments, encoder, budget: budget) }
        if FrameBudget.fitsWhole(Message.welcome(self), costs: costs.flatMap { $0 }, encoder, budget: budget) {
            return [.welcome(self)]
        }
        var parts: [ContextPart] = []
        for (itemIndex, item) in context.items.enumerated() {
            parts += FrameBudget.runs(of: item.attachments, costs: costs[itemIndex], budget: budget).map {
                ContextPart(item: itemIndex, attachments: $0)
            }
        }
        var head = self
        head.context.items = context.items.map {
            ItemDescription(title: $0.title, contentText: $0.contentText, attachments: [])
        }
        head.parts = parts.count
        return [.welcome(head)] + parts.map(Message.contextPart)
    }

    /// The welcome with `parts` merged back into its items.
    /// - Throws: ``IPCError`` `.protocolViolation` for a part naming an item that does not exist.
    public func merging(_ parts: [ContextPart]) throws(IPCError) -> Welcome {
        var merged = self
        for part in parts {
            guard merged.context.items.indices.contains(part.item) else {
                throw IPCError(
                    .protocolViolation, "a context part names item \(part.item) of \(merged.context.items.count)")
            }
            merged.context.items[part.item].attachments += part.attachments
        }
        merged.parts = nil
        return merged
    }
}

/// More attachments of one item of the context, after a ``Welcome`` whose ``Welcome/parts`` says
/// they follow (a context too large for one frame).
public struct ContextPart: Codable, Hashable, Sendable {
    /// The item (index into ``ContextDescription/items``) the attachments belong to.
    public var item: Int
    /// The attachments, appended in order.
    public var attachments: [AttachmentDescription]

    /// A part.
    public init(item: Int, attachments: [AttachmentDescription]) {
        self.item = item
        self.attachments = attachments
    }
}

/// How a paged context travels (``Welcome/paging``): its attachments, numbered across all items
/// in order, in pages of ``pageSize``; page `p` holds the attachments `p·pageSize ..<
/// min((p+1)·pageSize, total)`.
public struct ContextPaging: Codable, Hashable, Sendable {
    /// The attachments per page (the last page may hold fewer).
    public var pageSize: Int
    /// How many attachments each item of the context has, in item order.
    public var attachmentCounts: [Int]

    /// Paging of `attachmentCounts` in pages of `pageSize`.
    public init(pageSize: Int, attachmentCounts: [Int]) {
        self.pageSize = pageSize
        self.attachmentCounts = attachmentCounts
    }

    /// The attachments of every item.
    public var attachmentCount: Int { attachmentCounts.reduce(0, +) }

    /// How many pages there are.
    public var pageCount: Int { pageSize < 1 ? 0 : (attachmentCount + pageSize - 1) / pageSize }

    /// The attachment indices of `page`; nil for a page that does not exist.
    public func range(ofPage page: Int) -> Range<Int>? {
        guard page >= 0, page < pageCount else { return nil }
        let start = page * pageSize
        return start..<min(start + pageSize, attachmentCount)
    }

    /// Refuses paging a peer cannot have meant: a page size below 1 or above 2²⁰, a negative count, or counts
    /// for another number of items than the context has.
    /// - Throws: ``IPCError`` `.protocolViolation`.
    public func validate(itemCount: Int) throws(IPCError) {
        guard pageSize >= 1, pageSize <= 1 << 20 else {
            throw IPCError(.protocolViolation, "the context's page size is \(pageSize)")
        }
        // At most 2³² per item: their sum cannot overflow (a frame holds far fewer than 2³¹ counts).
        guard attachmentCounts.count == itemCount, attachmentCounts.allSatisfy({ $0 >= 0 && $0 <= 1 << 32 }) else {
            throw IPCError(
                .protocolViolation,
                "the context's attachment counts \(attachmentCounts.prefix(8)) do not match its \(itemCount) item(s)")
        }
    }

    /// Checks that `attachments` are exactly `page`: as many as the page holds, numbered in order.
    /// - Throws: ``IPCError`` `.protocolViolation` for a page that does not exist, or a short,
    ///   long or misnumbered one.
    public func check(_ attachments: [AttachmentDescription], page: Int) throws(IPCError) {
        guard let range = range(ofPage: page) else {
            throw IPCError(.protocolViolation, "the host sent page \(page) of \(pageCount)")
        }
        guard attachments.count == range.count else {
            throw IPCError(
                .protocolViolation,
                "page \(page) holds \(attachments.count) attachment(s); it must hold \(range.count)")
        }
        for (offset, attachment) in attachments.enumerated() where attachment.index != range.lowerBound + offset {
            throw IPCError(
                .protocolViolation,
                "attachment \(offset) of page \(page) is numbered \(attachment.index), not \(range.lowerBound + offset)"
            )
        }
    }

    /// The messages answering `request` from the whole `context` (the host's side): the page's
    /// attachments in `contextPage` messages of at most `budget` encoded bytes each, the last one
    /// with ``ContextPage/more`` unset; a page that does not exist is answered with an error.
    public func answer(_ request: PageRequest, from context: ContextDescription, budget: Int = 512 << 10) -> [Message] {
        guard let range = range(ofPage: request.page) else {
            let error = WireError(
                code: WireError.itemUnavailable, message: "there is no page \(request.page) of \(pageCount)")
            return [.contextPage(ContextPage(requestID: request.requestID, page: request.page, error: error))]
        }
        var attachments: [AttachmentDescription] = []
        attachments.reserveCapacity(range.count)
        var first = 0
        for item in context.items {
            let end = first + item.attachments.count
            let lower = max(first, range.lowerBound)
            let upper = min(end, range.upperBound)
            if lower < upper { attachments += item.attachments[(lower - first)..<(upper - first)] }
            first = end
            if first >= range.upperBound { break }
        }
        let costs = FrameBudget.costs(of: attachments, JSONEncoder(), budget: budget)
        let runs = FrameBudget.runs(of: attachments, costs: costs, budget: budget)
        guard !runs.isEmpty else {
            return [.contextPage(ContextPage(requestID: request.requestID, page: request.page, attachments: []))]
        }
        return runs.enumerated().map { position, run in
            .contextPage(
                ContextPage(
                    requestID: request.requestID, page: request.page, attachments: run,
                    more: position < runs.count - 1 ? true : nil))
        }
    }
}

/// The extension asks for one page of a paged context's attachments.
public struct PageRequest: Codable, Hashable, Sendable {
    /// Chosen by the extension, unique per connection; the reply names it.
    public var requestID: UInt64
    /// The page (``ContextPaging/range(ofPage:)``).
    public var page: Int

    /// A page request.
    public init(requestID: UInt64, page: Int) {
        self.requestID = requestID
        self.page = page
    }
}

/// The attachments of one page, or part of them (``more``), or why there are none.
public struct ContextPage: Codable, Hashable, Sendable {
    /// The request.
    public var requestID: UInt64
    /// The page.
    public var page: Int
    /// The attachments, in order (appended to those of earlier parts of the same request).
    public var attachments: [AttachmentDescription]
    /// True when another part of this page follows (a page too large for one frame).
    public var more: Bool?
    /// Why the page cannot be given.
    public var error: WireError?

    /// A page (or part of one).
    public init(
        requestID: UInt64, page: Int, attachments: [AttachmentDescription] = [], more: Bool? = nil,
        error: WireError? = nil
    ) {
        self.requestID = requestID
        self.page = page
        self.attachments = attachments
        self.more = more
        self.error = error
    }
}

// MARK: - Loads

/// The extension asks for one representation of one attachment.
public struct LoadRequest: Codable, Hashable, Sendable {
    /// Chosen by the extension, unique per connection; every reply names it.
    public var requestID: UInt64
    /// ``AttachmentDescription/index``.
    public var attachment: Int
    /// The requested type (it may need a coercion the host performs).
    public var typeIdentifier: String
    /// How the extension wants it: data (chunks), file (a descriptor to copy), or in place.
    public var kind: RepresentationKind

    /// A load request.
    public init(requestID: UInt64, attachment: Int, typeIdentifier: String, kind: RepresentationKind) {
        self.requestID = requestID
        self.attachment = attachment
        self.typeIdentifier = typeIdentifier
        self.kind = kind
    }
}

/// A data load finished: every ``DataChunk`` of the request has been sent.
public struct LoadCompleted: Codable, Hashable, Sendable {
    /// The request.
    public var requestID: UInt64
    /// The total bytes sent in chunks (the receiver checks it).
    public var byteCount: Int64

    /// A completion.
    public init(requestID: UInt64, byteCount: Int64) {
        self.requestID = requestID
        self.byteCount = byteCount
    }
}

/// A file or in-place load succeeded: one descriptor (read-only) travels with this frame, or, for an
/// in-place load the kernel guards, none and ``originalPath`` names the original.
public struct FileReply: Codable, Hashable, Sendable {
    /// The request.
    public var requestID: UInt64
    /// The type actually delivered.
    public var typeIdentifier: String
    /// The provider's `suggestedName`: the name data written to a file gets (plus the type's extension).
    public var suggestedName: String?
    /// The shared file's own name (a plain file name), which the copy in the extension's `tmp/`
    /// keeps; nil when the host wrote data to a file.
    public var fileName: String?
    /// The file's size.
    public var byteCount: Int64
    /// For in-place replies: the token whose scope guards this file.
    public var securityScopeToken: String?
    /// For an in-place reply under kernel enforcement: the original's absolute path (opened only
    /// while its scope is started).
    public var originalPath: String?

    /// A file reply.
    public init(
        requestID: UInt64, typeIdentifier: String, suggestedName: String? = nil, fileName: String? = nil,
        byteCount: Int64, securityScopeToken: String? = nil, originalPath: String? = nil
    ) {
        self.requestID = requestID
        self.typeIdentifier = typeIdentifier
        self.suggestedName = suggestedName
        self.fileName = fileName
        self.byteCount = byteCount
        self.securityScopeToken = securityScopeToken
        self.originalPath = originalPath
    }
}

/// An error as `NSError` would carry it: domain, code, message.
public struct WireError: Codable, Hashable, Sendable, Error {
    /// `NSItemProviderErrorDomain`.
    public static var itemProviderDomain: String { "NSItemProviderErrorDomain" }
    /// `NSItemProviderUnknownError` (-1).
    public static var unknownError: Int { -1 }
    /// `NSItemProviderItemUnavailableError` (-1000).
    public static var itemUnavailable: Int { -1000 }
    /// `NSItemProviderUnexpectedValueClassError` (-1100).
    public static var unexpectedValueClass: Int { -1100 }
    /// `NSItemProviderUnavailableCoercionError` (-1200).
    public static var unavailableCoercion: Int { -1200 }

    /// The error domain.
    public var domain: String
    /// The code within the domain.
    public var code: Int
    /// `localizedDescription`.
    public var message: String

    /// An error; the domain defaults to ``itemProviderDomain``.
    public init(domain: String = WireError.itemProviderDomain, code: Int, message: String) {
        self.domain = domain
        self.code = code
        self.message = message
    }
}

/// A load failed (no more frames for this request follow).
public struct LoadFailed: Codable, Hashable, Sendable {
    /// The request.
    public var requestID: UInt64
    /// Why.
    public var error: WireError

    /// A failure.
    public init(requestID: UInt64, error: WireError) {
        self.requestID = requestID
        self.error = error
    }
}

/// Names a request (the body of the reserved, never sent ``Message/cancelLoad(_:)``).
public struct RequestReference: Codable, Hashable, Sendable {
    /// The request.
    public var requestID: UInt64

    /// A reference to `requestID`.
    public init(requestID: UInt64) { self.requestID = requestID }
}

// MARK: - Security scope

/// `startAccessingSecurityScopedResource()` / `stop…` for an in-place file, brokered by the host.
public struct SecurityScopeRequest: Codable, Hashable, Sendable {
    /// Chosen by the extension; the reply names it.
    public var requestID: UInt64
    /// The token from ``RepresentationDescription/securityScopeToken`` or ``FileReply``.
    public var token: String

    /// A request.
    public init(requestID: UInt64, token: String) {
        self.requestID = requestID
        self.token = token
    }
}

/// The host's answer to a start or stop.
public struct SecurityScopeReply: Codable, Hashable, Sendable {
    /// The request.
    public var requestID: UInt64
    /// Whether access was granted (start) or the stop was accepted.
    public var granted: Bool
    /// Why it was refused (forged, foreign or already stopped token).
    public var reason: String?

    /// A reply.
    public init(requestID: UInt64, granted: Bool, reason: String? = nil) {
        self.requestID = requestID
        self.granted = granted
        self.reason = reason
    }
}

// MARK: - Progress, logs, end of request

/// Progress of a load (host → extension) or of the whole request (extension → host).
public struct ProgressUpdate: Codable, Hashable, Sendable {
    /// The load it belongs to, or nil for the request as a whole.
    public var requestID: UInt64?
    /// `Progress.completedUnitCount`.
    public var completedUnitCount: Int64
    /// `Progress.totalUnitCount` (-1 when unknown).
    public var totalUnitCount: Int64
    /// What is happening, for the report ("writing photo.png").
    public var activity: String?

    /// A progress update.
    public init(requestID: UInt64? = nil, completedUnitCount: Int64, totalUnitCount: Int64, activity: String? = nil) {
        self.requestID = requestID
        self.completedUnitCount = completedUnitCount
        self.totalUnitCount = totalUnitCount
        self.activity = activity
    }
}

/// What became of one attachment, for the host's report.
public struct AttachmentOutcome: Codable, Hashable, Sendable {
    /// ``AttachmentDescription/index``.
    public var attachment: Int
    /// The type that was loaded.
    public var typeIdentifier: String?
    /// How it was loaded.
    public var kind: RepresentationKind?
    /// Bytes written.
    public var byteCount: Int64
    /// How long the load and write took.
    public var milliseconds: Double
    /// Where it was written, relative to the group container.
    public var destination: String?
    /// Why it failed, if it did.
    public var error: WireError?

    /// An outcome.
    public init(
        attachment: Int, typeIdentifier: String? = nil, kind: RepresentationKind? = nil, byteCount: Int64 = 0,
        milliseconds: Double = 0, destination: String? = nil, error: WireError? = nil
    ) {
        self.attachment = attachment
        self.typeIdentifier = typeIdentifier
        self.kind = kind
        self.byteCount = byteCount
        self.milliseconds = milliseconds
        self.destination = destination
        self.error = error
    }
}

/// `completeRequest(returningItems:)`.
public struct CompleteRequest: Codable, Hashable, Sendable {
    /// One outcome per attachment the extension handled.
    public var outcomes: [AttachmentOutcome]
    /// Items returned to the host app, if any.
    public var returnedItems: [ItemDescription]
    /// What the returned items hold (an action extension's result), when it has any.
    public var returned: [ReturnedItem]?

    /// A completion.
    public init(outcomes: [AttachmentOutcome], returnedItems: [ItemDescription] = [], returned: [ReturnedItem]? = nil) {
        self.outcomes = outcomes
        self.returnedItems = returnedItems
        self.returned = returned
    }
}

/// What happened after a request ended (`completeRequest` or `cancelRequest`), as the extension's
/// runtime enforces a device's model of the end (see `ItemProviders.RequestLifetime`): what it let
/// run, and the loads it cut off — their completion handlers never ran.
public struct RequestEndReport: Codable, Hashable, Sendable {
    /// One thing that ran or was cut off.
    public struct Entry: Codable, Hashable, Sendable {
        /// What it was (`loadDataRepresentation of photo.jpg (public.jpeg)`).
        public var what: String
        /// The attachment it belongs to (its index in the context), when it is a load of one.
        public var attachment: Int?

        /// An entry.
        public init(what: String, attachment: Int? = nil) {
            self.what = what
            self.attachment = attachment
        }
    }

    /// `completeRequest` or `cancelRequest`.
    public var endedBy: String
    /// What ran after the end: the work item that ended it, completion handlers already delivered,
    /// `completeRequest`'s completion handler, the main queue's work queued before the end.
    public var ran: [Entry]
    /// Loads cut off: in flight at the end, or started after it; their completion never runs.
    public var cutOff: [Entry]
    /// What was still running when the grace ran out (the process is ended under it).
    public var stillRunning: [Entry]

    /// A report.
    public init(endedBy: String, ran: [Entry], cutOff: [Entry], stillRunning: [Entry]) {
        self.endedBy = endedBy
        self.ran = ran
        self.cutOff = cutOff
        self.stillRunning = stillRunning
    }
}

/// An `NSExtensionItem` an extension hands back with `completeRequest(returningItems:)` — what an
/// action extension returns to the app that shared — with the contents of its attachments.
public struct ReturnedItem: Codable, Hashable, Sendable {
    /// `attributedTitle` as plain text.
    public var title: String?
    /// `attributedContentText` as plain text.
    public var contentText: String?
    /// Its attachments.
    public var attachments: [ReturnedAttachment]

    /// A returned item.
    public init(title: String? = nil, contentText: String? = nil, attachments: [ReturnedAttachment]) {
        self.title = title
        self.contentText = contentText
        self.attachments = attachments
    }
}

/// One attachment of a returned item: its first representation's bytes (at most
/// ``maximumBytes``; a larger one travels as its size and an error).
public struct ReturnedAttachment: Codable, Hashable, Sendable {
    /// The most bytes one returned attachment carries.
    public static let maximumBytes = 256 << 10

    /// The representation's type.
    public var typeIdentifier: String
    /// The class the sharing app's `loadItem` gets (nil: `Data`).
    public var objectClass: ObjectClass?
    /// The bytes (nil when they could not be loaded or were too large).
    public var data: Data?
    /// Why ``data`` is missing.
    public var error: String?

    /// A returned attachment.
    public init(typeIdentifier: String, objectClass: ObjectClass? = nil, data: Data?, error: String? = nil) {
        self.typeIdentifier = typeIdentifier
        self.objectClass = objectClass
        self.data = data
        self.error = error
    }
}

/// Outcomes sent ahead of a ``CompleteRequest`` whose outcomes would not fit in one frame; the
/// host adds them to the completion's.
public struct OutcomeBatch: Codable, Hashable, Sendable {
    /// Some outcomes, in order.
    public var outcomes: [AttachmentOutcome]

    /// A batch.
    public init(outcomes: [AttachmentOutcome]) { self.outcomes = outcomes }

    /// These outcomes as `.outcomes` messages of at most `budget` encoded bytes each (none when
    /// there are no outcomes), for an extension that reports as it goes.
    public func split(budget: Int = 512 << 10) -> [Message] {
        let costs = FrameBudget.costs(of: outcomes, JSONEncoder(), budget: budget)
        return FrameBudget.runs(of: outcomes, costs: costs, budget: budget).map {
            .outcomes(OutcomeBatch(outcomes: $0))
        }
    }
}

extension CompleteRequest {
    /// This completion as messages that each fit in a frame: itself when it fits, otherwise
    /// outcome batches of at most `budget` encoded bytes followed by a completion without outcomes.
    public func split(budget: Int = 512 << 10) -> [Message] {
        let encoder = JSONEncoder()
        let costs = FrameBudget.costs(of: outcomes, encoder, budget: budget)
        if FrameBudget.fitsWhole(Message.completeRequest(self), costs: costs, encoder, budget: budget) {
            return [.completeRequest(self)]
        }
        var last = self
        last.outcomes = []
        return FrameBudget.runs(of: outcomes, costs: costs, budget: budget).map {
            .outcomes(OutcomeBatch(outcomes: $0))
        }
            + [.completeRequest(last)]
    }
}

/// Splitting a message too large for one frame: its many small values are measured one by one,
/// and the whole message is encoded only when their sum says it may fit — encoding it whole first
/// built the JSON of every value at once, a transient that put the extension of a
/// 100 000-attachment share over 120 MiB at its end.
enum FrameBudget {
    /// The encoded size of each value (`budget` for one that cannot be encoded, so it travels alone).
    static func costs<Value: Encodable>(of values: [Value], _ encoder: JSONEncoder, budget: Int) -> [Int] {
        values.map { (try? encoder.encode($0).count) ?? budget }
    }

    /// Whether `message`, holding values of these `costs`, fits in `budget` bytes.
    static func fitsWhole(_ message: Message, costs: [Int], _ encoder: JSONEncoder, budget: Int) -> Bool {
        guard costs.reduce(0, +) + costs.count + 4096 <= budget, let whole = try? encoder.encode(message) else {
            return false
        }
        return whole.count <= budget
    }

    /// `values` in consecutive runs of at most `budget` encoded bytes (a larger value runs alone).
    static func runs<Value>(of values: [Value], costs: [Int], budget: Int) -> [[Value]] {
        var runs: [[Value]] = []
        var current: [Value] = []
        var size = 0
        for (value, cost) in zip(values, costs) {
            if !current.isEmpty, size + cost > budget {
                runs.append(current)
                current = []
                size = 0
            }
            current.append(value)
            size += cost
        }
        if !current.isEmpty { runs.append(current) }
        return runs
    }
}

/// `cancelRequest(withError:)`.
public struct CancelRequest: Codable, Hashable, Sendable {
    /// The error the extension cancelled with.
    public var error: WireError

    /// A cancellation.
    public init(error: WireError) { self.error = error }
}

/// A log line from the extension (its `os_log`), shown in the host's report.
public struct LogLine: Codable, Hashable, Sendable {
    /// Severity.
    public enum Level: String, Codable, Hashable, Sendable {
        /// Debug detail.
        case debug
        /// Normal information.
        case info
        /// Something went wrong.
        case error
    }
    /// A misuse the extension's runtime recognised, which a device punishes (the host's report
    /// lists these lines among the share's mistakes). Typed, so the host never decides by the text.
    public enum Mistake: String, Codable, Hashable, Sendable {
        /// `completeRequest`/`cancelRequest` while loads were still in flight: they are cut off.
        case requestEndedWithLoadsInFlight
        /// A second `completeRequest`/`cancelRequest`: ignored, the first one ended the request.
        case requestEndedTwice
        /// `NSExtensionContext.open(_:)` from a share extension: refused.
        case openRefused
        /// `loadItem` handed over an in-memory image where code often expects a file URL.
        case inMemoryImage
    }

    /// Severity.
    public var level: Level
    /// The text (one line).
    public var text: String
    /// The misuse this line reports, if it reports one.
    public var mistake: Mistake?

    /// A log line.
    public init(level: Level, text: String, mistake: Mistake? = nil) {
        self.level = level
        self.text = text
        self.mistake = mistake
    }
}

/// The last frame either side sends before closing.
public struct Bye: Codable, Hashable, Sendable {
    /// Why the sender is closing.
    public var reason: String

    /// A goodbye.
    public init(reason: String) { self.reason = reason }
}
