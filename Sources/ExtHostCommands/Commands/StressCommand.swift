import AppGroups
import ExtensionHost
import Foundation
import HostSystem

/// `exthost stress`: one share of many generated attachments — sizes, representation kinds, types,
/// load delays, injected failures and cancellations all drawn from a printed seed — while reader
/// processes read the inbox; then every attachment must be committed exactly once with the right
/// bytes, or reported failed for the injected reason.
enum StressCommand {
    static var all: [CommandSpec] { [stress, reader] }

    static let readerName = InstalledPrograms.Role.stressReader.rawValue

    static let stress = CommandSpec(
        ["stress"], summary: "Share N generated attachments while M readers read the inbox; check nothing is lost.",
        options: [
            .value(.attachments, "N", "How many attachments (default 200)."),
            .value(.readers, "M", "How many reader processes (default 2)."),
            .value(.seed, "S", "The seed (default: random; printed, so a run can be replayed)."),
            .value(.failureRate, "R", "The share of attachments whose load fails on purpose (default 0.05)."),
            .value(.cancelRate, "R", "The share whose load is cancelled on purpose (default 0.03)."),
            .value(.maxSize, "BYTES", "The largest attachment (default 2 MiB)."),
            .value(.maxDelay, "MS", "The longest load delay (default 20)."),
            ContainerSupport.rootOption, ContainerSupport.deviceOption,
            .flag(.keep, "Keep the work directory (items, device root) and print where it is."),
            .flag(.json, "Print one JSON summary."),
        ],
        discussion: """
            Builds a folder with a share.json manifest of one extension item with N attachments: each a data,
            file or open-in-place representation of an image, PDF, text or card, of 0 bytes to --max-size,
            with a load delay, and — drawn from the seed — an injected load failure (NSItemProviderErrorDomain
            -1000) or cancellation (NSCocoaErrorDomain 3072). It copies <root>/Bundles into a scratch device
            root; the extension is the first .appex installed there (exthost's generic one when none is) and the
            group the first App Group its entitlements name (neither is fixed in exthost). It starts M reader processes that read every
            committed entry as it appears (checking each file against its SHA-256), shares the folder with
            that extension as 'exthost share' does (its own program, else the built-in save-to-group), and
            checks:
            every attachment without an injected fault committed exactly once with the right bytes; every
            injected one reported failed with its reason and not committed; no other entry; every reader saw
            every committed entry exactly once and never a torn file; 'container verify' clean.
            Exit 0 when all holds, 1 when something was lost, duplicated, torn or misreported, 2 bad usage.
            """,
        examples: ["exthost stress --attachments 20"]
    ) { parsed, context in
        try await run(parsed, context)
    }

    static let reader = CommandSpec(
        [readerName], summary: "A stress reader (started by 'exthost stress').",
        options: [
            .value(.group, "GROUP", "The group."), ContainerSupport.rootOption, ContainerSupport.deviceOption,
            .value(.stopFile, "PATH", "Stop after the pass that first sees this file."),
        ]
    ) { parsed, context in
        guard let groupText = parsed[.group], let stopFile = parsed[.stopFile] else {
            throw CommandError.usage("\(readerName) needs --group and --stop-file")
        }
        let group = try ContainerSupport.group(groupText)
        let root = try ContainerSupport.root(parsed, context)
        let app = try ContainerSupport.appIdentity(for: group, root: root, parsed, context)
        let inbox = try ContainerSupport.mapped { try AppGroupInbox(group: group, app: app, root: root) }
        let report = try ContainerSupport.mapped { try ShareStress.read(inbox, until: stopFile) }
        try context.printJSON(encoding: report)
        return .success
    }

    // MARK: - The run

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) async throws -> ExitCode {
        let seed: UInt64
        if let text = parsed[.seed] {
            guard let value = UInt64(text) else { throw CommandError.usage("--seed must be a whole number ≥ 0") }
            seed = value
        } else {
            seed = UInt64.random(in: 0...UInt64(UInt32.max))
        }
        var stress = ShareStress(seed: seed)
        stress.attachments = try parsed.value(.attachments) ?? stress.attachments
        stress.readers = try parsed.value(.readers) ?? stress.readers
        stress.failureRate = try parsed.value(.failureRate) ?? stress.failureRate
        stress.cancelRate = try parsed.value(.cancelRate) ?? stress.cancelRate
        stress.maxSize = try parsed.value(.maxSize) ?? stress.maxSize
        stress.maxDelay = try parsed.value(.maxDelay) ?? stress.maxDelay
        stress.keep = parsed[.keep]
        let source = try ContainerSupport.root(parsed, context)
        // An explicit --root that does not exist is a mistake worth naming (stress only reads it);
        // the default device, even empty, is fine: the generic app stands in, as for 'exthost share'.
        if let given = parsed[.root] {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: source.url.path, isDirectory: &isDirectory),
                isDirectory.boolValue
            else {
                throw CommandError.input(
                    "--root \(given): no such device root (\(source.url.path) is not a folder); "
                        + "make one with 'exthost device create NAME', or leave --root out for the default device")
            }
        }
        if !parsed[.json] {
            context.print(
                "stress: seed \(seed), \(stress.attachments) attachments, \(stress.readers) readers "
                    + "(replay with --seed \(seed))")
        }
        let summary: ShareStress.Summary
        let programs = try Executables.programs()
        do throws(ShareError) {
            summary = try await stress.run(
                source: source, rootDescription: parsed[.root] ?? source.url.path, programs: programs
            ) { note in
                switch note {
                case .genericAppStandsIn where !parsed[.json]:
                    context.printError(
                        "note: no extension is installed on \(source.url.path); stressing exthost's generic app's "
                            + "share extension \(GenericApp.extensionIdentifier) (App Group \(GenericApp.group))")
                case .genericAppStandsIn: break
                }
            }
        } catch {
            switch error.kind {
            case .badInput, .invalidRule: throw CommandError.input(error.message)
            case .failed: throw CommandError.failed(error.message)
            }
        }
        if parsed[.json] {
            try context.printJSON(encoding: summary)
        } else {
            context.print(
                "stress: \(summary.committed) committed exactly once, \(summary.injected) failed on purpose and "
                    + "reported, \(summary.readers) readers, share took \((summary.seconds * 100).rounded() / 100) s")
            if let work = summary.work { context.print("stress: kept \(work)") }
            for problem in summary.problems { context.printError("stress: \(problem)") }
            context.print(
                summary.problems.isEmpty
                    ? "stress: OK (seed \(seed))" : "stress: \(summary.problems.count) problems (seed \(seed))")
        }
        return summary.problems.isEmpty ? .success : .failure
    }
}
