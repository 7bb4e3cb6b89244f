import ExtensionFoundation
import Foundation
import HeadlessScreens
import ItemProviders
import Testing

@testable import UIKit

@MainActor
struct Swift5ExtensionTests {
    func context(_ providers: [ItemProvider]) -> NSExtensionContext {
        NSExtensionContext(
            model: ExtensionContext(inputItems: [ExtensionItem(attachments: providers)]), environment: nil)
    }

    @Test func aTemplateStyleControllerLoadsItsAttachmentsAndCompletes() async throws {
        let controller = ShareViewController()
        let url = URL(string: "https://example.com/a")!
        let request = context([ItemProvider(object: url), ItemProvider(object: "some text")])
        let screen = ExtensionScreen(rootViewController: controller, context: request)
        screen.present()
        // The loads answer at once (the providers are in this process); the screen settles before the first step.
        let run = await screen.run(try UIScript.parse("tap Done"))
        #expect(controller.sharedURLs == [url])
        #expect(controller.sharedText == ["some text"])
        #expect(run.steps.map(\.outcome) == [.performed], "\(run.steps.map(\.note))")
        let loaded = run.initialScreen
        #expect(loaded.allNodes.first { $0.identifier == "count" }?.text == "2 items")
        #expect(loaded.allNodes.first { $0.text == "Done" }?.tappable == true)
        #expect(loaded.allNodes.contains { $0.role == .activityIndicator && $0.hidden == true })
        #expect(request.model.isFinished)
        #expect(run.steps[0].screen.closed == true)
        #expect(screen.diagnostics().isEmpty, "\(screen.diagnostics())")
    }

    @Test func aButtonWiredWithAddTargetPostsThroughURLRequestFromImportUIKit() async throws {
        let controller = PostViewController()
        let request = context([ItemProvider(object: "some text")])
        let screen = ExtensionScreen(rootViewController: controller, context: request)
        screen.present()
        let run = await screen.run(try UIScript.parse("tap Post"))
        #expect(run.steps.map(\.outcome) == [.performed], "\(run.steps.map(\.note))")
        #expect(controller.request?.httpMethod == "POST")
        #expect(controller.request?.url?.absoluteString == "https://example.com/api/share")
        #expect(controller.request?.httpBody == Data("{\"from\":\"Post\"}".utf8))
        #expect(request.model.isFinished)
    }

    @Test func anEmptyShareIsAnsweredThroughTheAlert() async throws {
        let controller = ShareViewController()
        let request = NSExtensionContext(model: ExtensionContext(inputItems: []), environment: nil)
        let screen = ExtensionScreen(rootViewController: controller, context: request)
        screen.present()
        let run = await screen.run(try UIScript.parse("alert OK"))
        #expect(run.initialScreen.front?.kind == .alert)
        #expect(run.steps[0].outcome == .performed)
        #expect(request.model.isFinished)
    }

    @Test func aTableInANavigationControllerIsDrivenByItsDataSource() async throws {
        let picker = ListPickerViewController(style: .insetGrouped)
        let navigation = UINavigationController(rootViewController: picker)
        let screen = ExtensionScreen(rootViewController: navigation, context: context([]))
        screen.present()
        let run = await screen.run(try UIScript.parse("select Work\nselect 3"))
        #expect(run.steps.map(\.outcome) == [.performed, .performed], "\(run.steps.map(\.note))")
        #expect(picker.chosen == "Later")
        let bar = try #require(run.initialScreen.allNodes.first { $0.role == .navigationBar })
        #expect(bar.text == "Lists")
        #expect(bar.children.map(\.text) == ["Done"])
        let rows = run.initialScreen.allNodes.filter { $0.role == .cell }.map(\.text)
        #expect(rows == ["Inbox", "Work", "Later"])
    }
}
