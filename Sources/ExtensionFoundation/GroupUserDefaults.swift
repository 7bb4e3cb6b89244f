import AppGroups
import ExtensionIPC
public import Foundation
import HostSystem

/// How `UserDefaults(suiteName: "group.…")` reaches the group's shared suite: a factory
/// initializer that Foundation's `UserDefaults` gains by conforming.
///
/// Called with a `String` (a literal or a `String` value, which is how the code that shares a
/// group suite calls it), the initializer here is chosen over Foundation's `init?(suiteName:
/// String?)`: it returns a ``GroupUserDefaults`` over the suite the process is entitled to. Called
/// with a `String?`, Foundation's own answers, and exthost joins it to the group's shared suite at
/// the request's start, before each hand-over to the app and at its end (see the README's table of
/// Linux differences).
public protocol SuiteNamedDefaults {}

extension UserDefaults: SuiteNamedDefaults {}

extension SuiteNamedDefaults {
    /// The suite `suiteName` as the process sees it: for an App Group the process is entitled to,
    /// the group's shared suite (`Library/Preferences/<group>.plist` in the group container, binary,
    /// as on a device); for any other name, a suite of that name in the process's own container
    /// (iOS still returns a usable object there, shared with nobody). Outside a process exthost
    /// started (no ``ProcessIdentity``), Foundation's suite of that name.
    public init?(suiteName: String) {
        guard let made = GroupUserDefaults.make(suiteName: suiteName) as? Self else { return nil }
        self = made
    }
}

/// A `UserDefaults` stored in a container suite shared across processes: every `set` is a
/// read-modify-write under a cross-process lock and an atomic replace of the binary plist, so two
/// processes setting different keys lose nothing and a reader never sees half a file. Reads see
/// what other processes wrote (as `cfprefsd` makes them visible on a device).
public final class GroupUserDefaults: UserDefaults {
    private let suite: SharedDefaults
    private var registered: [String: Any] = [:]

    static func make(suiteName: String) -> UserDefaults? {
        guard let environment = ProcessIdentity.environment else {
            return UserDefaults(suiteName: Optional(suiteName))
        }
        let directory: String
        if let group = environment.groupContainers[suiteName] {
            directory = group
        } else {
            directory = environment.containerPath
            if suiteName.hasPrefix("group.") {
                ExtensionLog.error(
                    "UserDefaults(suiteName: \"\(suiteName)\"): '\(suiteName)' is not an App Group this process is "
                        + "entitled to (it is entitled to \(environment.groupContainers.keys.sorted().joined(separator: ", ")))"
                        + "; on iOS the suite is private to the process and the app never sees it")
            }
        }
        guard let container = try? ContainerDirectory(url: URL(fileURLWithPath: directory, isDirectory: true)),
            let suite = try? SharedDefaults(suiteName: suiteName, in: container)
        else { return UserDefaults(suiteName: Optional(suiteName)) }
        return GroupUserDefaults(suite: suite)
    }

    private init?(suite: SharedDefaults) {
        self.suite = suite
        super.init(suiteName: Optional("exthost.unused." + suite.suiteName))
    }

    /// The value for `defaultName`: the suite's, else a registered default.
    public override func object(forKey defaultName: String) -> Any? {
        if let value = try? suite.value(forKey: defaultName) { return value.propertyList }
        return registered[defaultName]
    }

    /// Sets (or, with nil, removes) `defaultName` in the shared suite at once. A `URL` is stored
    /// as its path, as Foundation does; a value that is not a property list is ignored.
    public override func set(_ value: Any?, forKey defaultName: String) {
        guard let value else {
            removeObject(forKey: defaultName)
            return
        }
        let stored: Any = (value as? URL).map(\.path) ?? value
        guard let converted = GroupUserDefaults.defaultsValue(stored) else { return }
        try? suite.set(converted, forKey: defaultName)
    }

    /// Removes `defaultName` from the shared suite.
    public override func removeObject(forKey defaultName: String) {
        _ = try? suite.removeValue(forKey: defaultName)
    }

    /// Adds defaults that apply while the suite has no value of its own (this process only).
    public override func register(defaults registrationDictionary: [String: Any]) {
        registered.merge(registrationDictionary) { $1 }
    }

    /// Every key: the registered defaults overlaid with the suite's values.
    public override func dictionaryRepresentation() -> [String: Any] {
        var all = registered
        for (key, value) in (try? suite.dictionary()) ?? [:] { all[key] = value.propertyList }
        return all
    }

    /// Every change is already written: true.
    @discardableResult
    public override func synchronize() -> Bool { true }

    /// A value the suite stores (`NSNumber`s keep their kind: a `Bool` stays a Bool).
    static func defaultsValue(_ value: Any) -> DefaultsValue? {
        if let number = value as? NSNumber, !(value is String) {
            switch String(cString: number.objCType) {
            case "c", "B": return .bool(number.boolValue)
            case "f", "d": return .real(number.doubleValue)
            default: return .integer(number.intValue)
            }
        }
        if let array = value as? [Any] {
            var items: [DefaultsValue] = []
            for item in array {
                guard let converted = defaultsValue(item) else { return nil }
                items.append(converted)
            }
            return .array(items)
        }
        if let dictionary = value as? [String: Any] {
            var items: [String: DefaultsValue] = [:]
            for (key, item) in dictionary {
                guard let converted = defaultsValue(item) else { return nil }
                items[key] = converted
            }
            return .dictionary(items)
        }
        return DefaultsValue(propertyList: value)
    }
}
