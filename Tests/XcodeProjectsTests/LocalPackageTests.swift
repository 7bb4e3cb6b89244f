import Foundation
import Testing

@testable import XcodeProjects

/// Swift packages a project references: a local one (Fixtures/LocalPackage: `Packages/StampKit`,
/// pure Swift, linked by the extension) becomes a `.package(path:)` dependency; one that does not
/// build on Linux, or is not there, is refused naming the package and why; a product of a package
/// from the network stays behind, and importing it is refused at the importing line.
@Suite struct LocalPackageTests {
    func plan(_ fixture: URL) throws -> ImportPlan {
        try ImportPlan.make(XcodeProject.read(XcodeProject.locate(fixture)))
    }

    func location(of text: String, in url: URL) throws -> (line: Int, column: Int) {
        let lines = try String(contentsOf: url, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        let index = try #require(lines.firstIndex { $0.contains(text) }, "\(text) not in \(url.path)")
        let column = try #require(lines[index].range(of: text)).lowerBound
        return (index + 1, lines[index].distance(from: lines[index].startIndex, to: column) + 1)
    }

    @Test func theProjectsPackageReferencesAndEachTargetsProductsAreRead() throws {
        let project = try XcodeProject.read(XcodeProject.locate(Fixtures.localPackage))
        let root = Fixtures.localPackage.standardizedFileURL
        let stampKit = root.appendingPathComponent("Packages/StampKit")
        #expect(project.localPackageFolders.map(\.path) == [stampKit.path])
        let share = try #require(project.target(named: "StampsShare"))
        #expect(share.packageProducts.map(\.productName) == ["StampKit"])
        #expect(share.packageProducts.first?.package == .local(stampKit))
        let pbxproj = root.appendingPathComponent("Stamps.xcodeproj/project.pbxproj")
        let declared = try location(of: "CB000000000000000000000A /* StampKit */ = {", in: pbxproj)
        #expect(share.packageProducts.first?.location.line == declared.line)
        let app = try #require(project.target(named: "Stamps"))
        #expect(app.packageProducts.map(\.productName) == ["Kingfisher"])
        #expect(app.packageProducts.first?.package == .remote("https://github.com/onevcat/Kingfisher.git"))
    }

    @Test func aLocalPackageThatBuildsOnLinuxIsAPathDependencyOfTheTargetLinkingIt() throws {
        let plan = try plan(Fixtures.localPackage)
        let stampKit = Fixtures.localPackage.standardizedFileURL.appendingPathComponent("Packages/StampKit")
        let share = try #require(plan.extensions.first)
        #expect(share.linkedProducts.map(\.productName) == ["StampKit"])
        #expect(share.linkedProducts.first?.package == LocalPackage(url: stampKit, modules: ["StampKit"]))
        // The app links Kingfisher but imports nothing of it: it is built, and the product stays behind.
        #expect(plan.app.built && plan.app.linkedProducts.isEmpty)
        #expect(plan.localPackages.map(\.url.path) == [stampKit.path])
        let manifest = PackageWriter(plan: plan, exthost: URL(fileURLWithPath: "/x")).manifest
        #expect(manifest.contains("        .package(path: \"\(stampKit.path)\"),"), "\(manifest)")
        #expect(
            manifest.contains(
                "dependencies: [.product(name: \"ExtHostExtension\", package: \"exthost\"), "
                    + ".product(name: \"StampKit\", package: \"StampKit\")],"), "\(manifest)")
    }

    @Test func aChangeInTheLocalPackageIsAChangeOfTheImport() throws {
        let copy = try Fixtures.copy(Fixtures.localPackage)
        defer { try? FileManager.default.removeItem(at: copy.deletingLastPathComponent()) }
        let before = try PackageWriter(plan: plan(copy), exthost: URL(fileURLWithPath: "/x")).fingerprint()
        let file = copy.appendingPathComponent("Packages/StampKit/Sources/StampKit/Stamp.swift")
        try (String(contentsOf: file, encoding: .utf8) + "\n// changed\n").write(
            to: file, atomically: true, encoding: .utf8)
        let after = try PackageWriter(plan: plan(copy), exthost: URL(fileURLWithPath: "/x")).fingerprint()
        #expect(before != after)
    }

