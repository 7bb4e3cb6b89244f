import ExtensionFoundation
import Foundation
import Testing

/// `UIImage` as Apple documents it: made from PNG, JPEG, GIF or HEIC bytes (nil otherwise), sized
/// in points by its scale and turned by a JPEG's EXIF orientation, re-encoded by `pngData()` and
/// `jpegData(compressionQuality:)`, archived with `NSSecureCoding`.
struct UIImageTests {
    /// A 3 × 2 PNG, every pixel (200, 40, 10) opaque.
    static let png =
        Data(
            base64Encoded:
                "iVBORw0KGgoAAAANSUhEUgAAAAMAAAACCAYAAACddGYaAAAAEUlEQVR4nGM4ocH1H4YZkDkAmGML1322ScUAAAAASUVORK5CYII="
        ) ?? Data()

    /// `jpeg` with an APP1 Exif segment holding `orientation`, in big- or little-endian TIFF.
    static func withOrientation(_ orientation: UInt8, littleEndian: Bool, _ jpeg: Data) -> Data {
        let tiff: [UInt8] =
            littleEndian
            ? [
                0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, orientation, 0, 0, 0, 0, 0, 0,
                0,
            ]
            : [
                0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, orientation, 0, 0, 0, 0, 0,
                0,
            ]
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        return jpeg.prefix(2) + Data([0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload)
            + jpeg.dropFirst(2)
    }

    @Test func pngAndJPEGBytesMakeImagesThatReencode() throws {
        let image = try #require(UIImage(data: Self.png))
        #expect(image.size == CGSize(width: 3, height: 2) && image.scale == 1 && image.imageOrientation == .up)
        #expect(image.description == "<UIImage: 3x2@1x public.png>")
        let png = try #require(image.pngData())
        #expect(UIImage(data: png)?.size == CGSize(width: 3, height: 2))
        let jpeg = try #require(image.jpegData(compressionQuality: 0.8))
        #expect(jpeg.starts(with: [0xFF, 0xD8, 0xFF]))
        let fromJPEG = try #require(UIImage(data: jpeg))
        #expect(fromJPEG.size == CGSize(width: 3, height: 2))
        #expect(fromJPEG.description.hasSuffix("public.jpeg>"))
        #expect(fromJPEG.pngData().flatMap(UIImage.init(data:))?.size == CGSize(width: 3, height: 2))
        let retina = try #require(UIImage(data: png, scale: 2))
        #expect(retina.size == CGSize(width: 1.5, height: 1) && retina.scale == 2)
        let template = image.withRenderingMode(UIImage.RenderingMode.alwaysTemplate)
        #expect(template === image)
    }

    /// EXIF orientations 6 and 8 turn the image a quarter, so width and height swap; re-encoding
    /// keeps the orientation (as `jpegData` does on iOS).
    @Test(arguments: [
        (UInt8(6), false, UIImage.Orientation.right), (8, true, .left), (3, false, .down),
        (2, true, .upMirrored), (4, false, .downMirrored), (5, true, .leftMirrored), (7, false, .rightMirrored),
        (1, true, .up),
    ])
    func exifOrientationTurnsTheImage(exif: UInt8, littleEndian: Bool, orientation: UIImage.Orientation) throws {
        let jpeg = try #require(UIImage(data: Self.png)?.jpegData(compressionQuality: 0.9))
        let turned = try #require(UIImage(data: Self.withOrientation(exif, littleEndian: littleEndian, jpeg)))
        #expect(turned.imageOrientation == orientation)
        let quarter = [UIImage.Orientation.left, .right, .leftMirrored, .rightMirrored].contains(orientation)
        #expect(turned.size == (quarter ? CGSize(width: 2, height: 3) : CGSize(width: 3, height: 2)))
        let again = try #require(turned.jpegData(compressionQuality: 0.9).flatMap(UIImage.init(data:)))
        #expect(again.imageOrientation == orientation)
    }

    @Test func gifAndHEICKeepTheirSizeButCannotBeReencoded() throws {
        // GIF: the logical screen's width and height, little-endian, after the signature.
        let gif = try #require(UIImage(data: Data("GIF89a".utf8) + Data([5, 0, 4, 0, 0, 0, 0])))
        #expect(gif.size == CGSize(width: 5, height: 4))
        #expect(gif.description.hasSuffix("com.compuserve.gif>"))
        #expect(gif.pngData() == nil && gif.jpegData(compressionQuality: 1) == nil)
        let heic = try #require(UIImage(data: Data([0, 0, 0, 24]) + Data("ftypheic".utf8) + Data(count: 12)))
        #expect(heic.description.hasSuffix("public.heic>") && heic.pngData() == nil)
    }

    @Test func bytesThatAreNoImageGiveNil() throws {
        #expect(UIImage(data: Data()) == nil)
        #expect(UIImage(data: Data("not an image".utf8)) == nil)
        let png = Self.png
        #expect(UIImage(data: png.prefix(12)) == nil, "a PNG cut inside its header")
        #expect(UIImage(data: Data([0xFF, 0xD8, 0xFF, 0x00, 0x01])) == nil, "a JPEG marker and no frame")
        #expect(UIImage(data: Data("GIF8".utf8)) == nil, "too short for a GIF's size")
        #expect(UIImage(contentsOfFile: "/nonexistent-exthost/photo.png") == nil)
        #expect(UIImage(named: "exthost-no-such-image") == nil)
    }

    @Test func aFileNamedAt2xHasScale2() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("uiimage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("photo@2x.png")
        try Self.png.write(to: file)
        let image = try #require(UIImage(contentsOfFile: file.path))
        #expect(image.scale == 2 && image.size == CGSize(width: 1.5, height: 1))
    }

    @Test func anImageArchivesWithSecureCoding() throws {
        #expect(UIImage.supportsSecureCoding)
        let image = try #require(UIImage(data: Self.png, scale: 2))
        let archive = try NSKeyedArchiver.archivedData(withRootObject: image, requiringSecureCoding: true)
        let restored = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: UIImage.self, from: archive))
        #expect(restored.size == image.size && restored.scale == 2)
        #expect(restored.pngData().flatMap(UIImage.init(data:))?.size == CGSize(width: 3, height: 2))
    }
}
