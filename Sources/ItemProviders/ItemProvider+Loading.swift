public import Foundation
import HostSystem
import UniformTypes

/// The value classes `loadItem` can coerce to when asked through ``ItemProvider/expectedValueClassKey``.
public enum ExpectedValueClass: String, Sendable, Hashable, CaseIterable {
    /// `Data` (Apple's `NSURL → NSData` reads the file).
    case data
    /// `URL`.
    case url
    /// `String`.
    case string
}

// Loads. Each one picks the answering representation (``ItemProvider/representation(answering:fileOptions:)``),
// asks its load handler on the load queue, converts (file → data, data → file, directory → zip), and
// calls the completion exactly once on the load queue. Cancelling the returned `Progress` delivers
// ``ItemProviderError/cancelled`` (`NSCocoaErrorDomain` 3072) at once and cancels the handler's own
// progress; a result arriving later is dropped (and any file it made removed).
extension ItemProvider {
    /// The `loadItem` option naming the class to coerce to (an ``ExpectedValueClass``); without it
    /// `loadItem` returns the original object, as Swift code sees it on a device.
    public static let expectedValueClassKey = "ExpectedValueClass"

    private struct Snapshot: Sendable {
        var registration: Registration
        var suggestedName: String?
        var label: String?
        var registry: TypeRegistry
    }

    private func snapshot(_ typeIdentifier: String, _ fileOptions: FileOptions = []) -> Snapshot? {
        registration(answering: typeIdentifier, fileOptions: fileOptions).map {
            Snapshot(
                registration: $0, suggestedName: suggestedName, label: suggestedName ?? label, registry: typeRegistry)
        }
    }

    /// The bookkeeping of a load of this provider described as `what`, for `typeIdentifier`.
    private func loadState(_ what: String, _ typeIdentifier: String) -> LoadState {
        let name = (suggestedName ?? label).map { " of \($0)" } ?? ""
        return LoadState(
            "\(what)\(name) (\(typeIdentifier))", lifetime: requestLifetime, attachment: attachmentIndex)
    }

    /// Starts a load: the error when nothing answers, otherwise the handler's result.
    private static func start(
        _ state: LoadState, _ snapshot: Snapshot?, typeIdentifier: String,
        _ body: @escaping @Sendable (Snapshot, Fetched, LoadState) -> Void,
        failure: @escaping @Sendable (any Error) -> Void
    ) -> Progress {
        state.keep(body)
        state.keep(failure)
        let delay = ItemProviderConfiguration.nextCompletionDelay()
        state.progress.cancellationHandler = {
            state.cancelChild()
            state.deliver { failure(ItemProviderError.cancelled) }
        }
        loadQueue.async {
            guard let snapshot else {
                state.deliver { failure(ItemProviderError.cannotLoad(typeIdentifier)) }
                return
            }
            guard !state.progress.isCancelled else { return }
            fetch(snapshot.registration, state: state) { result in
                switch result {
                case .success(let fetched):
                    state.progress.completedUnitCount = 50
                    if delay > .zero {
                        let microseconds = Int(min((delay.milliseconds * 1000).rounded(), 1e18))
                        loadQueue.asyncAfter(deadline: .now() + .microseconds(microseconds)) {
                            body(snapshot, fetched, state)
                        }
                    } else {
                        loadQueue.async { body(snapshot, fetched, state) }
                    }
                case .failure(let error):
                    state.deliver { failure(error) }
                }
            }
        }
        return state.progress
    }

    private static func fetch(
        _ registration: Registration, state: LoadState,
        _ completion: @escaping @Sendable (Result<Fetched, any Error>) -> Void
    ) {
        let type = registration.representation.typeIdentifier
        let missing = ItemProviderError(.unknown, "The load handler for \(type) returned neither a value nor an error")
        switch registration.source {
        case .data(let handler):
            state.adopt(
                handler { data, error in
                    if let data { completion(.success(.data(data))) } else { completion(.failure(error ?? missing)) }
                })
        case .file(let handler):
            state.adopt(
                handler { url, _, error in
                    if let url { completion(.success(.file(url))) } else { completion(.failure(error ?? missing)) }
                })
        case .descriptor(_, let handler):
            state.adopt(
                handler { representation, error in
                    if let representation {
                        completion(.success(.descriptor(representation)))
                    } else {
                        completion(.failure(error ?? missing))
                    }
                })
        }
    }

