public import Predicates

/// A payload made ready for evaluation: the device adjustments applied and each attempt's value
/// built once, so one payload can be evaluated by many rules (and many times) cheaply.
public struct PreparedPayload: Sendable {
    /// One payload the rule is tried on.
    public struct Attempt: Sendable {
        /// What the attempt is ("the whole payload (1 item, 2 attachments)", "retry on only …").
        public var label: String
        /// The adjusted payload.
        public var payload: ActivationPayload
        /// The object the predicate sees.
        public var value: PlistValue
        /// The same, flattened for the specialised evaluator.
        let flat: FastPayload
    }

    /// The attempts, in the order they are tried; the first success wins.
    public let attempts: [Attempt]

    /// Applies the device adjustments of `options` and builds each attempt's value.
    public init(_ payload: ActivationPayload, options: ActivationOptions = .device) {
        attempts = payload.attempts(options).map {
            Attempt(label: $0.label, payload: $0.payload, value: $0.payload.plistValue, flat: FastPayload($0.payload))
        }
    }
}

/// The outcome of evaluating a rule against one payload, with the reasons.
public struct ActivationResult: Sendable {
    /// true: the extension appears; false: it does not; nil: the rule could not be evaluated (it
    /// does not parse, the system refuses it, or evaluation failed), which on a device also means
    /// the extension silently does not appear.
    public var activated: Bool?
    /// Evaluation errors (the rule's own diagnostics are on ``ActivationRule/diagnostics``).
    public var diagnostics: [RuleDiagnostic]
    /// Why: for a predicate, its evaluation trace; for a dictionary, the keys' decisions.
    public var explanation: Explanation
}

extension ActivationRule {
    /// Evaluates the rule without recording anything: the fast path.
    ///
    /// Rules built from the shapes real rules use run on a specialised evaluator over a flattened
    /// payload; anything else runs on the general predicate evaluator.
    ///
    /// - Returns: whether the extension appears, or nil when the rule cannot be evaluated.
    public func activates(_ payload: PreparedPayload) -> Bool? {
        guard refusal == nil else { return nil }
        guard compiled != nil else { return form == nil ? false : nil }
        if let fast {
            for index in payload.attempts.indices where fast.evaluate(payload.attempts[index].flat) { return true }
            return false
        }
        return activatesUsingGeneralEvaluator(payload)
    }

    /// Whether the specialised evaluator handles this rule (see ``activates(_:)-(PreparedPayload)``).
    public var usesSpecialisedEvaluator: Bool { fast != nil && refusal == nil }

    /// ``activates(_:)-(PreparedPayload)`` on the general predicate evaluator only, for comparison
    /// in tests and benchmarks.
    package func activatesUsingGeneralEvaluator(_ payload: PreparedPayload) -> Bool? {
        guard refusal == nil else { return nil }
        guard let compiled else { return form == nil ? false : nil }
        for attempt in payload.attempts {
            do {
                if try compiled.evaluate(attempt.value, environment: environment) { return true }
            } catch {
                return nil
            }
        }
        return false
    }

    /// Evaluates the rule against a payload (applying this rule's ``options``).
    public func activates(_ payload: ActivationPayload) -> Bool? {
        activates(PreparedPayload(payload, options: options))
    }

    /// Evaluates the rule and records why it did or did not activate.
    public func explain(_ payload: ActivationPayload) -> ActivationResult {
        explain(PreparedPayload(payload, options: options))
    }

    /// Evaluates the rule and records why it did or did not activate.
    public func explain(_ payload: PreparedPayload) -> ActivationResult {
        let title = form.map { "NSExtensionActivationRule (\($0.rawValue))" } ?? "NSExtensionActivationRule"
        if let refusal {
            return ActivationResult(
                activated: nil, diagnostics: [],
                explanation: Explanation(
                    title, value: "refused",
                    children: [Explanation("the system refuses to run this rule: \(refusal)", isDecisive: true)],
                    isDecisive: true))
        }
        guard let compiled else {
            let broken = form != nil
            let reason = diagnostics.first { $0.severity == .error }?.message ?? "there is no rule"
            return ActivationResult(
                activated: broken ? nil : false, diagnostics: [],
                explanation: Explanation(
                    title, value: broken ? "cannot be evaluated" : "does not activate",
                    children: [Explanation(reason, isDecisive: true)], isDecisive: true))
        }
        var attempts: [Explanation] = []
        var activated: Bool? = false
        var errors: [RuleDiagnostic] = []
        for attempt in payload.attempts {
            let trace = compiled.trace(attempt.value, environment: environment)
            var node: Explanation
            switch trace.result {
            case .success(let value):
                if let dictionary {
                    node = dictionary.explain(attempt.payload, relations: relations).1
                } else {
                    node = Explanation(trace: trace.root)
                }
                node = Explanation(attempt.label, value: String(value), children: [node], isDecisive: value)
                if value { activated = true }
            case .failure(let error):
                node = Explanation(
                    attempt.label, value: "error", children: [Explanation(trace: trace.root)], isDecisive: true)
                activated = nil
                errors.append(evaluationDiagnostic(error))
            }
            attempts.append(node)
            if activated != false { break }
        }
        if activated == false, !attempts.isEmpty { attempts[0].isDecisive = true }
        let value: String
        switch activated {
        case true?: value = "activates"
        case false?: value = "does not activate"
        case nil: value = "evaluation failed: the extension does not appear"
        }
        return ActivationResult(
            activated: activated, diagnostics: errors,
            explanation: Explanation(title, value: value, children: attempts, isDecisive: true))
    }

    private func evaluationDiagnostic(_ error: PredicateEvaluationError) -> RuleDiagnostic {
        let message = "\(error.message); on a device the extension silently does not appear"
        guard let source else {
            return RuleDiagnostic(.error, .evaluationError, message, file: file)
        }
        return ActivationRule.diagnostic(
            .error, .evaluationError, message, range: error.range, source: source, file: file, location: location)
    }
}
