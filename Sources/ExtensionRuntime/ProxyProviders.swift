import ExtensionIPC
import Foundation
import HostSystem
import ItemProviders

/// Rebuilds the host's items as proxy item providers: each registered representation of the
/// welcome is registered again, with a load handler that asks the host.
///
/// - data: the bytes arrive in chunks and are handed over as `Data`;
/// - file: a read-only descriptor arrives (`SCM_RIGHTS`) and is registered as a descriptor
///   representation, so `loadFileRepresentation` copies it into a fresh directory of the
///   container's `tmp/` (removed when the completion handler returns), exactly as in process;
/// - open in place, when the host's kernel broker enforces scopes: the original's path, security-
///   scoped with the host's token (opening it works only between the extension's own start and
///   stop, which go to the host); copies come as descriptors;
/// - open in place, when only the API enforces scopes: the runtime starts the token's scope with
///   the host for the duration of the load (the host hands an in-place descriptor only while its
///   scope is being accessed), and the materialised copy carries the token.
///
/// A paged context (``ExtensionIPC/Welcome/paging``) is still one `[ExtensionItem]`, as Apple's
/// `inputItems` is an array; its providers are lightweight until used: each is filled from its
/// page the first time its representations or names are asked for (``ContextPager``).
enum ProxyProviders {
    @MainActor
    static func items(_ welcome: Welcome, _ host: HostConnection, pagesKept: Int = ContextPager.pagesKept)
        -> [ExtensionItem]
    {
        let kernelScopes = welcome.scopeEnforcement == "kernel"
        if let paging = welcome.paging {
            let pager = ContextPager(paging: paging, host: host, kernelScopes: kernelScopes, pagesKept: pagesKept)
            let fill: (ItemProvider) -> Void = { pager.fill($0) }
            var first = 0
            return zip(welcome.context.items, paging.attachmentCounts).map { item, count in
                defer { first += count }
                let providers = (first..<first + count).map { index in
                    let provider = ItemProvider(filledOnFirstUse: fill)
                    provider.attachmentIndex = index
                    return provider
                }
                return ExtensionItem(
                    attachments: providers, attributedTitle: item.title, attributedContentText: item.contentText)
            }
        }
        return welcome.context.items.map { item in
            ExtensionItem(
                attachments: item.attachments.map { provider(for: $0, host, kernelScopes: kernelScopes) },
                attributedTitle: item.title, attributedContentText: item.contentText)
        }
    }

    @MainActor
    static func provider(for attachment: AttachmentDescription, _ host: HostConnection, kernelScopes: Bool)
        -> ItemProvider
    {
        let provider = ItemProvider()
        register(attachment, on: provider, host, kernelScopes: kernelScopes)
        return provider
    }

