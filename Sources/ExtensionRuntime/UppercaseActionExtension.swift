import ExtensionIPC
import Foundation
public import ItemProviders

/// The built-in action extension (`com.apple.ui-services`), which the demo device's Uppercase app
/// uses: it returns every text attachment upper-cased as one new item, titled "Uppercased" — what
/// Apple's action extension template does with an image, done with text. With no text attachment
/// it cancels with `NSUserCancelledError` (3072 in `NSCocoaErrorDomain`), as the template's Cancel
/// button does.
public enum UppercaseActionExtension {
    /// Runs the extension on `context` (what `exthost-builtin-extension __action-extension` does).
    @MainActor
    public static func run(_ context: ExtensionContext, _ environment: ExtensionRuntime.Environment) async {
        let providers = context.inputItems.flatMap { $0.attachments ?? [] }
        var returned: [ItemProvider] = []
        for provider in providers where provider.hasItemConformingToTypeIdentifier("public.plain-text") {
            do {
                let data = try await provider.loadDataRepresentation(for: "public.plain-text")
                let text = String(decoding: data, as: UTF8.self).uppercased()
                returned.append(ItemProvider(item: text, typeIdentifier: "public.plain-text"))
            } catch {
                environment.log("could not load a text attachment: \(error)", level: .error)
            }
        }
        guard !returned.isEmpty else {
            context.cancelRequest(
                withError: ItemProviderError(
                    ItemProviderError.Code(domain: "NSCocoaErrorDomain", rawValue: 3072), "The operation was cancelled."
                ))
            return
        }
        context.completeRequest(returningItems: [ExtensionItem(attachments: returned, attributedTitle: "Uppercased")])
    }
}
