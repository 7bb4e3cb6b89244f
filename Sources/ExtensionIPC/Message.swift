/// Every control message of the host ↔ extension protocol. Data bytes travel separately as
/// ``DataChunk`` frames; descriptors travel with the frame of the message that names them.
///
/// Encoded as `{"type": "<case name>", "body": {…}}`; see ``WireFormat``.
public enum Message: Codable, Equatable, Sendable {
    /// Extension → host, first frame.
    case hello(Hello)
    /// Host → extension, answer to hello.
    case welcome(Welcome)
    /// Host → extension, right after a welcome whose context did not fit in one frame.
    case contextPart(ContextPart)
    /// Extension → host: the attachments of one page of a paged context (``Welcome/paging``).
    case pageRequest(PageRequest)
    /// Host → extension: (part of) the answer to a ``PageRequest``.
    case contextPage(ContextPage)
    /// Extension → host: load a representation.
    case loadRequest(LoadRequest)
    /// Host → extension: a file or in-place load; carries one descriptor, or names the original.
    case fileReply(FileReply)
    /// Host → extension: all chunks of a data load have been sent.
    case loadCompleted(LoadCompleted)
    /// Host → extension: a load failed.
    case loadFailed(LoadFailed)
    /// Extension → host: reserved for cancelling a load in flight, and not sent: the extension
    /// never sends it and the host ignores it. It stays so the wire format keeps its tag.
    case cancelLoad(RequestReference)
    /// Extension → host: `startAccessingSecurityScopedResource()`.
    case startAccessing(SecurityScopeRequest)
    /// Extension → host: `stopAccessingSecurityScopedResource()`.
    case stopAccessing(SecurityScopeRequest)
    /// Host → extension: grant or deny of a start or stop.
    case securityScopeReply(SecurityScopeReply)
    /// Either way: progress.
    case progress(ProgressUpdate)
    /// Extension → host: outcomes ahead of a completion too large for one frame.
    case outcomes(OutcomeBatch)
    /// Extension → host: `completeRequest(returningItems:)`.
    case completeRequest(CompleteRequest)
    /// Extension → host: `cancelRequest(withError:)`.
    case cancelRequest(CancelRequest)
    /// Extension → host: a log line.
    case log(LogLine)
    /// extension → host: what ran after the request ended and what it cut off (``RequestEndReport``),
    /// once the end has settled.
    case requestSettled(RequestEndReport)
    /// Either way: the sender is closing.
    case bye(Bye)
    /// Extension → host, instead of anything else: the bundle cannot run (bad input).
    case bundleFailure(BundleFailure)
    /// Extension → host: the principal object the process made, and how.
    case principal(PrincipalDescription)
    /// Extension → host: open a URL (the hand-over to the app).
    case openURL(OpenURLRequest)
    /// Host → extension: whether the URL was opened.
    case openURLReply(OpenURLReply)
    /// Extension → host: one step of the scripted user and the screen after it.
    case uiStep(UserInterfaceStep)
    /// Extension → host: the life cycle, the screens and the diagnostics of the extension's sheet.
    case uiSummary(UserInterfaceSummary)
    /// Extension → host: read or write the general pasteboard (`UIPasteboard.general`).
    case pasteboard(PasteboardRequest)
    /// Host → extension: the pasteboard after the request.
    case pasteboardReply(PasteboardReply)

    /// How many descriptors must travel with this message's frame: one with a file reply, none
    /// with one that names the original by path.
    public var descriptorCount: Int {
        if case .fileReply(let reply) = self { return reply.originalPath == nil ? 1 : 0 }
        return 0
    }

    /// The `type` string on the wire.
    public var typeName: String {
        switch self {
        case .hello: return "hello"
        case .welcome: return "welcome"
        case .contextPart: return "contextPart"
        case .pageRequest: return "pageRequest"
        case .contextPage: return "contextPage"
        case .loadRequest: return "loadRequest"
        case .fileReply: return "fileReply"
        case .loadCompleted: return "loadCompleted"
        case .loadFailed: return "loadFailed"
        case .cancelLoad: return "cancelLoad"
        case .startAccessing: return "startAccessing"
        case .stopAccessing: return "stopAccessing"
        case .securityScopeReply: return "securityScopeReply"
        case .progress: return "progress"
        case .outcomes: return "outcomes"
        case .completeRequest: return "completeRequest"
        case .cancelRequest: return "cancelRequest"
        case .log: return "log"
        case .requestSettled: return "requestSettled"
        case .bye: return "bye"
        case .bundleFailure: return "bundleFailure"
        case .principal: return "principal"
        case .openURL: return "openURL"
        case .openURLReply: return "openURLReply"
        case .uiStep: return "uiStep"
        case .uiSummary: return "uiSummary"
        case .pasteboard: return "pasteboard"
        case .pasteboardReply: return "pasteboardReply"
        }
    }

