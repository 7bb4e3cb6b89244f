import Foundation
import Testing
import UniformTypeIdentifiers

/// `UTType` in the call shapes real extensions use, answered from the type table.
struct UTTypeTests {

    @Test func utTypeAnswersFromTheTypeTable() {
        #expect(UTType.jpeg.conforms(to: .image))
        #expect(UTType.heic.conforms(to: .image) && UTType.heic.supertypes.contains(.data))
        #expect(UTType.vCard.conforms(to: .text))
        #expect(UTType.fileURL.conforms(to: .url) && !UTType.url.conforms(to: .fileURL))
        #expect(UTType(filenameExtension: "pdf") == .pdf)
        #expect(UTType(mimeType: "image/png") == .png)
        #expect(UTType.png.preferredFilenameExtension == "png" && UTType.png.preferredMIMEType == "image/png")
        #expect(UTType("public.jpeg")?.identifier == "public.jpeg")
        #expect(UTType("com.example.not-declared") == nil)
        let unknown = UTType(filenameExtension: "qqq7")
        #expect(unknown?.isDynamic == true && unknown?.isDeclared == false && unknown?.conforms(to: .data) == true)
        #expect(UTType.jpeg.isSupertype(of: .jpeg) == false && UTType.image.isSupertype(of: .jpeg))
        #expect(
            URL(fileURLWithPath: "/tmp").appendingPathComponent("readme", conformingTo: .plainText).lastPathComponent
                == "readme.txt")
    }

    @Test func aNameKeepsAnExtensionValidForTheTypeAndGetsThePreferredOneOtherwise() {
        let folder = URL(fileURLWithPath: "/tmp/x")
        #expect(folder.appendingPathComponent("photo.jpeg", conformingTo: .image).lastPathComponent == "photo.jpeg")
        #expect(folder.appendingPathComponent("photo", conformingTo: .png).lastPathComponent == "photo.png")
        // .txt is a declared type, but not an image: the image's extension is added.
        #expect(folder.appendingPathComponent("notes.txt", conformingTo: .png).lastPathComponent == "notes.txt.png")
        // An undeclared extension gives only a dynamic type: the preferred one is added.
        #expect(folder.appendingPathComponent("a.zzqq", conformingTo: .pdf).lastPathComponent == "a.zzqq.pdf")
        #expect(folder.appendingPathComponent("scan").appendingPathExtension(for: .pdf).lastPathComponent == "scan.pdf")
    }

    @Test(arguments: [
        ("a.png", "public.png"), ("a.PDF", "com.adobe.pdf"), ("a.zzqq", "public.data"), ("noext", "public.data"),
    ])
    func aFileProviderWithoutAContentTypeIsTypedByItsName(_ name: String, _ expected: String) {
        let provider = NSItemProvider(contentsOf: URL(fileURLWithPath: "/tmp/\(name)"), contentType: nil)
        #expect(provider.registeredTypeIdentifiers == [expected])
    }
}
