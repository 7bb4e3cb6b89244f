public import Foundation
import HostSystem
package import ImageCodecs

/// Apple's `UIImage`: an image, decoded and encoded for real — PNG through libpng and JPEG through
/// libjpeg-turbo — so `pngData()`, `jpegData(compressionQuality:)` and `size` behave as on a device.
///
/// It lives in ExtensionFoundation, not UIKit, because `NSItemProvider` hands one out (`loadItem`
/// of a markup screenshot, `loadObject(ofClass: UIImage.self)`); `import UIKit` sees it as ever.
/// The bytes are decoded on first need (as iOS decodes lazily); the header is checked when the
/// image is made, so undecodable data gives nil. GIF and HEIC images keep their size but Linux has
/// no decoder for them: `pngData()`/`jpegData` return nil.
open class UIImage: NSObject, NSSecureCoding, @unchecked Sendable {
    // The stored properties are immutable; the decoded pixels are cached under `decoded`'s lock.

    /// How the pixels are turned for display (from a JPEG's EXIF orientation).
    public enum Orientation: Int, Sendable {
        /// As stored.
        case up = 0
        /// Turned 180°.
        case down = 1
        /// Turned 90° counter-clockwise.
        case left = 2
        /// Turned 90° clockwise.
        case right = 3
        /// Mirrored.
        case upMirrored = 4
        /// Mirrored and turned 180°.
        case downMirrored = 5
        /// Mirrored and turned 90° counter-clockwise.
        case leftMirrored = 6
        /// Mirrored and turned 90° clockwise.
        case rightMirrored = 7

        /// The orientation of EXIF value 1…8.
        init(exif: Int) {
            switch exif {
            case 2: self = .upMirrored
            case 3: self = .down
            case 4: self = .downMirrored
            case 5: self = .leftMirrored
            case 6: self = .right
            case 7: self = .rightMirrored
            case 8: self = .left
            default: self = .up
            }
        }

        /// The EXIF value.
        var exif: Int {
            switch self {
            case .up: 1
            case .upMirrored: 2
            case .down: 3
            case .downMirrored: 4
            case .leftMirrored: 5
            case .right: 6
            case .rightMirrored: 7
            case .left: 8
            }
        }

        /// Whether width and height swap for display.
        var swapsSides: Bool { [.left, .right, .leftMirrored, .rightMirrored].contains(self) }
    }

    /// The encoded bytes the image was made from (nil for an image made from pixels).
    package let encodedData: Data?
    /// The bytes an item provider shares: the encoded bytes, or a PNG of an image made from pixels.
    package var shareableData: Data { encodedData ?? pngData() ?? Data() }
    /// The type of ``encodedData`` (`public.png`, `public.jpeg`, …).
    package let typeIdentifier: String
    private let decoded = Locked<RGBAImage?>(nil)
    private let pixelWidth: Int
    private let pixelHeight: Int

    /// The size in points: pixels divided by ``scale``, turned by ``imageOrientation``.
    public let size: CGSize
    /// Pixels per point (1, or 2 and 3 for `@2x` and `@3x` files).
    public let scale: CGFloat
    /// How the pixels are turned for display.
    public let imageOrientation: Orientation

    /// An image from the bytes of a PNG, JPEG, GIF or HEIC file; nil when they are none of these or
    /// their header does not decode (Apple: "nil if the method could not initialize the image from
    /// the specified data").
    public convenience init?(data: Data) { self.init(data: data, scale: 1) }

    /// An image from encoded bytes, at `scale` pixels per point.
    public convenience init?(data: Data, scale: CGFloat) {
        guard let header = ImageHeader(data) else { return nil }
        self.init(encoded: data, header: header, scale: scale)
    }

    /// An image read from the file at `path` (`@2x`/`@3x` in the name set the scale); nil when it
    /// cannot be read or is not an image.
    public convenience init?(contentsOfFile path: String) {
        guard let data = FileManager.default.contents(atPath: path), let header = ImageHeader(data) else { return nil }
        self.init(encoded: data, header: header, scale: AssetCatalog.scale(ofFileNamed: path))
    }

