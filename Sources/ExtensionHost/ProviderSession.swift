public import ExtensionIPC
import Foundation
public import HeadlessScreens
public import HostSystem
public import ItemProviders

/// The host side of a share over real item providers: the extension's loads are answered from
/// the providers the host owns, which the session takes over onto an actor of their own (so a
/// load never waits for whatever else the host's main actor is doing).
///
/// - data loads: the provider's `loadDataRepresentation`, streamed in bounded chunks;
/// - file loads: the registered handler's original file, opened by the host without following a
///   symbolic link and sent as a read-only descriptor (never as bytes, never copied here); a
///   data-only representation is written to an unlinked temporary file first;
/// - open-in-place loads: the same, and only while the extension is accessing the attachment's
///   security-scope token (strict, as on a device), or always when lenient (as in the simulator).
public final class ProviderSession: ExtensionSession {
    /// The context the extension is welcomed with.
    public let context: ContextDescription
    /// The App Groups the extension is entitled to.
    public let appGroups: [String]
    /// The security-scope broker.
    public let tokens: SecurityScopeTokens
    /// Whether open-in-place loads work without an active scope.
    public let lenient: Bool
    /// The host paths the extension may read because an item hands it their file URL as an object
    /// (``ItemProviders/ItemProvider/fileURLObjects``), granted read-only as a device's sandbox
    /// extension grants them; only existing files and folders, never a symbolic link.
    public let grantedReadOnlyPaths: [String]
    /// File URLs handed out as objects that were not granted, and why.
    public let ungrantedFileURLs: [String]
    private let table: ProviderTable
    private let names: [String]
    private let suggestedNames: [String?]
    private let inPlaceTokens: [Int: String]
    private let broker = Locked<ScopeBroker?>(nil)
    /// The scripted user's steps the welcome carries (nil: the extension's default).
    public let userScript: UIScript?

    /// A session over `items`, which it takes over (they move to the session's own actor).
    public init(
        items: sending [ExtensionItem], appGroups: [String], lenient: Bool = false, userScript: UIScript? = nil
    ) {
        self.userScript = userScript
        let tokens = SecurityScopeTokens()
        var providers: [ItemProvider] = []
        var names: [String] = []
        var suggestedNames: [String?] = []
        var issued: [Int: String] = [:]
        var descriptions: [ItemDescription] = []
        var granted: [String] = []
        var ungranted: [String] = []
        for item in items {
            var attachments: [AttachmentDescription] = []
            for provider in item.attachments ?? [] {
                let index = providers.count
                providers.append(provider)
                names.append(provider.suggestedName ?? "attachment \(index)")
                suggestedNames.append(provider.suggestedName)
                for url in provider.fileURLObjects {
                    let path = url.standardizedFileURL.path
                    switch try? FileDescriptor.status(ofPath: path, followingLinks: false).kind {
                    case nil: ungranted.append("\(url.path): no such file")
                    case .symbolicLink?:
                        ungranted.append("\(url.path): a symbolic link (the host does not follow links)")
                    default: if !granted.contains(path) { granted.append(path) }
                    }
                }
                var representations: [RepresentationDescription] = []
                for type in provider.registeredTypeIdentifiers {
                    guard let registered = provider.representation(answering: type) else { continue }
                    let kind: RepresentationKind
                    var token: String?
                    if registered.kind.isOpenInPlace {
                        kind = .openInPlace
                        let issuedToken = issued[index] ?? tokens.issue(for: index)
                        issued[index] = issuedToken
                        token = issuedToken
                    } else {
                        kind = registered.kind.isFileBacked ? .file : .data
                    }
                    representations.append(
                        RepresentationDescription(
                            typeIdentifier: type, kind: kind, securityScopeToken: token,
                            objectClass: kind == .data ? provider.registeredObjectClass(answering: type) : nil))
                }
                attachments.append(
                    AttachmentDescription(
                        index: index, suggestedName: provider.suggestedName, representations: representations))
            }
            descriptions.append(
                ItemDescription(
                    title: item.attributedTitle, contentText: item.attributedContentText, attachments: attachments))
        }
        self.context = ContextDescription(items: descriptions)
        self.appGroups = appGroups
        self.tokens = tokens
        self.lenient = lenient
        self.grantedReadOnlyPaths = granted
        self.ungrantedFileURLs = ungranted
        self.table = ProviderTable(providers)
        self.names = names
        self.suggestedNames = suggestedNames
        self.inPlaceTokens = issued
    }

