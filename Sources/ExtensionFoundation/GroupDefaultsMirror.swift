import AppGroups
import ExtensionIPC
import ExtensionRuntime
import Foundation
import HostSystem

/// `UserDefaults(suiteName: groupID)` where `groupID` is a `String?` — the group identifier read
/// from the Info.plist, as cross-platform templates do — calls Foundation's own initializer, which
/// no module can replace (``SuiteNamedDefaults`` catches only a `String` argument). Foundation's
/// suite of that name lives in the process's memory (written to `$XDG_CONFIG_HOME` only on
/// `synchronize()`), where the app never sees it.
///
/// So exthost joins Foundation's suite of each App Group the extension is entitled to to the
/// group's shared suite: when the request starts, the group's values are put into Foundation's
/// suite of that name (reads see what the app wrote); before each hand-over to the app and when
/// the request ends, what the extension changed there is written into the group's shared suite,
/// and the host's report says so. A suite named after a group the extension is not entitled to
/// (an Info.plist string `group.…` that is not in its entitlements) is reported when written: on
/// iOS its values stay private to the extension.
enum GroupDefaultsMirror {
    private struct Mirrored {
        var suite: SharedDefaults
        var snapshot: [String: DefaultsValue]
    }

    private struct State {
        var groups: [String: Mirrored] = [:]
        var unentitled: [String] = []
        var reported: Set<String> = []
    }

    private static let state = Locked(State())

    /// Loads each entitled group's values into Foundation's suite of the group's name.
    static func start(_ environment: ExtensionRuntime.Environment) {
        var groups: [String: Mirrored] = [:]
        for (group, url) in environment.groupContainers {
            guard let container = try? ContainerDirectory(url: url),
                let suite = try? SharedDefaults(suiteName: group, in: container),
                let foundation = UserDefaults(suiteName: Optional(group))
            else { continue }
            let values = (try? suite.dictionary()) ?? [:]
            foundation.setPersistentDomain(values.mapValues(\.propertyList), forName: group)
            groups[group] = Mirrored(suite: suite, snapshot: values)
        }
        let unentitled = Self.groupNamesInInfoPlist(environment).filter { groups[$0] == nil }
        state.withLock {
            $0.groups = groups
            $0.unentitled = unentitled
        }
    }

    /// Writes what the extension changed in Foundation's suite of each entitled group into the
    /// group's shared suite (and reports it), and reports writes to suites of groups it is not
    /// entitled to; `reason` says when (`"the request ended"`).
    static func synchronize(reason: String) {
        let (groups, unentitled) = state.withLock { ($0.groups, $0.unentitled) }
        for (group, mirrored) in groups.sorted(by: { $0.key < $1.key }) {
            let current = Self.foundationValues(group)
            var changed: [String] = []
            do {
                try mirrored.suite.update { values in
                    for (key, value) in current where mirrored.snapshot[key] != value {
                        values[key] = value
                        changed.append(key)
                    }
                    for key in mirrored.snapshot.keys where current[key] == nil {
                        values.removeValue(forKey: key)
                        changed.append(key)
                    }
                }
            } catch {
                ExtensionLog.error("could not write App Group '\(group)''s shared defaults: \(error)")
                continue
            }
            state.withLock { $0.groups[group]?.snapshot = current }
            guard !changed.isEmpty else { continue }
            ExtensionLog.info(
                "UserDefaults(suiteName:) with a String? argument is Foundation's own suite '\(group)': exthost "
                    + "copied the \(changed.count) key(s) the extension changed there (\(changed.sorted().joined(separator: ", "))) "
                    + "into the App Group's shared suite when \(reason); on a device they reach the group at once")
        }
        for name in unentitled where !Self.foundationValues(name).isEmpty {
            let isNew = state.withLock { $0.reported.insert(name).inserted }
            guard isNew else { continue }
            ExtensionLog.error(
                "UserDefaults(suiteName: \"\(name)\") was written, but '\(name)' is not an App Group this extension "
                    + "is entitled to (com.apple.security.application-groups): on iOS those values stay in the "
                    + "extension's own preferences and the app never sees them")
        }
    }

    /// Foundation's suite `name`, as values a shared suite stores.
    private static func foundationValues(_ name: String) -> [String: DefaultsValue] {
        let domain = UserDefaults(suiteName: Optional(name))?.persistentDomain(forName: name) ?? [:]
        return domain.compactMapValues { GroupUserDefaults.defaultsValue($0) }
    }

    /// Strings of the extension's Info.plist that name an App Group (`group.…`).
    private static func groupNamesInInfoPlist(_ environment: ExtensionRuntime.Environment) -> [String] {
        guard let bundle = environment.process.bundlePath,
            let info = InstalledBundle.info(URL(fileURLWithPath: bundle, isDirectory: true))
        else { return [] }
        var names: Set<String> = []
        func collect(_ value: Any) {
            if let text = value as? String, text.hasPrefix("group."), !text.contains(" ") { names.insert(text) }
            if let array = value as? [Any] { array.forEach(collect) }
            if let dictionary = value as? [String: Any] { dictionary.values.forEach(collect) }
        }
        collect(info)
        return names.sorted()
    }
}
