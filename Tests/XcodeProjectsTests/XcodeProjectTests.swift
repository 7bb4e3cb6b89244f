import Foundation
import Testing
import XcodeProjects

@Suite struct XcodeProjectTests {
    @Test func anXcode15ProjectGivesItsAppAndExtensionWithSourcesResourcesAndSettings() throws {
        let url = try XcodeProject.locate(Fixtures.xcode15)
        #expect(url.lastPathComponent == "Notes.xcodeproj")
        let project = try XcodeProject.read(url)
        #expect(project.targets.map(\.name) == ["Notes", "NotesShare"])
        let app = try #require(project.target(named: "Notes"))
        let share = try #require(project.target(named: "NotesShare"))
        let root = Fixtures.xcode15.standardizedFileURL
        #expect(app.productType == .application && share.productType == .appExtension)
        #expect(app.dependencies == ["NotesShare"])
        #expect(
            app.swiftSources.map(\.path) == [
                root.appendingPathComponent("Notes/AppDelegate.swift").path,
                root.appendingPathComponent("Shared/NoteStore.swift").path,
            ])
        #expect(
            share.swiftSources.map { $0.lastPathComponent } == ["ShareViewController.swift", "NoteStore.swift"])
        #expect(
            share.resources.map(\.path) == [
                root.appendingPathComponent("NotesShare/Base.lproj/MainInterface.storyboard").path
            ])
        #expect(app.resources.isEmpty)
        #expect(project.notes.contains { $0.contains("Assets.xcassets is left out") })
        #expect(try share.setting("PRODUCT_BUNDLE_IDENTIFIER") == "com.example.notes.NotesShare")
        #expect(try app.setting("PRODUCT_BUNDLE_IDENTIFIER") == "com.example.notes")
        #expect(try share.moduleName() == "NotesShare")
        #expect(try share.swiftLanguageMode() == "5")
        #expect(try share.setting("SWIFT_ACTIVE_COMPILATION_CONDITIONS") == "DEBUG ")
        #expect(try share.setting("SRCROOT") == root.path)

        let info = try share.infoPlist()
        #expect(info["CFBundleIdentifier"] as? String == "com.example.notes.NotesShare")
        #expect(info["CFBundleExecutable"] as? String == "NotesShare")
        #expect(info["CFBundlePackageType"] as? String == "XPC!")
        #expect(info["CFBundleDisplayName"] as? String == "Save to Notes")
        let principal = (info["NSExtension"] as? [String: Any])?["NSExtensionPrincipalClass"] as? String
        #expect(principal == "NotesShare.ShareViewController")
        let appInfo = try app.infoPlist()
        #expect(appInfo["UIApplicationSupportsIndirectInputEvents"] as? Bool == true)
        #expect(appInfo["CFBundlePackageType"] as? String == "APPL")
        let groups = try app.entitlements()?["com.apple.security.application-groups"] as? [String]
        #expect(groups == ["group.com.example.notes"])
    }

    @Test func anotherConfigurationReadsItsSettings() throws {
        let project = try XcodeProject.read(
            Fixtures.xcode15.appendingPathComponent("Notes.xcodeproj"), configuration: "Release")
        #expect(
            try project.target(named: "NotesShare")?.setting("PRODUCT_BUNDLE_IDENTIFIER")
                == "com.example.notes.release.NotesShare")
        #expect(throws: XcodeProjectError.self) {
            try XcodeProject.read(Fixtures.xcode15.appendingPathComponent("Notes.xcodeproj"), configuration: "Beta")
        }
    }

    // MARK: - Settings

    func levels(_ target: [String: String], _ project: [String: String] = [:]) -> BuildSettingLevels {
        var line = 0
        func level(_ values: [String: String]) -> [String: BuildSettingLevels.Value] {
            values.mapValues { value in
                line += 1
                return .init(value, at: SourceLocation(file: "p", line: line, column: 5))
            }
        }
        return BuildSettingLevels(levels: [level(target), level(project), ["TARGET_NAME": .init("My App")]])
    }

    @Test func expansionFollowsXcode() throws {
        let settings = levels(
            [
                "A": "$(inherited) -DX", "B": "${TARGET_NAME:rfc1034identifier}",
                "C": "$(TARGET_NAME:c99extidentifier)",
                "D": "$(UNSET)x$(UNSET:default=y)", "E": "$(V_$(W))", "W": "1", "V_1": "nested", "F": "$TARGET_NAME!",
                "G": "$(TARGET_NAME:lower:rfc1034identifier)",
            ],
            ["A": "-DBASE"])
        #expect(try settings.value("A") == "-DBASE -DX")
        #expect(try settings.value("B") == "My-App")
        #expect(try settings.value("C") == "My_App")
        #expect(try settings.value("D") == "xy")
        #expect(try settings.value("E") == "nested")
        #expect(try settings.value("F") == "$TARGET_NAME!")
        #expect(try settings.value("G") == "my-app")
        #expect(try settings.value("NOTHING") == "")
    }

    @Test func aSettingThatExpandsToItselfIsALocatedError() throws {
        for settings in [
            levels(["A": "$(A)"]), levels(["A": "x$(B)", "B": "$(A)"]), levels(["A": "$(inherited)"], ["A": "${A}"]),
        ] {
            do {
                _ = try settings.value("A")
                Issue.record("no error")
            } catch {
                #expect(error.kind == .input && error.location != nil, "\(error)")
                #expect(error.message.contains("expands to itself"), "\(error)")
            }
        }
        #expect(throws: XcodeProjectError.self) { try levels(["A": "$(B:frobnicate)"]).value("A") }
        #expect(throws: XcodeProjectError.self) { try levels(["A": "$(B"]).value("A") }
    }

    // MARK: - Bad projects

    /// `body` applied to a copy of the Xcode 15 fixture's project.pbxproj, then read.
    func readChanged(_ change: (String) -> String) throws -> (XcodeProject?, XcodeProjectError?, URL) {
        let copy = try Fixtures.copy(Fixtures.xcode15)
        let file = copy.appendingPathComponent("Notes.xcodeproj/project.pbxproj")
        let text = try String(contentsOf: file, encoding: .utf8)
        try Data(change(text).utf8).write(to: file)
        do {
            let project = try XcodeProject.read(copy.appendingPathComponent("Notes.xcodeproj"))
            return (project, nil, file)
        } catch {
            return (nil, error, file)
        }
    }

    func lineOf(_ needle: String, in file: URL) throws -> Int {
        let lines = try String(contentsOf: file, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        return try #require(lines.firstIndex { $0.contains(needle) }) + 1
    }

    @Test func aTruncatedProjectIsALocatedError() throws {
        let (_, error, file) = try readChanged { String($0.prefix($0.count / 2)) }
        let e = try #require(error)
        #expect(e.kind == .input && e.location?.file == file.path, "\(e)")
        #expect(e.message.contains("unexpected end of file"), "\(e)")
    }

    @Test func anUnknownProductTypeIsALocatedError() throws {
        let (_, error, file) = try readChanged {
            $0.replacingOccurrences(
                of: "\"com.apple.product-type.app-extension\"", with: "\"com.example.product-type.gadget\"")
        }
        let e = try #require(error)
        #expect(e.location?.line == (try lineOf("com.example.product-type.gadget", in: file)), "\(e)")
        #expect(e.message.contains("unknown product type 'com.example.product-type.gadget'"), "\(e)")
    }

    @Test func aMissingInfoPlistIsLocatedAtItsSetting() throws {
        let (project, _, file) = try readChanged {
            $0.replacingOccurrences(
                of: "INFOPLIST_FILE = NotesShare/Info.plist;", with: "INFOPLIST_FILE = NotesShare/Gone.plist;")
        }
        let share = try #require(project?.target(named: "NotesShare"))
        do {
            _ = try share.infoPlist()
            Issue.record("no error")
        } catch {
            #expect(error.location?.file == file.path, "\(error)")
            #expect(error.location?.line == (try lineOf("NotesShare/Gone.plist", in: file)), "\(error)")
            #expect(error.message.contains("Info.plist of 'NotesShare' is missing"), "\(error)")
        }
    }

    @Test func aSelfReferencingSettingInTheProjectIsLocated() throws {
        let (project, _, file) = try readChanged {
            $0.replacingOccurrences(
                of: "BASE_IDENTIFIER = \"com.example.notes\";", with: "BASE_IDENTIFIER = \"$(BASE_IDENTIFIER).x\";")
        }
        let share = try #require(project?.target(named: "NotesShare"))
        do {
            _ = try share.setting("PRODUCT_BUNDLE_IDENTIFIER")
            Issue.record("no error")
        } catch {
            #expect(error.location?.line == (try lineOf("$(BASE_IDENTIFIER).x", in: file)), "\(error)")
            #expect(error.message.contains("BASE_IDENTIFIER expands to itself"), "\(error)")
        }
    }

    @Test func aMissingObjectIsLocated() throws {
        let (_, error, _) = try readChanged {
            $0.replacingOccurrences(
                of: "buildConfigurationList = A80000000000000000000003", with: "buildConfigurationList = FFFF")
        }
        #expect(error?.message.contains("no object 'FFFF'") == true, "\(String(describing: error))")
    }

    @Test func workspacesAndIOSFoldersResolveToTheProject() throws {
        let copy = try Fixtures.copy(Fixtures.xcode15)
        let base = copy.deletingLastPathComponent()
        let ios = base.appendingPathComponent("app/ios")
        try FileManager.default.createDirectory(at: ios.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: copy, to: ios)
        let workspace = ios.appendingPathComponent("Notes.xcworkspace")
        try FileManager.default.createDirectory(at: workspace, withIntermediateDirectories: true)
        try Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <Workspace version = "1.0">
               <FileRef location = "group:Notes.xcodeproj"></FileRef>
               <FileRef location = "group:Pods/Pods.xcodeproj"></FileRef>
            </Workspace>
            """.utf8
        ).write(to: workspace.appendingPathComponent("contents.xcworkspacedata"))
        let expected = ios.appendingPathComponent("Notes.xcodeproj").standardizedFileURL.path
        #expect(try XcodeProject.locate(workspace).path == expected)
        #expect(try XcodeProject.locate(ios.deletingLastPathComponent()).path == expected)
        #expect(try XcodeProject.locate(ios).path == expected)
        #expect(throws: XcodeProjectError.self) { try XcodeProject.locate(base.appendingPathComponent("nothing")) }
    }
}
