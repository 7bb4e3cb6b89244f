public import Predicates
public import UniformTypes

/// An `NSExtensionActivationRule`, loaded, linted and compiled once for evaluation against many
/// payloads.
///
/// Both forms end up as one ``Predicates/PredicateNode``: the string form as parsed, the dictionary
/// form as ``DictionaryRule/derivedPredicate``. A rule that is missing never activates; a rule that
/// does not parse or that the system refuses cannot be evaluated (``activates(_:)`` returns nil).
public struct ActivationRule: Sendable {
    /// The two forms a rule can take.
    public enum Form: String, Sendable, Hashable {
        /// A predicate string.
        case predicate
        /// A dictionary of `NSExtensionActivation…` keys.
        case dictionary
    }

    /// The file the rule came from, if any.
    public let file: String?
    /// The rule's form; nil when there is no usable rule (missing, wrong type, malformed plist).
    public let form: Form?
    /// The predicate text as written (string form only).
    public let source: String?
    /// The parsed predicate, or the one derived from the dictionary; nil when there is none.
    public let predicate: PredicateNode?
    /// The dictionary form as read (dictionary form only).
    public let dictionary: DictionaryRule?
    /// Everything found while loading and linting, in file order.
    public let diagnostics: [RuleDiagnostic]
    /// The switches the rule was loaded with.
    public let options: ActivationOptions
    /// The type relations `UTI-CONFORMS-TO` and `UTI-EQUALS` use.
    public let relations: TypeRelations

    let compiled: CompiledPredicate?
    /// The specialised compilation, when the predicate uses only what it models.
    let fast: FastRule?
    let environment: EvaluationEnvironment
    /// Where the predicate text sits in the file, for placing diagnostics.
    let location: XMLPlistScan.StringLocation?
    /// Why the system would refuse to run the rule (FUNCTION, CAST, …), if it would.
    let refusal: String?

    /// The predicate in canonical form (the derived one for a dictionary).
    public var canonicalText: String? { predicate.map { PredicatePrinter.print($0) } }

    /// Whether the rule can be evaluated: it has a predicate and the system would run it.
    public var isEvaluable: Bool { compiled != nil && refusal == nil }

    // MARK: - Creating

    /// A string rule.
    ///
    /// - Parameters:
    ///   - source: the predicate text.
    ///   - file: the file it came from, for diagnostics.
    ///   - registry: the types `UTI-CONFORMS-TO` knows and lint checks against.
    ///   - options: release checks and device adjustments.
    public init(
        predicate source: String, file: String? = nil, registry: TypeRegistry = .system,
        options: ActivationOptions = .device
    ) {
        self.init(body: .predicate(source, nil), file: file, prefix: [], registry: registry, options: options)
    }

    /// A dictionary rule.
    ///
    /// - Parameters:
    ///   - dictionary: the rule's keys and values.
    ///   - file: the file it came from, for diagnostics.
    ///   - registry: the types the categories are decided with.
    ///   - options: release checks and device adjustments.
    public init(
        dictionary: [String: PlistValue], file: String? = nil, registry: TypeRegistry = .system,
        options: ActivationOptions = .device
    ) {
        self.init(
            body: .dictionary(dictionary, { _ in nil }), file: file, prefix: [], registry: registry, options: options)
    }

    /// What a loaded plist holds where the rule should be.
    enum Body {
        case predicate(String, XMLPlistScan.StringLocation?)
        case dictionary([String: PlistValue], (String) -> (line: Int, column: Int)?)
        case none
    }