    /// The image named `name` in the main bundle: an asset catalog image set (`Assets.xcassets/
    /// name.imageset`) or a file (`name@3x.png`, `name@2x.png`, `name.png`, `name.jpg`, or `name`
    /// itself when it has an extension), the variant best for the 3× screen first; nil when there is
    /// none (Apple: "nil if the method could not find the specified image").
    public convenience init?(named name: String) {
        guard let path = AssetCatalog.imagePath(named: name, in: .main) else { return nil }
        self.init(contentsOfFile: path)
    }

    /// An image of `pixels`, at `scale`.
    package init(pixels: RGBAImage, scale: CGFloat = 1) {
        encodedData = nil
        typeIdentifier = "public.png"
        pixelWidth = pixels.width
        pixelHeight = pixels.height
        self.scale = scale
        imageOrientation = .up
        size = CGSize(width: CGFloat(pixels.width) / scale, height: CGFloat(pixels.height) / scale)
        decoded.withLock { $0 = pixels }
        super.init()
    }

    private init(encoded data: Data, header: ImageHeader, scale: CGFloat) {
        encodedData = data
        typeIdentifier = header.typeIdentifier
        pixelWidth = header.width
        pixelHeight = header.height
        self.scale = scale > 0 ? scale : 1
        imageOrientation = header.orientation
        let width = CGFloat(header.width) / self.scale
        let height = CGFloat(header.height) / self.scale
        size =
            header.orientation.swapsSides ? CGSize(width: height, height: width) : CGSize(width: width, height: height)
        super.init()
    }

    /// True: an image codes securely (Apple's `UIImage` adopts `NSSecureCoding`, so
    /// `loadItem(forTypeIdentifier:)` can hand one out as `any NSSecureCoding`).
    public class var supportsSecureCoding: Bool { true }

    /// Encodes the image's bytes (its file's bytes, or a PNG of its pixels) and its scale.
    open func encode(with coder: NSCoder) {
        coder.encode(NSData(data: shareableData), forKey: "UIImageData")
        coder.encode(Double(scale), forKey: "UIImageScale")
    }

    /// An image decoded from what ``encode(with:)`` wrote; nil when the bytes are not an image.
    public required convenience init?(coder: NSCoder) {
        guard let data = coder.decodeObject(of: NSData.self, forKey: "UIImageData") else { return nil }
        let scale = coder.decodeDouble(forKey: "UIImageScale")
        self.init(data: Data(referencing: data), scale: scale > 0 ? CGFloat(scale) : 1)
    }

    /// The image as a PNG: its pixels re-encoded (as stored, not turned by ``imageOrientation``, as
    /// iOS writes them); nil when it cannot be decoded (GIF, HEIC, damaged data).
    open func pngData() -> Data? {
        guard let pixels = pixels() else { return nil }
        return try? PNGCodec.encode(pixels)
    }

    /// The image as a JPEG at `compressionQuality` (0 smallest … 1 best), with an EXIF orientation
    /// when the image has one; nil when it cannot be decoded.
    open func jpegData(compressionQuality: CGFloat) -> Data? {
        guard let pixels = pixels(), var data = try? JPEGCodec.encode(pixels, quality: Double(compressionQuality))
        else {
            return nil
        }
        if imageOrientation != .up { data = ImageHeader.insertingOrientation(imageOrientation.exif, into: data) }
        return data
    }

    /// The decoded pixels, decoded on first use and kept; nil when the format has no decoder here or
    /// the data does not decode.
    package func pixels() -> RGBAImage? {
        if let cached = decoded.withLock({ $0 }) { return cached }
        guard let data = encodedData else { return nil }
        let pixels: RGBAImage?
        switch typeIdentifier {
        case "public.png": pixels = try? PNGCodec.decode(data)
        case "public.jpeg": pixels = try? JPEGCodec.decode(data)
        default: pixels = nil
        }
        decoded.withLock { $0 = pixels }
        return pixels
    }

    /// A PNG of the image scaled down to at most `maximumPixels` a side (for the screens page).
    package func thumbnailPNG(maximumPixels: Int) -> Data? {
        guard let pixels = pixels() else { return nil }
        return try? PNGCodec.encode(pixels.fitting(within: maximumPixels))
    }