    /// Registers what `attachment` describes on `provider`: its names and, per representation, a
    /// load handler that asks the host.
    static func register(
        _ attachment: AttachmentDescription, on provider: ItemProvider, _ host: HostConnection, kernelScopes: Bool
    ) {
        provider.suggestedName = attachment.suggestedName
        provider.label = "attachment \(attachment.index)"
        provider.attachmentIndex = attachment.index
        let index = attachment.index
        for representation in attachment.representations {
            let type = representation.typeIdentifier
            switch representation.kind {
            case .data:
                let load: @Sendable (@escaping @Sendable (Data?, (any Error)?) -> Void) -> Progress? = { completion in
                    Task {
                        do {
                            switch try await host.load(attachment: index, typeIdentifier: type, kind: .data) {
                            case .data(let bytes): completion(Data(bytes), nil)
                            case .file(let descriptor, _):
                                try? descriptor.close()
                                completion(nil, ItemProviderError(.unknown, "the host sent a file for a data load"))
                            case .original:
                                completion(nil, ItemProviderError(.unknown, "the host sent a path for a data load"))
                            }
                        } catch {
                            completion(nil, providerError(error))
                        }
                    }
                    return nil
                }
                if let objectClass = representation.objectClass {
                    provider.registerObject(
                        forTypeIdentifier: type, decode: { try decode($0, as: objectClass, type: type) },
                        loadHandler: load)
                } else {
                    provider.registerDataRepresentation(for: type, loadHandler: load)
                }
            case .file:
                provider.registerDescriptorRepresentation(for: type) { completion in
                    Task {
                        let (representation, error) = await descriptor(
                            index, type, .file, suggestedName: attachment.suggestedName, host)
                        completion(representation, error)
                    }
                    return nil
                }
            case .openInPlace where kernelScopes:
                // The kernel enforces the scope: loadInPlaceFileRepresentation gives the original
                // itself; copies (loadFileRepresentation, loadDataRepresentation) need no scope.
                let token = representation.securityScopeToken
                provider.registerDescriptorRepresentation(
                    for: type, openInPlace: true, securityScopeToken: token,
                    original: { completion in
                        Task {
                            do {
                                switch try await host.load(attachment: index, typeIdentifier: type, kind: .openInPlace)
                                {
                                case .original(let path, _): completion(URL(fileURLWithPath: path), nil)
                                case .file(let descriptor, _):
                                    try? descriptor.close()
                                    completion(
                                        nil, ItemProviderError(.unknown, "the host sent a copy, not the original"))
                                case .data:
                                    completion(nil, ItemProviderError(.unknown, "the host sent data, not the original"))
                                }
                            } catch {
                                completion(nil, providerError(error))
                            }
                        }
                    }
                ) { completion in
                    Task {
                        let (representation, error) = await descriptor(
                            index, type, .file, suggestedName: attachment.suggestedName, host)
                        completion(representation, error)
                    }
                    return nil
                }
            case .openInPlace:
                let token = representation.securityScopeToken
                provider.registerDescriptorRepresentation(for: type, openInPlace: true, securityScopeToken: token) {
                    completion in
                    Task {
                        guard let token else {
                            completion(nil, ItemProviderError(.itemUnavailable, "no security-scope token for \(type)"))
                            return
                        }
                        let started = await host.securityScope(start: true, token: token)
                        guard started.granted else {
                            completion(
                                nil,
                                ItemProviderError(
                                    .fileReadNoPermission,
                                    "the host refused the security scope: \(started.reason ?? "no reason")"))
                            return
                        }
                        let (representation, error) = await descriptor(
                            index, type, .openInPlace, suggestedName: attachment.suggestedName, host)
                        _ = await host.securityScope(start: false, token: token)
                        completion(representation, error)
                    }
                    return nil
                }
            }
        }
    }

    private static func descriptor(
        _ index: Int, _ type: String, _ kind: RepresentationKind, suggestedName: String?, _ host: HostConnection
    ) async -> (DescriptorRepresentation?, (any Error)?) {
        do {
            switch try await host.load(attachment: index, typeIdentifier: type, kind: kind) {
            case .file(let descriptor, let reply):
                return (
                    DescriptorRepresentation(
                        descriptor: descriptor, byteCount: reply.byteCount, fileName: safeName(reply.fileName),
                        suggestedName: safeName(reply.suggestedName ?? suggestedName), closesDescriptor: true), nil
                )
            case .data, .original:
                return (nil, ItemProviderError(.unknown, "the host sent no file for a file load"))
            }
        } catch {
            return (nil, providerError(error))
        }
    }

    /// Rebuilds the object the host registered from the bytes that crossed: what `loadItem` returns.
    static func decode(_ data: Data, as objectClass: ObjectClass, type: String) throws -> any Sendable {
        switch objectClass {
        case .data: return data
        case .string, .url:
            guard let text = String(data: data, encoding: .utf8) else {
                throw ItemProviderError(.unexpectedValueClass, "the host's \(type) text is not UTF-8")
            }
            guard objectClass == .url else { return text }
            guard let url = URL(string: text) else {
                throw ItemProviderError(.unexpectedValueClass, "the host's \(type) is not a URL: \(text.prefix(80))")
            }
            return url
        case .propertyList: return PropertyListObject(data: data)
        case .attributedString: return AttributedTextObject(string: String(decoding: data, as: UTF8.self))
        case .image: return ImageObject(data: data, typeIdentifier: type)
        }
    }

    /// A plain file name: the last component, never `.`/`..`, never hidden.
    static func safeName(_ name: String?) -> String? {
        guard let name else { return nil }
        let last = name.split(separator: "/").last.map(String.init) ?? ""
        if last.isEmpty || last == "." || last == ".." { return nil }
        return last.hasPrefix(".") ? "_" + last.dropFirst() : last
    }

    static func providerError(_ error: any Error) -> any Error {
        if let error = error as? WireError { return ItemProviderError(error) }
        if let error = error as? IPCError {
            return ItemProviderError(.unknown, "the connection to the host ended: \(error)")
        }
        return error
    }
}

/// Asks the host to start and stop security scopes.
struct HostSecurityScopeBroker: SecurityScopeBroker {
    let host: HostConnection

    func startAccessing(token: String, url: URL) -> Bool { host.securityScopeBlocking(start: true, token: token) }

    func stopAccessing(token: String, url: URL) { _ = host.securityScopeBlocking(start: false, token: token) }
}
