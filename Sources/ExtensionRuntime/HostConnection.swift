import Dispatch
public import ExtensionIPC
public import HostSystem
import Synchronization

public import struct Foundation.Date
public import class Foundation.Thread

/// The extension's end of the connection to the host (fd 3): requests with replies matched by
/// request id, data loads reassembled from their chunks, and one-way messages.
///
/// A dedicated reader thread receives every frame, so replies arrive while any number of loads
/// are in flight. Safe to use from any task or thread.
public final class HostConnection: Sendable {
    /// A load's answer.
    public enum LoadReply: Sendable {
        /// The bytes of a data representation.
        case data([UInt8])
        /// A descriptor (read-only) and what the host said about it.
        case file(FileDescriptor, FileReply)
        /// The original of an in-place representation, by path (the kernel enforces its scope).
        case original(String, FileReply)
    }

    private enum Waiter {
        case load(CheckedContinuation<LoadReply, any Error>)
        case scope(@Sendable (SecurityScopeReply) -> Void)
        case openURL(@Sendable (Bool) -> Void)
        case pasteboard(@Sendable (PasteboardReply) -> Void)
        case page(Int, @Sendable (Result<[AttachmentDescription], IPCError>) -> Void)
    }
    private struct Pending {
        var waiter: Waiter
        var bytes: [UInt8] = []
        /// The parts of a page received so far.
        var attachments: [AttachmentDescription] = []
    }
    private struct State {
        var nextID: UInt64 = 1
        var pending: [UInt64: Pending] = [:]
        var closed: IPCError?
        var bye: Bye?
        /// ``waitForBye(timeout:)`` callers, resumed with true by the bye or the end of the
        /// connection, or with false by their timeout — whichever removes them first.
        var byeWaiters: [Int: CheckedContinuation<Bool, Never>] = [:]
        var nextByeWaiter = 0
        /// The welcome's paging, when the context comes in pages.
        var paging: ContextPaging?
    }

    /// The framed connection.
    public let connection: Connection
    /// The largest data representation accepted (bigger ones fail the load; use a file load).
    public let maximumDataSize: Int
    private let state = Locked(State())

    /// Wraps `connection` (fd 3 in an extension). Call ``start()`` after sending hello.
    public init(connection: Connection, maximumDataSize: Int = 256 << 20) {
        self.connection = connection
        self.maximumDataSize = maximumDataSize
    }

    /// The extension's inherited socket, fd 3.
    public static func inherited() -> HostConnection {
        HostConnection(connection: Connection(socket: Socket(descriptor: FileDescriptor(rawValue: 3))))
    }

    // MARK: - Handshake

    /// Sends hello and waits for the welcome.
    /// - Throws: ``ExtensionIPC/IPCError`` (`.protocolViolation` for anything but a welcome,
    ///   `.unsupportedVersion` for another protocol version).
    public func handshake(name: String?, timeout: Duration = .seconds(30)) throws -> Welcome {
        try connection.send(.hello(Hello(role: .extension, pid: ProcessID.current.rawValue, name: name)))
        let frame = try connection.receive(timeout: timeout)
        guard case .welcome(let welcome) = frame.message else {
            frame.closeDescriptors()
            throw IPCError(.protocolViolation, "expected a welcome from the host")
        }
        guard welcome.protocolVersion == WireFormat.protocolVersion else {
            throw IPCError(
                .unsupportedVersion,
                "the host speaks protocol \(welcome.protocolVersion), this extension \(WireFormat.protocolVersion)")
        }
        // A paged context: its attachments come when asked for (``page(_:)``).
        if let paging = welcome.paging {
            try paging.validate(itemCount: welcome.context.items.count)
            guard welcome.context.items.allSatisfy(\.attachments.isEmpty), welcome.parts == nil else {
                throw IPCError(.protocolViolation, "a paged welcome carries attachments or parts")
            }
            state.withLock { $0.paging = paging }
            return welcome
        }
        // A large context arrives in parts right after the welcome.
        var parts: [ContextPart] = []
        while parts.count < (welcome.parts ?? 0) {
            let next = try connection.receive(timeout: timeout)
            guard case .contextPart(let part) = next.message else {
                next.closeDescriptors()
                throw IPCError(.protocolViolation, "expected \(welcome.parts ?? 0) context parts after the welcome")
            }
            parts.append(part)
        }
        return try welcome.merging(parts)
    }

    /// Starts the reader thread (after ``handshake(name:timeout:)``).
    public func start() {
        Thread.detachNewThread { [self] in readLoop() }
    }

    // MARK: - Requests

