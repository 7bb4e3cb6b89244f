import Foundation
import Testing
import XcodeProjects

/// The GitHub Actions job's text, in-process. InitProjectTests parses it as YAML and runs its steps.
@Suite struct CIWorkflowTests {
    @Test func theCommandsAreTheReadmesFirstShellBlockWithoutComments() {
        let readme = """
            # App

            ```swift
            let notACommand = 1
            ```

            ```sh
            swift build                 # builds it
            exthost share items/

            # a comment alone
            swift test
            ```

            ```sh
            echo second block
            ```
            """
        #expect(CIWorkflow.commands(inReadme: readme) == ["swift build", "exthost share items/", "swift test"])
        #expect(CIWorkflow.commands(inReadme: "no block") == [])
    }

    @Test func eachCommandIsAStepOfItsOwnQuotedAfterTheSetUpStep() throws {
        let workflow = CIWorkflow(
            source: .init(repository: "https://example.com/exthost.git", ref: "v1.2"), writtenBy: "exthost init",
            commands: ["swift build", #"exthost share --ui "tap Post" items/"#])
        let lines = workflow.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(
            lines.first
                == "# Written by `exthost init`: on a Linux runner, build exthost from its repository at EXTHOST_REF")
        #expect(lines.contains(#"      EXTHOST_REPOSITORY: "https://example.com/exthost.git""#))
        #expect(lines.contains(#"      EXTHOST_REF: "v1.2""#))
        #expect(lines.contains("    container: swift:6.3-bookworm"))
        #expect(
            Array(lines.suffix(3)) == [
                #"      - run: "swift build""#, #"      - run: "exthost share --ui \"tap Post\" items/""#, "",
            ])
        let setUp = try #require(lines.firstIndex(of: "        run: |"))
        #expect(
            Array(lines[(setUp + 1)...(setUp + CIWorkflow.setupCommands.count)])
                == CIWorkflow.setupCommands.map { "          " + $0 })
    }

    @Test func theJobOfAnImportGoesToTheRepositorysRootAndNamesTheProjectFromThere() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("ci-root-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let ios = root.appendingPathComponent("my app/ios")
        try FileManager.default.createDirectory(
            at: ios.appendingPathComponent("App.xcodeproj"), withIntermediateDirectories: true)
        // No repository: the folder named (or the one holding the project).
        #expect(CIWorkflow.repositoryRoot(containing: ios).path == ios.path)
        #expect(CIWorkflow.repositoryRoot(containing: ios.appendingPathComponent("App.xcodeproj")).path == ios.path)
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent(".git"), withIntermediateDirectories: true)
        #expect(CIWorkflow.repositoryRoot(containing: ios).path == root.path)
        #expect(CIWorkflow.shellWord(ios, relativeTo: root) == "'my app/ios'")
        #expect(CIWorkflow.shellWord(root.appendingPathComponent("ios"), relativeTo: root) == "ios")
        #expect(CIWorkflow.shellWord(root, relativeTo: root) == ".")
        #expect(CIWorkflow.shellWord(root.appendingPathComponent("it's"), relativeTo: root) == #"'it'\''s'"#)
    }

    @Test func aWorkflowThatIsThereAlreadyIsLeftAsItIs() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("ci-workflow-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let workflow = CIWorkflow(
            source: .init(repository: "", ref: "main"), writtenBy: "exthost import --ci", commands: ["swift test"])
        let url = try workflow.write(under: root)
        #expect(url.path == root.appendingPathComponent(".github/workflows/exthost.yml").path)
        #expect(try String(contentsOf: url, encoding: .utf8) == workflow.text)
        #expect(try workflow.write(under: root) == url)  // the same text: nothing to do
        try Data("name: mine\n".utf8).write(to: url)
        #expect {
            _ = try workflow.write(under: root)
        } throws: { error in
            (error as? XcodeProjectError)?.kind == .input && "\(error)".contains("exists already")
        }
        #expect(try String(contentsOf: url, encoding: .utf8) == "name: mine\n")
    }
}
