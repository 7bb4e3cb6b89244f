import AppGroups
import ExtensionHost
import ExtensionIPC
import Foundation
import HostSystem

/// The products SwiftPM builds next to the test bundle.
enum TestProducts {
    static var directory: String {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        return (executable as NSString).deletingLastPathComponent
    }
    static var launcher: String { directory + "/exthost-sandbox-exec" }
    static var hostile: String { directory + "/exthost-hostile-extension" }
}

/// A scratch device root with an items folder, the extension's container and two group containers.
struct Scratch {
    let base: URL
    let root: DeviceRoot
    let items: URL
    let home: URL
    let container: URL
    let group: URL
    let otherGroup: URL

    init() throws {
        base = FileManager.default.temporaryDirectory.appendingPathComponent("exthost-host-\(UUID().uuidString)")
        items = base.appendingPathComponent("items")
        home = base.appendingPathComponent("home")
        root = DeviceRoot(url: base.appendingPathComponent("Containers"))
        for directory in [items, home, root.bundlesURL] {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }
        try Data("bundle\n".utf8).write(to: root.bundlesURL.appendingPathComponent("Info.plist"))
        container = try root.container(.appExtension, identifier: "com.example.hostile").url
        group = try root.container(.appGroup, identifier: "group.com.example.carddrop").url
        otherGroup = try root.container(.appGroup, identifier: "group.com.example.other").url
    }

    func remove() { try? FileManager.default.removeItem(at: base) }

    func launch(
        _ arguments: [String], limits: ExtensionLimits = ExtensionLimits(), executable: String = TestProducts.hostile
    ) -> ExtensionLaunch {
        ExtensionLaunch(
            executable: executable, arguments: arguments, launcher: TestProducts.launcher,
            process: ProcessEnvironment(
                bundleIdentifier: "com.example.hostile", containerPath: container.path,
                groupContainers: ["group.com.example.carddrop": group.path], rootPath: root.url.path),
            limits: limits)
    }
}

/// A host session over a folder: attachment i is the i-th entry of `files` (file representation,
/// or open in place when its name ends in `.inplace`), served by opening it beneath the folder
/// without following links; plus a data attachment whose suggested name climbs out (`../../x`).
final class FolderSession: ExtensionSession {
    let folder: URL
    let files: [String]
    let tokens = SecurityScopeTokens()
    let inPlaceTokens: [Int: String]

    init(folder: URL, files: [String]) {
        self.folder = folder
        self.files = files
        var issued: [Int: String] = [:]
        for (index, name) in files.enumerated() where name.hasSuffix(".inplace") {
            issued[index] = tokens.issue(for: index)
        }
        inPlaceTokens = issued
    }

    func welcome(for hello: Hello) async throws -> Welcome {
        var attachments: [AttachmentDescription] = files.enumerated().map { index, name in
            AttachmentDescription(
                index: index, suggestedName: name,
                representations: [
                    RepresentationDescription(
                        typeIdentifier: "public.data", kind: inPlaceTokens[index] == nil ? .file : .openInPlace,
                        securityScopeToken: inPlaceTokens[index])
                ])
        }
        attachments.append(
            AttachmentDescription(
                index: files.count, suggestedName: "../../x",
                representations: [RepresentationDescription(typeIdentifier: "public.plain-text", kind: .data)]))
        return Welcome(context: ContextDescription(items: [ItemDescription(attachments: attachments)]), appGroups: [])
    }

    func serve(_ request: LoadRequest, on channel: ExtensionChannel) async {
        func fail(_ message: String) {
            channel.refuse("load of attachment \(request.attachment): \(message)")
            try? channel.send(
                .loadFailed(
                    LoadFailed(
                        requestID: request.requestID,
                        error: WireError(code: WireError.itemUnavailable, message: message))))
        }
        if request.attachment == files.count, request.kind == .data {
            try? channel.send(.loadCompleted(LoadCompleted(requestID: request.requestID, byteCount: 0)))
            return
        }
        guard files.indices.contains(request.attachment) else { return fail("no such attachment") }
        let inPlace = inPlaceTokens[request.attachment] != nil
        if request.kind == .openInPlace {
            guard inPlace else { return fail("not registered for opening in place") }
            if case .failure(let refusal) = tokens.checkAccess(
                inPlaceTokens[request.attachment], attachment: request.attachment)
            {
                return fail("\(refusal)")
            }
        }
        do {
            let directory = try FileDescriptor.open(folder.path, .directory)
            defer { try? directory.close() }
            let file = try FileDescriptor.open(beneath: files[request.attachment], relativeTo: directory)
            defer { try? file.close() }
            let size = try file.status().size
            try channel.send(
                .fileReply(
                    FileReply(requestID: request.requestID, typeIdentifier: request.typeIdentifier, byteCount: size)),
                descriptors: [file])
        } catch {
            fail("cannot open \(files[request.attachment]): \(error)")
        }
    }

    func startAccessing(_ request: SecurityScopeRequest, on channel: ExtensionChannel) async -> SecurityScopeReply {
        switch tokens.start(request.token) {
        case .success: return SecurityScopeReply(requestID: request.requestID, granted: true)
        case .failure(let refusal):
            channel.refuse("start accessing: \(refusal)")
            return SecurityScopeReply(requestID: request.requestID, granted: false, reason: "\(refusal)")
        }
    }

    func stopAccessing(_ request: SecurityScopeRequest, on channel: ExtensionChannel) async -> SecurityScopeReply {
        switch tokens.stop(request.token) {
        case .success: return SecurityScopeReply(requestID: request.requestID, granted: true)
        case .failure(let refusal):
            channel.refuse("stop accessing: \(refusal)")
            return SecurityScopeReply(requestID: request.requestID, granted: false, reason: "\(refusal)")
        }
    }

    func describe(_ request: LoadRequest) -> String {
        "loading \(request.kind.rawValue) representation of attachment \(request.attachment)"
    }

    func finish() async { tokens.revokeAll() }
}
