import AppGroups
import ExtensionHost
import ExtensionIPC
import Foundation
import Testing

/// The device's Files storage as an app's request reaches it: bad names and oversized requests are
/// refused with nothing written.
@Suite struct DeviceFilesTests {
    static func root() throws -> DeviceRoot {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return DeviceRoot(url: url)
    }

    @Test func aNameThatIsNotAFileNameOrATooLargeRequestWritesNothing() throws {
        let root = try Self.root()
        defer { try? FileManager.default.removeItem(at: root.url) }
        let files = DeviceFiles(root: root)
        let good = FileToSave(name: "ok.txt", typeIdentifier: "public.plain-text", data: Data("ok".utf8))
        for bad in ["../escape.txt", "a/b.txt", "", ".."] {
            let reply = files.serve(
                SaveToFilesRequest(
                    location: .onMyIPhone,
                    files: [good, FileToSave(name: bad, typeIdentifier: "public.data", data: Data())]))
            #expect(reply.saved == nil && reply.error?.contains("is not a file name") == true, "\(bad): \(reply)")
        }
        let big = FileToSave(
            name: "big.bin", typeIdentifier: "public.data", data: Data(count: PasteboardRequest.maximumDataSize + 1))
        let refused = files.serve(SaveToFilesRequest(location: .downloads, files: [big]))
        #expect(refused.saved == nil && refused.error?.contains("at most") == true)
        let folder = root.url.appendingPathComponent("Files/On My iPhone")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] == [])
        let saved = files.serve(SaveToFilesRequest(location: .onMyIPhone, files: [good, good]))
        #expect(saved.saved?.map(\.path) == ["Files/On My iPhone/ok.txt", "Files/On My iPhone/ok 2.txt"])
    }
}
