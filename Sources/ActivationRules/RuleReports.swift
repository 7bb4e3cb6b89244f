public import Reporting

/// The `--json` reports of `exthost rule …` (and the diagnostics of `exthost app lint`), one
/// `Codable` type each: the command line prints their encoding and tests decode them.
public enum RuleReports {
    /// `exthost rule check --json` and `exthost rule explain --json`.
    public struct Evaluation: Codable, Sendable, Equatable {
        /// The rule file as given.
        public var file: String
        /// `predicate` or `dictionary`; null when the file holds no rule.
        public var form: String?
        /// The predicate (the one derived from a dictionary rule); null when there is none.
        public var predicate: String?
        /// Whether the rule activates; null when it cannot be evaluated.
        public var activated: Bool?
        /// The findings about the rule file.
        public var diagnostics: [Diagnostic]
        /// Why, as a tree; null when the rule file could not be read.
        public var explanation: Explanation?

        /// The report of the rule read from `path` (nil when it could not be read), its result
        /// (nil when it could not be evaluated) and the findings.
        public init(path: String, rule: ActivationRule?, result: ActivationResult?, diagnostics: [Diagnostic]) {
            file = path
            form = rule?.form?.rawValue
            predicate = rule?.canonicalText
            activated = result?.activated
            self.diagnostics = diagnostics
            explanation = result?.explanation
        }
    }

    /// `exthost rule lint --json`.
    public struct Lint: Codable, Sendable, Equatable {
        /// One rule file and its findings.
        public struct File: Codable, Sendable, Equatable {
            /// The rule file as given.
            public var file: String
            /// Its findings.
            public var diagnostics: [Diagnostic]
        }
        /// The files in the order given.
        public var files: [File]

        /// The report of these files and their findings, in this order.
        public init(_ files: [(file: String, diagnostics: [Diagnostic])]) {
            self.files = files.map { File(file: $0.file, diagnostics: $0.diagnostics) }
        }
    }

    /// `exthost rule matrix --json`.
    public struct Matrix: Codable, Sendable, Equatable {
        /// The rule files as given (the rows).
        public var rules: [String]
        /// The payloads (the columns): preset names, then ITEMS paths, then payload JSON paths.
        public var payloads: [String]
        /// Per rule, per payload: whether it activates; null when the rule cannot be evaluated.
        public var results: [[Bool?]]
        /// Per rule file: its findings.
        public var diagnostics: OrderedObject<[Diagnostic]>

        /// The matrix of `rules` (rows) by `payloads` (columns), with each rule file's findings.
        public init(
            rules: [String], payloads: [String], results: [[Bool?]], diagnostics: [(String, [Diagnostic])]
        ) {
            self.rules = rules
            self.payloads = payloads
            self.results = results
            self.diagnostics = OrderedObject(diagnostics)
        }
    }
}
