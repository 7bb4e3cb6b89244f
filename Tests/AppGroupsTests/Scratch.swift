import AppGroups
import Foundation
import HostSystem

/// A throwaway device root holding a copy of the repository's demo bundles.
struct Scratch {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let group = "group.com.example.carddrop"

    let url: URL
    var root: DeviceRoot { DeviceRoot(url: url) }
    var appURL: URL { url.appendingPathComponent("Bundles/CardDrop.app") }
    var extensionURL: URL { appURL.appendingPathComponent("PlugIns/Share.appex") }

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("appgroups-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: Self.packageRoot.appendingPathComponent("Containers/Bundles"), to: url.appendingPathComponent("Bundles")
        )
    }

    func remove() { try? FileManager.default.removeItem(at: url) }

    func extensionIdentity() throws -> BundleIdentity { try BundleIdentity.load(bundle: extensionURL) }
    func appIdentity() throws -> BundleIdentity { try BundleIdentity.load(bundle: appURL) }
    func groupID() throws -> AppGroupIdentifier { try AppGroupIdentifier(validating: Self.group) }

    /// The built `exthost` binary: beside the test bundle (any build directory or configuration).
    /// - Throws: when it is not there (build with `swift build --build-tests`).
    static func exthost() throws -> URL {
        guard let path = SiblingExecutable.path("exthost") else { throw NotBuilt() }
        return URL(fileURLWithPath: path)
    }

    /// `exthost` is not built beside the tests.
    struct NotBuilt: Error, CustomStringConvertible {
        var description: String { "no exthost beside the test bundle; build it with swift build --build-tests" }
    }

    /// Runs the binary to completion; returns (status, stdout, stderr).
    static func run(_ arguments: [String]) throws -> (Int32, String, String) {
        let process = Process()
        process.executableURL = try exthost()
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: outData, as: UTF8.self),
            String(decoding: errData, as: UTF8.self)
        )
    }
}
