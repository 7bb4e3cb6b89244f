/// One finding worth telling the user about: a lint warning about a rule, a type declaration that
/// was not applied, a syntax error in a predicate. Each has a severity, a stable code where the
/// finding has one, a sentence, and the place in a file where one applies.
///
/// Modules collect diagnostics and never print them; the command line renders them (``description``
/// on standard error, the ``Codable`` form in `--json` reports).
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How serious a finding is.
    public enum Severity: String, Sendable, Hashable, Comparable, Codable {
        /// Something to know: the rule works as written, the declaration was redundant.
        case note
        /// Probably a mistake, or ignored; the work went on.
        case warning
        /// Broken: the rule never activates or would be rejected, the entry was skipped.
        case error

        private var rank: Int {
            switch self {
            case .note: 0
            case .warning: 1
            case .error: 2
            }
        }

        /// Orders by seriousness: note < warning < error.
        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
    }

    /// A stable, kebab-case name for what was found (`unknown-key`, `typographic-quote`, …); the
    /// module that finds it declares its codes as static members.
    public struct Code: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
        /// The kebab-case name.
        public let rawValue: String
        /// Creates a code from its name.
        public init(_ rawValue: String) { self.rawValue = rawValue }
        /// Creates a code from a literal name.
        public init(stringLiteral value: String) { self.rawValue = value }
        /// The name.
        public var description: String { rawValue }
    }

    /// How serious it is.
    public var severity: Severity
    /// What was found; nil for a finding without a stable code (a type declaration's).
    public var code: Code?
    /// A sentence saying what is wrong and how to fix it.
    public var message: String
    /// The file the finding is about, when it came from one.
    public var file: String?
    /// The 1-based line in ``file`` (or in the predicate text when there is no file position).
    public var line: Int?
    /// The 1-based column on ``line``, in characters.
    public var column: Int?
    /// The source line and a caret under the offending text, when the finding is inside a predicate.
    public var excerpt: String?
    /// What the finding is about, when it is one named thing (a type identifier).
    public var subject: String?

    /// Creates a diagnostic.
    public init(
        _ severity: Severity, _ code: Code?, _ message: String, file: String? = nil, line: Int? = nil,
        column: Int? = nil, excerpt: String? = nil, subject: String? = nil
    ) {
        self.severity = severity
        self.code = code
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        self.excerpt = excerpt
        self.subject = subject
    }

    /// `file:line:column: severity: message [code]`, leaving out the parts that are unknown.
    public var description: String {
        var location = file ?? ""
        if let line {
            location += (location.isEmpty ? "" : ":") + "\(line)"
            if let column { location += ":\(column)" }
        }
        let prefix = location.isEmpty ? "" : location + ": "
        let suffix = code.map { " [\($0)]" } ?? ""
        return "\(prefix)\(severity.rawValue): \(message)\(suffix)"
    }

    /// ``description`` followed by the excerpt, if any.
    public var rendered: String {
        guard let excerpt else { return description }
        return description + "\n" + excerpt
    }
}

// MARK: - Codable

/// The `--json` form every report lists: `severity`, `code`, `message`, then the place (`line`,
/// `column`, `file`) where there is one. The excerpt and subject are for the text rendering only.
extension Diagnostic: Codable {
    private enum CodingKeys: String, CodingKey {
        case severity, code, message, line, column, file
    }

    /// Decodes the `--json` form.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let code: String? = try container.decodeIfPresent(String.self, forKey: .code)
        severity = try container.decode(Severity.self, forKey: .severity)
        self.code = code.map { Code($0) }
        message = try container.decode(String.self, forKey: .message)
        file = try container.decodeIfPresent(String.self, forKey: .file)
        line = try container.decodeIfPresent(Int.self, forKey: .line)
        column = try container.decodeIfPresent(Int.self, forKey: .column)
    }

    /// Encodes the `--json` form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(severity, forKey: .severity)
        try container.encodeIfPresent(code?.rawValue, forKey: .code)
        try container.encode(message, forKey: .message)
        try container.encodeIfPresent(line, forKey: .line)
        try container.encodeIfPresent(column, forKey: .column)
        try container.encodeIfPresent(file, forKey: .file)
    }
}

extension Array where Element == Diagnostic {
    /// Whether any diagnostic is an error.
    public var containsError: Bool { contains { $0.severity == .error } }
}
