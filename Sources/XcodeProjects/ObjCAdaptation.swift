import Foundation

/// One line `exthost import` changed in a generated copy of a file.
public struct AdaptedLine: Sendable, Codable, Equatable {
    /// The original file.
    public var file: String
    /// 1-based line in the original.
    public var line: Int
    public var before: String
    public var after: String

    public init(file: String, line: Int, before: String, after: String) {
        self.file = file
        self.line = line
        self.before = before
        self.after = after
    }
}

/// The Objective-C-runtime adaptations of one Swift file (docs/objc-runtime.md): attributes
/// removed, `#selector` spelled as `Selector("…")`, and the `SelectorDispatching` members of each
/// class whose methods were `@objc` or `@IBAction`.
public struct ObjCAdaptation: Sendable {
    /// The changed lines, in order; empty when the file compiles as it is.
    public var changes: [AdaptedLine]
    /// The generated members, by class (listed in the report as added lines).
    public var dispatchMembers: [String: [String]]
    /// The text of the generated copy (with `#sourceLocation` lines so diagnostics name the
    /// original's lines); nil when nothing needed a change.
    public var adaptedText: String?

    /// Attributes removed (the Objective-C runtime's; `dynamic` compiles and is kept).
    static let removedAttributes: Set<String> = [
        "objc", "objcMembers", "IBOutlet", "IBAction", "IBInspectable", "IBDesignable", "IBSegueAction",
        "GKInspectable", "nonobjc",
    ]

    /// What cannot come along: refused with its line, never stubbed.
    static let refused: [(token: String, why: String)] = [
        ("objc_setAssociatedObject", "associated objects need the Objective-C runtime"),
        ("objc_getAssociatedObject", "associated objects need the Objective-C runtime"),
        ("method_exchangeImplementations", "method swizzling needs the Objective-C runtime"),
        ("method_setImplementation", "method swizzling needs the Objective-C runtime"),
        ("class_addMethod", "adding methods at run time needs the Objective-C runtime"),
        ("class_replaceMethod", "replacing methods at run time needs the Objective-C runtime"),
        ("NSInvocation", "NSInvocation needs the Objective-C runtime"),
        ("forKeyPath:", "key-value observing of arbitrary keys needs the Objective-C runtime"),
        ("#keyPath(", "#keyPath names an Objective-C key path"),
    ]

    /// Adapts `text`, the contents of `file`.
    /// - Throws: ``XcodeProjectError`` (input) at the line and column of a construct that cannot be
    ///   adapted.
    public static func adapt(_ text: String, file: String) throws(XcodeProjectError) -> ObjCAdaptation {
        var adapter = Adapter(text: text, file: file)
        return try adapter.run()
    }
}

private struct Method {
    var name: String
    var labels: [String]
    var types: [String]
    var selector: String
    var returnsValue: Bool
    var line: Int  // 0-based
}

private struct ClassDeclaration {
    var name: String
    var superclass: String?
    var openLine: Int
    var closeLine: Int
}

private struct Adapter {
    let file: String
    let mask: SwiftSourceMask
    var lines: [String]
    var changes: [AdaptedLine] = []
    var methods: [Method] = []
    var customNames: [String: String] = [:]  // "name(labels)" → @objc(custom) name

    init(text: String, file: String) {
        self.file = file
        mask = SwiftSourceMask(text)
        lines = mask.lines
    }

    func fail(_ message: String, line: Int, column: Int) -> XcodeProjectError {
        .input(message, at: SourceLocation(file: file, line: line + 1, column: column + 1))
    }

    static func isIdentifier(_ c: Unicode.Scalar) -> Bool {
        c == "_" || c.properties.isAlphabetic || ("0"..."9").contains(c)
    }

