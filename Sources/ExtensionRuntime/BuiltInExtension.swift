/// exthost's built-in extensions, by the command word the host starts their program with
/// (`exthost-builtin-extension WORD`, or `exthost WORD` where that program is not installed).
///
/// The words are ExtensionHost's `InstalledPrograms.Role` raw values (a test checks they agree):
/// this module sits below ExtensionHost, so the small `exthost-builtin-extension` program links only the
/// extension's runtime and starts in a fraction of the time `exthost` itself takes.
public enum BuiltInExtension: String, Sendable, CaseIterable {
    /// The save-to-group share extension.
    case saveToGroup = "__extension"
    /// The uppercase action extension.
    case uppercaseAction = "__action-extension"

    /// The file name of the program that runs only the built-in extensions.
    public static let programName = "exthost-builtin-extension"

    /// Runs it against the host on descriptor 3; returns the exit status (0: the request completed).
    public func run() async -> Int32 {
        switch self {
        case .saveToGroup:
            await ExtensionRuntime.main(name: "exthost-save-to-group") { context, environment in
                try await SaveToGroupExtension.run(context, environment)
            }
        case .uppercaseAction:
            await ExtensionRuntime.main(name: "exthost-uppercase") { context, environment in
                await UppercaseActionExtension.run(context, environment)
            }
        }
    }
}
