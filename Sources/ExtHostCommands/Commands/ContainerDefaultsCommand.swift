import AppGroups
import Foundation

/// `exthost container defaults GROUP get|set|remove|dump`.
enum ContainerDefaultsCommand {
    static var all: [CommandSpec] { [defaults] }

    static let defaults = CommandSpec(
        ["container", "defaults"], summary: "Read and change a group's shared defaults suite (Library/Preferences).",
        arguments: "GROUP get KEY | set KEY VALUE | remove KEY | dump", positionalCount: 2...4,
        options: [
            ContainerSupport.rootOption, ContainerSupport.deviceOption,
            .value(
                .type, "TYPE", "For set: string, int, real, bool, date (ISO 8601) or data (hex); default: guessed."),
            .flag(.xml, "For dump: print the suite as an XML property list."),
            .flag(.json, "Machine output."),
        ],
        discussion: """
            The suite is Library/Preferences/GROUP.plist in the group container, a binary plist as on a device.
            set and remove are a read-modify-write under an exclusive cross-process lock with an atomic replace,
            so concurrent writers of different keys lose nothing. get exits 1 when the key is absent.
            """
    ) { parsed, context in
        let words = parsed.positionals
        let group = try ContainerSupport.group(words[0])
        let root = try ContainerSupport.root(parsed, context)
        let store = try ContainerSupport.mapped { try AppGroupStore.inspect(group, root: root) }
        let suite = try ContainerSupport.mapped { try store.defaults() }
        switch (words[1], words.count) {
        case ("get", 3):
            guard let value = try ContainerSupport.mapped({ try suite.value(forKey: words[2]) }) else {
                context.printError("error: no key '\(words[2])' in \(suite.fileURL.path)")
                return .failure
            }
            if parsed[.json] {
                context.printJSON(ContainerSupport.json(value))
            } else {
                context.print(value.description)
            }
        case ("set", 4):
            let value = try ContainerSupport.mapped { try DefaultsValue.parse(words[3], as: parsed[.type]) }
            try ContainerSupport.mapped { try suite.set(value, forKey: words[2]) }
        case ("remove", 3):
            let existed = try ContainerSupport.mapped { try suite.removeValue(forKey: words[2]) }
            if !existed { context.printError("note: no key '\(words[2])' to remove") }
        case ("dump", 2):
            if parsed[.xml] {
                context.write(try ContainerSupport.mapped { try suite.xml() }, toError: false)
            } else {
                let values = try ContainerSupport.mapped { try suite.dictionary() }
                if parsed[.json] {
                    context.printJSON(ContainerSupport.json(.dictionary(values)))
                } else {
                    for key in values.keys.sorted() { context.print("\(key) = \(values[key]?.description ?? "")") }
                }
            }
        default:
            throw CommandError.usage("expected 'get KEY', 'set KEY VALUE', 'remove KEY' or 'dump' after the group")
        }
        return .success
    }
}
