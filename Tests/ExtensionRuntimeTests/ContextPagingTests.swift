import ExtensionIPC
import Foundation
import HostSystem
import ItemProviders
import Testing

@testable import ExtensionRuntime

/// A paged context (``Welcome/paging``) against a scripted host: pages arrive when asked for, are
/// checked, and fill lightweight providers on first use.
@Suite(.timeLimit(.minutes(1)))
struct ContextPagingTests {
    /// `count` attachments over two items (3, then the rest), each with a file and a data type.
    static func context(_ count: Int) -> ContextDescription {
        let attachments = (0..<count).map { index in
            AttachmentDescription(
                index: index, suggestedName: "file-\(index).png",
                representations: [
                    RepresentationDescription(typeIdentifier: "public.png", kind: .file),
                    RepresentationDescription(typeIdentifier: "public.data", kind: .data),
                ])
        }
        return ContextDescription(items: [
            ItemDescription(title: "first", attachments: Array(attachments.prefix(3))),
            ItemDescription(title: "rest", attachments: Array(attachments.dropFirst(3))),
        ])
    }

    /// A host that welcomes with `context` in pages of `pageSize`, answers page requests with
    /// `answer` (the honest answer by default), and counts them.
    final class ScriptedHost: Sendable {
        let connection: Connection
        private let requests = Locked<[Int]>([])
        var pagesRequested: [Int] { requests.withLock { $0 } }

        init(
            _ connection: Connection, context: ContextDescription, pageSize: Int,
            answer: (@Sendable (PageRequest, ContextPaging, ContextDescription) -> [Message])? = nil
        ) {
            self.connection = connection
            let welcome = Welcome(context: context, appGroups: [])
            let head = welcome.paged(pageSize: pageSize) ?? welcome
            let requests = requests
            Thread.detachNewThread {
                guard case .hello = try? connection.receive(timeout: .seconds(10)).message else { return }
                try? connection.send(.welcome(head))
                while let frame = try? connection.receive() {
                    guard case .pageRequest(let request) = frame.message, let paging = head.paging else { continue }
                    requests.withLock { $0.append(request.page) }
                    let messages = answer?(request, paging, context) ?? paging.answer(request, from: context)
                    for message in messages { try? connection.send(message) }
                }
            }
        }
    }

    static func connect(
        _ context: ContextDescription, pageSize: Int,
        answer: (@Sendable (PageRequest, ContextPaging, ContextDescription) -> [Message])? = nil
    ) throws -> (HostConnection, Welcome, ScriptedHost) {
        let (a, b) = try Socket.pair()
        let host = ScriptedHost(Connection(socket: a), context: context, pageSize: pageSize, answer: answer)
        let client = HostConnection(connection: Connection(socket: b))
        let welcome = try client.handshake(name: "test")
        client.start()
        return (client, welcome, host)
    }

    @Test func aLargeContextIsWelcomedWithoutItsAttachmentsAndServedPageByPage() throws {
        let context = Self.context(10)
        let (client, welcome, host) = try Self.connect(context, pageSize: 4)
        defer {
            client.connection.close()
            host.connection.close()
        }
        #expect(welcome.paging == ContextPaging(pageSize: 4, attachmentCounts: [3, 7]))
        #expect(welcome.context.items.map(\.attachments.count) == [0, 0])
        #expect(welcome.context.items.map(\.title) == ["first", "rest"])
        // Three pages: 4, 4, 2 attachments, across the items' boundary, in order.
        let pages = try (0..<3).map { try client.page($0) }
        #expect(pages.map(\.count) == [4, 4, 2])
        #expect(pages.flatMap { $0 } == context.items.flatMap(\.attachments))
        #expect(throws: IPCError.self) { try client.page(3) }
    }

    @Test func aSmallContextStillTravelsWhole() throws {
        let context = Self.context(4)
        let (client, welcome, host) = try Self.connect(context, pageSize: 4)
        defer {
            client.connection.close()
            host.connection.close()
        }
        #expect(welcome.paging == nil)
        #expect(welcome.context == context)
    }

