import CTurboJPEG
package import Foundation

/// JPEG through libjpeg-turbo's TurboJPEG API, which returns errors instead of calling libjpeg's
/// `error_exit` (whose default ends the process).
package enum JPEGCodec {
    /// Whether `data` starts with a JPEG's start-of-image marker.
    package static func isJPEG(_ data: Data) -> Bool { data.starts(with: [0xFF, 0xD8, 0xFF]) }

    /// The width and height in pixels from the header; nil when TurboJPEG does not accept it.
    package static func size(of data: Data) -> (width: Int, height: Int)? {
        guard isJPEG(data), let handle = tjInitDecompress() else { return nil }
        defer { tjDestroy(handle) }
        return data.withUnsafeBytes { raw -> (Int, Int)? in
            var width: Int32 = 0
            var height: Int32 = 0
            var subsampling: Int32 = 0
            var colorspace: Int32 = 0
            let base = raw.bindMemory(to: UInt8.self).baseAddress
            guard
                tjDecompressHeader3(handle, base, UInt(raw.count), &width, &height, &subsampling, &colorspace) == 0,
                width > 0, height > 0
            else { return nil }
            return (Int(width), Int(height))
        }
    }

    /// The image's pixels as RGBA (alpha 255).
    /// - Throws: ``ImageCodecError`` with TurboJPEG's message when the data is not a whole JPEG.
    package static func decode(_ data: Data) throws -> RGBAImage {
        guard isJPEG(data) else { throw ImageCodecError("JPEG: not a start-of-image marker") }
        guard let handle = tjInitDecompress() else { throw ImageCodecError("JPEG: TurboJPEG did not start") }
        defer { tjDestroy(handle) }
        return try data.withUnsafeBytes { raw in
            let base = raw.bindMemory(to: UInt8.self).baseAddress
            var width: Int32 = 0
            var height: Int32 = 0
            var subsampling: Int32 = 0
            var colorspace: Int32 = 0
            guard
                tjDecompressHeader3(handle, base, UInt(raw.count), &width, &height, &subsampling, &colorspace) == 0
            else { throw ImageCodecError("JPEG: " + message(handle)) }
            // TurboJPEG accepts a start-of-image marker followed by nothing it understands as a
            // 0 × 0 header; that is no image (ImageIO refuses it).
            guard width > 0, height > 0 else { throw ImageCodecError("JPEG: no frame header (the image has no size)") }
            var pixels = [UInt8](repeating: 0, count: Int(width) * Int(height) * 4)
            let status = pixels.withUnsafeMutableBufferPointer { out in
                tjDecompress2(
                    handle, base, UInt(raw.count), out.baseAddress, width, 0, height, Int32(TJPF_RGBA.rawValue),
                    Int32(TJFLAG_ACCURATEDCT))
            }
            // -1 with a warning (a truncated or slightly damaged file) still fills what it could, as
            // ImageIO shows a partial image; a fatal error leaves nothing usable.
            if status != 0, tjGetErrorCode(handle) == Int32(TJERR_FATAL.rawValue) {
                throw ImageCodecError("JPEG: " + message(handle))
            }
            return RGBAImage(width: Int(width), height: Int(height), pixels: pixels)
        }
    }

    /// The image as a baseline JPEG at `quality` (0 smallest … 1 best), 4:2:0 subsampling below
    /// 0.9 and 4:4:4 from there, as image encoders commonly choose.
    /// - Throws: ``ImageCodecError`` with TurboJPEG's message.
    package static func encode(_ image: RGBAImage, quality: Double) throws -> Data {
        guard let handle = tjInitCompress() else { throw ImageCodecError("JPEG: TurboJPEG did not start") }
        defer { tjDestroy(handle) }
        let clamped = min(1, max(0, quality.isNaN ? 0 : quality))
        let level = Int32(max(1, (clamped * 100).rounded()))
        let subsampling = clamped >= 0.9 ? TJSAMP_444 : TJSAMP_420
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let status = image.pixels.withUnsafeBufferPointer { pixels in
            tjCompress2(
                handle, pixels.baseAddress, Int32(image.width), 0, Int32(image.height), Int32(TJPF_RGBA.rawValue),
                &output, &size, Int32(subsampling.rawValue), level, Int32(TJFLAG_ACCURATEDCT))
        }
        defer { if let output { tjFree(output) } }
        guard status == 0, let output else { throw ImageCodecError("JPEG: " + message(handle)) }
        return Data(bytes: output, count: Int(size))
    }

    private static func message(_ handle: tjhandle) -> String {
        guard let text = tjGetErrorStr2(handle) else { return "unknown error" }
        return String(cString: text)
    }
}
