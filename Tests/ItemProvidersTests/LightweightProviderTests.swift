import Foundation
import ItemProviders
import Testing

/// A lightweight provider (the extension's proxies of a paged context) is filled on its first use,
/// can be emptied and filled again identically, and keeps whatever its user changed.
struct LightweightProviderTests {
    /// A filler that registers one data representation and a name, and counts its runs.
    final class Filler {
        var runs = 0

        func fill(_ provider: ItemProvider) {
            runs += 1
            provider.suggestedName = "photo.png"
            provider.registerDataRepresentation(for: "public.png") { completion in
                completion(Data("png".utf8), nil)
                return nil
            }
        }
    }

    @Test func itIsFilledOnceOnFirstUse() async throws {
        let filler = Filler()
        let provider = ItemProvider(filledOnFirstUse: filler.fill)
        #expect(filler.runs == 0)
        #expect(!provider.isFilled)
        #expect(provider.registeredTypeIdentifiers == ["public.png"])
        #expect(provider.suggestedName == "photo.png")
        #expect(provider.hasItemConformingToTypeIdentifier("public.image"))
        #expect(filler.runs == 1)
        #expect(try await provider.loadDataRepresentation(for: "public.png") == Data("png".utf8))
        #expect(filler.runs == 1)
    }

    @Test func emptiedItIsFilledAgainTheSame() {
        let filler = Filler()
        let provider = ItemProvider(filledOnFirstUse: filler.fill)
        #expect(!provider.empty(refilledBy: filler.fill), "not filled yet: nothing to empty")
        _ = provider.registeredTypeIdentifiers
        #expect(provider.empty(refilledBy: filler.fill))
        #expect(!provider.isFilled)
        #expect(provider.registeredTypeIdentifiers == ["public.png"])
        #expect(provider.suggestedName == "photo.png")
        #expect(filler.runs == 2)
    }

    @Test func whatItsUserChangedIsNeverEmptied() {
        let filler = Filler()
        let renamed = ItemProvider(filledOnFirstUse: filler.fill)
        renamed.suggestedName = "mine.png"
        #expect(!renamed.empty(refilledBy: filler.fill))
        #expect(renamed.suggestedName == "mine.png")

        let extended = ItemProvider(filledOnFirstUse: filler.fill)
        extended.registerDataRepresentation(for: "public.plain-text") { completion in
            completion(Data("text".utf8), nil)
            return nil
        }
        #expect(!extended.empty(refilledBy: filler.fill))
        #expect(extended.registeredTypeIdentifiers == ["public.png", "public.plain-text"])
    }

    @Test func anOrdinaryProviderIsNeverEmptied() {
        let provider = ItemProvider(object: "text")
        #expect(provider.isFilled)
        #expect(!provider.empty(refilledBy: Filler().fill))
        #expect(provider.registeredTypeIdentifiers == ["public.utf8-plain-text"])
    }
}
