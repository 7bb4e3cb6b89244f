import Foundation
import Testing

@testable import XcodeProjects

@Suite struct ImportPlanTests {
    func plan(_ fixture: URL) throws -> ImportPlan {
        try ImportPlan.make(XcodeProject.read(XcodeProject.locate(fixture)))
    }

    @Test func theXcode15PlanBuildsTheAppAndItsExtensionWithAdaptedLines() throws {
        let plan = try plan(Fixtures.xcode15)
        #expect(plan.app.module == "Notes" && plan.app.built && plan.app.bundleName == "Notes.app")
        #expect(plan.extensions.map(\.bundleName) == ["NotesShare.appex"])
        #expect(plan.adaptedLines.count == 5)
        let share = try #require(plan.extensions.first)
        #expect(
            share.sources.map(\.relativePath) == ["NotesShare/ShareViewController.swift", "Shared/NoteStore.swift"])
        #expect(share.sources.map { $0.adaptation != nil } == [true, false])
        let info = try #require(
            try PropertyListSerialization.propertyList(from: share.infoPlist, format: nil) as? [String: Any])
        #expect(info["CFBundleExecutable"] as? String == "NotesShare")
    }

    @Test func theXcode16SynchronizedFoldersKeepTheirExceptionsOut() throws {
        let plan = try plan(Fixtures.xcode16)
        #expect(plan.app.sources.map(\.relativePath) == ["Clips/ClipsApp.swift"])
        let share = try #require(plan.extensions.first)
        #expect(
            share.sources.map(\.relativePath) == [
                "ClipsShare/Helpers/Clip.swift", "ClipsShare/ShareViewController.swift",
            ])
        #expect(share.bundleIdentifier == "org.example.clips.share")
        #expect(plan.adaptedLines.isEmpty)
    }

    @Test func aCrossPlatformAppIsInstalledWithoutItsProgramAndItsExtensionCompilesAsItIs() throws {
        let plan = try plan(Fixtures.crossPlatform)
        #expect(plan.project.url.path.hasSuffix("CrossPlatform/ios/ShareDemo.xcodeproj"))
        #expect(!plan.app.built)
        let note = try #require(plan.project.notes.first { $0.contains("built-in app stands in") })
        #expect(note.contains("ShareDemo/AppDelegate.swift:1:8: 'ShareDemo' imports Expo"), "\(note)")
        #expect(plan.project.notes.contains { $0.contains("Pods-ShareDemo.debug.xcconfig is missing") })
        #expect(plan.project.notes.contains { $0.contains("[CP] Check Pods Manifest.lock' is not run") })
        let info = try #require(
            try PropertyListSerialization.propertyList(from: plan.app.infoPlist, format: nil) as? [String: Any])
        #expect(info["CFBundleExecutable"] == nil && info["CFBundleIdentifier"] as? String == "com.example.sharedemo")
        let share = try #require(plan.extensions.first)
        #expect(share.bundleIdentifier == "com.example.sharedemo.ShareExtension")
        // sel_registerName, responds(to:) and perform compile as they are.
        #expect(plan.adaptedLines.isEmpty)
        let entitlements = try #require(
            try share.entitlements.flatMap {
                try PropertyListSerialization.propertyList(from: $0, format: nil) as? [String: Any]
            })
        #expect(entitlements["com.apple.security.application-groups"] as? [String] == ["group.com.example.sharedemo"])
        #expect(
            PackageWriter(plan: plan, exthost: URL(fileURLWithPath: "/x")).products.map(\.module) == ["ShareExtension"])
    }

    @Test func anExtensionImportingAModuleExthostCannotBuildIsRefusedWithItsLine() throws {
        let copy = try Fixtures.copy(Fixtures.xcode15)
        let file = copy.appendingPathComponent("NotesShare/ShareViewController.swift")
        let text = try String(contentsOf: file, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "import UniformTypeIdentifiers", with: "import Alamofire").utf8)
            .write(to: file)
        do {
            _ = try plan(copy)
            Issue.record("planned")
        } catch let error as XcodeProjectError {
            #expect(error.kind == .input)
            #expect(
                error.location == SourceLocation(file: file.standardizedFileURL.path, line: 3, column: 8), "\(error)")
            #expect(error.message.hasPrefix("'NotesShare' imports Alamofire, which exthost cannot build\n"), "\(error)")
        }
    }

    @Test func thePackageLinksTheProjectsFilesAndWritesOnlyWhatChanged() throws {
        let plan = try plan(Fixtures.xcode15)
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("import-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        let writer = PackageWriter(plan: plan, exthost: URL(fileURLWithPath: "/opt/exthost"))
        try writer.write(into: output)
        let manifest = try String(contentsOf: output.appendingPathComponent("Package.swift"), encoding: .utf8)
        #expect(manifest.contains(".library(name: \"NotesShare\", type: .dynamic, targets: [\"NotesShare\"])"))
        #expect(manifest.contains(".executable(name: \"Notes\", targets: [\"Notes\"])"))
        #expect(manifest.contains(".package(name: \"exthost\", path: \"/opt/exthost\")"))
        #expect(manifest.contains("swiftSettings: [.swiftLanguageMode(.v5), .define(\"DEBUG\")]"))
        let sources = output.appendingPathComponent("Sources")
        let root = Fixtures.xcode15.standardizedFileURL
        #expect(
            try FileManager.default.destinationOfSymbolicLink(
                atPath: sources.appendingPathComponent("NotesShare/Shared/NoteStore.swift").path)
                == root.appendingPathComponent("Shared/NoteStore.swift").path)
        let adapted = sources.appendingPathComponent("NotesShare/NotesShare/ShareViewController.swift")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: adapted.path)) == nil)
        #expect(try String(contentsOf: adapted, encoding: .utf8).contains("Selector(\"save:\")"))
        let json = try JSONDecoder().decode(
            PackageWriter.Adaptations.self, from: Data(contentsOf: output.appendingPathComponent("adaptations.json")))
        #expect(json.lines == plan.adaptedLines && json.added.map(\.className) == ["ShareViewController"])

        // A second write changes nothing; a file an earlier import wrote is removed.
        let before = try FileManager.default.attributesOfItem(atPath: adapted.path)[.modificationDate] as? Date
        let stale = sources.appendingPathComponent("Notes/Old.swift")
        try Data("old".utf8).write(to: stale)
        try writer.write(into: output)
        #expect(try FileManager.default.attributesOfItem(atPath: adapted.path)[.modificationDate] as? Date == before)
        #expect(!FileManager.default.fileExists(atPath: stale.path))
        #expect(
            try writer.fingerprint()
                == PackageWriter(plan: plan, exthost: URL(fileURLWithPath: "/opt/exthost")).fingerprint())
        #expect(
            try writer.fingerprint()
                != PackageWriter(plan: plan, exthost: URL(fileURLWithPath: "/elsewhere")).fingerprint())

        let app = output.appendingPathComponent("Bundles/Notes.app")
        try writer.assemble(at: app)
        for path in [
            "Info.plist", "Notes.entitlements", "PlugIns/NotesShare.appex/Info.plist",
            "PlugIns/NotesShare.appex/NotesShare.entitlements",
            "PlugIns/NotesShare.appex/Base.lproj/MainInterface.storyboard",
        ] {
            #expect(FileManager.default.fileExists(atPath: app.appendingPathComponent(path).path), "\(path)")
        }
    }
}

