import ExtensionHost
import ExtensionRuntime

/// `exthost __extension`: exthost re-executed as the built-in save-to-group share extension, inside
/// the sandbox `exthost share` puts it in, where the smaller `exthost-builtin-extension` program is not
/// installed beside it. Not for direct use (it needs the host on descriptor 3), so `exthost --help`
/// leaves it out.
enum ExtensionCommand {
    /// The hidden command word.
    static let name = InstalledPrograms.Role.shareExtension.rawValue

    /// The hidden command word of the built-in action extension.
    static let actionName = InstalledPrograms.Role.actionExtension.rawValue

    static var all: [CommandSpec] { [command, action] }

    static let action = CommandSpec(
        [actionName], summary: "Run as the built-in action extension (started by 'exthost sheet --perform').",
        discussion: "Needs the host's socket on descriptor 3; 'exthost sheet --perform' starts it."
    ) { _, _ in
        await BuiltInExtension.uppercaseAction.run() == 0 ? .success : .failure
    }

    static let command = CommandSpec(
        [name], summary: "Run as the built-in save-to-group share extension (started by 'exthost share').",
        discussion: "Needs the host's socket on descriptor 3; 'exthost share' starts it."
    ) { _, _ in
        await BuiltInExtension.saveToGroup.run() == 0 ? .success : .failure
    }
}
