import Foundation
import MobileCoreServices
import Testing

/// The `kUTType…` constants and the `UTType…` functions of MobileCoreServices.
struct MobileCoreServicesTests {

    @Test func mobileCoreServicesConstantsAndFunctions() {
        let url = kUTTypeURL as String
        #expect(url == "public.url")
        #expect(kUTTypeImage as String == UTType.image.identifier)
        let ext = "png"
        let uti = UTTypeCreatePreferredIdentifierForTag(kUTTagClassFilenameExtension, ext as CFString, nil)?
            .takeRetainedValue()
        #expect(uti as String? == "public.png")
        let mime = UTTypeCopyPreferredTagWithClass("public.png" as CFString, kUTTagClassMIMEType)?.takeRetainedValue()
        #expect(mime as String? == "image/png")
        #expect(UTTypeConformsTo(kUTTypeJPEG, kUTTypeImage))
    }
}