    private enum CodingKeys: String, CodingKey {
        case type
        case body
    }

    /// Encodes `{"type": …, "body": …}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(typeName, forKey: .type)
        switch self {
        case .hello(let body): try container.encode(body, forKey: .body)
        case .welcome(let body): try container.encode(body, forKey: .body)
        case .contextPart(let body): try container.encode(body, forKey: .body)
        case .pageRequest(let body): try container.encode(body, forKey: .body)
        case .contextPage(let body): try container.encode(body, forKey: .body)
        case .loadRequest(let body): try container.encode(body, forKey: .body)
        case .fileReply(let body): try container.encode(body, forKey: .body)
        case .loadCompleted(let body): try container.encode(body, forKey: .body)
        case .loadFailed(let body): try container.encode(body, forKey: .body)
        case .cancelLoad(let body): try container.encode(body, forKey: .body)
        case .startAccessing(let body): try container.encode(body, forKey: .body)
        case .stopAccessing(let body): try container.encode(body, forKey: .body)
        case .securityScopeReply(let body): try container.encode(body, forKey: .body)
        case .progress(let body): try container.encode(body, forKey: .body)
        case .outcomes(let body): try container.encode(body, forKey: .body)
        case .completeRequest(let body): try container.encode(body, forKey: .body)
        case .cancelRequest(let body): try container.encode(body, forKey: .body)
        case .log(let body): try container.encode(body, forKey: .body)
        case .requestSettled(let body): try container.encode(body, forKey: .body)
        case .bye(let body): try container.encode(body, forKey: .body)
        case .bundleFailure(let body): try container.encode(body, forKey: .body)
        case .principal(let body): try container.encode(body, forKey: .body)
        case .openURL(let body): try container.encode(body, forKey: .body)
        case .openURLReply(let body): try container.encode(body, forKey: .body)
        case .uiStep(let body): try container.encode(body, forKey: .body)
        case .uiSummary(let body): try container.encode(body, forKey: .body)
        case .pasteboard(let body): try container.encode(body, forKey: .body)
        case .pasteboardReply(let body): try container.encode(body, forKey: .body)
        }
    }

    /// Decodes `{"type": …, "body": …}`.
    /// - Throws: `DecodingError` for an unknown type or a body that does not match it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(String.self, forKey: .type)
        func body<T: Decodable>(_: T.Type) throws -> T { try container.decode(T.self, forKey: .body) }
        switch type {
        case "hello": self = .hello(try body(Hello.self))
        case "welcome": self = .welcome(try body(Welcome.self))
        case "contextPart": self = .contextPart(try body(ContextPart.self))
        case "pageRequest": self = .pageRequest(try body(PageRequest.self))
        case "contextPage": self = .contextPage(try body(ContextPage.self))
        case "loadRequest": self = .loadRequest(try body(LoadRequest.self))
        case "fileReply": self = .fileReply(try body(FileReply.self))
        case "loadCompleted": self = .loadCompleted(try body(LoadCompleted.self))
        case "loadFailed": self = .loadFailed(try body(LoadFailed.self))
        case "cancelLoad": self = .cancelLoad(try body(RequestReference.self))
        case "startAccessing": self = .startAccessing(try body(SecurityScopeRequest.self))
        case "stopAccessing": self = .stopAccessing(try body(SecurityScopeRequest.self))
        case "securityScopeReply": self = .securityScopeReply(try body(SecurityScopeReply.self))
        case "progress": self = .progress(try body(ProgressUpdate.self))
        case "outcomes": self = .outcomes(try body(OutcomeBatch.self))
        case "completeRequest": self = .completeRequest(try body(CompleteRequest.self))
        case "cancelRequest": self = .cancelRequest(try body(CancelRequest.self))
        case "log": self = .log(try body(LogLine.self))
        case "requestSettled": self = .requestSettled(try body(RequestEndReport.self))
        case "bye": self = .bye(try body(Bye.self))
        case "bundleFailure": self = .bundleFailure(try body(BundleFailure.self))
        case "principal": self = .principal(try body(PrincipalDescription.self))
        case "openURL": self = .openURL(try body(OpenURLRequest.self))
        case "openURLReply": self = .openURLReply(try body(OpenURLReply.self))
        case "uiStep": self = .uiStep(try body(UserInterfaceStep.self))
        case "uiSummary": self = .uiSummary(try body(UserInterfaceSummary.self))
        case "pasteboard": self = .pasteboard(try body(PasteboardRequest.self))
        case "pasteboardReply": self = .pasteboardReply(try body(PasteboardReply.self))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: container, debugDescription: "unknown message type \"\(type)\"")
        }
    }
}
