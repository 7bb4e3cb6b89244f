import AppGroups
import Foundation
import XcodeProjects

/// `exthost import PATH`: an Xcode project's app and its extensions, built and installed.
enum ImportCommand {
    static var all: [CommandSpec] { [command] }

    static let command = CommandSpec(
        ["import"],
        summary: "Build an Xcode project's app and its extensions (or an ios/ folder's) and install them on a device.",
        arguments: "PATH", positionalCount: 1...1,
        options: [
            .value(.configuration, "NAME", "The build configuration whose settings are used (default Debug)."),
            .value(.app, "TARGET", "The application target (default: the one that embeds app extensions)."),
            .value(.output, "DIR", "Where the generated Swift package goes (default: .exthost beside the .xcodeproj)."),
            .value(
                .buildPath, "DIR",
                "Where swift build works (default: .exthost/.build); projects sharing one build exthost once."),
            .value(
                .exthost, "PATH",
                "The exthost package the generated one depends on (default: the one exthost was built from)."),
            ContainerSupport.rootOption, ContainerSupport.deviceOption,
            .flag(
                .ci,
                "Also write .github/workflows/exthost.yml at the root of the project's git repository: a GitHub "
                    + "Actions job that builds exthost and runs this import (and swift test when a Package.swift is there)."
            ),
            .flag(.json, "Print one JSON report."),
        ],
        discussion: """
            PATH is an .xcodeproj, an .xcworkspace, or a folder holding one (an Expo, React Native, Flutter or Capacitor
            app's ios/ folder, or the app's folder above it). The project's application target and the app extensions it
            embeds are read from project.pbxproj (build phases, groups, Xcode 16 synchronized folders), with the build
            settings of the configuration: PRODUCT_BUNDLE_IDENTIFIER, PRODUCT_MODULE_NAME, SWIFT_VERSION, INFOPLIST_FILE
            and INFOPLIST_KEY_*, CODE_SIGN_ENTITLEMENTS, $(VAR) expanded as Xcode does. A Swift package is written into
            .exthost/ whose targets compile the project's own Swift files where they lie (through symbolic links), in
            the language mode of SWIFT_VERSION, against exthost's products; files that use the Objective-C runtime
            (@objc, #selector, @IBAction, @IBOutlet) are compiled from adapted copies, every changed line listed here
            and in .exthost/adaptations.json. The package is built with 'swift build', the .app with its
            PlugIns/*.appex (Info.plist expanded, entitlements, storyboards) is installed on the device, and the
            command that shares into the extension is printed. Importing an unchanged project again does nothing.
            Exit 2 for a project that cannot come along (a located error: a bad project.pbxproj, a missing Info.plist,
            an unknown product type, a setting that expands to itself, a module exthost cannot build, a construct
            that cannot be adapted, a local Swift package that does not build on Linux), with nothing installed;
            exit 1 when the build fails. The project's local Swift packages (XCLocalSwiftPackageReference) that
            build on Linux are built with it, as path dependencies; a product of a package from the network is
            left behind, and a file importing it is refused at its line.
            With --ci, the job is written only after the import succeeded; an existing different workflow file is
            left as it is (exit 2, before importing).
            """,
        examples: [
            "exthost import .  # exit 2: an empty folder holds no Xcode project (give yours: exthost import MyApp/ios)"
        ]
    ) { parsed, context in
        let json = parsed[.json]
        let path = context.resolve(parsed.positionals[0])
        let workflow = parsed[.ci] ? try await ciWorkflow(for: path, parsed, context) : nil
        if let workflow {
            do {
                try workflow.job.checkWritable(under: workflow.root)
            } catch let error as XcodeProjectError {
                throw CommandError.input(error.description)
            }
        }
        let report = try await importProject(
            path, parsed, context, device: ContainerSupport.root(parsed, context), progress: !json)
        if json {
            try context.printJSON(encoding: report)
        } else {
            render(report, context)
        }
        if let workflow {
            let url: URL
            do {
                url = try workflow.job.write(under: workflow.root)
            } catch let error as XcodeProjectError {
                throw error.kind == .input
                    ? CommandError.input(error.description) : CommandError.failed(error.description)
            }
            let line =
                "wrote \(url.path): GitHub Actions builds exthost"
                + (workflow.job.source.repository.isEmpty
                    ? " (set EXTHOST_REPOSITORY in it: this exthost's checkout has no 'origin' remote)"
                    : " from \(workflow.job.source.repository)")
                + " at \(workflow.job.source.ref), then runs: \(workflow.job.commands.joined(separator: "; "))"
            if json { context.printError(line) } else { context.print(line) }
        }
        return .success
    }

