import Foundation
import ImageCodecs
import Testing

/// The codecs' other paths: transparency, quality, damaged files (an error with the library's
/// message, or the part that decodes, never a trap) and the thumbnail scaling.
struct ImageCodecsEdgeTests {
    /// A 4 × 2 picture: left half opaque red, right half half-transparent blue.
    static let translucent: RGBAImage = {
        var pixels: [UInt8] = []
        for _ in 0..<2 {
            for x in 0..<4 { pixels += x < 2 ? [255, 0, 0, 255] : [0, 0, 255, 128] }
        }
        return RGBAImage(width: 4, height: 2, pixels: pixels)
    }()

    @Test func aTranslucentPNGKeepsItsAlpha() throws {
        #expect(!Self.translucent.isOpaque)
        let data = try PNGCodec.encode(Self.translucent)
        let decoded = try PNGCodec.decode(data)
        #expect(decoded == Self.translucent)
        #expect(decoded.pixel(x: 3, y: 1) == [0, 0, 255, 128])
        // The opaque form drops the alpha channel and so is smaller; it decodes with alpha 255.
        let opaque = RGBAImage(width: 4, height: 2, red: 1, green: 2, blue: 3)
        #expect(try PNGCodec.decode(try PNGCodec.encode(opaque)).pixel(x: 0, y: 0) == [1, 2, 3, 255])
    }

    @Test func aDamagedPNGIsAnErrorWithLibpngsMessage() throws {
        let whole = try PNGCodec.encode(Self.translucent)
        let signatureOnly = whole.prefix(8)
        #expect(PNGCodec.isPNG(signatureOnly) && PNGCodec.size(of: signatureOnly) == nil)
        let headerError = #expect(throws: ImageCodecError.self) { try PNGCodec.decode(signatureOnly) }
        #expect(headerError?.description.hasPrefix("PNG: ") == true)
        #expect((headerError?.description.count ?? 0) > "PNG: ".count, "libpng's message is missing")

        // The header is whole but the pixels stop short (the end chunk and the pixels' checksum cut).
        let cut = whole.prefix(whole.count - 16)
        #expect(PNGCodec.size(of: cut)?.width == 4)
        let pixelsError = #expect(throws: ImageCodecError.self) { try PNGCodec.decode(cut) }
        #expect(pixelsError?.description.hasPrefix("PNG: ") == true)
        #expect(PNGCodec.size(of: Data("GIF89a".utf8)) == nil)
    }

    @Test func anEmptyImageCannotBeEncoded() {
        let empty = RGBAImage(width: 0, height: 0, pixels: [])
        let png = #expect(throws: ImageCodecError.self) { try PNGCodec.encode(empty) }
        #expect(png?.description.hasPrefix("PNG: ") == true)
        let jpeg = #expect(throws: ImageCodecError.self) { try JPEGCodec.encode(empty, quality: 0.8) }
        #expect(jpeg?.description.hasPrefix("JPEG: ") == true)
    }

    @Test func jpegQualityChangesTheSizeAndOutOfRangeIsClamped() throws {
        var pixels: [UInt8] = []
        for y in 0..<32 {
            for x in 0..<32 { pixels += [UInt8(x * 8), UInt8(y * 8), UInt8((x ^ y) * 8), 255] }
        }
        let gradient = RGBAImage(width: 32, height: 32, pixels: pixels)
        let low = try JPEGCodec.encode(gradient, quality: 0.1)
        let high = try JPEGCodec.encode(gradient, quality: 1)
        #expect(low.count < high.count)
        #expect(JPEGCodec.size(of: low)?.width == 32 && JPEGCodec.size(of: low)?.height == 32)
        // Out of range and NaN qualities are clamped to 0…1 rather than refused.
        #expect(try JPEGCodec.encode(gradient, quality: 7) == high)
        #expect(try JPEGCodec.encode(gradient, quality: -1) == JPEGCodec.encode(gradient, quality: .nan))
        #expect(try JPEGCodec.decode(low).width == 32)
    }

    @Test func aDamagedJPEGIsAnErrorOrItsDecodablePart() throws {
        var noise: [UInt8] = []
        var seed: UInt32 = 7
        for _ in 0..<(64 * 64) {
            seed = seed &* 1_103_515_245 &+ 12345
            noise += [UInt8(truncatingIfNeeded: seed >> 16), UInt8(truncatingIfNeeded: seed >> 8), 90, 255]
        }
        let whole = try JPEGCodec.encode(RGBAImage(width: 64, height: 64, pixels: noise), quality: 0.9)
        // A start-of-image marker and nothing usable after it: TurboJPEG reads a 0 × 0 header, which
        // is no image (this was decoded as an empty image, so UIImage(data:) was not nil).
        let markerOnly = Data([0xFF, 0xD8, 0xFF, 0x00, 0x01])
        #expect(JPEGCodec.isJPEG(markerOnly) && JPEGCodec.size(of: markerOnly) == nil)
        let error = #expect(throws: ImageCodecError.self) { try JPEGCodec.decode(markerOnly) }
        #expect(error?.description.hasPrefix("JPEG: ") == true)
        // Only the markers that begin a header: TurboJPEG's own message.
        let headerError = #expect(throws: ImageCodecError.self) { try JPEGCodec.decode(whole.prefix(30)) }
        #expect(headerError?.description.hasPrefix("JPEG: ") == true)
        #expect(JPEGCodec.size(of: Data("not a jpeg".utf8)) == nil)
        // Truncated inside the scan: TurboJPEG warns and the image keeps its size, as ImageIO shows a partial image.
        let truncated = whole.prefix(whole.count / 2)
        let partial = try JPEGCodec.decode(truncated)
        #expect(partial.width == 64 && partial.height == 64)
        #expect(partial.pixel(x: 0, y: 0)[3] == 255)
    }

    @Test func fittingScalesTheLongerSideDownAndKeepsSmallImages() {
        let wide = RGBAImage(width: 8, height: 2, red: 9, green: 8, blue: 7)
        #expect(wide.fitting(within: 8) == wide)
        let scaled = wide.fitting(within: 4)
        #expect(scaled.width == 4 && scaled.height == 1)
        #expect(scaled.pixel(x: 3, y: 0) == [9, 8, 7, 255])
        #expect(scaled.pixels.count == 4 * 4)
        let tall = Self.translucent.fitting(within: 2)
        #expect(tall.width == 2 && tall.height == 1)
        #expect(tall.pixel(x: 0, y: 0) == [255, 0, 0, 255] && tall.pixel(x: 1, y: 0) == [0, 0, 255, 128])
        let empty = RGBAImage(width: 0, height: 0, pixels: [])
        #expect(empty.fitting(within: 1) == empty)
    }
}
