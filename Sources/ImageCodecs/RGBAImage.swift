/// Decoded pixels: 8-bit red, green, blue and alpha per pixel, rows top to bottom, no padding.
package struct RGBAImage: Sendable, Equatable {
    /// Width in pixels.
    package var width: Int
    /// Height in pixels.
    package var height: Int
    /// `width × height × 4` bytes.
    package var pixels: [UInt8]

    /// Pixels of a `width × height` image (`pixels.count` must be `width × height × 4`).
    package init(width: Int, height: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A `width × height` image filled with one colour.
    package init(width: Int, height: Int, red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.width = width
        self.height = height
        var row: [UInt8] = []
        row.reserveCapacity(width * 4)
        for _ in 0..<width { row.append(contentsOf: [red, green, blue, alpha]) }
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * 4)
        for _ in 0..<height { pixels.append(contentsOf: row) }
        self.pixels = pixels
    }

    /// Whether every pixel is opaque.
    package var isOpaque: Bool {
        stride(from: 3, to: pixels.count, by: 4).allSatisfy { pixels[$0] == 255 }
    }

    /// The pixel at (`x`, `y`) as `[r, g, b, a]`.
    package func pixel(x: Int, y: Int) -> [UInt8] {
        let offset = (y * width + x) * 4
        return Array(pixels[offset..<offset + 4])
    }

    /// A copy scaled down (nearest neighbour) so that neither side exceeds `maximum` pixels; the
    /// image itself when it already fits.
    package func fitting(within maximum: Int) -> RGBAImage {
        guard width > maximum || height > maximum, width > 0, height > 0 else { return self }
        let factor = Double(max(width, height)) / Double(maximum)
        let newWidth = max(1, Int((Double(width) / factor).rounded()))
        let newHeight = max(1, Int((Double(height) / factor).rounded()))
        var scaled = [UInt8](repeating: 0, count: newWidth * newHeight * 4)
        for y in 0..<newHeight {
            let sourceY = min(height - 1, y * height / newHeight)
            for x in 0..<newWidth {
                let sourceX = min(width - 1, x * width / newWidth)
                let from = (sourceY * width + sourceX) * 4
                let to = (y * newWidth + x) * 4
                scaled[to..<to + 4] = pixels[from..<from + 4]
            }
        }
        return RGBAImage(width: newWidth, height: newHeight, pixels: scaled)
    }
}

/// Why an image could not be decoded or encoded: the library's own message.
package struct ImageCodecError: Error, CustomStringConvertible, Sendable {
    /// The library's message, prefixed with the format.
    package var description: String

    /// An error with `description`.
    package init(_ description: String) { self.description = description }
}