    /// The CI job `--ci` writes for the project at `path`: at the root of its git repository, the
    /// import by the path from there, then `swift test` when the root is a Swift package.
    static func ciWorkflow(for path: URL, _ parsed: ParsedArguments, _ context: CommandContext) async throws
        -> (job: CIWorkflow, root: URL)
    {
        let root = CIWorkflow.repositoryRoot(containing: path)
        var commands = ["exthost import \(CIWorkflow.shellWord(path, relativeTo: root))"]
        if let configuration = parsed[.configuration] { commands[0] += " --configuration \(configuration)" }
        if let app = parsed[.app] { commands[0] += " --app \(app)" }
        if FileManager.default.fileExists(atPath: root.appendingPathComponent("Package.swift").path) {
            commands.append("swift test")
        }
        let exthost = parsed[.exthost].map { context.resolve($0) } ?? InitTemplate.builtFromPackage
        var source = CIWorkflow.Source(repository: "", ref: "main")
        if let exthost {
            let searchPath = (context.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
            source = await CIWorkflow.source(of: exthost, searchPath: searchPath.map(String.init))
        }
        return (CIWorkflow(source: source, writtenBy: "exthost import --ci", commands: commands), root)
    }

    /// Imports the project at `path` onto `device`, with the import options `parsed` holds (the
    /// defaults for those it does not declare, as for `exthost share --import`).
    /// - Throws: ``CommandError``: exit 2 for a project that cannot come along, 1 when the build fails.
    static func importProject(
        _ path: URL, _ parsed: ParsedArguments, _ context: CommandContext, device: DeviceRoot, progress: Bool
    ) async throws -> ImportReport {
        guard let exthost = parsed[.exthost].map({ context.resolve($0) }) ?? InitTemplate.builtFromPackage else {
            throw CommandError.usage(
                "cannot tell where exthost's package is (it moved since this exthost was built); pass --exthost PATH")
        }
        guard FileManager.default.fileExists(atPath: exthost.appendingPathComponent("Package.swift").path) else {
            throw CommandError.input("\(exthost.path) is not a Swift package (no Package.swift)")
        }
        var options = ProjectImport.Options(
            path: path, exthostPackage: exthost,
            searchPath: (context.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(
                String.init),
            device: device)
        options.configuration = parsed[.configuration] ?? "Debug"
        options.app = parsed[.app]
        options.output = parsed[.output].map { context.resolve($0) }
        options.buildPath = parsed[.buildPath].map { context.resolve($0) }
        do {
            return try await ProjectImport.run(options) { line in
                if progress { context.printError(line) }
            }
        } catch {
            switch error.kind {
            case .input: throw CommandError.input(error.description)
            case .failed: throw CommandError.failed(error.description)
            }
        }
    }

    /// The installed extension bundle the share command names.
    static func installedExtension(_ report: ImportReport, _ target: ImportReport.Target) -> String {
        URL(fileURLWithPath: report.device).appendingPathComponent("Bundles").appendingPathComponent(
            report.app.bundleName
        )
        .appendingPathComponent("PlugIns").appendingPathComponent(target.bundleName).path
    }

    static func render(_ report: ImportReport, _ context: CommandContext) {
        context.print("project \(report.project) (\(report.configuration))")
        func describe(_ target: ImportReport.Target, _ indent: String) {
            context.print(
                "\(indent)\(target.productType.hasSuffix("app-extension") ? "extension" : "app") \(target.name) "
                    + "\(target.bundleIdentifier): module \(target.module), Swift \(target.languageMode), "
                    + "\(target.swiftFiles.count) Swift file(s), \(target.resources.count) resource(s)")
            for file in target.swiftFiles { context.print("\(indent)  \(file)") }
            for file in target.resources { context.print("\(indent)  resource \(file)") }
            for key in target.settings.keys.sorted() {
                context.print("\(indent)  \(key) = \(target.settings[key] ?? "")")
            }
        }
        describe(report.app, "")
        for target in report.extensions { describe(target, "  ") }
        for skipped in report.skippedTargets { context.print("left out: the target \(skipped)") }
        for note in report.notes { context.print("note: \(note)") }
        if report.adaptations.isEmpty {
            context.print("adapted nothing: every file compiles as it is")
        } else {
            context.print(
                "adapted \(report.adaptations.count) line(s) in generated copies (\(report.output)/adaptations.json):")
            for line in report.adaptations {
                context.print("  \(line.file):\(line.line): \(line.before.trimmingCharacters(in: .whitespaces))")
                context.print("    → \(line.after.trimmingCharacters(in: .whitespaces))")
            }
        }
        if report.unchanged {
            context.print(
                "unchanged since the last import: nothing written, built or installed (\(String(format: "%.2f", report.seconds.total)) s)"
            )
        } else {
            context.print(
                "built \(report.output) in \(String(format: "%.1f", report.seconds.build ?? 0)) s; "
                    + "installed \(report.app.bundleIdentifier) on \(report.device)")
        }
        for target in report.extensions {
            context.print(
                "share into \(target.name): exthost share --root \(report.device) --extension "
                    + "\(installedExtension(report, target)) ITEMS")
        }
    }
}
