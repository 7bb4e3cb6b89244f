import Foundation
import HostSystem
import ItemProviders
import Testing

/// These tests change the process-wide scope mode, so they run one at a time; the scoped URLs
/// are their own, so other suites are unaffected.
@Suite(.serialized) struct SecurityScopeTests {
    func inPlaceProvider(_ directory: TestDirectory) throws -> (ItemProvider, URL) {
        let file = try directory.write("in place", to: "Doc.pdf")
        let provider = ItemProvider()
        provider.registerFileRepresentation(for: "com.adobe.pdf", openInPlace: true) { completion in
            completion(file, true, nil)
            return nil
        }
        return (provider, file)
    }

    @Test func inPlaceReadWithoutAScopeFailsInStrictMode() async throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let (provider, file) = try inPlaceProvider(directory)
        let (url, isInPlace) = try await provider.loadInPlaceFileRepresentation(for: "com.adobe.pdf")
        #expect(isInPlace)
        #expect(url == file)
        #expect(SecurityScope.isScoped(url))
        ItemProviderConfiguration.securityScopeMode = .strict
        let error = #expect(throws: ItemProviderError.self) { try SecurityScopedAccess.read(contentsOf: url) }
        #expect(error?.code == .fileReadNoPermission)
        #expect(error?.message.contains("startAccessingSecurityScopedResource") == true)
        #expect(throws: ItemProviderError.self) { try SecurityScopedAccess.write(Data(), to: url) }
        #expect(throws: ItemProviderError.self) { try SecurityScopedAccess.open(url) }

        #expect(url.startAccessingSecurityScopedResource())
        #expect(try SecurityScopedAccess.read(contentsOf: url) == Data("in place".utf8))
        url.stopAccessingSecurityScopedResource()
        #expect(SecurityScope.accessCount(for: url) == 0)
        #expect(throws: ItemProviderError.self) { try SecurityScopedAccess.read(contentsOf: url) }
    }

    @Test func lenientModeBehavesLikeTheSimulator() async throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let (provider, _) = try inPlaceProvider(directory)
        let (url, _) = try await provider.loadInPlaceFileRepresentation(for: "public.data")
        ItemProviderConfiguration.securityScopeMode = .lenient
        defer { ItemProviderConfiguration.securityScopeMode = .strict }
        #expect(try SecurityScopedAccess.read(contentsOf: url) == Data("in place".utf8))
        try SecurityScopedAccess.write(Data("edited".utf8), to: url)
        let descriptor = try SecurityScopedAccess.open(url)
        try descriptor.close()
    }

    @Test func startsAreCountedPerURLAndLeaksReported() async throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let (provider, _) = try inPlaceProvider(directory)
        let (url, _) = try await provider.loadInPlaceFileRepresentation(for: "com.adobe.pdf")
        ItemProviderConfiguration.securityScopeMode = .strict
        #expect(url.startAccessingSecurityScopedResource())
        #expect(url.startAccessingSecurityScopedResource())
        url.stopAccessingSecurityScopedResource()
        #expect(SecurityScope.accessCount(for: url) == 1)
        #expect(try SecurityScopedAccess.read(contentsOf: url).count == 8)
        #expect(SecurityScope.leaks().contains { $0.url == url && $0.outstandingStarts == 1 })
        url.stopAccessingSecurityScopedResource()
        url.stopAccessingSecurityScopedResource()
        #expect(SecurityScope.accessCount(for: url) == 0)
        #expect(!SecurityScope.leaks().contains { $0.url == url })
    }

    @Test func anUnbalancedStartIsReportedWhenTheRequestCompletes() async throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let (provider, _) = try inPlaceProvider(directory)
        let (url, _) = try await provider.loadInPlaceFileRepresentation(for: "com.adobe.pdf")
        let context = ExtensionContext(inputItems: [ExtensionItem(attachments: [provider])])
        #expect(url.startAccessingSecurityScopedResource())
        context.completeRequest(returningItems: nil)
        url.stopAccessingSecurityScopedResource()
        guard case .completed(_, let leaks) = await context.outcome() else {
            Issue.record("expected a completed request")
            return
        }
        #expect(leaks.contains { $0.url == url && $0.outstandingStarts == 1 })
        #expect(await context.outcome().description.contains("unbalanced startAccessingSecurityScopedResource()"))
    }

    @Test func aURLWithoutATokenCannotBeStartedButIsReadable() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let file = try directory.write("plain", to: "plain.txt")
        #expect(!file.startAccessingSecurityScopedResource())
        #expect(try SecurityScopedAccess.read(contentsOf: file) == Data("plain".utf8))
    }

    @Test func filesInsideAScopedFolderShareItsScope() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let inner = try directory.write("inner", to: "Folder/inner.txt")
        let folder = directory.url.appendingPathComponent("Folder")
        SecurityScope.register(folder, token: "token-1")
        ItemProviderConfiguration.securityScopeMode = .strict
        #expect(SecurityScope.token(for: inner) == "token-1")
        #expect(throws: ItemProviderError.self) { try SecurityScopedAccess.read(contentsOf: inner) }
        #expect(folder.startAccessingSecurityScopedResource())
        #expect(try SecurityScopedAccess.read(contentsOf: inner) == Data("inner".utf8))
        folder.stopAccessingSecurityScopedResource()
    }

    @Test func copiesAreNotInPlaceAndNeedNoScope() async throws {
        let provider = ItemProvider()
        provider.registerData("public.plain-text", "copy")
        let (url, isInPlace) = try await provider.loadInPlaceFileRepresentation(for: "public.text")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        #expect(!isInPlace)
        #expect(!SecurityScope.isScoped(url))
        #expect(try SecurityScopedAccess.read(contentsOf: url) == Data("copy".utf8))
    }

    @Test func descriptorInPlaceIsMaterialisedWithTheHostsToken() async throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let path = try directory.write("fd", to: "x.pdf").path
        let provider = ItemProvider()
        provider.registerDescriptorRepresentation(
            for: "com.adobe.pdf", openInPlace: true, securityScopeToken: "host-42"
        ) {
            completion in
            do {
                completion(
                    DescriptorRepresentation(descriptor: try FileDescriptor.open(path), suggestedName: "x.pdf"), nil)
            } catch {
                completion(nil, error)
            }
            return nil
        }
        let (url, isInPlace) = try await provider.loadInPlaceFileRepresentation(for: "com.adobe.pdf")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        #expect(isInPlace)
        #expect(SecurityScope.token(for: url) == "host-42")
        ItemProviderConfiguration.securityScopeMode = .strict
        #expect(throws: ItemProviderError.self) { try SecurityScopedAccess.read(contentsOf: url) }
    }
}
