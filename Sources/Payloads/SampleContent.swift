import Foundation
import UniformTypes

/// Small but well-formed contents for the preset types, so content sniffing and extensions that
/// check magic numbers see what they would on a device.
enum SampleContent {
    static func bytes(for type: String, label: String) -> Data {
        let registry = TypeRegistry.system
        let identifier = UniformTypeIdentifier(type)
        func conforms(_ target: String) -> Bool { registry.conforms(identifier, to: UniformTypeIdentifier(target)) }
        switch identifier.key {
        case "public.png": return Data(base64Encoded: onePixelPNG) ?? Data()
        case "public.heic", "com.apple.live-photo": return isoBox(brand: "heic", compatible: ["mif1", "heic"])
        case "public.mpeg-4", "com.apple.quicktime-movie": return isoBox(brand: "isom", compatible: ["isom", "mp42"])
        case "com.apple.m4a-audio": return isoBox(brand: "M4A ", compatible: ["M4A ", "mp42", "isom"])
        case "com.adobe.pdf": return Data(minimalPDF.utf8)
        case "public.vcard":
            return Data("BEGIN:VCARD\r\nVERSION:3.0\r\nN:Appleseed;Jane;;;\r\nFN:Jane Appleseed\r\nEND:VCARD\r\n".utf8)
        case "com.apple.property-list":
            return propertyList([
                "NSExtensionJavaScriptPreprocessingResultsKey": ["title": label, "URL": "https://example.com/"]
            ])
        case "com.apple.mapkit.map-item":
            return propertyList(["name": "Apple Park", "latitude": 37.3349, "longitude": -122.009])
        default:
            if conforms("public.jpeg") || identifier.key == "public.image" { return jpeg }
            if conforms("public.text") { return Data("Sample text (\(label))\n".utf8) }
            return Data("Sample data for \(type) (\(label))\n".utf8)
        }
    }

    static let onePixelPNG =
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="

    static let jpeg = Data([
        0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01,
        0x00, 0x00, 0xFF, 0xD9,
    ])

    static let minimalPDF = """
        %PDF-1.4
        1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj
        2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj
        trailer << /Root 1 0 R >>
        %%EOF

        """

    /// An ISO base-media `ftyp` box (MP4, M4A, HEIC all start with one).
    static func isoBox(brand: String, compatible: [String]) -> Data {
        var body = Data(brand.utf8) + Data([0, 0, 0, 0])
        for name in compatible { body += Data(name.utf8) }
        let size = UInt32(8 + body.count)
        return Data([UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)])
            + Data("ftyp".utf8) + body
    }

    static func propertyList(_ value: [String: Any]) -> Data {
        (try? PropertyListSerialization.data(fromPropertyList: value, format: .xml, options: 0)) ?? Data()
    }
}