@Suite struct ImportPlanInputTests {
    @Test func anExtensionWithObjectiveCSourcesIsRefusedAndAnXcconfigIsALevelOfSettings() throws {
        let copy = try Fixtures.copy(Fixtures.xcode15)
        let pbxproj = copy.appendingPathComponent("Notes.xcodeproj/project.pbxproj")
        var text = try String(contentsOf: pbxproj, encoding: .utf8)
        // An xcconfig under the extension's Debug settings, and an Objective-C file in its sources.
        try Data(
            "// shared\nBASE_IDENTIFIER = com.example.fromconfig\nOTHER = $(inherited) x\n#include \"Missing.xcconfig\"\n"
                .utf8
        )
        .write(to: copy.appendingPathComponent("Share.xcconfig"))
        text = text.replacingOccurrences(
            of: "\t\tA80000000000000000000031 /* Debug */ = {\n\t\t\tisa = XCBuildConfiguration;\n",
            with: "\t\tA80000000000000000000031 /* Debug */ = {\n\t\t\tisa = XCBuildConfiguration;\n"
                + "\t\t\tbaseConfigurationReference = AC0000000000000000000001;\n")
        text = text.replacingOccurrences(
            of: "/* End PBXFileReference section */",
            with:
                "\t\tAC0000000000000000000001 = {isa = PBXFileReference; path = Share.xcconfig; sourceTree = SOURCE_ROOT; };\n"
                + "\t\tAC0000000000000000000002 = {isa = PBXFileReference; path = NotesShare/Legacy.m; sourceTree = SOURCE_ROOT; };\n"
                + "/* End PBXFileReference section */")
        try Data(text.utf8).write(to: pbxproj)
        let share = try #require(
            try XcodeProject.read(copy.appendingPathComponent("Notes.xcodeproj")).target(named: "NotesShare"))
        // The target's xcconfig is a level above the project's settings: its BASE_IDENTIFIER wins.
        #expect(try share.setting("PRODUCT_BUNDLE_IDENTIFIER") == "com.example.fromconfig.NotesShare")
        #expect(share.location(ofSetting: "BASE_IDENTIFIER")?.line == 2)

        text = text.replacingOccurrences(
            of: "A10000000000000000000003 /* ShareViewController.swift in Sources */,",
            with:
                "A10000000000000000000003 /* ShareViewController.swift in Sources */,\n\t\t\t\tAC0000000000000000000003,"
        )
        text = text.replacingOccurrences(
            of: "/* End PBXBuildFile section */",
            with: "\t\tAC0000000000000000000003 = {isa = PBXBuildFile; fileRef = AC0000000000000000000002; };\n"
                + "/* End PBXBuildFile section */")
        try Data(text.utf8).write(to: pbxproj)
        let withObjC = try XcodeProject.read(copy.appendingPathComponent("Notes.xcodeproj"))
        #expect(withObjC.target(named: "NotesShare")?.otherSources.map(\.lastPathComponent) == ["Legacy.m"])
        do {
            _ = try ImportPlan.make(withObjC)
            Issue.record("planned")
        } catch {
            #expect(error.message.contains("Objective-C/C source(s)") && error.message.contains("Legacy.m"), "\(error)")
        }
    }
}
