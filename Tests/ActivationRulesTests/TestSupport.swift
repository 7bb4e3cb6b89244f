import ActivationRules
import Foundation
import Predicates
import Testing
import UniformTypes

/// Paths and builders shared by the ActivationRules tests.
enum Fixture {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Fixtures")
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func rule(_ name: String) -> URL { directory.appendingPathComponent("rules/\(name).plist") }

    static let cardDropApp = packageRoot.appendingPathComponent("Containers/Bundles/CardDrop.app")
    static let demoRule = cardDropApp.appendingPathComponent("PlugIns/Share.appex/Info.plist")

    /// The system types plus CardDrop's `com.example.carddrop.card`.
    static let registry: TypeRegistry = {
        (try? TypeRegistry.system.adding(declarationsFromPlistAt: cardDropApp.appendingPathComponent("Info.plist")).0)
            ?? .system
    }()

    static func load(_ name: String, options: ActivationOptions = .device) throws -> ActivationRule {
        try ActivationRule.load(contentsOf: rule(name), name: "\(name).plist", registry: registry, options: options)
    }
}

/// A payload of one item per argument; each attachment is given by its one type.
func payload(_ items: [String]..., webpage: Bool = false) -> ActivationPayload {
    ActivationPayload(
        items: items.map { ActivationPayload.Item($0.map { ActivationPayload.Attachment([$0]) }) }, isWebpage: webpage)
}

/// A payload of one item whose attachments each register several types.
func item(_ attachments: [String]...) -> ActivationPayload.Item {
    ActivationPayload.Item(attachments.map { ActivationPayload.Attachment($0) })
}

extension ActivationRule {
    /// Evaluates on every path (specialised, general, traced) and checks they agree.
    func checkedActivates(_ payload: ActivationPayload, sourceLocation: Testing.SourceLocation = #_sourceLocation)
        -> Bool?
    {
        let prepared = PreparedPayload(payload, options: options)
        let fast = activates(prepared)
        let general = activatesUsingGeneralEvaluator(prepared)
        let traced = explain(prepared).activated
        #expect(fast == general, "specialised and general evaluators disagree", sourceLocation: sourceLocation)
        #expect(fast == traced, "fast and traced evaluation disagree", sourceLocation: sourceLocation)
        return fast
    }
}
