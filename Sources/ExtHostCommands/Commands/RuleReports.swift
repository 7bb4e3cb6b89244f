public import ActivationRules
public import Reporting

/// The `--json` reports of `exthost rule …` (and the diagnostics of `exthost app lint`), one
/// `Codable` type each: the output is their encoding (``JSONValue/init(encoding:)``) and tests
/// decode them.
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
        public var diagnostics: [Diagnostic]
        /// Why, as a tree; null when the rule file could not be read.
        public var explanation: Explanation?
    }

    /// `exthost rule lint --json`.
    public struct Lint: Codable, Sendable, Equatable {
        /// One rule file and its findings.
        public struct File: Codable, Sendable, Equatable {
            public var file: String
            public var diagnostics: [Diagnostic]
        }
        public var files: [File]
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
    }
}