    /// Loads one representation: data comes back as bytes, file and in-place as a descriptor.
    /// - Throws: ``ExtensionIPC/WireError`` from the host (or for an oversized data load),
    ///   ``ExtensionIPC/IPCError`` when the connection ended.
    public func load(attachment: Int, typeIdentifier: String, kind: RepresentationKind) async throws -> LoadReply {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<LoadReply, any Error>) in
            let registered: Result<UInt64, IPCError> = state.withLock { state in
                if let closed = state.closed { return .failure(closed) }
                let id = state.nextID
                state.nextID += 1
                state.pending[id] = Pending(waiter: .load(continuation))
                return .success(id)
            }
            switch registered {
            case .failure(let error): continuation.resume(throwing: error)
            case .success(let id):
                do throws(IPCError) {
                    try connection.send(
                        .loadRequest(
                            LoadRequest(
                                requestID: id, attachment: attachment, typeIdentifier: typeIdentifier, kind: kind)))
                } catch {
                    if case .load(let waiter)? = state.withLock({ $0.pending.removeValue(forKey: id)?.waiter }) {
                        waiter.resume(throwing: error)
                    }
                }
            }
        }
    }

    /// The welcome's paging (nil: the context came whole).
    public var paging: ContextPaging? { state.withLock { $0.paging } }

    /// Asks the host for `page` of a paged context (``ExtensionIPC/Welcome/paging``); `answer`
    /// runs once, on the reader thread, with the page's attachments — checked to be exactly that
    /// page (``ExtensionIPC/ContextPaging/check(_:page:)``) — or why there are none.
    public func requestPage(
        _ page: Int, answer: @escaping @Sendable (Result<[AttachmentDescription], IPCError>) -> Void
    ) {
        let registered: Result<UInt64, IPCError> = state.withLock { state in
            if let closed = state.closed { return .failure(closed) }
            guard let paging = state.paging, paging.range(ofPage: page) != nil else {
                return .failure(IPCError(.protocolViolation, "the context has no page \(page)"))
            }
            let id = state.nextID
            state.nextID += 1
            state.pending[id] = Pending(waiter: .page(page, answer))
            return .success(id)
        }
        switch registered {
        case .failure(let error): answer(.failure(error))
        case .success(let id):
            do throws(IPCError) {
                try connection.send(.pageRequest(PageRequest(requestID: id, page: page)))
            } catch {
                if case .page(_, let waiter)? = state.withLock({ $0.pending.removeValue(forKey: id)?.waiter }) {
                    waiter(.failure(error))
                }
            }
        }
    }

    /// The blocking form of ``requestPage(_:answer:)`` (an item provider of a paged context is
    /// filled synchronously, on first use). Must not be called on the reader thread.
    /// - Throws: ``ExtensionIPC/IPCError``: `.protocolViolation` for a page the host got wrong, or
    ///   the connection's end.
    public func page(_ page: Int) throws(IPCError) -> [AttachmentDescription] {
        let semaphore = DispatchSemaphore(value: 0)
        let result = Locked<Result<[AttachmentDescription], IPCError>?>(nil)
        requestPage(page) { answer in
            result.withLock { $0 = answer }
            semaphore.signal()
        }
        semaphore.wait()
        switch result.withLock({ $0 }) {
        case .success(let attachments)?: return attachments
        case .failure(let error)?: throw error
        case nil: throw IPCError(.connectionClosed, "no answer to the page request")
        }
    }

    /// Asks the host to start (or stop) accessing the scope of `token`; false when refused or
    /// when the connection is gone.
    public func securityScope(start: Bool, token: String) async -> SecurityScopeReply {
        await withCheckedContinuation { (continuation: CheckedContinuation<SecurityScopeReply, Never>) in
            requestScope(start: start, token: token) { continuation.resume(returning: $0) }
        }
    }

    /// The blocking form of ``securityScope(start:token:)`` for synchronous callers (the
    /// security-scope broker). The reader thread answers it directly, so no Swift concurrency
    /// thread is needed while the caller waits. Must not be called on the reader thread.
    public func securityScopeBlocking(start: Bool, token: String) -> Bool {
        let semaphore = DispatchSemaphore(value: 0)
        let granted = Atomic(false)
        requestScope(start: start, token: token) { reply in
            granted.store(reply.granted, ordering: .releasing)
            semaphore.signal()
        }
        semaphore.wait()
        return granted.load(ordering: .acquiring)
    }

    /// Sends a start or stop; `answer` runs once with the host's reply (or a refusal when the
    /// connection is gone).
    private func requestScope(start: Bool, token: String, answer: @escaping @Sendable (SecurityScopeReply) -> Void) {
        let id: UInt64? = state.withLock { state in
            if state.closed != nil { return nil }
            let id = state.nextID
            state.nextID += 1
            state.pending[id] = Pending(waiter: .scope(answer))
            return id
        }
        guard let id else {
            answer(SecurityScopeReply(requestID: 0, granted: false, reason: "host gone"))
            return
        }
        let request = SecurityScopeRequest(requestID: id, token: token)
        do throws(IPCError) {
            try connection.send(start ? .startAccessing(request) : .stopAccessing(request))
        } catch {
            if case .scope(let waiter)? = state.withLock({ $0.pending.removeValue(forKey: id)?.waiter }) {
                waiter(SecurityScopeReply(requestID: id, granted: false, reason: "\(error)"))
            }
        }
    }

    /// Asks the host to open `url` as `method` does on the device, and calls `answer` once with
    /// whether it was opened (false when the connection is gone).
    public func openURL(_ url: String, method: OpenURLRequest.Method, answer: @escaping @Sendable (Bool) -> Void) {
        let id: UInt64? = state.withLock { state in
            if state.closed != nil { return nil }
            let id = state.nextID
            state.nextID += 1
            state.pending[id] = Pending(waiter: .openURL(answer))
            return id
        }
        guard let id else { return answer(false) }
        do throws(IPCError) {
            try connection.send(.openURL(OpenURLRequest(requestID: id, url: url, method: method)))
        } catch {
            if case .openURL(let waiter)? = state.withLock({ $0.pending.removeValue(forKey: id)?.waiter }) {
                waiter(false)
            }
        }
    }

    /// Asks the host to read (`items` nil) or replace the general pasteboard, and calls `answer`
    /// once with its reply (a failed reply when the connection is gone).
    public func pasteboard(
        items: [PasteboardItem]?, expirationDate: Date? = nil, localOnly: Bool? = nil,
        answer: @escaping @Sendable (PasteboardReply) -> Void
    ) {
        let id: UInt64? = state.withLock { state in
            if state.closed != nil { return nil }
            let id = state.nextID
            state.nextID += 1
            state.pending[id] = Pending(waiter: .pasteboard(answer))
            return id
        }
        guard let id else {
            return answer(PasteboardReply(requestID: 0, contents: nil, error: "the connection to the host is closed"))
        }
        do throws(IPCError) {
            try connection.send(
                .pasteboard(
                    PasteboardRequest(requestID: id, items: items, expirationDate: expirationDate, localOnly: localOnly)
                ))
        } catch {
            if case .pasteboard(let waiter)? = state.withLock({ $0.pending.removeValue(forKey: id)?.waiter }) {
                waiter(PasteboardReply(requestID: id, contents: nil, error: "\(error)"))
            }
        }
    }

    /// Sends a one-way message (log, progress, completion, cancellation, bye).
    /// - Throws: ``ExtensionIPC/IPCError``.
    public func send(_ message: Message) throws(IPCError) { try connection.send(message) }

    /// Waits (up to `timeout`) for the host's bye after a completion; returns whether it came.
    public func waitForBye(timeout: Duration) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let waiter: Int? = state.withLock { state in
                if state.bye != nil || state.closed != nil { return nil }
                let id = state.nextByeWaiter
                state.nextByeWaiter += 1
                state.byeWaiters[id] = continuation
                return id
            }
            guard let waiter else { return continuation.resume(returning: true) }
            Task {
                try? await Task.sleep(for: timeout)
                let expired = state.withLock { $0.byeWaiters.removeValue(forKey: waiter) }
                expired?.resume(returning: false)
            }
        }
    }

    /// Resumes every ``waitForBye(timeout:)`` caller: the bye came or the connection ended.
    private func releaseByeWaiters() {
        let waiters = state.withLock { state in
            defer { state.byeWaiters = [:] }
            return Array(state.byeWaiters.values)
        }
        for waiter in waiters { waiter.resume(returning: true) }
    }

    // MARK: - Reading

    private func readLoop() {
        while true {
            let frame: Frame
            do throws(IPCError) {
                frame = try connection.receive()
            } catch {
                fail(error)
                return
            }
            dispatch(frame)
        }
    }

    private func fail(_ error: IPCError) {
        let waiters = state.withLock { state in
            state.closed = error
            defer { state.pending = [:] }
            return state.pending.map { ($0.key, $0.value.waiter) }
        }
        for (id, waiter) in waiters {
            switch waiter {
            case .load(let continuation): continuation.resume(throwing: error)
            case .scope(let answer):
                answer(SecurityScopeReply(requestID: id, granted: false, reason: "\(error)"))
            case .openURL(let answer): answer(false)
            case .pasteboard(let answer): answer(PasteboardReply(requestID: id, contents: nil, error: "\(error)"))
            case .page(_, let answer): answer(.failure(error))
            }
        }
        releaseByeWaiters()
    }

    private func dispatch(_ frame: Frame) {
        switch frame.content {
        case .data(let chunk):
            let overflow: Bool = state.withLock { state in
                guard var pending = state.pending[chunk.requestID] else { return false }
                if pending.bytes.count + chunk.bytes.count > maximumDataSize { return true }
                pending.bytes += chunk.bytes
                state.pending[chunk.requestID] = pending
                return false
            }
            if overflow {
                finishLoad(
                    chunk.requestID,
                    .failure(
                        WireError(
                            code: WireError.unknownError,
                            message: "the data representation is larger than \(maximumDataSize) bytes")))
            }
        case .message(let message):
            switch message {
            case .fileReply(let reply):
                guard let descriptor = frame.descriptors.first else {
                    if let path = reply.originalPath { finishLoad(reply.requestID, .success(.original(path, reply))) }
                    return
                }
                if !finishLoad(reply.requestID, .success(.file(descriptor, reply))) { try? descriptor.close() }
            case .loadCompleted(let done):
                let bytes = state.withLock { $0.pending[done.requestID]?.bytes } ?? []
                if Int64(bytes.count) == done.byteCount {
                    finishLoad(done.requestID, .success(.data(bytes)))
                } else {
                    finishLoad(
                        done.requestID,
                        .failure(
                            WireError(
                                code: WireError.unknownError,
                                message: "received \(bytes.count) of \(done.byteCount) bytes")))
                }
            case .loadFailed(let failed):
                finishLoad(failed.requestID, .failure(failed.error))
            case .securityScopeReply(let reply):
                if case .scope(let waiter)? = state.withLock({ $0.pending.removeValue(forKey: reply.requestID)?.waiter }
                ) {
                    waiter(reply)
                }
            case .openURLReply(let reply):
                if case .openURL(let waiter)? = state.withLock({
                    $0.pending.removeValue(forKey: reply.requestID)?.waiter
                }) {
                    waiter(reply.opened)
                }
            case .pasteboardReply(let reply):
                if case .pasteboard(let waiter)? = state.withLock({
                    $0.pending.removeValue(forKey: reply.requestID)?.waiter
                }) {
                    waiter(reply)
                }
            case .contextPage(let part):
                receive(part)
            case .bye(let bye):
                state.withLock { $0.bye = bye }
                releaseByeWaiters()
            default:
                frame.closeDescriptors()
            }
        }
    }

    /// Adds a part of a page to its request; answers the request at its last part, or at once
    /// when the host refused the page or sent more than it holds (a hostile page is not buffered).
    private func receive(_ part: ContextPage) {
        typealias Answer = @Sendable (Result<[AttachmentDescription], IPCError>) -> Void
        let settled: (Answer, Result<[AttachmentDescription], IPCError>)? = state.withLock { state in
            guard var pending = state.pending[part.requestID], case .page(let page, let answer) = pending.waiter
            else { return nil }
            let paging = state.paging ?? ContextPaging(pageSize: 1, attachmentCounts: [])
            let expected = paging.range(ofPage: page)?.count ?? 0
            var result: Result<[AttachmentDescription], IPCError>?
            if let error = part.error {
                result = .failure(IPCError(.protocolViolation, "the host refused page \(page): \(error.message)"))
            } else if part.page != page {
                result = .failure(
                    IPCError(.protocolViolation, "asked for page \(page), the host sent page \(part.page)"))
            } else if pending.attachments.count + part.attachments.count > expected {
                result = .failure(
                    IPCError(
                        .protocolViolation,
                        "page \(page) holds more than its \(expected) attachment(s)"))
            } else {
                pending.attachments += part.attachments
                if part.more != true {
                    result = Result { () throws(IPCError) in
                        try paging.check(pending.attachments, page: page)
                        return pending.attachments
                    }
                }
            }
            if result == nil {
                state.pending[part.requestID] = pending
                return nil
            }
            state.pending[part.requestID] = nil
            return result.map { (answer, $0) }
        }
        if let (answer, result) = settled { answer(result) }
    }

    /// Resumes the load `id`; false when no such load was waiting.
    @discardableResult
    private func finishLoad(_ id: UInt64, _ result: Result<LoadReply, WireError>) -> Bool {
        guard case .load(let waiter)? = state.withLock({ $0.pending.removeValue(forKey: id)?.waiter }) else {
            return false
        }
        switch result {
        case .success(let reply): waiter.resume(returning: reply)
        case .failure(let error): waiter.resume(throwing: error)
        }
        return true
    }
}