    public func welcome(for hello: Hello) async throws -> Welcome {
        Welcome(
            context: context, appGroups: appGroups,
            scopeEnforcement: broker.withLock { $0 } == nil ? nil : ScopeEnforcement.kernel.rawValue,
            userScript: userScript)
    }

    /// True when something is shared in place: the extension then runs under the kernel's broker.
    public var wantsScopeBroker: Bool { !inPlaceTokens.isEmpty }

    /// Keeps the broker: in-place loads then answer with the original's path.
    public func attach(_ broker: ScopeBroker?) { self.broker.withLock { $0 = broker } }

    /// Whether `token`'s scope is started (strict), for the broker.
    public func isScopeStarted(_ token: String) -> Bool { tokens.isAccessing(token) }

    public func describe(_ request: LoadRequest) -> String {
        let name = names.indices.contains(request.attachment) ? names[request.attachment] : "#\(request.attachment)"
        let kind = request.kind == .openInPlace ? "in-place file" : request.kind.rawValue
        return "loading \(kind) representation of \(name) (\(request.typeIdentifier))"
    }

    public func serve(_ request: LoadRequest, on channel: ExtensionChannel) async {
        if request.kind == .openInPlace, let broker = broker.withLock({ $0 }) {
            await serveOriginal(request, broker: broker, on: channel)
            return
        }
        let loaded = await load(request)
        switch loaded {
        case .failure(let error):
            channel.refuse("load of \(describeTarget(request)): \(error.message)")
            try? channel.send(.loadFailed(LoadFailed(requestID: request.requestID, error: error)))
        case .data(let data):
            channel.setActivity(describe(request) + ", \(data.count.byteDescription)")
            data.withUnsafeBytes { raw in try? channel.sendData(requestID: request.requestID, bytes: raw) }
            channel.recordServed(
                ServedLoad(
                    attachment: request.attachment, typeIdentifier: request.typeIdentifier, kind: request.kind,
                    bytes: Int64(data.count)))
        case .file(let descriptor, let size, let closes, let fileName):
            channel.setActivity(describe(request) + ", \(Int(size).byteDescription)")
            try? channel.send(
                .fileReply(
                    FileReply(
                        requestID: request.requestID, typeIdentifier: request.typeIdentifier,
                        suggestedName: suggestedName(request.attachment), fileName: fileName, byteCount: size,
                        securityScopeToken: inPlaceTokens[request.attachment])),
                descriptors: [descriptor])
            channel.addBytesServed(size)
            channel.recordServed(
                ServedLoad(
                    attachment: request.attachment, typeIdentifier: request.typeIdentifier, kind: request.kind,
                    bytes: size))
            if closes { try? descriptor.close() }
        }
    }

