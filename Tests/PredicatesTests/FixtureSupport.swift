import Foundation
import Predicates

/// One line of Fixtures/cases.jsonl.
struct FixtureCase: Decodable, Sendable, CustomStringConvertible {
    enum Expected: Decodable, Sendable, Equatable {
        case value(Bool)
        case error

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let value = try? container.decode(Bool.self) {
                self = .value(value)
            } else {
                _ = try container.decode(String.self)
                self = .error
            }
        }
    }

    var id: String
    var predicate: String
    var object: PlistValue
    var variables: [String: PlistValue]?
    var arguments: [PlistValue]?
    var note: String?
    var expected: Expected

    enum CodingKeys: String, CodingKey {
        case id, predicate, object, variables, arguments, note
        case expected = "apple_expected"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        predicate = try container.decode(String.self, forKey: .predicate)
        object = try container.decodeIfPresent(PlistValue.self, forKey: .object) ?? .null
        variables = try container.decodeIfPresent([String: PlistValue].self, forKey: .variables)
        arguments = try container.decodeIfPresent([PlistValue].self, forKey: .arguments)
        note = try container.decodeIfPresent(String.self, forKey: .note)
        expected = try container.decode(Expected.self, forKey: .expected)
    }

    var description: String { id }

    /// Whether the case needs the real type registry (run by the ActivationRules tests instead).
    var usesUTIOperator: Bool {
        let upper = predicate.uppercased()
        return upper.contains("UTI-CONFORMS-TO") || upper.contains("UTI-EQUALS")
    }

    /// What this implementation produces: true/false, or `.error` for a parse or evaluation error.
    func actual() -> Expected {
        do {
            let compiled = try CompiledPredicate(parsing: predicate)
            let environment = EvaluationEnvironment(variables: variables, arguments: arguments)
            return .value(try compiled.evaluate(object, environment: environment))
        } catch {
            return .error
        }
    }
}

enum Fixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Fixtures")

    static let cases: [FixtureCase] = {
        guard let text = try? String(contentsOf: directory.appendingPathComponent("cases.jsonl"), encoding: .utf8)
        else {
            return []
        }
        let decoder = JSONDecoder()
        return text.split(separator: "\n").compactMap { line in
            try? decoder.decode(FixtureCase.self, from: Data(line.utf8))
        }
    }()

    struct Deviation: Decodable {
        var id: String
        var reason: String
    }

    static let deviations: [Deviation] = {
        guard let data = try? Data(contentsOf: directory.appendingPathComponent("deviations.json")) else { return [] }
        return (try? JSONDecoder().decode([Deviation].self, from: data)) ?? []
    }()
}