    // MARK: - Data

    /// Loads the bytes of the representation answering `typeIdentifier`: data as registered, a
    /// file's contents, a directory as a zip archive, a descriptor read whole.
    @discardableResult
    public func loadDataRepresentation(
        for typeIdentifier: String, completionHandler: @escaping @Sendable (Data?, (any Error)?) -> Void
    ) -> Progress {
        Self.start(
            loadState("loadDataRepresentation", typeIdentifier), snapshot(typeIdentifier),
            typeIdentifier: typeIdentifier
        ) { _, fetched, state in
            let result = Result { try FileMaterializer.bytes(of: fetched) }
            state.deliver {
                state.finish()
                switch result {
                case .success(let data): completionHandler(data, nil)
                case .failure(let error): completionHandler(nil, Self.wrap(error, typeIdentifier))
                }
            }
        } failure: {
            completionHandler(nil, $0)
        }
    }

    /// Loads the bytes of the representation answering `typeIdentifier`.
    nonisolated(nonsending) public func loadDataRepresentation(for typeIdentifier: String) async throws -> Data {
        try await awaitLoad { resume in
            loadDataRepresentation(for: typeIdentifier) { data, error in
                resume(data.map { .success($0) } ?? .failure(error ?? ItemProviderError.cannotLoad(typeIdentifier)))
            }
        }
    }

    // MARK: - File

    /// Loads a temporary copy of the representation answering `typeIdentifier`, in a fresh directory
    /// under ``ItemProviderConfiguration/temporaryDirectory``; **the directory is removed the moment
    /// the completion handler returns**. Files are cloned or copied with `copy_file_range` in bounded
    /// memory, directories copied recursively, data written under ``suggestedName`` plus the type's
    /// preferred extension.
    @discardableResult
    public func loadFileRepresentation(
        for typeIdentifier: String, completionHandler: @escaping @Sendable (URL?, (any Error)?) -> Void
    ) -> Progress {
        startFile(typeIdentifier, removeAfterDelivery: true) { result in
            switch result {
            case .success(let file): completionHandler(file.url, nil)
            case .failure(let error): completionHandler(nil, error)
            }
        }
    }

    /// Runs `body` with a temporary copy of the representation answering `typeIdentifier`; the copy
    /// (and its fresh directory) exists only while `body` runs.
    nonisolated(nonsending) public func withFileRepresentation<R: Sendable>(
        for typeIdentifier: String, _ body: @Sendable (URL) async throws -> R
    ) async throws -> R {
        let file = try await awaitLoad { resume in
            startFile(typeIdentifier, removeAfterDelivery: false, resume)
        }
        defer { FileMaterializer.remove(file.directory) }
        return try await body(file.url)
    }

    struct MaterializedFile: Sendable {
        var url: URL
        var directory: URL
    }

    private func startFile(
        _ typeIdentifier: String, removeAfterDelivery: Bool,
        _ deliver: @escaping @Sendable (Result<MaterializedFile, any Error>) -> Void
    ) -> Progress {
        Self.start(
            loadState("loadFileRepresentation", typeIdentifier), snapshot(typeIdentifier),
            typeIdentifier: typeIdentifier
        ) { snapshot, fetched, state in
            let result = Result {
                let directory = try FileMaterializer.makeFreshDirectory()
                do {
                    let url = try FileMaterializer.materialize(
                        fetched, typeIdentifier: snapshot.registration.representation.typeIdentifier,
                        suggestedName: snapshot.suggestedName, registry: snapshot.registry, into: directory)
                    return MaterializedFile(url: url, directory: directory)
                } catch {
                    FileMaterializer.remove(directory)
                    throw error
                }
            }
            let delivered = state.deliver {
                state.finish()
                deliver(result.mapError { Self.wrap($0, typeIdentifier) })
                if removeAfterDelivery, case .success(let file) = result { FileMaterializer.remove(file.directory) }
            }
            if !delivered, case .success(let file) = result { FileMaterializer.remove(file.directory) }
        } failure: {
            deliver(.failure($0))
        }
    }