    /// An in-place load under the kernel's broker: the original's path, registered with the broker
    /// under the attachment's token (the kernel then opens it only while that scope is started). As
    /// on iOS, handing out the URL needs no scope; opening it does.
    private func serveOriginal(_ request: LoadRequest, broker: ScopeBroker, on channel: ExtensionChannel) async {
        let result = await table.original(request)
        switch result {
        case .success(let url):
            guard let token = inPlaceTokens[request.attachment] else {
                let error = WireError(code: WireError.itemUnavailable, message: "no security scope for this attachment")
                try? channel.send(.loadFailed(LoadFailed(requestID: request.requestID, error: error)))
                return
            }
            do throws(Errno) {
                try broker.register(path: url.path, token: token)
            } catch {
                let error = WireError(code: WireError.itemUnavailable, message: "\(url.lastPathComponent): \(error)")
                try? channel.send(.loadFailed(LoadFailed(requestID: request.requestID, error: error)))
                return
            }
            channel.setActivity(describe(request))
            try? channel.send(
                .fileReply(
                    FileReply(
                        requestID: request.requestID, typeIdentifier: request.typeIdentifier,
                        suggestedName: suggestedName(request.attachment), fileName: url.lastPathComponent,
                        byteCount: 0, securityScopeToken: token, originalPath: url.path)))
            channel.recordServed(
                ServedLoad(
                    attachment: request.attachment, typeIdentifier: request.typeIdentifier, kind: request.kind, bytes: 0
                ))
        case .failure(let error):
            channel.refuse("load of \(describeTarget(request)): \(error.message)")
            try? channel.send(.loadFailed(LoadFailed(requestID: request.requestID, error: error)))
        }
    }

    private func suggestedName(_ attachment: Int) -> String? {
        suggestedNames.indices.contains(attachment) ? suggestedNames[attachment] : nil
    }

    private func describeTarget(_ request: LoadRequest) -> String {
        let name = names.indices.contains(request.attachment) ? names[request.attachment] : "#\(request.attachment)"
        return "\(name) as \(request.typeIdentifier) (\(request.kind.rawValue))"
    }

    fileprivate enum Loaded: Sendable {
        case data(Data)
        /// A descriptor of the shared file named `fileName` (nil: data written to a file).
        case file(FileDescriptor, size: Int64, closes: Bool, fileName: String?)
        case failure(WireError)
    }

    private func load(_ request: LoadRequest) async -> Loaded {
        let token = inPlaceTokens[request.attachment]
        let refusal: SecurityScopeTokens.Refusal?
        if request.kind == .openInPlace, !lenient,
            case .failure(let why) = tokens.checkAccess(
                token, attachment: request.attachment)
        {
            refusal = why
        } else {
            refusal = nil
        }
        return await table.load(request, refusal: refusal)
    }

    fileprivate static func descriptor(for value: ItemProvider.OriginalValue) throws -> Loaded {
        switch value {
        case .file(let url):
            let opened = Result { () throws(Errno) -> FileDescriptor in try FileDescriptor.open(url.path, .noFollow) }
            if case .failure(let error) = opened, error == .tooManySymbolicLinks {
                throw WireError(
                    code: WireError.itemUnavailable,
                    message:
                        "\(url.lastPathComponent) is a symbolic link; the host does not follow links in shared items")
            }
            let descriptor = try opened.get()
            let status = try descriptor.status()
            guard status.kind == .regular else {
                try? descriptor.close()
                throw WireError(
                    code: WireError.itemUnavailable,
                    message: "\(url.lastPathComponent) is not a regular file (folders travel as data: a zip archive)")
            }
            return .file(descriptor, size: status.size, closes: true, fileName: url.lastPathComponent)
        case .descriptor(let representation):
            let size = try representation.byteCount ?? representation.descriptor.status().size
            return .file(
                representation.descriptor, size: size, closes: representation.closesDescriptor,
                fileName: representation.fileName)
        case .data(let data):
            // A file load of data: an unlinked temporary file holding it.
            let path = FileManager.default.temporaryDirectory
                .appendingPathComponent("exthost-share-\(SecurityScopeTokens.randomHex(8))").path
            let descriptor = try FileDescriptor.open(path, [.readWrite, .create, .exclusiveCreate], permissions: 0o600)
            try? FileManager.default.removeItem(atPath: path)
            try descriptor.writeAll([UInt8](data))
            _ = try descriptor.seek(offset: 0)
            return .file(descriptor, size: Int64(data.count), closes: true, fileName: nil)
        }
    }

