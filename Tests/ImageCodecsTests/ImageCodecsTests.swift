import Foundation
import ImageCodecs
import Testing

/// PNG and JPEG through the system libraries: what is encoded decodes to the same picture (PNG
/// exactly, JPEG within its loss), and bytes that are not an image are an error, not a trap.
struct ImageCodecsTests {
    static let picture = RGBAImage(width: 3, height: 2, red: 200, green: 40, blue: 10)

    @Test func aPNGRoundTripsExactly() throws {
        let data = try PNGCodec.encode(Self.picture)
        #expect(PNGCodec.isPNG(data))
        #expect(PNGCodec.size(of: data)?.width == 3 && PNGCodec.size(of: data)?.height == 2)
        #expect(try PNGCodec.decode(data) == Self.picture)
    }

    @Test func aJPEGRoundTripsWithinItsLoss() throws {
        let data = try JPEGCodec.encode(Self.picture, quality: 0.95)
        #expect(JPEGCodec.isJPEG(data))
        let decoded = try JPEGCodec.decode(data)
        #expect(decoded.width == 3 && decoded.height == 2)
        let pixel = decoded.pixel(x: 1, y: 1)
        #expect(
            abs(Int(pixel[0]) - 200) < 12 && abs(Int(pixel[1]) - 40) < 12 && abs(Int(pixel[2]) - 10) < 12, "\(pixel)")
    }

    @Test func bytesThatAreNoImageAreAnError() {
        let garbage = Data("not an image".utf8)
        #expect(!PNGCodec.isPNG(garbage) && !JPEGCodec.isJPEG(garbage))
        #expect(throws: ImageCodecError.self) { try PNGCodec.decode(garbage) }
        #expect(throws: ImageCodecError.self) { try JPEGCodec.decode(garbage) }
    }
}