    // MARK: - In place

    /// Loads the representation answering `typeIdentifier` in place when possible: an open-in-place
    /// registration gives its original URL, security-scoped, with `isInPlace == true` (a descriptor
    /// registered open-in-place is materialised as a file first); any other gives a copy in a fresh
    /// temporary directory with `isInPlace == false`, which is left for the temporary directory's
    /// owner to clean ("the system will delete this file at some point in the future").
    /// Open-in-place registrations are preferred over others that also answer.
    @discardableResult
    public func loadInPlaceFileRepresentation(
        for typeIdentifier: String, completionHandler: @escaping @Sendable (URL?, Bool, (any Error)?) -> Void
    ) -> Progress {
        let chosen = snapshot(typeIdentifier, .openInPlace) ?? snapshot(typeIdentifier)
        if let chosen, let original = chosen.registration.original,
            case .descriptor(let token, _) = chosen.registration.source
        {
            // The original itself, as the host names it; the kernel enforces its scope.
            let state = loadState("loadInPlaceFileRepresentation", typeIdentifier)
            state.keep(completionHandler)
            original { url, error in
                state.deliver {
                    state.finish()
                    guard let url else {
                        return completionHandler(nil, false, error.map { Self.wrap($0, typeIdentifier) })
                    }
                    SecurityScope.register(url, token: token ?? UUID().uuidString)
                    completionHandler(url, true, nil)
                }
            }
            return state.progress
        }
        return Self.start(
            loadState("loadInPlaceFileRepresentation", typeIdentifier), chosen, typeIdentifier: typeIdentifier
        ) { snapshot, fetched, state in
            let representation = snapshot.registration.representation
            let result = Result { () throws -> (URL, Bool) in
                if representation.kind == .openInPlace, case .file(let url) = fetched {
                    SecurityScope.register(url, token: UUID().uuidString)
                    return (url, true)
                }
                let directory = try FileMaterializer.makeFreshDirectory()
                let url = try FileMaterializer.materialize(
                    fetched, typeIdentifier: representation.typeIdentifier, suggestedName: snapshot.suggestedName,
                    registry: snapshot.registry, into: directory)
                if representation.kind == .descriptorInPlace,
                    case .descriptor(let token, _) = snapshot.registration.source
                {
                    SecurityScope.register(url, token: token ?? UUID().uuidString)
                    return (url, true)
                }
                return (url, false)
            }
            state.deliver {
                state.finish()
                switch result {
                case .success(let (url, inPlace)): completionHandler(url, inPlace, nil)
                case .failure(let error): completionHandler(nil, false, Self.wrap(error, typeIdentifier))
                }
            }
        } failure: {
            completionHandler(nil, false, $0)
        }
    }

    /// Loads the representation answering `typeIdentifier` in place when possible.
    nonisolated(nonsending) public func loadInPlaceFileRepresentation(for typeIdentifier: String) async throws -> (
        url: URL, isInPlace: Bool
    ) {
        let (url, inPlace): (URL, Bool) = try await awaitLoad { resume in
            loadInPlaceFileRepresentation(for: typeIdentifier) { url, inPlace, error in
                resume(
                    url.map { .success(($0, inPlace)) }
                        ?? .failure(error ?? ItemProviderError.cannotLoad(typeIdentifier)))
            }
        }
        return (url, inPlace)
    }

    // MARK: - Legacy

