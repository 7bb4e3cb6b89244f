public import Foundation
import HostSystem

/// The GitHub Actions job `exthost init` writes into a new package (and `exthost import --ci` beside
/// a project): on a Linux runner, in swift.org's Debian 12 image of the Swift toolchain exthost is
/// built with, it clones exthost's repository at a tag or commit, installs its Debian packages
/// (`Scripts/bootstrap`), builds it, puts `exthost` on `PATH`, and then runs the package's own
/// commands, one step each.
public struct CIWorkflow: Sendable, Equatable {
    /// Where the job gets exthost.
    public struct Source: Sendable, Equatable {
        /// The repository `git` fetches exthost from (empty when unknown: the job then stops at once
        /// and says to set it).
        public var repository: String
        /// The tag, branch or commit checked out.
        public var ref: String

        public init(repository: String, ref: String) {
            self.repository = repository
            self.ref = ref
        }
    }

    /// The folder the job clones exthost into. The packages `exthost init` writes take exthost from
    /// `$EXTHOST_PATH` when it is set (`Context.environment` in their `Package.swift`).
    public static let exthostPath = "/opt/exthost"
    /// The container image: swift.org's Swift 6.3 on Debian 12, the system exthost is built and tested on.
    public static let image = "swift:6.3-bookworm"
    /// Where the job is written, relative to the repository's root.
    public static let relativePath = ".github/workflows/exthost.yml"

    public var source: Source
    /// What wrote it, for the first comment (`exthost init`, `exthost import --ci`).
    public var writtenBy: String
    /// The package's commands, run in order in the repository's root after exthost is built.
    public var commands: [String]

    public init(source: Source, writtenBy: String, commands: [String]) {
        self.source = source
        self.writtenBy = writtenBy
        self.commands = commands
    }

    /// The commands of the step that gets and builds exthost (the first `run:`).
    public static let setupCommands = [
        #"test -n "$EXTHOST_REPOSITORY" || { echo "::error::set EXTHOST_REPOSITORY in \#(relativePath)"; exit 1; }"#,
        #"git init --quiet "$EXTHOST_PATH""#,
        #"git -C "$EXTHOST_PATH" fetch --quiet --depth 1 "$EXTHOST_REPOSITORY" "$EXTHOST_REF""#,
        #"git -C "$EXTHOST_PATH" checkout --quiet FETCH_HEAD"#,
        #""$EXTHOST_PATH/Scripts/bootstrap""#,
        #"swift build --package-path "$EXTHOST_PATH""#,
        #"echo "$EXTHOST_PATH/.build/debug" >> "$GITHUB_PATH""#,
    ]

