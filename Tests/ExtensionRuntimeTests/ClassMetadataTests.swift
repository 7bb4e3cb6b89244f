import Foundation
import Testing

@testable import ExtensionRuntime

/// Making a principal object from its class and setting outlets by name, through Swift's metadata.
struct ClassMetadataTests {
    // Principal classes as Xcode's templates write them: not final, no `required init`.
    class ActionRequestHandler: NSObject {
        var count = 3
        var name = "handler"
    }

    class Derived: ActionRequestHandler {
        var extra: [Int] = [1, 2]
        override init() {
            super.init()
            name = "derived"
        }
    }

    final class Bare: NSObject {}

    class NotAnObject {}

    final class Label: NSObject, Sendable {}

    static let kept = Label()

    class ViewController: NSObject {
        weak var title: Label?  // `Label!` in an outlet is the same Optional field
        var body: Label?
        var labels: [Label]?
        unowned var pinned: Label = ClassMetadataTests.kept
        var text = "x"
    }

    @Test func principalsAreMadeThroughTheirInheritedOrOverriddenInit() throws {
        let handler = try #require(ClassMetadata(ActionRequestHandler.self).makeThroughNSObjectInit())
        let made = try #require(handler as? ActionRequestHandler)
        #expect(made.count == 3 && made.name == "handler")
        let derived = try #require(ClassMetadata(Derived.self).makeThroughNSObjectInit() as? Derived)
        #expect(derived.name == "derived" && derived.extra == [1, 2] && derived.count == 3)
        #expect(ClassMetadata(Bare.self).makeThroughNSObjectInit() is Bare)
        #expect(ClassMetadata(NotAnObject.self).makeThroughNSObjectInit() == nil)
    }

    @Test func outletsAreSetByNameWhateverTheirOwnership() throws {
        let controller = ViewController()
        let metadata = ClassMetadata(ViewController.self)
        let title = Label()
        let body = Label()
        #expect(metadata.set("title", of: controller, to: title))
        #expect(controller.title === title)
        #expect(metadata.set("body", of: controller, to: body))
        #expect(controller.body === body)
        #expect(metadata.set("labels", of: controller, to: [title, body]))
        #expect(controller.labels?.count == 2)
        // weak stays weak: the controller does not keep the label alive.
        weak var gone: Label?
        do {
            let transient = Label()
            gone = transient
            #expect(metadata.set("title", of: controller, to: transient))
            #expect(controller.title === transient)
        }
        #expect(gone == nil && controller.title == nil)
        // Refused: no such property, a value of another type, an unowned reference.
        #expect(!metadata.set("missing", of: controller, to: body))
        #expect(!metadata.set("body", of: controller, to: "text"))
        #expect(!metadata.set("pinned", of: controller, to: body))
        #expect(metadata.fields.map(\.name) == ["title", "body", "labels", "pinned", "text"])
        #expect(metadata.fields.map(\.ownership) == [.weak, .strong, .strong, .unowned, .strong])
    }
}
