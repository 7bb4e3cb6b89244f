import CPNG
package import Foundation

/// PNG through libpng's simplified API (`png_image_*`), which reports errors in the image
/// structure instead of jumping out of the caller.
package enum PNGCodec {
    // PNG_FORMAT_RGBA: PNG_FORMAT_FLAG_COLOR (2) | PNG_FORMAT_FLAG_ALPHA (1); the macro is an expression Swift
    // does not import.
    private static let formatRGBA: UInt32 = 0x03

    /// Whether `data` starts with the PNG signature.
    package static func isPNG(_ data: Data) -> Bool {
        data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }

    /// The width and height in pixels from the header; nil when libpng does not accept it.
    package static func size(of data: Data) -> (width: Int, height: Int)? {
        guard isPNG(data) else { return nil }
        return data.withUnsafeBytes { raw -> (Int, Int)? in
            var image = png_image()
            image.version = UInt32(PNG_IMAGE_VERSION)
            guard png_image_begin_read_from_memory(&image, raw.baseAddress, raw.count) != 0 else { return nil }
            defer { png_image_free(&image) }
            return (Int(image.width), Int(image.height))
        }
    }

    /// The image's pixels as RGBA (palette, grey and 16-bit images converted).
    /// - Throws: ``ImageCodecError`` with libpng's message when the data is not a whole PNG.
    package static func decode(_ data: Data) throws -> RGBAImage {
        guard isPNG(data) else { throw ImageCodecError("PNG: not a PNG signature") }
        return try data.withUnsafeBytes { raw in
            var image = png_image()
            image.version = UInt32(PNG_IMAGE_VERSION)
            guard png_image_begin_read_from_memory(&image, raw.baseAddress, raw.count) != 0 else {
                throw ImageCodecError("PNG: " + message(of: &image))
            }
            image.format = formatRGBA
            let width = Int(image.width)
            let height = Int(image.height)
            var pixels = [UInt8](repeating: 0, count: width * height * 4)
            let finished = pixels.withUnsafeMutableBytes { buffer in
                png_image_finish_read(&image, nil, buffer.baseAddress, 0, nil)
            }
            guard finished != 0 else {
                let reason = message(of: &image)
                png_image_free(&image)
                throw ImageCodecError("PNG: " + reason)
            }
            return RGBAImage(width: width, height: height, pixels: pixels)
        }
    }

    /// The image as a PNG (8-bit RGBA, or RGB when every pixel is opaque).
    /// - Throws: ``ImageCodecError`` with libpng's message.
    package static func encode(_ source: RGBAImage) throws -> Data {
        let opaque = source.isOpaque
        var pixels = source.pixels
        if opaque {
            pixels = []
            pixels.reserveCapacity(source.width * source.height * 3)
            for offset in stride(from: 0, to: source.pixels.count, by: 4) {
                pixels.append(contentsOf: source.pixels[offset..<offset + 3])
            }
        }
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(source.width)
        image.height = UInt32(source.height)
        image.format = opaque ? 0x02 : formatRGBA
        return try pixels.withUnsafeBytes { buffer in
            var size = 0
            guard png_image_write_to_memory(&image, nil, &size, 0, buffer.baseAddress, 0, nil) != 0 else {
                throw ImageCodecError("PNG: " + message(of: &image))
            }
            var output = Data(count: size)
            let written = output.withUnsafeMutableBytes { out in
                png_image_write_to_memory(&image, out.baseAddress, &size, 0, buffer.baseAddress, 0, nil)
            }
            guard written != 0 else { throw ImageCodecError("PNG: " + message(of: &image)) }
            return output.prefix(size)
        }
    }

    private static func message(of image: inout png_image) -> String {
        withUnsafeBytes(of: &image.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
