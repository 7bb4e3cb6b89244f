public import ExtensionIPC
public import HostSystem

/// The host's side of one share, as the extension sees it: the context it is welcomed with, and
/// the answers to its loads and security-scope requests. ``ExtensionHost/run(_:session:)``
/// drives it; loads are served concurrently (one task per request).
public protocol ExtensionSession: Sendable {
    /// The answer to the extension's hello.
    /// - Throws: to refuse the extension (it is then killed and reported as crashed).
    func welcome(for hello: Hello) async throws -> Welcome
    /// Answers `request` with exactly one final reply on `channel`: a file reply (one descriptor),
    /// data chunks then `loadCompleted`, or `loadFailed`.
    func serve(_ request: LoadRequest, on channel: ExtensionChannel) async
    /// Answers `startAccessingSecurityScopedResource()`.
    func startAccessing(_ request: SecurityScopeRequest, on channel: ExtensionChannel) async -> SecurityScopeReply
    /// Answers `stopAccessingSecurityScopedResource()`.
    func stopAccessing(_ request: SecurityScopeRequest, on channel: ExtensionChannel) async -> SecurityScopeReply
    /// What a load is, for the report when the extension is killed during it
    /// ("loading data representation of movie.mov (public.mpeg-4), 1.1 GiB").
    func describe(_ request: LoadRequest) -> String
    /// The share ended (the extension exited or was killed): revoke whatever it was granted.
    func finish() async
    /// Whether the extension should run under the kernel's security-scope broker (it is offered
    /// files in place).
    var wantsScopeBroker: Bool { get }
    /// The broker, once the launcher handed over its listener — before the extension says hello
    /// (nil: the kernel offers no seccomp user notification; only the API enforces scopes).
    func attach(_ broker: ScopeBroker?)
    /// Whether the scope of `token` is started now (the broker asks at every open of a scoped file).
    func isScopeStarted(_ token: String) -> Bool
}

extension ExtensionSession {
    /// No broker unless a session asks for one.
    public var wantsScopeBroker: Bool { false }
    /// Nothing to attach by default.
    public func attach(_ broker: ScopeBroker?) {}
    /// No scope is started by default.
    public func isScopeStarted(_ token: String) -> Bool { false }
}

/// The connection to a running extension, as a session serves it: sends replies and records what
/// the host refused and what the extension was doing.
public final class ExtensionChannel: Sendable {
    /// The framed connection (fd 3 on the extension's side).
    public let connection: Connection

    private struct State {
        var refusals: [String] = []
        var activity: String?
        var bytesServed: Int64 = 0
        var loadsServed = 0
        var served: [Int: ServedLoad] = [:]
    }
    private let state = Locked(State())
    private let onProgress: (@Sendable (_ loadsServed: Int, _ activity: String?) -> Void)?

    init(connection: Connection, onProgress: (@Sendable (Int, String?) -> Void)? = nil) {
        self.connection = connection
        self.onProgress = onProgress
    }

    /// Counts one answered load and reports progress.
    func finishedLoad() {
        let (count, activity) = state.withLock { state in
            state.loadsServed += 1
            return (state.loadsServed, state.activity)
        }
        onProgress?(count, activity)
    }

    /// Loads answered so far.
    public var loadsServed: Int { state.withLock { $0.loadsServed } }

    /// Sends `message` with its descriptors.
    /// - Throws: ``ExtensionIPC/IPCError``.
    public func send(_ message: Message, descriptors: [FileDescriptor] = []) throws(IPCError) {
        try connection.send(message, descriptors: descriptors)
    }

    /// Streams `bytes` as the answer to a data load.
    /// - Throws: ``ExtensionIPC/IPCError``.
    public func sendData(requestID: UInt64, bytes: UnsafeRawBufferPointer) throws(IPCError) {
        try connection.sendData(requestID: requestID, bytes: bytes)
        state.withLock { $0.bytesServed += Int64(bytes.count) }
    }

    /// Records that the host refused something the extension asked for (shown in the report).
    public func refuse(_ what: String) { state.withLock { $0.refusals.append(what) } }

    /// Records what the extension is doing now.
    public func setActivity(_ activity: String?) { state.withLock { $0.activity = activity } }

    /// Counts bytes sent outside ``sendData(requestID:bytes:)`` (files travel as descriptors).
    public func addBytesServed(_ count: Int64) { state.withLock { $0.bytesServed += count } }

    /// Records the first load answered for `attachment` (the report's row for an extension that
    /// reports no outcomes of its own).
    public func recordServed(_ load: ServedLoad) {
        state.withLock { state in
            if state.served[load.attachment] == nil { state.served[load.attachment] = load }
        }
    }

    /// The first load answered for each attachment, by attachment index.
    public var served: [Int: ServedLoad] { state.withLock { $0.served } }

    /// What the host refused, in order.
    public var refusals: [String] { state.withLock { $0.refusals } }
    /// The latest activity.
    public var activity: String? { state.withLock { $0.activity } }
    /// Bytes handed to the extension.
    public var bytesServed: Int64 { state.withLock { $0.bytesServed } }
}

/// A load the host answered: which attachment, as what, how many bytes.
public struct ServedLoad: Sendable, Hashable {
    /// The attachment's index.
    public var attachment: Int
    /// The type the extension asked for.
    public var typeIdentifier: String
    /// How it was loaded.
    public var kind: RepresentationKind
    /// The bytes handed over (a file's size for a descriptor).
    public var bytes: Int64

    /// A served load.
    public init(attachment: Int, typeIdentifier: String, kind: RepresentationKind, bytes: Int64) {
        self.attachment = attachment
        self.typeIdentifier = typeIdentifier
        self.kind = kind
        self.bytes = bytes
    }
}