    init(body: Body, file: String?, prefix: [RuleDiagnostic], registry: TypeRegistry, options: ActivationOptions) {
        self.file = file
        self.options = options
        var diagnostics = prefix
        var form: Form?
        var source: String?
        var predicate: PredicateNode?
        var dictionaryRule: DictionaryRule?
        var location: XMLPlistScan.StringLocation?
        var refusal: String?
        switch body {
        case .predicate(let text, let place):
            form = .predicate
            source = text
            location = place.flatMap { $0.text == text ? $0 : nil }
            do {
                let parsed = try PredicateParser.parse(text)
                predicate = parsed
                let findings = RuleLinter(registry: registry, options: options).lint(parsed)
                for finding in findings {
                    diagnostics.append(
                        ActivationRule.diagnostic(
                            finding.severity, finding.code, finding.message, range: finding.range, source: text,
                            file: file, location: location))
                    if [.formatArgument, .function, .cast, .assignment].contains(finding.code), refusal == nil {
                        refusal = finding.message
                    }
                }
            } catch {
                diagnostics.append(
                    ActivationRule.diagnostic(
                        .error, RuleDiagnostic.Code(error.code.rawValue), error.message, range: error.range,
                        source: text,
                        file: file, location: location))
            }
        case .dictionary(let values, let locate):
            form = .dictionary
            let (rule, found) = DictionaryRule.read(values, options: options) { key in
                let place = key.isEmpty ? nil : locate(key)
                return (file, place?.line, place?.column)
            }
            dictionaryRule = rule
            diagnostics += found
            predicate = rule.derivedPredicate
        case .none:
            break
        }
        self.form = form
        self.source = source
        self.predicate = predicate
        self.dictionary = dictionaryRule
        self.diagnostics = diagnostics
        self.location = location
        self.refusal = refusal
        let relations = TypeRelations(
            registry: registry, targets: predicate.map(TypeRelations.targets(of:)) ?? [])
        self.relations = relations
        self.environment = relations.environment
        self.compiled = predicate.map(CompiledPredicate.init)
        self.fast = predicate.flatMap { FastRule($0, relations: relations) }
    }

    // MARK: - Diagnostics

    /// A diagnostic for a range of the predicate text, placed in the file when the text's position
    /// there is known, otherwise at the line and column inside the predicate.
    static func diagnostic(
        _ severity: RuleDiagnostic.Severity, _ code: RuleDiagnostic.Code, _ message: String, range: SourceRange,
        source: String, file: String?, location: XMLPlistScan.StringLocation?
    ) -> RuleDiagnostic {
        let inText = range.location(in: source)
        var line = inText.line
        var column = inText.column
        var text = message
        if let location, range.utf8.lowerBound < location.positions.count {
            (line, column) = location.positions[range.utf8.lowerBound]
        } else if file != nil {
            text += " (line \(line), column \(column) of the rule text)"
        }
        return RuleDiagnostic(
            severity, code, text, file: file, line: location == nil && file != nil ? nil : line,
            column: location == nil && file != nil ? nil : column, excerpt: Excerpt.render(source: source, range: range)
        )
    }
}

/// The source line of a range and a caret line under it.
enum Excerpt {
    static func render(source: String, range: SourceRange) -> String {
        let bytes = Array(source.utf8)
        let start = min(max(0, range.utf8.lowerBound), bytes.count)
        var lineStart = start
        while lineStart > 0, bytes[lineStart - 1] != UInt8(ascii: "\n") { lineStart -= 1 }
        var lineEnd = start
        while lineEnd < bytes.count, bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
        let line = String(decoding: bytes[lineStart..<lineEnd], as: UTF8.self).map { $0 == "\t" ? " " : $0 }
        let prefix = String(decoding: bytes[lineStart..<start], as: UTF8.self).count
        let end = min(max(range.utf8.upperBound, start + 1), lineEnd)
        let width = max(1, end > start ? String(decoding: bytes[start..<end], as: UTF8.self).count : 1)
        return "    " + String(line) + "\n    " + String(repeating: " ", count: prefix) + "^"
            + String(repeating: "~", count: width - 1)
    }
}

extension ActivationRule: CustomStringConvertible {
    /// `ActivationRule(predicate from FILE: TEXT)`, short enough for logs and test failures.
    public var description: String {
        let text = canonicalText.map { $0.count > 100 ? String($0.prefix(99)) + "…" : $0 } ?? "none"
        return "ActivationRule(\(form?.rawValue ?? "no rule")\(file.map { " from \($0)" } ?? ""): \(text))"
    }
}
