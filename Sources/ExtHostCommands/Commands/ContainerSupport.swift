import ActivationRules
import AppGroups
import Foundation
import UniformTypes

/// Shared pieces of the `container` and `app` commands: the device root, group and bundle
/// arguments, and turning ``AppGroupError`` into exit codes.
enum ContainerSupport {
    static let rootOption = OptionSpec.value(
        .root, "DIR",
        "The device root (default: --device, $EXTHOST_ROOT, $EXTHOST_DEVICE, ./Containers, else the default device).")
    static let deviceOption = OptionSpec.value(.device, "NAME", "A device made with 'exthost device create NAME'.")
    static let defineOption = OptionSpec.values(
        .define, "KEY=VALUE", "A build setting for $(KEY) in Info.plist and entitlements (repeatable).")

    static func root(_ parsed: ParsedArguments, _ context: CommandContext) throws -> DeviceRoot {
        try mappedNaming {
            try DeviceRoot.resolve(
                option: parsed[.root].map { context.resolve($0).path }, device: parsed[.device],
                environment: context.environment, currentDirectory: context.currentDirectory)
        }
    }

    static func group(_ text: String) throws -> AppGroupIdentifier {
        do { return try AppGroupIdentifier(validating: text) } catch let error as AppGroupError {
            throw CommandError.usage(error.message)
        }
    }

    static func identity(_ bundle: String, _ parsed: ParsedArguments, _ context: CommandContext) throws
        -> BundleIdentity
    {
        let defines = try mapped { try BuildSettings.parseDefines(parsed[.define]) }
        return try mapped { try BundleIdentity.load(bundle: context.resolve(bundle), defines: defines) }
    }

    /// The app bundle to act as: `--as-bundle`, else the one `.app` under `<root>/Bundles` entitled
    /// to the group.
    static func appIdentity(
        for group: AppGroupIdentifier, root: DeviceRoot, _ parsed: ParsedArguments, _ context: CommandContext
    ) throws -> BundleIdentity {
        if let bundle = parsed[.asBundle] { return try identity(bundle, parsed, context) }
        let defines = try mapped { try BuildSettings.parseDefines(parsed[.define]) }
        let apps = root.bundleURLs().filter { $0.pathExtension == "app" }
            .compactMap { try? BundleIdentity.load(bundle: $0, defines: defines) }
            .filter { $0.isEntitled(to: group) }
        guard apps.count == 1, let app = apps.first else {
            let why = apps.isEmpty ? "no app under \(root.bundlesURL.path) is entitled to \(group)" : "several apps are"
            throw CommandError.usage("\(why); pass --as-bundle APP.app")
        }
        return app
    }

    /// The one App Group the apps installed on `root` are entitled to.
    /// - Throws: ``CommandError`` (exit 2) when there is none or several, naming them.
    static func onlyGroup(on root: DeviceRoot) throws -> String {
        let groups = Set(
            root.bundleURLs().filter { $0.pathExtension == "app" }.compactMap { try? BundleIdentity.load(bundle: $0) }
                .flatMap(\.applicationGroups)
        ).sorted()
        guard groups.count == 1, let only = groups.first else {
            let why =
                groups.isEmpty
                ? "no installed app on \(root.url.path) is entitled to an App Group"
                : "the installed apps are entitled to several App Groups (\(groups.joined(separator: ", ")))"
            throw CommandError.usage("\(why); pass --group GROUP")
        }
        return only
    }

    /// Runs `body`, turning an ``AppGroupError`` into the command error with the right exit code.
    static func mapped<R>(_ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch let error as AppGroupError {
            throw commandError(error)
        }
    }

    /// Runs `body` where naming something that is not there (a device, an installed app) or making
    /// what exists is the user's mistake: those are bad input (exit 2) too.
    static func mappedNaming<R>(_ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch let error as AppGroupError where error.code == .notFound || error.code == .alreadyExists {
            throw CommandError.input(error.description)
        } catch let error as AppGroupError {
            throw commandError(error)
        }
    }

    /// The command error (and so the exit status) for a store error: bad input (2) or failure (1).
    static func commandError(_ error: AppGroupError) -> CommandError {
        switch error.code {
        case .invalidIdentifier, .invalidPath, .invalidBundle, .undefinedVariable:
            return CommandError.input(error.description)
        default:
            return CommandError.failed(error.description)
        }
    }

    /// The registry a tool types files with when it commits them as `bundle`: the system's types
    /// plus what the bundle's Info.plist (and, for an extension, its app's) declares — what
    /// `UTType(filenameExtension:)` answers inside that app. A broken declaration is left out.
    static func registry(forBundle bundle: URL) -> TypeRegistry {
        TypeRegistry.declared(
            in: ActivationRule.bundleDeclarationFiles(for: bundle.appendingPathComponent("Info.plist")))
    }

    /// The type of a file by its name's extension in `registry`; `public.data` when the name has no
    /// extension or only a dynamic type answers.
    static func typeIdentifier(forFileName name: String, in registry: TypeRegistry) -> String {
        registry.declaredType(forFileNamed: name, conformingTo: .data)?.rawValue ?? "public.data"
    }

    static func line(_ entry: JournalEntry) -> String {
        "#\(entry.sequence)  \(entry.path)  \(entry.typeIdentifier)  \(entry.size) B  sha256:\(entry.sha256.prefix(12))  from \(entry.source)"
    }

    static func json(_ value: DefaultsValue) -> JSONValue {
        switch value {
        case .string(let text): .string(text)
        case .integer(let number): .int(number)
        case .real(let number): .double(number)
        case .bool(let flag): .bool(flag)
        case .date, .data: .string(value.description)
        case .array(let values): .array(values.map(json))
        case .dictionary(let values): .object(values.keys.sorted().map { ($0, json(values[$0] ?? .string(""))) })
        }
    }
}
