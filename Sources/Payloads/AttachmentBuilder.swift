import Foundation
import HostSystem
import ItemProviders
import UniformTypes

/// Test knobs of a manifest: how long a load waits, and the error it ends with.
struct LoadKnobs: Sendable, Hashable {
    var delayMilliseconds = 0
    var failure: Failure?

    struct Failure: Sendable, Hashable {
        var domain: String
        var code: Int
        var message: String
    }

    var error: ItemProviderError? {
        failure.map { ItemProviderError(ItemProviderError.Code(domain: $0.domain, rawValue: $0.code), $0.message) }
    }

    /// Runs `deliver` after the delay (on a background queue), or at once when there is none;
    /// returns a progress the provider's load can cancel.
    func run(_ deliver: @escaping @Sendable ((any Error)?) -> Void) -> Progress? {
        let error = error
        guard delayMilliseconds > 0 else {
            deliver(error)
            return nil
        }
        let progress = Progress(totalUnitCount: 1)
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(delayMilliseconds)) {
            guard !progress.isCancelled else { return }
            progress.completedUnitCount = 1
            deliver(error)
        }
        return progress
    }
}

/// Builds one item provider and its description side by side.
final class AttachmentBuilder {
    let provider = ItemProvider()
    private(set) var representations: [PayloadRepresentationDescription] = []
    let registry: TypeRegistry

    init(registry: TypeRegistry, suggestedName: String? = nil) {
        self.registry = registry
        provider.typeRegistry = registry
        provider.suggestedName = suggestedName
    }

    var description: PayloadAttachmentDescription {
        PayloadAttachmentDescription(suggestedName: provider.suggestedName, representations: representations)
    }

    private func record(
        _ type: String, _ kind: RegisteredRepresentation.Kind, _ visibility: RepresentationVisibility,
        _ byteCount: Int64?, _ origin: String, _ knobs: LoadKnobs
    ) {
        representations.append(
            PayloadRepresentationDescription(
                typeIdentifier: type, kind: kind, visibility: visibility, byteCount: byteCount, origin: origin,
                loadDelayMilliseconds: knobs.delayMilliseconds,
                failure: knobs.failure.map { "\($0.domain) \($0.code): \($0.message)" }))
    }

    /// An object (text, URL, data) under `type`: `loadItem` returns the object.
    func addObject(
        _ object: any Sendable, bytes: Data, type: String, visibility: RepresentationVisibility = .all,
        origin: String, knobs: LoadKnobs = LoadKnobs()
    ) {
        var handler: (@Sendable (@escaping @Sendable (Data?, (any Error)?) -> Void) -> Progress?)?
        if knobs != LoadKnobs() {
            handler = { completion in
                knobs.run { error in
                    if let error {
                        completion(nil, error)
                    } else {
                        completion(bytes, nil)
                    }
                }
            }
        }
        provider.registerItem(object, forTypeIdentifier: type, visibility: visibility, loadHandler: handler)
        record(type, .data, visibility, Int64(bytes.count), origin, knobs)
    }

    /// Data read from a file when loaded.
    func addData(
        fromFileAt url: URL, type: String, visibility: RepresentationVisibility = .all, knobs: LoadKnobs = LoadKnobs()
    ) {
        provider.registerDataRepresentation(for: type, visibility: visibility) { completion in
            knobs.run { error in
                if let error { return completion(nil, error) }
                do {
                    completion(try Data(contentsOf: url), nil)
                } catch {
                    completion(nil, ItemProviderError.cannotLoad(type))
                }
            }
        }
        record(type, .data, visibility, Self.size(of: url), url.path, knobs)
    }

    /// A file (or folder) representation, optionally open-in-place.
    func addFile(
        _ url: URL, type: String, openInPlace: Bool = false, visibility: RepresentationVisibility = .all,
        knobs: LoadKnobs = LoadKnobs()
    ) {
        provider.registerFileRepresentation(for: type, visibility: visibility, openInPlace: openInPlace) { completion in
            knobs.run { error in
                if let error { return completion(nil, false, error) }
                completion(url, false, nil)
            }
        }
        record(type, openInPlace ? .openInPlace : .file, visibility, Self.size(of: url), url.path, knobs)
    }

    static func size(of url: URL) -> Int64? {
        guard let status = try? FileDescriptor.status(ofPath: url.path) else { return nil }
        guard status.kind == .directory else { return status.size }
        var total: Int64 = 0
        let enumerator = FileManager.default.enumerator(atPath: url.path)
        while let relative = enumerator?.nextObject() as? String {
            let entry = try? FileDescriptor.status(
                ofPath: url.appendingPathComponent(relative).path, followingLinks: false)
            if let entry, entry.kind == .regular { total += entry.size }
        }
        return total
    }
}
