import ActivationRules
import AppGroups
import Foundation
import UniformTypes

// libFuzzer target for app Info.plists as the device reads them: any bytes as the Info.plist of an
// app installed beside a well-formed one (its CFBundleDocumentTypes, UTExportedTypeDeclarations,
// CFBundleURLTypes, LSSupportsOpeningDocumentsInPlace, UIApplicationSceneManifest, XML or binary).
// The installed-bundle table, the Info.plist linter (`exthost app lint`) and the handler choice of
// `exthost open` for files and URLs must not trap; a chosen app must be one of the handlers. Built
// by Scripts/fuzz with LaunchServices and what it imports.
@testable import LaunchServices

private let root = URL(fileURLWithPath: NSTemporaryDirectory())
    .appendingPathComponent("exthost-fuzz-infoplists-\(getpid())")
private let fuzzed = root.appendingPathComponent("Bundles/Fuzzed.app")

private let prepared: Bool = {
    let fileManager = FileManager.default
    let other = root.appendingPathComponent("Bundles/Viewer.app")
    try? fileManager.createDirectory(at: fuzzed, withIntermediateDirectories: true)
    try? fileManager.createDirectory(at: other, withIntermediateDirectories: true)
    let info: [String: Any] = [
        "CFBundleIdentifier": "com.example.viewer", "CFBundleName": "Viewer",
        "CFBundleDocumentTypes": [
            ["CFBundleTypeName": "PDF", "LSItemContentTypes": ["com.adobe.pdf"], "LSHandlerRank": "Alternate"]
        ],
        "CFBundleURLTypes": [["CFBundleURLSchemes": ["viewer", "fuzz"]]],
        "LSSupportsOpeningDocumentsInPlace": true,
    ]
    guard let data = try? PropertyListSerialization.data(fromPropertyList: info, format: .xml, options: 0) else {
        return false
    }
    return (try? data.write(to: other.appendingPathComponent("Info.plist"))) != nil
}()

private let files = ["menu.pdf", "photo.png", "card.fuzz", "notes.txt", "archive.zip", "noextension"]
private let urls = ["fuzz://open", "viewer://x", "https://example.com", "mailto:a@example.com", "data:,x"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzInfoPlists(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard prepared else { return 0 }
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    guard (try? bytes.write(to: fuzzed.appendingPathComponent("Info.plist"))) != nil else { return 0 }
    let installed = InstalledBundles(root: DeviceRoot(url: root))
    for diagnostic in InfoPlistLint.lint(appAt: fuzzed, installed: installed) { _ = diagnostic.description }
    var decisions = files.map { installed.handlers(forFile: URL(fileURLWithPath: "/items/\($0)")) }
    decisions += urls.compactMap { URL(string: $0) }.map { installed.handlers(forURL: $0) }
    // Safari takes web links without being an installed handler.
    for decision in decisions where !decision.target.hasPrefix("https:") {
        if let chosen = decision.chosen, !decision.handlers.contains(where: { $0.bundleIdentifier == chosen }) {
            preconditionFailure("\(decision.target): chose \(chosen), not among the handlers \(decision.handlers)")
        }
    }
    return 0
}