    /// The same image (rendering modes only change how a tinted image is drawn).
    open func withRenderingMode(_ renderingMode: RenderingMode) -> UIImage { self }

    /// How an image is drawn.
    public enum RenderingMode: Int, Sendable {
        /// The context decides.
        case automatic = 0
        /// As is.
        case alwaysOriginal = 1
        /// As a template, tinted.
        case alwaysTemplate = 2
    }

    /// `<UIImage: WIDTHxHEIGHT@SCALEx>`.
    open override var description: String {
        "<UIImage: \(Int(size.width))x\(Int(size.height))@\(Int(scale))x \(typeIdentifier)>"
    }
}

/// The type, pixel size and orientation read from an image's header.
struct ImageHeader {
    var typeIdentifier: String
    var width: Int
    var height: Int
    var orientation: UIImage.Orientation = .up

    init?(_ data: Data) {
        if PNGCodec.isPNG(data) {
            guard let size = PNGCodec.size(of: data) else { return nil }
            (typeIdentifier, width, height) = ("public.png", size.width, size.height)
        } else if JPEGCodec.isJPEG(data) {
            guard let size = JPEGCodec.size(of: data) else { return nil }
            (typeIdentifier, width, height) = ("public.jpeg", size.width, size.height)
            orientation = UIImage.Orientation(exif: Self.exifOrientation(data) ?? 1)
        } else if data.starts(with: Array("GIF8".utf8)), data.count >= 10 {
            let bytes = [UInt8](data.prefix(10))
            let width = Int(bytes[6]) | Int(bytes[7]) << 8
            let height = Int(bytes[8]) | Int(bytes[9]) << 8
            (typeIdentifier, self.width, self.height) = ("com.compuserve.gif", width, height)
        } else if data.count >= 12, data[data.startIndex + 4..<data.startIndex + 8].elementsEqual("ftyp".utf8) {
            (typeIdentifier, width, height) = ("public.heic", 0, 0)
        } else {
            return nil
        }
    }

    /// The EXIF orientation (1…8) in a JPEG's APP1 segment, if there is one.
    static func exifOrientation(_ data: Data) -> Int? {
        let bytes = [UInt8](data.prefix(65_536))
        var offset = 2
        while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
            let marker = bytes[offset + 1]
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            if marker == 0xE1, offset + 10 <= bytes.count,
                bytes[offset + 4..<offset + 10].elementsEqual(Array("Exif".utf8) + [0, 0])
            {
                return tiffOrientation(Array(bytes[(offset + 10)..<min(bytes.count, offset + 2 + length)]))
            }
            if marker == 0xDA { break }
            offset += 2 + length
        }
        return nil
    }

    private static func tiffOrientation(_ tiff: [UInt8]) -> Int? {
        guard tiff.count >= 8 else { return nil }
        let little = tiff[0] == 0x49
        func read(_ at: Int, _ count: Int) -> Int? {
            guard at + count <= tiff.count else { return nil }
            let slice = tiff[at..<at + count]
            return (little ? Array(slice.reversed()) : Array(slice)).reduce(0) { $0 << 8 | Int($1) }
        }
        guard let ifd = read(4, 4), let entries = read(ifd, 2) else { return nil }
        for index in 0..<entries {
            let entry = ifd + 2 + index * 12
            if read(entry, 2) == 0x0112 { return read(entry + 8, 2) }
        }
        return nil
    }

    /// `jpeg` with an APP1 EXIF segment holding only `orientation`, right after its SOI marker.
    static func insertingOrientation(_ orientation: Int, into jpeg: Data) -> Data {
        var tiff: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8]  // big endian, IFD at 8
        tiff += [0, 1]  // one entry
        tiff += [0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, UInt8(orientation), 0, 0]  // Orientation, SHORT, 1
        tiff += [0, 0, 0, 0]  // no next IFD
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        var segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)]
        segment += payload
        var result = Data(jpeg.prefix(2))
        result.append(contentsOf: segment)
        result.append(jpeg.dropFirst(2))
        return result
    }
}
