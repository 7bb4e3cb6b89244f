import Foundation
import HostSystem

@testable import ItemProviders

/// A throwaway directory for one test.
struct TestDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("itemproviders-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: url) }

    @discardableResult
    func write(_ text: String, to name: String) throws -> URL {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
        return file
    }
}

/// Waits until every block already on the load queue has finished (the temporary-file removal
/// runs on it right after the completion handler returns).
func drainLoadQueue() {
    loadQueue.sync(flags: .barrier) {}
}

/// What a completion handler saw.
struct Observed: Sendable {
    var url: URL?
    var existedInside = false
    var contentsInside: String?
    var error: (any Error)?
}

extension ItemProvider {
    /// `loadFileRepresentation` with the handler recording what it saw.
    func observeFileLoad(_ type: String) async -> Observed {
        await withCheckedContinuation { continuation in
            loadFileRepresentation(for: type) { url, error in
                var observed = Observed(url: url, error: error)
                if let url {
                    observed.existedInside = FileManager.default.fileExists(atPath: url.path)
                    observed.contentsInside = try? String(contentsOf: url, encoding: .utf8)
                }
                continuation.resume(returning: observed)
            }
        }
    }

    func registerData(_ type: String, _ text: String, visibility: RepresentationVisibility = .all) {
        registerDataRepresentation(for: type, visibility: visibility) { completion in
            completion(Data(text.utf8), nil)
            return nil
        }
    }
}

extension Error {
    var itemProviderCode: ItemProviderError.Code? { (self as? ItemProviderError)?.code }
}
