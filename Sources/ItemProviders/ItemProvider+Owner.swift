public import Foundation
import HostSystem

extension ItemProvider {
    /// What a representation's own load handler produced, untouched: no temporary copy, no coercion.
    public enum OriginalValue: Sendable {
        /// A data representation's bytes.
        case data(Data)
        /// A file representation's URL (the original file, not a copy).
        case file(URL)
        /// A descriptor representation.
        case descriptor(DescriptorRepresentation)
    }

    /// For the provider's owner — the host serving a sandboxed extension — rather than for the
    /// extension: runs the load handler of the representation answering `typeIdentifier` and
    /// returns what it gave, with the representation that answered. The host opens an original
    /// file itself and passes the descriptor, so a file is never copied on the host's side.
    /// - Throws: ``ItemProviderError/cannotLoad(_:)`` when nothing answers, or the handler's error.
    nonisolated(nonsending) public func loadOriginal(for typeIdentifier: String, fileOptions: FileOptions = [])
        async throws -> (representation: RegisteredRepresentation, value: OriginalValue)
    {
        guard let registration = registration(answering: typeIdentifier, fileOptions: fileOptions) else {
            throw ItemProviderError.cannotLoad(typeIdentifier)
        }
        let type = registration.representation.typeIdentifier
        let missing = ItemProviderError(.unknown, "The load handler for \(type) returned neither a value nor an error")
        let source = registration.source
        let value = try await withCheckedThrowingContinuation {
            (continuation: CheckedContinuation<OriginalValue, any Error>) in
            let once = ResumeOnce(continuation)
            switch source {
            case .data(let handler):
                _ = handler { data, error in once.resume(data.map { .success(.data($0)) } ?? .failure(error ?? missing))
                }
            case .file(let handler):
                _ = handler { url, _, error in
                    once.resume(url.map { .success(.file($0)) } ?? .failure(error ?? missing))
                }
            case .descriptor(_, let handler):
                _ = handler { representation, error in
                    once.resume(representation.map { .success(.descriptor($0)) } ?? .failure(error ?? missing))
                }
            }
        }
        return (registration.representation, value)
    }
}

/// Resumes a continuation at most once (a load handler that calls its completion twice is ignored).
private final class ResumeOnce: Sendable {
    private let continuation: Locked<CheckedContinuation<ItemProvider.OriginalValue, any Error>?>

    init(_ continuation: CheckedContinuation<ItemProvider.OriginalValue, any Error>) {
        self.continuation = Locked(continuation)
    }

    func resume(_ result: Result<ItemProvider.OriginalValue, any Error>) {
        let taken = continuation.withLock { value -> CheckedContinuation<ItemProvider.OriginalValue, any Error>? in
            defer { value = nil }
            return value
        }
        taken?.resume(with: result)
    }
}
