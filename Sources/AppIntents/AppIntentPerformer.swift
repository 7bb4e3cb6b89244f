import Foundation

/// What performing an intent did, for the app runtime's report.
package struct AppIntentOutcome: Sendable {
    /// Whether `perform()` returned.
    package var succeeded: Bool
    /// What happened, in words.
    package var detail: String
}

/// Finds an app's intent types as iOS does from its metadata, makes one, sets its parameters and
/// performs it (the app runtime calls this; an app never does).
package enum AppIntentPerformer {
    /// The type named `mangledTypeName` (the metadata's), else `<module>.<typeName>`.
    package static func type(typeName: String, mangledTypeName: String?, module: String) -> (any AppIntent.Type)? {
        // A top-level struct, class or enum of the app's module, mangled as the metadata would name it.
        let mangled = ["V", "C", "O"].map { "\(module.utf8.count)\(module)\(typeName.utf8.count)\(typeName)\($0)" }
        let names = [mangledTypeName].compactMap { $0 } + mangled + ["\(module).\(typeName)"]
        for name in names {
            if let type = _typeByName(name) as? any AppIntent.Type { return type }
        }
        return nil
    }

    /// Makes the intent `typeName`, sets `parameters` (by name, without the wrapper's `_`) and
    /// awaits `perform()`.
    package static func perform(
        typeName: String, mangledTypeName: String?, module: String, parameters: [(name: String, value: (any Sendable)?)]
    ) async -> AppIntentOutcome {
        guard let type = type(typeName: typeName, mangledTypeName: mangledTypeName, module: module) else {
            return AppIntentOutcome(
                succeeded: false,
                detail:
                    "the app has no AppIntent type \(typeName) (looked up as \(mangledTypeName.map { "\($0), " } ?? "")"
                    + "\(module).\(typeName)): Metadata.appintents names a type the program does not contain")
        }
        let intent = type.init()
        var wrappers: [String: any SettableIntentParameter] = [:]
        for child in Mirror(reflecting: intent).children {
            guard let label = child.label, label.hasPrefix("_"),
                let wrapper = child.value as? any SettableIntentParameter
            else { continue }
            wrappers[String(label.dropFirst())] = wrapper
        }
        for (name, value) in parameters {
            guard let value else { continue }
            guard let wrapper = wrappers[name] else {
                return AppIntentOutcome(
                    succeeded: false,
                    detail:
                        "\(typeName) has no @Parameter named \(name) (it has \(wrappers.keys.sorted().joined(separator: ", ")))"
                )
            }
            guard wrapper.set(value) else {
                return AppIntentOutcome(
                    succeeded: false,
                    detail: "the value given for \(typeName).\(name) (\(Swift.type(of: value))) does not fit its type")
            }
        }
        let missing = wrappers.filter { $0.value.isMissing }.keys.sorted()
        guard missing.isEmpty else {
            return AppIntentOutcome(
                succeeded: false,
                detail:
                    "\(typeName) was not performed: no value for its required parameter(s) \(missing.joined(separator: ", ")) "
                    + "(iOS would ask for them; give them in the shortcut)")
        }
        do {
            let result = try await intent.perform()
            return AppIntentOutcome(succeeded: true, detail: "\(typeName).perform() returned \(result.summary)")
        } catch {
            let localized = (error as? any LocalizedError)?.errorDescription
            return AppIntentOutcome(
                succeeded: false,
                detail:
                    "\(typeName).perform() threw \(String(reflecting: Swift.type(of: error))): \(localized ?? "\(error)")"
            )
        }
    }
}
