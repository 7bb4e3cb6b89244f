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
}