    /// The workflow file.
    public var text: String {
        func quoted(_ value: String) -> String {
            "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                + "\""
        }
        var lines = [
            "# Written by `\(writtenBy)`: on a Linux runner, build exthost from its repository at EXTHOST_REF",
            "# (Scripts/bootstrap installs its Debian packages), then run this package's commands with it.",
            "name: exthost",
            "on:",
            "  push:",
            "  pull_request:",
            "jobs:",
            "  exthost:",
            "    runs-on: ubuntu-24.04",
            "    # Swift 6.3 on Debian 12, the toolchain and system exthost is built and tested with.",
            "    container: \(Self.image)",
            "    env:",
            "      # The exthost repository and the tag (or commit) the job builds.",
            "      EXTHOST_REPOSITORY: \(quoted(source.repository))",
            "      EXTHOST_REF: \(quoted(source.ref))",
            "      # Where it is cloned; Package.swift takes exthost from $EXTHOST_PATH when it is set.",
            "      EXTHOST_PATH: \(Self.exthostPath)",
            "    steps:",
            "      - uses: actions/checkout@v4",
            "      - name: Build exthost and put it on PATH",
            "        run: |",
        ]
        lines += Self.setupCommands.map { "          " + $0 }
        for command in commands {
            lines.append("      - run: \(quoted(command))")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Where this exthost's checkout comes from: its `origin` remote, and the tag at its `HEAD`, else
    /// the commit. The repository is empty when the checkout has no `origin` (or is not a git
    /// checkout); the ref is then `main`.
    /// - Parameter searchPath: the folders searched for `git` (`PATH`).
    public static func source(of package: URL, searchPath: [String]) async -> Source {
        guard
            let git = searchPath.map({ $0 + "/git" }).first(where: { FileManager.default.isExecutableFile(atPath: $0) })
        else { return Source(repository: "", ref: "main") }
        func run(_ arguments: [String]) async -> String? {
            guard let pipe = try? FileDescriptor.pipe(), let null = try? FileDescriptor.open("/dev/null", [.writeOnly])
            else { return nil }
            defer { try? null.close() }
            var spawn = Spawn(executable: git, arguments: ["-C", package.path] + arguments)
            spawn.descriptors = [1: pipe.writeEnd, 2: null]
            let capture = OutputCapture(reading: pipe.readEnd, keepingAtMost: 1 << 16)
            let status: TerminationStatus?
            do {
                (_, status) = try await withChildProcess(spawn) { child in
                    try? pipe.writeEnd.close()
                    _ = await child.exitStatus()
                }
            } catch {
                try? pipe.writeEnd.close()  // the child never started
                status = nil
            }
            let text = ((try? await capture.output().text) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            guard status == .exited(0), !text.isEmpty else { return nil }
            return text
        }
        let repository = await run(["remote", "get-url", "origin"]) ?? ""
        if let tag = await run(["describe", "--tags", "--exact-match", "HEAD"]) {
            return Source(repository: repository, ref: tag)
        }
        return Source(repository: repository, ref: await run(["rev-parse", "HEAD"]) ?? "main")
    }

    /// The commands of the first `sh` block of a README (Markdown), without comments: what a package's
    /// README tells a user to run, and its CI job runs.
    public static func commands(inReadme markdown: String) -> [String] {
        guard let start = markdown.range(of: "```sh\n"),
            let end = markdown.range(of: "\n```", range: start.upperBound..<markdown.endIndex)
        else { return [] }
        return markdown[start.upperBound..<end.lowerBound].split(separator: "\n").map { line in
            String(line.prefix { $0 != "#" }).trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty }
    }

    /// The root of the git repository holding `path` (the nearest folder above it with a `.git`),
    /// where GitHub looks for workflows; without one, the folder `path` names (or holds it).
    public static func repositoryRoot(containing path: URL) -> URL {
        let start = path.standardizedFileURL
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: start.path, isDirectory: &isDirectory)
        let folder =
            exists && isDirectory.boolValue && start.pathExtension != "xcodeproj"
                && start.pathExtension != "xcworkspace" ? start : start.deletingLastPathComponent()
        var candidate = folder
        while true {
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent(".git").path) {
                return candidate
            }
            let parent = candidate.deletingLastPathComponent()
            if parent.path == candidate.path { return folder }
            candidate = parent
        }
    }

    /// `path` relative to `root` as a shell word (quoted when it must be); `.` for the root itself.
    public static func shellWord(_ path: URL, relativeTo root: URL) -> String {
        let full = path.standardizedFileURL.path
        let base = root.standardizedFileURL.path
        var relative = full
        if full == base {
            relative = "."
        } else if full.hasPrefix(base.hasSuffix("/") ? base : base + "/") {
            relative = String(full.dropFirst(base.hasSuffix("/") ? base.count : base.count + 1))
        }
        let plain = relative.unicodeScalars.allSatisfy {
            CharacterSet.alphanumerics.contains($0) || "._/-+@".unicodeScalars.contains($0)
        }
        return plain ? relative : "'" + relative.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Checks that the workflow can be written under `root`: nothing is there, or the same text.
    /// - Throws: ``XcodeProjectError`` (input) when a different workflow is there (the user's).
    public func checkWritable(under root: URL) throws(XcodeProjectError) {
        let url = root.appendingPathComponent(Self.relativePath)
        if let existing = try? Data(contentsOf: url), existing != Data(text.utf8) {
            throw .input("\(url.path) exists already; exthost leaves it as it is (remove it to have it written again)")
        }
    }

    /// Writes the workflow at ``relativePath`` under `root`.
    /// - Throws: ``XcodeProjectError`` (input, exit 2) when a different workflow is there already —
    ///   it is the user's, never overwritten; (failed) when it cannot be written.
    public func write(under root: URL) throws(XcodeProjectError) -> URL {
        let url = root.appendingPathComponent(Self.relativePath)
        let data = Data(text.utf8)
        try checkWritable(under: root)
        if (try? Data(contentsOf: url)) == data { return url }
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url, options: .atomic)
        } catch {
            throw XcodeProjectError(.failed, "cannot write \(url.path): \(error.localizedDescription)")
        }
        return url
    }
}
