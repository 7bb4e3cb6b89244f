import ExtHostTestSupport
import Foundation
import HostSystem
import Testing
import UIKit

/// What `UIActivityViewController` says about activity items it cannot share, and about a sheet
/// with no device, before anything reaches the share sheet.
@Suite(.timeLimit(.minutes(1)))
@MainActor
struct UIActivityViewControllerErrorTests {
    /// An item source whose placeholder is itself an item source: iOS cannot share it.
    final class NestedSource: UIActivityItemSource {
        final class Inner: UIActivityItemSource {
            func activityViewControllerPlaceholderItem(_ activityViewController: UIActivityViewController) -> Any {
                "inner"
            }
            func activityViewController(
                _ activityViewController: UIActivityViewController,
                itemForActivityType activityType: UIActivity.ActivityType?
            ) -> Any? { "inner" }
        }
        func activityViewControllerPlaceholderItem(_ activityViewController: UIActivityViewController) -> Any {
            Inner()
        }
        func activityViewController(
            _ activityViewController: UIActivityViewController,
            itemForActivityType activityType: UIActivity.ActivityType?
        ) -> Any? { nil }
    }

    @Test func itemsOfNoShareableClassAreNamedByPosition() throws {
        let root = try TestSupport.scratchRoot("uikit-errors")
        defer { try? FileManager.default.removeItem(at: root) }
        let number = UIActivityViewController(activityItems: ["fine", 42], applicationActivities: nil)
        let error = #expect(throws: UIActivityViewControllerError.self) { try number.sheet(on: root) }
        #expect(
            error?.description.hasPrefix("activity item 1: Int is not a String") == true, "\(String(describing: error))"
        )

        let nested = UIActivityViewController(activityItems: [NestedSource()], applicationActivities: nil)
        let nestedError = #expect(throws: UIActivityViewControllerError.self) { try nested.sheet(on: root) }
        #expect(
            nestedError?.description == "activity item 0: a placeholder or item cannot itself be an item source")
    }

    /// Outside a process `exthost app run` started, the device must be given.
    @Test func aSheetWithoutADeviceSaysSo() async throws {
        let controller = UIActivityViewController(activityItems: ["hello"], applicationActivities: nil)
        let error = #expect(throws: UIActivityViewControllerError.self) { try controller.sheet() }
        #expect(error?.description.hasPrefix("no device: pass the device's root") == true)
        await #expect(throws: UIActivityViewControllerError.self) { try await controller.perform(.copyToPasteboard) }
        // Dismissing without a choice needs no device: the handler hears "not completed".
        let heard = Locked<[Bool]>([])
        controller.completionWithItemsHandler = { type, completed, items, error in
            heard.withLock { $0.append(type == nil && !completed && items == nil && error == nil) }
        }
        try await controller.perform(nil)
        #expect(heard.withLock { $0 } == [true])
    }
}