    mutating func run() throws(XcodeProjectError) -> ObjCAdaptation {
        // Refusals first: nothing is written for a file that cannot come along.
        for (index, code) in mask.code.enumerated() {
            for (token, why) in ObjCAdaptation.refused {
                if let range = code.range(of: token) {
                    let before = code[..<range.lowerBound].unicodeScalars.last
                    if let before, Self.isIdentifier(before) { continue }
                    throw fail(
                        "'\(token.trimmingCharacters(in: CharacterSet(charactersIn: "(:")))' cannot be adapted: \(why)",
                        line: index,
                        column: code.unicodeScalars.distance(
                            from: code.unicodeScalars.startIndex,
                            to: range.lowerBound.samePosition(in: code.unicodeScalars) ?? code.unicodeScalars.startIndex
                        ))
                }
            }
            if let range = code.range(of: "optional func") ?? code.range(of: "optional var") {
                throw fail(
                    "an optional protocol requirement cannot be adapted: it needs an @objc protocol",
                    line: index, column: code.distance(from: code.startIndex, to: range.lowerBound))
            }
        }
        // @objc(name) names first, so #selector finds them wherever it is written.
        for (index, code) in mask.code.enumerated() {
            let scalars = Array(code.unicodeScalars)
            var i = 0
            while let at = Self.find("@objc(", in: scalars, from: i) {
                i = at + 6
                guard let close = Self.matching(scalars, open: at + 5) else { break }
                let custom = String(String.UnicodeScalarView(scalars[(at + 6)..<close])).trimmingCharacters(
                    in: .whitespaces)
                if let method = try signature(after: index, column: close + 1) {
                    customNames[method.name + "(" + method.labels.map { $0 + ":" }.joined() + ")"] = custom
                }
            }
        }
        for index in lines.indices {
            try adaptLine(index)
        }
        let classes = classDeclarations()
        var membersByClass: [String: [String]] = [:]
        var insertions: [Int: [String]] = [:]  // before this 0-based line
        var appended: [String] = []
        var grouped: [(ClassDeclaration, [Method])] = []
        let extensions = classDeclarations("extension")
        for method in methods {
            let enclosing = (classes.map { ($0, false) } + extensions.map { ($0, true) })
                .filter { $0.0.openLine <= method.line && method.line < $0.0.closeLine }
                .max { $0.0.openLine < $1.0.openLine }
            guard let (declaration, isExtension) = enclosing else {
                throw fail(
                    "the @objc method '\(method.name)' is not in a class, so nothing can list it for its selector",
                    line: method.line, column: 0)
            }
            // A method in an extension is listed by its class, when the class is declared in this file.
            guard let owner = isExtension ? classes.first(where: { $0.name == declaration.name }) : declaration else {
                throw fail(
                    "the @objc method '\(method.name)' is in an extension of '\(declaration.name)', which is not "
                        + "declared in this file, so its selector cannot be listed: move the method into the class",
                    line: method.line, column: 0)
            }
            if let at = grouped.firstIndex(where: { $0.0.name == owner.name && $0.0.openLine == owner.openLine }) {
                grouped[at].1.append(method)
            } else {
                grouped.append((owner, [method]))
            }
        }
        for (declaration, classMethods) in grouped {
            let uikit = declaration.superclass.map { $0 != "NSObject" } ?? false
            let members =
                uikit
                ? Self.overridingMembers(classMethods) : Self.conformance(declaration.name, classMethods)
            membersByClass[declaration.name] = members
            if uikit {
                let closing = mask.code[declaration.closeLine].trimmingCharacters(in: .whitespaces)
                guard closing.hasPrefix("}") else {
                    throw fail(
                        "the class '\(declaration.name)' must end with '}' on a line of its own for its selector "
                            + "members to be added", line: declaration.closeLine, column: 0)
                }
                insertions[declaration.closeLine, default: []] += members
            } else {
                appended += [""] + members
            }
        }
        guard !changes.isEmpty || !membersByClass.isEmpty else {
            return ObjCAdaptation(changes: [], dispatchMembers: [:], adaptedText: nil)
        }
        let escaped = file.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        var out = ["#sourceLocation(file: \"\(escaped)\", line: 1)"]
        for (index, line) in lines.enumerated() {
            if let members = insertions[index] {
                out.append("#sourceLocation()")
                out += members
                out.append("#sourceLocation(file: \"\(escaped)\", line: \(index + 1))")
            }
            out.append(line)
        }
        if !appended.isEmpty {
            out.append("#sourceLocation()")
            out += appended
        }
        return ObjCAdaptation(
            changes: changes, dispatchMembers: membersByClass, adaptedText: out.joined(separator: "\n"))
    }

    static func find(_ needle: String, in scalars: [Unicode.Scalar], from start: Int) -> Int? {
        let n = Array(needle.unicodeScalars)
        guard n.count <= scalars.count else { return nil }
        var i = start
        while i + n.count <= scalars.count {
            if scalars[i..<(i + n.count)].elementsEqual(n) { return i }
            i += 1
        }
        return nil
    }

    /// The index of the `)` matching the `(` at `open`, on the same line.
    static func matching(_ scalars: [Unicode.Scalar], open: Int) -> Int? {
        var depth = 0
        var i = open
        while i < scalars.count {
            if scalars[i] == "(" { depth += 1 }
            if scalars[i] == ")" {
                depth -= 1
                if depth == 0 { return i }
            }
            i += 1
        }
        return nil
    }

    mutating func adaptLine(_ index: Int) throws(XcodeProjectError) {
        let code = Array(mask.code[index].unicodeScalars)
        var original = Array(lines[index].unicodeScalars)
        var edits: [(range: Range<Int>, replacement: String)] = []
        var sawMethodAttribute = false
        var i = 0
        while i < code.count {
            if code[i] == "@" {
                var j = i + 1
                while j < code.count, Self.isIdentifier(code[j]) { j += 1 }
                let name = String(String.UnicodeScalarView(code[(i + 1)..<j]))
                if name == "UIApplicationMain" || name == "NSApplicationMain" {
                    edits.append((i..<j, "@main"))
                    i = j
                    continue
                }
                if ObjCAdaptation.removedAttributes.contains(name), j == code.count || !Self.isIdentifier(code[j]) {
                    var end = j
                    if name == "objc", end < code.count, code[end] == "(", let close = Self.matching(code, open: end) {
                        end = close + 1
                    }
                    while end < code.count, code[end] == " " || code[end] == "\t" { end += 1 }
                    edits.append((i..<end, ""))
                    if name == "objc" || name == "IBAction" { sawMethodAttribute = true }
                    i = end
                    continue
                }
                i = j
                continue
            }
            if code[i] == "#", Self.find("#selector(", in: code, from: i) == i {
                guard let close = Self.matching(code, open: i + 9) else {
                    throw fail("#selector( is not closed on its line", line: index, column: i)
                }
                let inside = String(String.UnicodeScalarView(original[(i + 10)..<close]))
                let name = try selectorName(inside, line: index, column: i)
                edits.append((i..<(close + 1), "Selector(\"\(name)\")"))
                i = close + 1
                continue
            }
            i += 1
        }
        if sawMethodAttribute, let method = try signature(after: index, column: 0) {
            methods.append(method)
        }
        guard !edits.isEmpty else { return }
        let before = lines[index]
        for edit in edits.reversed() {
            original.replaceSubrange(edit.range, with: Array(edit.replacement.unicodeScalars))
        }
        var after = String(String.UnicodeScalarView(original))
        if after.trimmingCharacters(in: .whitespaces).isEmpty { after = "" }
        lines[index] = after
        changes.append(AdaptedLine(file: file, line: index + 1, before: before, after: after))
    }

    /// The method declared from `line`/`column` on (within the next few lines): nil when the
    /// declaration there is not a `func` (a property, a class).
    func signature(after line: Int, column: Int) throws(XcodeProjectError) -> Method? {
        var text = String(String.UnicodeScalarView(Array(mask.code[line].unicodeScalars).dropFirst(column)))
        var last = line
        while last + 1 < mask.code.count, last < line + 8, !text.contains("{"),
            !text.contains(")") || !text.contains("func")
        {
            last += 1
            text += " " + mask.code[last]
        }
        let scalars = Array(text.unicodeScalars)
        guard let funcAt = Self.findWord("func", in: scalars) else { return nil }
        // Only modifiers may come between the attribute and `func`.
        let prefix = String(String.UnicodeScalarView(scalars[..<funcAt])).split(whereSeparator: {
            $0 == " " || $0 == "\t"
        })
        let modifiers: Set<Substring> = [
            "private", "fileprivate", "internal", "public", "open", "final", "override", "dynamic", "class", "static",
            "@MainActor", "nonisolated", "@discardableResult", "@objc", "@IBAction", "mutating", "required",
        ]
        guard prefix.allSatisfy({ modifiers.contains($0) || $0.hasPrefix("@objc(") || $0.hasPrefix("private(") })
        else { return nil }
        var i = funcAt + 4
        while i < scalars.count, scalars[i] == " " { i += 1 }
        let nameStart = i
        while i < scalars.count, Self.isIdentifier(scalars[i]) { i += 1 }
        let name = String(String.UnicodeScalarView(scalars[nameStart..<i]))
        guard !name.isEmpty else { return nil }
        if i < scalars.count, scalars[i] == "<" {
            throw fail("the generic method '\(name)' cannot be called through a selector", line: line, column: 0)
        }
        while i < scalars.count, scalars[i] == " " { i += 1 }
        guard i < scalars.count, scalars[i] == "(", let close = Self.matching(scalars, open: i) else {
            throw fail("cannot read the parameters of '\(name)'", line: line, column: 0)
        }
        let parameters = Self.splitTopLevel(String(String.UnicodeScalarView(scalars[(i + 1)..<close])))
        var labels: [String] = []
        var types: [String] = []
        for parameter in parameters where !parameter.trimmingCharacters(in: .whitespaces).isEmpty {
            guard let colon = parameter.firstIndex(of: ":") else {
                throw fail("cannot read the parameter '\(parameter)' of '\(name)'", line: line, column: 0)
            }
            let names = parameter[..<colon].split(separator: " ")
            labels.append(names.first.map(String.init) ?? "_")
            var type = String(parameter[parameter.index(after: colon)...])
            if let equals = Self.splitTopLevel(type, separator: "=").first { type = equals }
            type = type.replacingOccurrences(of: "@escaping", with: "").trimmingCharacters(in: .whitespaces)
            if type.hasPrefix("inout ") {
                throw fail(
                    "the inout parameter of '\(name)' cannot be passed through a selector", line: line, column: 0)
            }
            types.append(type)
        }
        let rest = String(String.UnicodeScalarView(scalars[(close + 1)...]))
        let returnsValue =
            rest.trimmingCharacters(in: .whitespaces).hasPrefix("->")
            && !rest.contains("-> Void") && !rest.contains("-> ()")
        let key = name + "(" + labels.map { $0 + ":" }.joined() + ")"
        let selector = customNames[key] ?? Self.selector(name: name, labels: labels)
        return Method(
            name: name, labels: labels, types: types, selector: selector, returnsValue: returnsValue, line: line)
    }

    static func findWord(_ word: String, in scalars: [Unicode.Scalar]) -> Int? {
        var from = 0
        while let at = find(word, in: scalars, from: from) {
            let end = at + word.unicodeScalars.count
            if (at == 0 || !isIdentifier(scalars[at - 1])) && (end >= scalars.count || !isIdentifier(scalars[end])) {
                return at
            }
            from = at + 1
        }
        return nil
    }

    static func splitTopLevel(_ text: String, separator: Character = ",") -> [String] {
        var parts: [String] = []
        var depth = 0
        var current = ""
        for c in text {
            if "([<".contains(c) { depth += 1 }
            if ")]>".contains(c) { depth -= 1 }
            if c == separator, depth == 0 {
                parts.append(current)
                current = ""
            } else {
                current.append(c)
            }
        }
        parts.append(current)
        return parts
    }

    /// The Objective-C name `#selector` gives a Swift method (docs/objc-runtime.md).
    static func selector(name: String, labels: [String]) -> String {
        guard let first = labels.first else { return name }
        var result = name
        if name == "init" {
            result = first == "_" ? "initWith" : "initWith" + first.prefix(1).uppercased() + first.dropFirst()
            if first == "_" { result = "init" }
        } else if first != "_" {
            // `f(with:)` is "fWith:", `f(withText:)` "fWithText:", `f(text:)` "fWithText:".
            let capitalized = first.prefix(1).uppercased() + first.dropFirst()
            let startsWithWith =
                first == "with" || (first.hasPrefix("with") && first.dropFirst(4).first?.isUppercase == true)
            result += startsWithWith ? capitalized : "With" + capitalized
        }
        result += ":"
        for label in labels.dropFirst() { result += (label == "_" ? "" : label) + ":" }
        return result
    }

    /// The selector `#selector(inside)` names.
    func selectorName(_ inside: String, line: Int, column: Int) throws(XcodeProjectError) -> String {
        var text = inside.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("getter:") {
            return String(text.dropFirst(7)).trimmingCharacters(in: .whitespaces).split(separator: ".").last.map(
                String.init) ?? text
        }
        if text.hasPrefix("setter:") {
            let property =
                String(text.dropFirst(7)).trimmingCharacters(in: .whitespaces).split(separator: ".").last
                .map(String.init) ?? text
            return "set" + property.prefix(1).uppercased() + property.dropFirst() + ":"
        }
        // Apple's methods renamed for Swift.
        let renamed = [
            "UIApplication.open(_:options:completionHandler:)": "openURL:options:completionHandler:",
            "UIApplication.shared.open(_:options:completionHandler:)": "openURL:options:completionHandler:",
        ]
        if let known = renamed[text.replacingOccurrences(of: " ", with: "")] { return known }
        if text.hasPrefix("(") || text.contains(" as ") {
            throw fail(
                "#selector(\(inside)) cannot be adapted: name the method without a cast", line: line, column: column)
        }
        var labels: [String] = []
        if let open = text.firstIndex(of: "("), text.hasSuffix(")") {
            let inner = text[text.index(after: open)..<text.index(before: text.endIndex)]
            labels = inner.split(separator: ":").map { String($0).trimmingCharacters(in: .whitespaces) }
            text = String(text[..<open])
        }
        let name = text.split(separator: ".").last.map(String.init) ?? text
        guard !name.isEmpty, name.unicodeScalars.allSatisfy(Self.isIdentifier) else {
            throw fail("#selector(\(inside)) cannot be adapted: not a method name", line: line, column: column)
        }
        let key = name + "(" + labels.map { $0 + ":" }.joined() + ")"
        return customNames[key] ?? Self.selector(name: name, labels: labels)
    }

    /// Every class declared in the file, with the lines of its braces.
    func classDeclarations(_ keyword: String = "class") -> [ClassDeclaration] {
        var result: [ClassDeclaration] = []
        // The code as one stream of (line, scalar).
        var stream: [(line: Int, c: Unicode.Scalar)] = []
        for (index, code) in mask.code.enumerated() {
            for c in code.unicodeScalars { stream.append((index, c)) }
            stream.append((index, "\n"))
        }
        let scalars = stream.map(\.c)
        let length = keyword.unicodeScalars.count
        var from = 0
        while let at = Self.find(keyword, in: scalars, from: from) {
            from = at + length
            guard at == 0 || !Self.isIdentifier(scalars[at - 1]) && scalars[at - 1] != ".",
                at + length < scalars.count, scalars[at + length] == " "
            else { continue }
            var i = at + length
            while i < scalars.count, scalars[i] == " " { i += 1 }
            let nameStart = i
            while i < scalars.count, Self.isIdentifier(scalars[i]) { i += 1 }
            let name = String(String.UnicodeScalarView(scalars[nameStart..<i]))
            if name.isEmpty
                || ["func", "var", "let", "subscript", "override", "final", "private", "public"].contains(name)
            {
                continue
            }
            guard let brace = scalars[i...].firstIndex(where: { $0 == "{" || $0 == ";" || $0 == "}" }),
                scalars[brace] == "{"
            else { continue }
            let header = String(String.UnicodeScalarView(scalars[i..<brace]))
            var superclass: String?
            if let colon = header.firstIndex(of: ":") {
                let clause = header[header.index(after: colon)...]
                let first = clause.split(separator: ",").first.map { String($0) } ?? ""
                let trimmed = first.split(separator: "<").first.map {
                    $0.trimmingCharacters(in: .whitespacesAndNewlines)
                }
                superclass = trimmed.flatMap {
                    $0.hasPrefix("UI") || $0.hasPrefix("SL") || $0 == "NSObject" || $0.first?.isUppercase == true
                        ? $0 : nil
                }
                // A first name that is a protocol (…Delegate, …Protocol, …able) is not a superclass.
                if let s = superclass,
                    s.hasSuffix("Delegate") || s.hasSuffix("DataSource") || s.hasSuffix("Protocol")
                        || s.hasSuffix("Handling") || s.hasSuffix("able")
                {
                    superclass = nil
                }
            }
            var depth = 0
            var j = brace
            while j < scalars.count {
                if scalars[j] == "{" { depth += 1 }
                if scalars[j] == "}" {
                    depth -= 1
                    if depth == 0 { break }
                }
                j += 1
            }
            guard j < scalars.count else { continue }
            result.append(
                ClassDeclaration(
                    name: name, superclass: superclass, openLine: stream[brace].line, closeLine: stream[j].line))
        }
        return result
    }

    /// A parameter's argument expression, with a guard when the parameter is not optional.
    static func argument(_ index: Int, type: String) -> (guardLine: String?, expression: String) {
        let value = "(arguments.count > \(index) ? arguments[\(index)] : nil)"
        let t = type.trimmingCharacters(in: .whitespaces)
        if t == "Any" { return (nil, "\(value) as Any") }
        if t == "Any?" || t == "Any!" { return (nil, value) }
        if t.hasSuffix("?") || t.hasSuffix("!") { return (nil, "\(value) as? \(t.dropLast())") }
        return ("guard let a\(index) = \(value) as? \(t) else { return .returned(nil) }", "a\(index)")
    }

    static func call(_ method: Method) -> (guards: [String], call: String) {
        var guards: [String] = []
        var arguments: [String] = []
        for (index, (label, type)) in zip(method.labels, method.types).enumerated() {
            let (guardLine, expression) = argument(index, type: type)
            if let guardLine { guards.append(guardLine) }
            arguments.append(label == "_" ? expression : "\(label): \(expression)")
        }
        return (guards, "\(method.name)(\(arguments.joined(separator: ", ")))")
    }

    /// `canDispatch`/`dispatch` overriding a UIKit superclass's, calling on the main actor.
    static func overridingMembers(_ methods: [Method]) -> [String] {
        let selectors = methods.map { "\"\($0.selector)\"" }.joined(separator: ", ")
        var lines = [
            "    // Added by exthost import: the selectors the Objective-C runtime would find (docs/objc-runtime.md).",
            "    nonisolated override func canDispatch(_ selector: Selector) -> Bool {",
            "        switch selector {",
            "        case \(selectors): return true",
            "        default: return super.canDispatch(selector)",
            "        }",
            "    }",
            "",
            "    nonisolated override func dispatch(_ selector: Selector, arguments: [Any?]) -> SelectorResult? {",
            "        switch selector {",
        ]
        for method in methods {
            let (guards, call) = Self.call(method)
            lines.append("        case \"\(method.selector)\":")
            lines += guards.map { "            " + $0 }
            if method.returnsValue {
                lines.append("            nonisolated(unsafe) var result: Any? = nil")
                lines.append("            MainActor.assumeIsolated { result = \(call) }")
                lines.append("            return .returned(result)")
            } else {
                lines.append("            MainActor.assumeIsolated { \(call) }")
                lines.append("            return .returned(nil)")
            }
        }
        lines += [
            "        default: return super.dispatch(selector, arguments: arguments)",
            "        }",
            "    }",
        ]
        return lines
    }

    /// A `SelectorDispatching` conformance for a class that is not a UIKit subclass.
    static func conformance(_ name: String, _ methods: [Method]) -> [String] {
        let selectors = methods.map { "\"\($0.selector)\"" }.joined(separator: ", ")
        var lines = [
            "// Added by exthost import: the selectors the Objective-C runtime would find (docs/objc-runtime.md).",
            "extension \(name): SelectorDispatching {",
            "    func canDispatch(_ selector: Selector) -> Bool { [\(selectors)].contains(selector) }",
            "",
            "    func dispatch(_ selector: Selector, arguments: [Any?]) -> SelectorResult? {",
            "        switch selector {",
        ]
        for method in methods {
            let (guards, call) = Self.call(method)
            lines.append("        case \"\(method.selector)\":")
            lines += guards.map { "            " + $0 }
            lines.append(
                method.returnsValue
                    ? "            return .returned(\(call))" : "            \(call)\n            return .returned(nil)"
            )
        }
        lines += ["        default: return nil", "        }", "    }", "}"]
        return lines
    }
}
