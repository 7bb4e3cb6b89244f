public import Foundation

/// A local Swift package a project references (`XCLocalSwiftPackageReference`) and one of its
/// targets links: the generated package depends on it by path (`.package(path:)`) when it builds
/// on Linux.
public struct LocalPackage: Sendable, Equatable {
    /// The package's folder.
    public var url: URL
    /// The package's identity, which `.product(name:package:)` names: its folder's name.
    public var identity: String { url.lastPathComponent }
    /// The modules a target linking it may import: its targets' folders under `Sources/`.
    public var modules: [String]

    /// The modules Linux's Swift toolchain has, which a package may import without depending on anything.
    public static let linuxModules: Set<String> = [
        "Swift", "Foundation", "FoundationEssentials", "FoundationInternationalization", "FoundationNetworking",
        "FoundationXML", "Dispatch", "_Concurrency", "_StringProcessing", "RegexBuilder", "Synchronization",
        "Observation", "Distributed", "Glibc", "Musl", "XCTest", "Testing", "CoreFoundation",
    ]

    /// Reads the package at `url` that a target links `product` of (the link declared at `location`),
    /// and checks that it builds on Linux: it has a `Package.swift` naming the product, and none of its
    /// Swift files imports, outside `#if`, a module Linux does not have (UIKit, SwiftUI, Combine, …)
    /// that is neither one of its own targets nor named in its manifest (a dependency of its own).
    /// - Throws: ``XcodeProjectError`` (input) saying which package and why, each importing line listed.
    public static func inspect(_ url: URL, product: String, linkedAt location: SourceLocation)
        throws(XcodeProjectError) -> LocalPackage
    {
        let manifestURL = url.appendingPathComponent("Package.swift")
        guard let manifestData = try? Data(contentsOf: manifestURL) else {
            throw .input(
                "the local package \(url.path) that links \(product) has no Package.swift (is the folder there?)",
                at: location)
        }
        let manifest = String(decoding: manifestData, as: UTF8.self)
        // Whether the manifest names `name` in a string literal (a product, target or dependency).
        func mentions(_ name: String) -> Bool { manifest.contains("\"\(name)\"") }
        guard mentions(product) else {
            throw .input(
                "the local package \(url.path) declares no product '\(product)' (\(manifestURL.path) never names it)",
                at: location)
        }
        let sources = url.appendingPathComponent("Sources")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: sources.path)) ?? []).sorted()
        let modules = names.filter { name in
            var isDirectory: ObjCBool = false
            return !name.hasPrefix(".")
                && FileManager.default.fileExists(
                    atPath: sources.appendingPathComponent(name).path, isDirectory: &isDirectory)
                && isDirectory.boolValue
        }
        var problems: [String] = []
        for relative in ProjectReader.walk(sources) where relative.hasSuffix(".swift") {
            let file = sources.appendingPathComponent(relative)
            guard let data = try? Data(contentsOf: file) else { continue }
            for (module, place) in ImportPlan.imports(
                in: String(decoding: data, as: UTF8.self), file: file.path, unconditionalOnly: true)
            where !linuxModules.contains(module) && !modules.contains(module) && !mentions(module) {
                problems.append("\(place): imports \(module), which Linux does not have")
            }
        }
        guard problems.isEmpty else {
            throw .input(
                "the local package \(url.lastPathComponent) (\(url.path)), whose product \(product) is linked here, "
                    + "does not build on Linux:\n  " + problems.joined(separator: "\n  "),
                at: location)
        }
        return LocalPackage(url: url.standardizedFileURL, modules: modules)
    }
}
