import Archives
import Foundation
import HostSystem
import Testing

@testable import ItemProviders

struct LoadingTests {
    @Test func aFinishedLoadFreesItsProgress() async throws {
        // The progress's cancellation handler captured the load's state, which holds the progress:
        // every load leaked both until the first delivery broke the cycle.
        weak var progress: Progress?
        do {
            let provider = ItemProvider()
            provider.registerData("public.utf8-plain-text", "bytes")
            let returned = provider.loadDataRepresentation(for: "public.text") { _, _ in }
            progress = returned
        }
        for _ in 0..<500 where progress != nil { try await Task.sleep(for: .milliseconds(10)) }
        #expect(progress == nil)
    }

    @Test func dataFromDataFileAndDescriptor() async throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let file = try directory.write("file bytes", to: "a.txt")
        let provider = ItemProvider()
        provider.registerData("public.utf8-plain-text", "data bytes")
        provider.registerFileRepresentation(for: "com.adobe.pdf") { completion in
            completion(file, false, nil)
            return nil
        }
        let descriptorPath = try directory.write("descriptor bytes", to: "d.bin").path
        provider.registerDescriptorRepresentation(for: "public.png") { completion in
            do {
                completion(DescriptorRepresentation(descriptor: try FileDescriptor.open(descriptorPath)), nil)
            } catch {
                completion(nil, error)
            }
            return nil
        }
        #expect(
            String(decoding: try await provider.loadDataRepresentation(for: "public.text"), as: UTF8.self)
                == "data bytes")
        #expect(
            String(decoding: try await provider.loadDataRepresentation(for: "com.adobe.pdf"), as: UTF8.self)
                == "file bytes")
        #expect(
            String(decoding: try await provider.loadDataRepresentation(for: "public.image"), as: UTF8.self)
                == "descriptor bytes")
    }

    @Test func temporaryFileExistsInsideTheHandlerAndIsGoneRightAfter() async throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let source = try directory.write("original", to: "Report.pdf")
        let provider = try #require(ItemProvider(contentsOf: source))
        let observed = await provider.observeFileLoad("com.adobe.pdf")
        drainLoadQueue()
        let url = try #require(observed.url)
        #expect(observed.existedInside)
        #expect(observed.contentsInside == "original")
        #expect(url.lastPathComponent == "Report.pdf")
        #expect(url != source)
        #expect(!FileManager.default.fileExists(atPath: url.path))
        #expect(!FileManager.default.fileExists(atPath: url.deletingLastPathComponent().path))
        #expect(FileManager.default.fileExists(atPath: source.path))
    }

    @Test func dataIsWrittenUnderTheSuggestedNameWithTheTypesExtension() async throws {
        let provider = ItemProvider()
        provider.registerData("com.adobe.pdf", "%PDF-1.7")
        provider.suggestedName = "Quarterly"
        let observed = await provider.observeFileLoad("public.data")
        #expect(observed.url?.lastPathComponent == "Quarterly.pdf")
        #expect(observed.contentsInside == "%PDF-1.7")
        let named = ItemProvider()
        named.registerData("com.adobe.pdf", "%PDF")
        named.suggestedName = "Already.pdf"
        #expect(await named.observeFileLoad("com.adobe.pdf").url?.lastPathComponent == "Already.pdf")
    }

    @Test func configuredTemporaryDirectoryIsUsed() async throws {
        // Only this test changes the setting. Loads of tests running at the same time may land in
        // this directory too, so it is a fixed one that is kept (each load removes its own folder).
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("exthost-itemproviders-tmp")
        let provider = ItemProvider()
        provider.registerData("public.plain-text", "x")
        let previous = ItemProviderConfiguration.temporaryDirectory
        ItemProviderConfiguration.temporaryDirectory = directory
        let observed = await provider.observeFileLoad("public.plain-text")
        ItemProviderConfiguration.temporaryDirectory = previous
        let url = try #require(observed.url)
        #expect(url.deletingLastPathComponent().deletingLastPathComponent().path == directory.path)
    }

    @Test func withFileRepresentationKeepsTheFileOnlyDuringTheBody() async throws {
        let provider = ItemProvider()
        provider.registerData("public.plain-text", "body text")
        provider.suggestedName = "note"
        let (url, contents) = try await provider.withFileRepresentation(for: "public.text") { url in
            (url, try String(contentsOf: url, encoding: .utf8))
        }
        #expect(contents == "body text")
        #expect(url.lastPathComponent == "note.txt")
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test func folderCopiesRecursivelyAndLoadsAsZipData() async throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        try directory.write("one", to: "Trip/a.txt")
        try directory.write("two", to: "Trip/sub/b.txt")
        let folder = directory.url.appendingPathComponent("Trip")
        let provider = try #require(ItemProvider(contentsOf: folder))
        let listing = try await provider.withFileRepresentation(for: "public.folder") { url in
            (
                url.lastPathComponent,
                try String(contentsOf: url.appendingPathComponent("sub/b.txt"), encoding: .utf8)
            )
        }
        #expect(listing.0 == "Trip")
        #expect(listing.1 == "two")
        let zip = try await provider.loadDataRepresentation(for: "public.directory")
        let entries = try ArchiveReader(bytes: zip).listEntries().map(\.path)
        #expect(entries.contains("Trip/a.txt"))
        #expect(entries.contains("Trip/sub/b.txt"))
    }

    @Test func descriptorCopiesIntoAFreshFileAndClosesTheDescriptor() async throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let path = try directory.write(String(repeating: "z", count: 100_000), to: "big.bin").path
        let descriptor = try FileDescriptor.open(path)
        let provider = ItemProvider()
        provider.registerDescriptorRepresentation(for: "public.data") { completion in
            completion(DescriptorRepresentation(descriptor: descriptor, byteCount: 100_000, suggestedName: "big"), nil)
            return nil
        }
        let observed = await provider.observeFileLoad("public.data")
        #expect(observed.url?.lastPathComponent == "big")
        #expect(observed.contentsInside?.count == 100_000)
        // Closed: the number no longer names the file (another test may have reused the number).
        let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor.rawValue)")
        #expect(target != path)
    }

    @Test func missingTypeFailsWithApplesError() async {
        let provider = ItemProvider(object: "hi")
        let error = await #expect(throws: ItemProviderError.self) {
            try await provider.loadDataRepresentation(for: "public.image")
        }
        #expect(error?.domain == "NSItemProviderErrorDomain")
        #expect(error?.code.rawValue == -1000)
        #expect(error?.message == "Cannot load representation of type public.image")
        #expect(error?.description.contains("Code=-1000") == true)
    }

    @Test func handlerErrorsArriveUnchanged() async {
        let provider = ItemProvider()
        provider.registerDataRepresentation(for: "public.png") { completion in
            completion(nil, ItemProviderError(.unknown, "camera roll unavailable"))
            return nil
        }
        let error = await #expect(throws: ItemProviderError.self) {
            try await provider.loadDataRepresentation(for: "public.png")
        }
        #expect(error?.message == "camera roll unavailable")
    }

    @Test func progressCompletes() async throws {
        let provider = ItemProvider(object: "x")
        let progress: Progress = await withCheckedContinuation { continuation in
            let box = ProgressBox()
            let progress = provider.loadDataRepresentation(for: "public.text") { _, _ in }
            box.set(progress)
            continuation.resume(returning: progress)
        }
        drainLoadQueue()
        drainLoadQueue()
        #expect(progress.fractionCompleted == 1)
    }

    @Test(.timeLimit(.minutes(1))) func cancellingTheProgressEndsASlowLoadPromptly() async throws {
        let handlerProgress = Progress(totalUnitCount: 1)
        let handlerRan = Locked(false)
        let provider = ItemProvider()
        // The handler never completes: only cancellation can end the load.
        provider.registerDataRepresentation(for: "public.movie") { _ in
            handlerRan.withLock { $0 = true }
            return handlerProgress
        }
        let error: (any Error)? = await withCheckedContinuation { continuation in
            let progress = provider.loadDataRepresentation(for: "public.movie") { data, error in
                continuation.resume(returning: error)
            }
            loadQueue.async { progress.cancel() }
        }
        #expect(error?.itemProviderCode == .userCancelled)
        #expect((error as? ItemProviderError)?.domain == "NSCocoaErrorDomain")
        // A cancel that lands before the handler was asked leaves nothing of the handler's to cancel.
        if handlerRan.withLock({ $0 }) { #expect(handlerProgress.isCancelled) }
    }

    @Test(.timeLimit(.minutes(1))) func cancellingTheTaskEndsAnAsyncLoad() async throws {
        let provider = ItemProvider()
        provider.registerDataRepresentation(for: "public.movie") { _ in nil }
        let task = Task {
            try await provider.loadDataRepresentation(for: "public.movie")
        }
        task.cancel()
        let error = await #expect(throws: ItemProviderError.self) { try await task.value }
        #expect(error?.code == .userCancelled)
    }
}
