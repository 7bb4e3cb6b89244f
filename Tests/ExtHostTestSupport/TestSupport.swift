public import Foundation
public import HostSystem

/// What the test targets share: the package root, the demo group and items, scratch device roots,
/// the programs built beside the tests, and reports decoded from their JSON.
public enum TestSupport {
    /// Runs `body` — a blocking wait for a child process, a browser, a pipe — on a thread of its
    /// own and returns what it returned. A test must not block one of Swift concurrency's
    /// cooperative threads (two on a two-core machine): every other test's process exchanges
    /// stall meanwhile, and their handshakes time out.
    public static func offThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withBlockingWait { Result { try body() } }.get()
    }

    /// The package's root folder.
    public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    /// The demo app's App Group.
    public static let group = "group.com.example.carddrop"
    /// The demo items (`Containers/Bundles/DemoItems`).
    public static let demoItems = packageRoot.appendingPathComponent("Containers/Bundles/DemoItems")

    /// A new scratch directory holding a copy of the demo bundles (and the demo items) in `Bundles/`.
    public static func scratchRoot(_ prefix: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: packageRoot.appendingPathComponent("Containers/Bundles"), to: url.appendingPathComponent("Bundles"))
        return url
    }

    /// The program `name` built beside the tests (a test target depends on its target).
    public static func program(_ name: String) -> URL {
        URL(fileURLWithPath: (SiblingExecutable.directory ?? ".") + "/" + name)
    }

    /// A report decoded from its JSON; when it does not decode, the error carries the output and
    /// `note` (such as a command's standard error).
    public static func decode<Report: Decodable>(_ type: Report.Type, _ output: String, note: String = "") throws
        -> Report
    {
        do {
            return try JSONDecoder().decode(type, from: Data(output.utf8))
        } catch {
            throw UndecodableReport(type: "\(type)", error: "\(error)", output: output + note)
        }
    }

    /// Output that is not the JSON of the report type expected.
    public struct UndecodableReport: Error, CustomStringConvertible {
        let type: String
        let error: String
        let output: String
        /// The type, the decoding error and the output.
        public var description: String { "not a \(type): \(error)\n\(output)" }
    }

    /// Installs an app bundle `Bundles/<name>.app` on `root` whose Info.plist is the identifier and
    /// name merged with `keys`.
    public static func installApp(_ name: String, _ identifier: String, on root: URL, _ keys: [String: Any]) throws {
        let bundle = root.appendingPathComponent("Bundles/\(name).app")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        var info: [String: Any] = ["CFBundleIdentifier": identifier, "CFBundleName": name]
        info.merge(keys) { $1 }
        try PropertyListSerialization.data(fromPropertyList: info, format: .xml, options: 0)
            .write(to: bundle.appendingPathComponent("Info.plist"))
    }

    /// Info.plist keys of one document type claiming `types` (an array, or a single string as some
    /// apps write it) with `LSHandlerRank` `rank`.
    public static func claiming(_ types: Any, rank: String? = nil) -> [String: Any] {
        var entry: [String: Any] = ["CFBundleTypeName": "Doc", "LSItemContentTypes": types]
        if let rank { entry["LSHandlerRank"] = rank }
        return ["CFBundleDocumentTypes": [entry]]
    }

    /// What a program wrote and how it ended.
    public struct Finished: Sendable {
        /// Its standard output.
        public var output: String
        /// Its standard error.
        public var errors: String
        /// How it ended.
        public var status: TerminationStatus
        /// `key=value` pairs of the output's lines.
        public var fields: [String: String] {
            var result: [String: String] = [:]
            for line in output.split(separator: "\n") {
                for word in line.split(separator: " ") {
                    guard let equals = word.firstIndex(of: "=") else { continue }
                    result[String(word[..<equals])] = String(word[word.index(after: equals)...])
                }
            }
            return result
        }
    }

    /// Runs the program at `executable` with `arguments` to its end (through HostSystem's spawn API),
    /// its standard output and error captured.
    public static func runProgram(_ executable: URL, _ arguments: [String] = []) async throws -> Finished {
        try await runCollecting(Spawn(executable: executable.path, arguments: arguments))
    }

    /// Runs `spawn` to its end with its standard output and error captured; `body` runs while the
    /// child does (to signal it, say).
    public static func runCollecting(
        _ spawn: Spawn, during body: (ChildProcess) async throws -> Void = { _ in }
    ) async throws -> Finished {
        var spawn = spawn
        let output = try FileDescriptor.pipe()
        let errors = try FileDescriptor.pipe()
        spawn.descriptors[1] = output.writeEnd
        spawn.descriptors[2] = errors.writeEnd
        let outputCapture = OutputCapture(reading: output.readEnd, keepingAtMost: 1 << 20)
        let errorCapture = OutputCapture(reading: errors.readEnd, keepingAtMost: 1 << 20)
        let status: TerminationStatus
        do {
            (_, status) = try await withChildProcess(spawn) { child in
                try output.writeEnd.close()
                try errors.writeEnd.close()
                try await body(child)
                return await child.exitStatus()
            }
        } catch let error as Errno {
            // Spawning failed: the write ends are still ours.
            try? output.writeEnd.close()
            try? errors.writeEnd.close()
            throw error
        }
        return Finished(
            output: try await outputCapture.output().text, errors: try await errorCapture.output().text,
            status: status)
    }

    /// Installs `exthost-probe-app` (an app written only against Foundation and UIKit) as
    /// `com.example.probe` claiming `*.probedoc`, with `sceneDelegate` (nil: no
    /// scene manifest) and `keys` merged into its Info.plist.
    public static func installProbeApp(on root: URL, sceneDelegate: String?, _ keys: [String: Any] = [:]) throws {
        let bundle = root.appendingPathComponent("Bundles/Probe.app")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        var info: [String: Any] = [
            "CFBundleIdentifier": "com.example.probe", "CFBundleName": "Probe", "CFBundleExecutable": "Probe",
            "LSSupportsOpeningDocumentsInPlace": false,
            "CFBundleDocumentTypes": [
                ["CFBundleTypeName": "Probe", "LSHandlerRank": "Owner", "LSItemContentTypes": ["com.example.probedoc"]]
            ],
            "UTExportedTypeDeclarations": [
                [
                    "UTTypeIdentifier": "com.example.probedoc", "UTTypeConformsTo": ["public.data", "public.content"],
                    "UTTypeTagSpecification": ["public.filename-extension": ["probedoc"]],
                ]
            ],
        ]
        if let sceneDelegate {
            info["UIApplicationSceneManifest"] = [
                "UISceneConfigurations": [
                    "UIWindowSceneSessionRoleApplication": [
                        ["UISceneDelegateClassName": "$(PRODUCT_MODULE_NAME).\(sceneDelegate)"]
                    ]
                ]
            ]
        }
        info.merge(keys) { $1 }
        try PropertyListSerialization.data(fromPropertyList: info, format: .xml, options: 0)
            .write(to: bundle.appendingPathComponent("Info.plist"))
        try FileManager.default.copyItem(at: program("exthost-probe-app"), to: bundle.appendingPathComponent("Probe"))
    }
}
