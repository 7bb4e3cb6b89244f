// An App Intent as iOS apps write theirs, in Swift 5 language mode: a struct with @Parameter
// properties (one an IntentFile), openAppWhenRun, and perform() returning .result(value:).
import AppIntents
import Foundation
import UniformTypeIdentifiers
import XCTest

struct OpenNoteIntent: AppIntent {
    static var title: LocalizedStringResource = "Open Note"
    static var description = IntentDescription("Opens a note in the app.")
    static var openAppWhenRun: Bool = true

    @Parameter(title: "Title")
    var title: String

    @Parameter(title: "Attachment", supportedContentTypes: [.image])
    var attachment: IntentFile?

    func perform() async throws -> some IntentResult {
        let size = attachment?.data.count ?? 0
        return .result(value: "\(title) (\(size) bytes)")
    }
}

final class OpenNoteIntentTests: XCTestCase {
    func testPerformedWithItsParameters() async {
        let outcome = await AppIntentPerformer.perform(
            typeName: "OpenNoteIntent", mangledTypeName: nil, module: "UIKitSwift5Tests",
            parameters: [
                ("title", "Groceries"),
                ("attachment", IntentFile(data: Data([1, 2, 3]), filename: "a.png", type: .png)),
            ])
        XCTAssertTrue(outcome.succeeded, outcome.detail)
        XCTAssertEqual(outcome.detail, "OpenNoteIntent.perform() returned .result(value: Groceries (3 bytes))")
        XCTAssertTrue(OpenNoteIntent.openAppWhenRun)
    }
}