    public func startAccessing(_ request: SecurityScopeRequest, on channel: ExtensionChannel) async
        -> SecurityScopeReply
    {
        reply(to: request, tokens.start(request.token), "startAccessingSecurityScopedResource", on: channel)
    }

    public func stopAccessing(_ request: SecurityScopeRequest, on channel: ExtensionChannel) async
        -> SecurityScopeReply
    {
        reply(to: request, tokens.stop(request.token), "stopAccessingSecurityScopedResource", on: channel)
    }

    /// The reply to a start or stop; a refusal is also recorded on the channel for the report.
    private func reply(
        to request: SecurityScopeRequest, _ result: Result<Int, SecurityScopeTokens.Refusal>, _ call: String,
        on channel: ExtensionChannel
    ) -> SecurityScopeReply {
        switch result {
        case .success: return SecurityScopeReply(requestID: request.requestID, granted: true)
        case .failure(let refusal):
            channel.refuse("\(call): \(refusal)")
            return SecurityScopeReply(requestID: request.requestID, granted: false, reason: "\(refusal)")
        }
    }

    public func finish() async { tokens.revokeAll() }
}

/// The providers, confined to their own actor: loads are answered without waiting for whatever
/// else the host's main actor is doing.
actor ProviderTable {
    private let providers: [ItemProvider]

    init(_ providers: sending [ItemProvider]) { self.providers = providers }

    /// The original file of an in-place representation (never a link: the host does not follow
    /// links in shared items).
    fileprivate func original(_ request: LoadRequest) async -> Result<URL, WireError> {
        guard providers.indices.contains(request.attachment) else {
            return .failure(
                WireError(code: WireError.itemUnavailable, message: "there is no attachment \(request.attachment)"))
        }
        let provider = providers[request.attachment]
        do {
            let (_, value) = try await provider.loadOriginal(for: request.typeIdentifier, fileOptions: .openInPlace)
            guard case .file(let url) = value else {
                return .failure(
                    WireError(
                        code: WireError.itemUnavailable, message: "\(request.typeIdentifier) has no original file"))
            }
            guard try FileDescriptor.status(ofPath: url.path, followingLinks: false).kind == .regular else {
                return .failure(
                    WireError(
                        code: WireError.itemUnavailable,
                        message: "\(url.lastPathComponent) is not a regular file (the host does not follow links)"))
            }
            return .success(url.standardizedFileURL)
        } catch let error as ItemProviderError {
            return .failure(WireError(error))
        } catch {
            return .failure(WireError(code: WireError.unknownError, message: "\(error)"))
        }
    }

    fileprivate func load(_ request: LoadRequest, refusal: SecurityScopeTokens.Refusal?) async
        -> ProviderSession.Loaded
    {
        guard providers.indices.contains(request.attachment) else {
            return .failure(
                WireError(code: WireError.itemUnavailable, message: "there is no attachment \(request.attachment)"))
        }
        let provider = providers[request.attachment]
        let type = request.typeIdentifier
        do {
            switch request.kind {
            case .data:
                return .data(try await provider.loadDataRepresentation(for: type))
            case .file, .openInPlace:
                let options: FileOptions = request.kind == .openInPlace ? .openInPlace : []
                guard provider.representation(answering: type, fileOptions: options) != nil else {
                    let what = request.kind == .openInPlace ? "an open-in-place file" : "a representation"
                    return .failure(
                        WireError(code: WireError.itemUnavailable, message: "\(type) is not registered as \(what)"))
                }
                if let refusal {
                    return .failure(
                        WireError(
                            domain: "NSCocoaErrorDomain", code: 257, message: "open-in-place load refused: \(refusal)"))
                }
                let (_, value) = try await provider.loadOriginal(for: type, fileOptions: options)
                return try ProviderSession.descriptor(for: value)
            }
        } catch let error as ItemProviderError {
            return .failure(WireError(error))
        } catch let error as WireError {
            return .failure(error)
        } catch {
            return .failure(WireError(code: WireError.unknownError, message: "\(error)"))
        }
    }
}
