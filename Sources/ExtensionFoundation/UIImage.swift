public import Foundation

/// An image held in memory, as `loadItem` returns a screenshot from the markup editor: the part
/// of UIKit's `UIImage` share extensions use (`UIImage(data:)`, `size`, `pngData()`, `jpegData`).
///
/// There is no image decoder on Linux: the image keeps its encoded bytes and reads its pixel size
/// from the PNG, JPEG, GIF or HEIC header. `pngData()` gives the bytes of a PNG, `jpegData` those
/// of a JPEG; re-encoding into another format is not available (nil).
open class UIImage: NSObject, @unchecked Sendable {
    package let encodedData: Data
    package let typeIdentifier: String

    /// The size in points (pixels at scale 1).
    public let size: CGSize
    /// The scale factor (1).
    public let scale: CGFloat = 1

    /// An image from encoded bytes; nil when they are not a PNG, JPEG, GIF or HEIC image.
    public convenience init?(data: Data) {
        guard let type = UIImage.sniff(data) else { return nil }
        self.init(data: data, typeIdentifier: type)
    }

    /// An image read from the file at `path`; nil when it cannot be read or is not an image.
    public convenience init?(contentsOfFile path: String) {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        self.init(data: data)
    }

    init?(data: Data, typeIdentifier: String) {
        guard let size = UIImage.pixelSize(of: data) ?? (UIImage.sniff(data) != nil ? .zero : nil) else { return nil }
        self.encodedData = data
        self.typeIdentifier = typeIdentifier
        self.size = size
        super.init()
    }

    /// The image as PNG bytes (nil unless it is a PNG: Linux has no encoder).
    open func pngData() -> Data? { typeIdentifier == "public.png" ? encodedData : nil }

    /// The image as JPEG bytes (nil unless it is a JPEG: Linux has no encoder).
    open func jpegData(compressionQuality: CGFloat) -> Data? { typeIdentifier == "public.jpeg" ? encodedData : nil }

    static func sniff(_ data: Data) -> String? {
        let bytes = [UInt8](data.prefix(12))
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "public.png" }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return "public.jpeg" }
        if bytes.starts(with: Array("GIF8".utf8)) { return "com.compuserve.gif" }
        if bytes.count >= 12, bytes[4..<8].elementsEqual("ftyp".utf8) { return "public.heic" }
        return nil
    }

    /// Width and height from a PNG's IHDR or a JPEG's SOF marker.
    static func pixelSize(of data: Data) -> CGSize? {
        let bytes = [UInt8](data)
        func be(_ offset: Int, _ count: Int) -> Int {
            (0..<count).reduce(0) { $0 << 8 | Int(bytes[offset + $1]) }
        }
        if bytes.count >= 24, bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            return CGSize(width: be(16, 4), height: be(20, 4))
        }
        guard bytes.starts(with: [0xFF, 0xD8]) else { return nil }
        var offset = 2
        while offset + 9 < bytes.count, bytes[offset] == 0xFF {
            let marker = bytes[offset + 1]
            let length = be(offset + 2, 2)
            if (0xC0...0xC3).contains(marker) { return CGSize(width: be(offset + 7, 2), height: be(offset + 5, 2)) }
            offset += 2 + length
        }
        return nil
    }
}