    @Test func aLocalPackageImportingUIKitDoesNotBuildOnLinuxAndIsNamedWithTheLine() throws {
        let copy = try Fixtures.copy(Fixtures.localPackage)
        defer { try? FileManager.default.removeItem(at: copy.deletingLastPathComponent()) }
        let file = copy.appendingPathComponent("Packages/StampKit/Sources/StampKit/Stamp.swift")
        // Inside #if it is left to the build (a file written for several platforms compiles here).
        try ("#if canImport(UIKit)\nimport UIKit\n#endif\n" + String(contentsOf: file, encoding: .utf8)).write(
            to: file, atomically: true, encoding: .utf8)
        #expect(try plan(copy).localPackages.count == 1)
        try ("import SwiftUI\n" + String(contentsOf: file, encoding: .utf8)).write(
            to: file, atomically: true, encoding: .utf8)
        let pbxproj = copy.appendingPathComponent("Stamps.xcodeproj/project.pbxproj")
        let declared = try location(of: "CB000000000000000000000A /* StampKit */ = {", in: pbxproj)
        #expect {
            _ = try plan(copy)
        } throws: { error in
            guard let error = error as? XcodeProjectError else { return false }
            return error.kind == .input && error.location?.file == pbxproj.standardizedFileURL.path
                && error.location?.line == declared.line
                && error.message.contains("the local package StampKit (")
                && error.message.contains(
                    "does not build on Linux:\n  \(file.standardizedFileURL.path):1:8: imports SwiftUI")
        }
    }

    @Test func aLocalPackageThatIsNotThereOrLacksTheProductIsRefusedAtTheLink() throws {
        let copy = try Fixtures.copy(Fixtures.localPackage)
        defer { try? FileManager.default.removeItem(at: copy.deletingLastPathComponent()) }
        let pbxproj = copy.appendingPathComponent("Stamps.xcodeproj/project.pbxproj")
        let manifest = copy.appendingPathComponent("Packages/StampKit/Package.swift")
        let text = try String(contentsOf: manifest, encoding: .utf8)
        try text.replacingOccurrences(of: "\"StampKit\"", with: "\"Stamping\"").write(
            to: manifest, atomically: true, encoding: .utf8)
        #expect {
            _ = try plan(copy)
        } throws: { error in
            "\(error)".contains("declares no product 'StampKit'")
                && "\(error)".hasPrefix(pbxproj.standardizedFileURL.path + ":")
        }
        try FileManager.default.removeItem(at: copy.appendingPathComponent("Packages"))
        #expect {
            _ = try plan(copy)
        } throws: { error in
            (error as? XcodeProjectError)?.kind == .input
                && "\(error)".contains("Packages/StampKit that links StampKit has no Package.swift")
        }
    }

    @Test func importingAProductOfAPackageFromTheNetworkIsRefusedAtTheImportingLine() throws {
        let copy = try Fixtures.copy(Fixtures.localPackage)
        defer { try? FileManager.default.removeItem(at: copy.deletingLastPathComponent()) }
        let file = copy.appendingPathComponent("StampsShare/ShareViewController.swift")
        try String(contentsOf: file, encoding: .utf8).replacingOccurrences(
            of: "import StampKit\n", with: "import StampKit\nimport Kingfisher\n"
        ).write(to: file, atomically: true, encoding: .utf8)
        // The extension does not link Kingfisher: a plain unknown module.
        #expect {
            _ = try plan(copy)
        } throws: { error in
            "\(error)".hasPrefix(
                "\(file.standardizedFileURL.path):3:8: 'StampsShare' imports Kingfisher, which exthost cannot build\n")
        }
        // Linked, as Xcode does when the package is added to the target: the package is named.
        let pbxproj = copy.appendingPathComponent("Stamps.xcodeproj/project.pbxproj")
        try String(contentsOf: pbxproj, encoding: .utf8).replacingOccurrences(
            of: "\t\t\t\tCB000000000000000000000A /* StampKit */,\n",
            with:
                "\t\t\t\tCB000000000000000000000A /* StampKit */,\n\t\t\t\tCB000000000000000000000B /* Kingfisher */,\n"
        ).write(to: pbxproj, atomically: true, encoding: .utf8)
        #expect {
            _ = try plan(copy)
        } throws: { error in
            "\(error)".contains(
                "'StampsShare' imports Kingfisher, which exthost cannot build (a product of the Swift package "
                    + "https://github.com/onevcat/Kingfisher.git, linked at \(pbxproj.standardizedFileURL.path):")
                && (error as? XcodeProjectError)?.location?.line == 3
        }
    }
}
