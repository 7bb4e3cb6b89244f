import Foundation
import XcodeProjects

/// The package `exthost init` writes: a share extension and its app written as for iOS, their
/// bundle, sample items, a rule, and tests through ExtHostTesting. The files are
/// `Scripts/templates/init`, built into the binary (`InitTemplate+Files.swift`).
enum InitTemplate {
    /// The placeholder in `Package.swift` replaced by the path of exthost's package.
    static let pathPlaceholder = "@EXTHOST_PATH@"

    /// The files, decoded.
    static var files: [(path: String, bytes: Data)] { decode(listedFiles) }

    /// The names `--template` takes: Xcode's three shapes of a share extension.
    static var templateNames: [String] { listedTemplates.keys.sorted() }

    /// The files of the package `--template name` writes, decoded; nil for a name there is none of.
    static func files(template name: String) -> [(path: String, bytes: Data)]? {
        listedTemplates[name].map(decode)
    }

    /// The listed files with their bytes (each written once in ``encodedContents``, however many
    /// templates hold it).
    private static func decode(_ listed: [(path: String, content: Int)]) -> [(path: String, bytes: Data)] {
        listed.map {
            ($0.path, Data(base64Encoded: encodedContents[$0.content], options: .ignoreUnknownCharacters) ?? Data())
        }
    }

    /// The package this exthost was built from (where `Package.swift` sits above this source
    /// file), when it is still there.
    static var builtFromPackage: URL? {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) ? url : nil
    }

    /// Writes the package of `files` (the default template's unless given) into `directory` (made
    /// when missing), with `Package.swift` depending on exthost at `exthostPath`; returns the paths
    /// written.
    /// - Throws: ``CommandError`` (exit 2) when `directory` holds files already, (exit 1) on I/O errors.
    static func write(
        into directory: URL, exthostPath: String, files: [(path: String, bytes: Data)] = InitTemplate.files
    ) throws -> [String] {
        let existing = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        guard existing.filter({ !$0.hasPrefix(".") }).isEmpty else {
            throw CommandError.input(
                "\(directory.path) is not empty; exthost init writes a new package into an empty folder")
        }
        var written: [String] = []
        do {
            for file in files {
                let target = directory.appendingPathComponent(file.path)
                try FileManager.default.createDirectory(
                    at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                var bytes = file.bytes
                if file.path == "Package.swift" {
                    bytes = Data(
                        String(decoding: bytes, as: UTF8.self).replacingOccurrences(
                            of: pathPlaceholder, with: exthostPath
                        )
                        .utf8)
                }
                try bytes.write(to: target, options: .atomic)
                written.append(file.path)
            }
        } catch {
            throw CommandError.failed("cannot write the package into \(directory.path): \(error.localizedDescription)")
        }
        return written
    }
}

/// `exthost init [DIR]`.
enum InitCommand {
    static var all: [CommandSpec] { [command] }

    static let command = CommandSpec(
        ["init"], summary: "Write a ready package: an app, its share extension written as for iOS, items, tests.",
        arguments: "[DIR]", positionalCount: 0...1,
        options: [
            .value(
                .exthost, "PATH",
                "The exthost package the new one depends on (default: the one exthost was built from)."),
            .value(
                .template, "NAME",
                "Write one of Xcode's share-extension shapes instead, in Swift 5 language mode: "
                    + InitTemplate.templateNames.joined(separator: ", ") + "."),
        ],
        discussion: """
            DIR (default: the current folder) must be empty or missing. It gets Package.swift (depending on exthost's
            library products by path), MyApp.app (Info.plist, entitlements, PlugIns/MyShare.appex with its activation
            rule), Sources/MyShare (the extension: import Foundation and UniformTypeIdentifiers only), Sources/MyApp (the
            app reading the group), items/, rule.plist, Tests/MyShareTests (Swift Testing and XCTest through
            ExtHostTesting) and a README with the commands: swift build, exthost install MyApp.app, exthost share
            items/, exthost app run com.example.MyApp, swift test. Every package also gets .github/workflows/exthost.yml,
            a GitHub Actions job that, on a Linux runner, clones exthost's repository (the origin remote of the checkout
            exthost comes from) at its tag or commit, builds it, and runs the README's commands; Package.swift takes
            exthost from $EXTHOST_PATH when it is set, as in that job.

            --template writes the extension as Xcode shapes it, built as the dynamic library libMyShare.so that
            the extension process loads (no main.swift): handler (an NSObject adopting NSExtensionRequestHandling,
            named by NSExtensionPrincipalClass), view-controller (a UIViewController named by
            NSExtensionPrincipalClass that saves into the group's defaults and opens MyApp through the responder
            chain), compose (Xcode's Share Extension template: an SLComposeServiceViewController that
            NSExtensionMainStoryboard's MainInterface.storyboard names). Its README lists the commands that
            package passes.
            """,
        examples: ["exthost init MyShare"]
    ) { parsed, context in
        let directory = context.resolve(parsed.positionals.first ?? ".")
        guard let exthost = parsed[.exthost].map({ context.resolve($0) }) ?? InitTemplate.builtFromPackage else {
            throw CommandError.usage(
                "cannot tell where exthost's package is (it moved since this exthost was built); pass --exthost PATH")
        }
        guard FileManager.default.fileExists(atPath: exthost.appendingPathComponent("Package.swift").path) else {
            throw CommandError.input("\(exthost.path) is not a Swift package (no Package.swift)")
        }
        var files = InitTemplate.files
        if let name = parsed[.template] {
            guard let templateFiles = InitTemplate.files(template: name) else {
                throw CommandError.usage(
                    "unknown template '\(name)'; --template takes \(InitTemplate.templateNames.joined(separator: ", "))"
                )
            }
            files = templateFiles
        }
        let written = try InitTemplate.write(into: directory, exthostPath: exthost.path, files: files)
        // The CI job runs the README's commands after building exthost from where this one comes from.
        let readme = files.first { $0.path == "README.md" }.map { String(decoding: $0.bytes, as: UTF8.self) } ?? ""
        let source = await CIWorkflow.source(
            of: exthost,
            searchPath: (context.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(
                String.init))
        let workflow = CIWorkflow(
            source: source, writtenBy: "exthost init", commands: CIWorkflow.commands(inReadme: readme))
        do {
            _ = try workflow.write(under: directory)
        } catch let error as XcodeProjectError {
            throw error.kind == .input ? CommandError.input(error.description) : CommandError.failed(error.description)
        }
        context.print(
            "wrote \(written.count + 1) files into \(directory.path) (exthost from \(exthost.path)); next:")
        context.print("  cd \(directory.path) && swift build && exthost install MyApp.app && exthost share items/")
        if source.repository.isEmpty {
            context.print(
                "note: \(CIWorkflow.relativePath) builds exthost at \(source.ref) from EXTHOST_REPOSITORY, which is "
                    + "empty: \(exthost.path) has no 'origin' remote; set it to where you clone exthost from")
        } else {
            context.print(
                "\(CIWorkflow.relativePath): GitHub Actions builds exthost from \(source.repository) at \(source.ref) "
                    + "and runs the README's commands")
        }
        return .success
    }
}