    /// The legacy coercing load. Without options it returns the original object as Swift sees it
    /// on a device: the `URL` of `init(contentsOf:)` / `init(object: URL)`, the `String` of
    /// `init(object: String)`, the item of `init(item:typeIdentifier:)`, the object a proxy rebuilt
    /// from its bytes (``registerObject(forTypeIdentifier:visibility:decode:loadHandler:)``); a file
    /// registered through the binary interface gives its URL (the original when it opens in place,
    /// otherwise a copy that stays until the temporary directory is cleaned), data gives `Data`.
    ///
    /// Coercions happen only when ``expectedValueClassKey`` asks for one (Apple's table): the same
    /// class returns the object; `URL → Data` reads the file (-1100 when that fails); any other pair
    /// fails with ``ItemProviderError/Code/unavailableCoercion`` (-1200).
    public func loadItem(
        forTypeIdentifier typeIdentifier: String, options: [String: any Sendable]? = nil,
        completionHandler: @escaping @Sendable ((any Sendable)?, (any Error)?) -> Void
    ) {
        let expected = options?[Self.expectedValueClassKey] as? ExpectedValueClass
        let chosen = snapshot(typeIdentifier)
        let deliver: @Sendable (Result<any Sendable, any Error>) -> Void = { result in
            switch result.flatMap({ object in Result { try Self.coerce(object, to: expected) } }) {
            case .success(let value): completionHandler(value, nil)
            case .failure(let error): completionHandler(nil, error)
            }
        }
        if let registration = chosen?.registration, let object = registration.object {
            guard registration.objectAfterLoad else {
                let state = loadState("loadItem", typeIdentifier)
                state.keep(completionHandler)
                loadQueue.async { state.deliver { deliver(.success(object)) } }
                return
            }
            loadDataRepresentation(for: typeIdentifier) { data, error in
                deliver(
                    data != nil ? .success(object) : .failure(error ?? ItemProviderError.cannotLoad(typeIdentifier)))
            }
            return
        }
        if let registration = chosen?.registration, registration.representation.kind.isFileBacked {
            loadInPlaceFileRepresentation(for: typeIdentifier) { url, _, error in
                deliver(url.map { .success($0) } ?? .failure(error ?? ItemProviderError.cannotLoad(typeIdentifier)))
            }
            return
        }
        let decoder = chosen?.registration.decoder
        loadDataRepresentation(for: typeIdentifier) { data, error in
            guard let data else { return deliver(.failure(error ?? ItemProviderError.cannotLoad(typeIdentifier))) }
            guard let decoder else { return deliver(.success(data)) }
            do {
                deliver(.success(try decoder(data)))
            } catch {
                deliver(
                    .failure(
                        ItemProviderError(
                            .unexpectedValueClass, "Could not decode the item of type \(typeIdentifier)", cause: error))
                )
            }
        }
    }

    /// The legacy coercing load.
    nonisolated(nonsending) public func loadItem(
        forTypeIdentifier typeIdentifier: String, options: [String: any Sendable]? = nil
    ) async throws -> any Sendable {
        let box: ItemBox = try await withCheckedThrowingContinuation { continuation in
            loadItem(forTypeIdentifier: typeIdentifier, options: options) { item, error in
                if let item {
                    continuation.resume(returning: ItemBox(value: item))
                } else {
                    continuation.resume(throwing: error ?? ItemProviderError.cannotLoad(typeIdentifier))
                }
            }
        }
        return box.value
    }

    private struct ItemBox: Sendable {
        var value: any Sendable
    }

    static func coerce(_ object: any Sendable, to expected: ExpectedValueClass?) throws -> any Sendable {
        guard let expected else { return object }
        switch (object, expected) {
        case (is Data, .data), (is URL, .url), (is String, .string):
            return object
        case (let url as URL, .data):
            do {
                return try SecurityScopedAccess.read(contentsOf: url)
            } catch {
                throw ItemProviderError(
                    .unexpectedValueClass, "Could not coerce an item of class URL to class Data", cause: error)
            }
        default:
            throw ItemProviderError(
                .unavailableCoercion,
                "Could not coerce an item of class \(type(of: object)) to class \(expected.rawValue)")
        }
    }

    /// Errors the conversion raises, as item-provider errors (item-provider and cancellation errors
    /// pass through).
    static func wrap(_ error: any Error, _ typeIdentifier: String) -> any Error {
        if error is ItemProviderError { return error }
        return ItemProviderError(.unknown, "Cannot load representation of type \(typeIdentifier)", cause: error)
    }
}
