/// Xcode's build-setting language: `$(NAME)` and `${NAME}` (a bare `$NAME` is left as written, as
/// activation rules use `$extensionItem`), modifiers (`$(NAME:rfc1034identifier)`),
/// `$(inherited)`, evaluated over levels (the target's settings over the project's over Xcode's defaults).
public struct BuildSettingLevels: Sendable {
    /// A value as written, with where.
    public struct Value: Sendable {
        public var text: String
        public var location: SourceLocation?
        public init(_ text: String, at location: SourceLocation? = nil) {
            self.text = text
            self.location = location
        }
    }

    /// From the most specific (the target's) to the least (Xcode's defaults).
    public var levels: [[String: Value]]

    public init(levels: [[String: Value]]) { self.levels = levels }

    /// The fully expanded value of `name`; "" when no level sets it (as Xcode does).
    /// - Throws: ``XcodeProjectError`` (input) naming the setting's place when it refers to itself
    ///   (directly or through others), uses an unknown modifier, or leaves a reference unclosed.
    public func value(_ name: String) throws(XcodeProjectError) -> String {
        var active: [Key] = []
        return try resolve(name, from: 0, active: &active)
    }

    /// Expands `text` as if written at the top level (e.g. a value in Info.plist).
    public func expand(_ text: String, at location: SourceLocation? = nil) throws(XcodeProjectError) -> String {
        var active: [Key] = []
        return try expand(text, level: 0, settingName: nil, location: location, active: &active)
    }

    /// The names set at any level.
    public var names: Set<String> { Set(levels.flatMap(\.keys)) }

    struct Key: Equatable {
        var name: String
        var level: Int
    }

    private func resolve(_ name: String, from level: Int, active: inout [Key]) throws(XcodeProjectError) -> String {
        var index = level
        while index < levels.count {
            if let value = levels[index][name] {
                let key = Key(name: name, level: index)
                if active.contains(key) {
                    let chain = (active.drop { $0 != key }.map(\.name) + [name]).joined(separator: " → ")
                    throw XcodeProjectError.input(
                        "the build setting \(name) expands to itself (\(chain))",
                        at: value.location ?? active.compactMap { levels[$0.level][$0.name]?.location }.first)
                }
                active.append(key)
                defer { active.removeLast() }
                return try expand(
                    value.text, level: index, settingName: name, location: value.location, active: &active)
            }
            index += 1
        }
        return ""
    }

    private func expand(
        _ text: String, level: Int, settingName: String?, location: SourceLocation?, active: inout [Key]
    ) throws(XcodeProjectError) -> String {
        guard text.contains("$") else { return text }
        let scalars = Array(text.unicodeScalars)
        var output = String.UnicodeScalarView()
        var i = 0
        while i < scalars.count {
            let c = scalars[i]
            guard c == "$", i + 1 < scalars.count else {
                output.append(c)
                i += 1
                continue
            }
            let open = scalars[i + 1]
            let reference: String
            if open == "(" || open == "{" {
                let close: Unicode.Scalar = open == "(" ? ")" : "}"
                // Nested references ($(A_$(B))) are expanded inside first.
                var depth = 1
                var j = i + 2
                while j < scalars.count {
                    if scalars[j] == open { depth += 1 }
                    if scalars[j] == close {
                        depth -= 1
                        if depth == 0 { break }
                    }
                    j += 1
                }
                guard j < scalars.count else {
                    throw XcodeProjectError.input(
                        "unclosed '$\(open)' in '\(text)'\(settingName.map { " (the setting \($0))" } ?? "")",
                        at: location)
                }
                var inner = String.UnicodeScalarView()
                inner.append(contentsOf: scalars[(i + 2)..<j])
                reference = try expand(
                    String(inner), level: level, settingName: settingName, location: location, active: &active)
                i = j + 1
            } else {
                output.append(c)
                i += 1
                continue
            }
            var parts = reference.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            let name = parts.removeFirst()
            var value: String
            if name == "inherited" {
                // The same setting one level down.
                guard let settingName else {
                    value = ""
                    output.append(contentsOf: value.unicodeScalars)
                    continue
                }
                value = try resolve(settingName, from: level + 1, active: &active)
            } else {
                value = try resolve(name, from: 0, active: &active)
            }
            for modifier in parts {
                value = try Self.apply(modifier, to: value, in: text, at: location)
            }
            output.append(contentsOf: value.unicodeScalars)
        }
        return String(output)
    }

    /// Xcode's modifiers of a setting reference.
    static func apply(_ modifier: String, to value: String, in text: String, at location: SourceLocation?)
        throws(XcodeProjectError) -> String
    {
        if modifier.hasPrefix("default=") { return value.isEmpty ? String(modifier.dropFirst(8)) : value }
        switch modifier {
        case "rfc1034identifier":
            return String(
                value.unicodeScalars.map { c -> Character in
                    c.isASCII && (c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "-" || c == ".")
                        ? Character(c) : "-"
                })
        case "c99extidentifier", "identifier":
            return c99Identifier(value)
        case "lower": return value.lowercased()
        case "upper": return value.uppercased()
        case "quote": return value.contains(" ") ? "\"\(value)\"" : value
        case "base":
            let file = value.split(separator: "/").last.map(String.init) ?? value
            return file.split(separator: ".", omittingEmptySubsequences: false).count > 1
                ? String(file[..<(file.lastIndex(of: ".") ?? file.endIndex)]) : file
        case "file": return value.split(separator: "/").last.map(String.init) ?? value
        case "dir":
            guard let slash = value.lastIndex(of: "/") else { return "./" }
            return String(value[...slash])
        case "suffix":
            guard let dot = value.lastIndex(of: "."), !value[dot...].contains("/") else { return "" }
            return String(value[dot...])
        case "standardizepath": return value
        default:
            throw XcodeProjectError.input("unknown build-setting modifier ':\(modifier)' in '\(text)'", at: location)
        }
    }

    /// A C99 extended identifier as Xcode makes a module name: every character that cannot be in
    /// one becomes `_`, and a leading digit gets a `_` in front.
    public static func c99Identifier(_ value: String) -> String {
        var result = String(
            value.unicodeScalars.map { c -> Character in
                c.isASCII && (c.properties.isAlphabetic || ("0"..."9").contains(c)) || c == "_" ? Character(c) : "_"
            })
        if let first = result.unicodeScalars.first, ("0"..."9").contains(first) { result = "_" + result }
        return result.isEmpty ? "_" : result
    }
}
