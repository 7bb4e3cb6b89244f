import ActivationRules
import Foundation
import Predicates
import Testing
import UniformTypes

/// The cases of Fixtures/cases.jsonl (copied from the shared test data) that use the UTI
/// operators, run with the real type registry against `apple_expected`.
struct PredicateCaseTests {
    struct Case: Decodable, Sendable, CustomStringConvertible {
        var id: String
        var predicate: String
        var object: PlistValue
        var expected: PlistValue

        enum CodingKeys: String, CodingKey {
            case id, predicate, object
            case expected = "apple_expected"
        }

        var description: String { id }

        /// true, false, or nil for "error".
        var expectedValue: Bool? {
            if case .bool(let value) = expected { return value }
            return nil
        }

        /// The outcome with the system registry: true/false, or nil for a parse or evaluation error.
        func actual() -> Bool? {
            let relations = TypeRelations(registry: .system, targets: [])
            do {
                return try CompiledPredicate(parsing: predicate).evaluate(object, environment: relations.environment)
            } catch {
                return nil
            }
        }
    }

    static let cases: [Case] = {
        guard
            let text = try? String(contentsOf: Fixture.directory.appendingPathComponent("cases.jsonl"), encoding: .utf8)
        else { return [] }
        return text.split(separator: "\n").compactMap { try? JSONDecoder().decode(Case.self, from: Data($0.utf8)) }
            .filter {
                $0.predicate.uppercased().contains("UTI-CONFORMS-TO")
                    || $0.predicate.uppercased().contains("UTI-EQUALS")
            }
    }()

    /// `id<TAB>reason` lines of Fixtures/uti-deviations.tsv: cases where exthost knowingly differs.
    static let deviations: [String: String] = {
        guard
            let text = try? String(
                contentsOf: Fixture.directory.appendingPathComponent("uti-deviations.tsv"), encoding: .utf8)
        else { return [:] }
        var result: [String: String] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: "\t", maxSplits: 1)
            if parts.count == 2 { result[String(parts[0])] = String(parts[1]) }
        }
        return result
    }()

    @Test func theFixtureHoldsEveryUTICase() {
        #expect(Self.cases.count == 14)
    }

    @Test(arguments: cases) func matchesApple(_ testCase: Case) {
        let actual = testCase.actual()
        if Self.deviations[testCase.id] != nil {
            #expect(actual != testCase.expectedValue, "\(testCase.id) is listed as a deviation but now matches Apple")
        } else {
            #expect(actual == testCase.expectedValue, "\(testCase.id): \(testCase.predicate)")
        }
    }

    @Test func deviationsNameOnlyExistingCases() {
        let ids = Set(Self.cases.map(\.id))
        #expect(Set(Self.deviations.keys).isSubset(of: ids))
    }

    @Test(arguments: cases.filter { $0.object != .null && $0.predicate.contains("extensionItems") })
    func rulesAgreeOnEveryEvaluator(_ testCase: Case) throws {
        let rule = ActivationRule(predicate: testCase.predicate)
        let payload = try ActivationPayload(testCase.object, source: testCase.id)
        #expect(rule.checkedActivates(payload) == testCase.expectedValue)
    }
}
