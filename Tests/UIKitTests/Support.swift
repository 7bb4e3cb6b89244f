import ExtensionFoundation
import Foundation
import HeadlessScreens
import ItemProviders
import Testing

@testable import UIKit

/// Helpers for driving an extension's screen in-process.
@MainActor
enum Screen {
    /// A request sharing `text` as the item's content text and `url` as an attachment.
    static func context(contentText: String? = nil, url: URL? = nil) -> NSExtensionContext {
        let attachments = url.map { [ItemProvider(object: $0)] } ?? []
        let item = ExtensionItem(attachments: attachments, attributedContentText: contentText)
        return NSExtensionContext(model: ExtensionContext(inputItems: [item]), environment: nil)
    }

    /// A presented screen for `controller`, settled (its `viewDidAppear` has run).
    static func present(_ controller: UIViewController, context: NSExtensionContext? = nil) async -> ExtensionScreen {
        let screen = ExtensionScreen(rootViewController: controller, context: context ?? Screen.context())
        screen.present()
        await screen.settle()
        return screen
    }

    /// Runs `script` (one step a line).
    static func run(_ script: String, on screen: ExtensionScreen) async throws -> ScriptRun {
        await screen.run(try UIScript.parse(script))
    }
}

/// The calls of the journal made to `controller` (by class name), as `call` strings.
@MainActor
func calls(_ screen: ExtensionScreen, _ controller: String) -> [String] {
    screen.lifeCycle.filter { $0.controller == controller }.map(\.call)
}