    @Test func aPageTooLargeForOneFrameArrivesInParts() throws {
        let context = Self.context(10)
        let (client, _, host) = try Self.connect(context, pageSize: 8) { request, paging, context in
            paging.answer(request, from: context, budget: 300)
        }
        defer {
            client.connection.close()
            host.connection.close()
        }
        #expect(try client.page(0) == Array(context.items.flatMap(\.attachments).prefix(8)))
        #expect(try client.page(1).map(\.index) == [8, 9])
    }

    @Test(arguments: ["short", "long", "misnumbered", "another page", "refused"])
    func aHostilePageIsRefused(_ kind: String) throws {
        let context = Self.context(10)
        let (client, _, host) = try Self.connect(context, pageSize: 4) { request, paging, context in
            guard case .contextPage(var page)? = paging.answer(request, from: context).first else { return [] }
            switch kind {
            case "short": page.attachments.removeLast()
            case "long": page.attachments += page.attachments
            case "misnumbered": page.attachments.swapAt(0, 1)
            case "another page": page.page += 1
            default:
                page = ContextPage(
                    requestID: request.requestID, page: request.page,
                    error: WireError(code: WireError.itemUnavailable, message: "no"))
            }
            return [.contextPage(page)]
        }
        defer {
            client.connection.close()
            host.connection.close()
        }
        #expect(throws: IPCError.self) { try client.page(0) }
        // The connection stays usable: the next honest question gets a (here equally hostile) answer.
        #expect(throws: IPCError.self) { try client.page(1) }
    }

    @Test func aPagedWelcomeThatContradictsItselfIsRefused() throws {
        let (a, b) = try Socket.pair()
        let hostSide = Connection(socket: a)
        defer { hostSide.close() }
        Thread.detachNewThread {
            _ = try? hostSide.receive(timeout: .seconds(10))
            var welcome = Welcome(context: Self.context(10), appGroups: [])
            welcome.paging = ContextPaging(pageSize: 4, attachmentCounts: [3, 7])  // and the attachments too
            try? hostSide.send(.welcome(welcome))
        }
        let client = HostConnection(connection: Connection(socket: b))
        defer { client.connection.close() }
        #expect(throws: IPCError.self) { _ = try client.handshake(name: "test") }
    }

    /// The proxies of a paged context are one array in order; a walk fills them page by page and
    /// keeps only the last pages' providers filled; a provider used again is filled again, the same.
    @MainActor
    @Test func lightweightProvidersAreFilledPerPageAndEmptiedBehindTheWindow() throws {
        let context = Self.context(40)
        let (client, welcome, host) = try Self.connect(context, pageSize: 5)
        defer {
            client.connection.close()
            host.connection.close()
        }
        let items = ProxyProviders.items(welcome, client, pagesKept: 2)
        #expect(items.map { $0.attachments?.count } == [3, 37])
        #expect(items.map(\.attributedTitle) == ["first", "rest"])
        let providers = items.flatMap { $0.attachments ?? [] }
        #expect(providers.allSatisfy { !$0.isFilled })
        #expect(providers.map(\.suggestedName) == (0..<40).map { "file-\($0).png" })
        #expect(providers.allSatisfy { $0.registeredTypeIdentifiers == ["public.png", "public.data"] })
        // Only the two most recent pages stay filled.
        #expect(providers.filter { $0.isFilled }.count == 10)
        #expect(providers.suffix(10).allSatisfy { $0.isFilled })
        // Used again, the first is filled again with the same description.
        #expect(providers[0].suggestedName == "file-0.png")
        #expect(providers[0].isFilled)
        // A provider its user changed keeps the change: it is not emptied when its page goes.
        providers[1].suggestedName = "renamed.png"
        for provider in providers.suffix(20) { _ = provider.registeredTypeIdentifiers }
        #expect(providers[1].suggestedName == "renamed.png")
        #expect(!providers[2].isFilled)
        // The first page was asked for by each of the two walks and by the refill, no more: kept
        // pages are not asked for again.
        #expect(host.pagesRequested.filter { $0 == 0 }.count == 3)
        #expect(host.pagesRequested.filter { $0 == 7 }.count == 3)
    }
}
