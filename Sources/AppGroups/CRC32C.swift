/// CRC-32C (Castagnoli), the checksum of each journal record's frame.
///
/// The frame only has to detect a torn or half-written tail after a crash, where a CRC is the
/// standard tool (ext4 and btrfs journals use CRC-32C) and is far cheaper than ``SHA256``.
public enum CRC32C {
    /// Slicing-by-8 tables: `tables[k * 256 + b]` is the CRC of byte `b` followed by `k` zero
    /// bytes, so eight bytes are folded per step (a journal of 100 000 records is 17 MB to check).
    private static let tables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 8 * 256)
        for index in 0..<256 {
            var value = UInt32(index)
            for _ in 0..<8 { value = value & 1 == 1 ? (value >> 1) ^ 0x82F6_3B78 : value >> 1 }
            tables[index] = value
        }
        for slice in 1..<8 {
            for index in 0..<256 {
                let previous = tables[(slice - 1) * 256 + index]
                tables[slice * 256 + index] = tables[Int(previous & 0xff)] ^ (previous >> 8)
            }
        }
        return tables
    }()

    /// The CRC-32C of `bytes`, continuing from `previous` (0 to start).
    public static func checksum(_ bytes: UnsafeRawBufferPointer, continuing previous: UInt32 = 0) -> UInt32 {
        var crc = ~previous
        tables.withUnsafeBufferPointer { table in
            var index = 0
            let count = bytes.count
            while index + 8 <= count {
                let low = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt32.self)) ^ crc
                let high = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: index + 4, as: UInt32.self))
                crc =
                    table[7 * 256 + Int(low & 0xff)] ^ table[6 * 256 + Int((low >> 8) & 0xff)]
                    ^ table[5 * 256 + Int((low >> 16) & 0xff)] ^ table[4 * 256 + Int(low >> 24)]
                    ^ table[3 * 256 + Int(high & 0xff)] ^ table[2 * 256 + Int((high >> 8) & 0xff)]
                    ^ table[256 + Int((high >> 16) & 0xff)] ^ table[Int(high >> 24)]
                index += 8
            }
            while index < count {
                crc = table[Int((crc ^ UInt32(bytes[index])) & 0xff)] ^ (crc >> 8)
                index += 1
            }
        }
        return ~crc
    }

    /// The CRC-32C of `bytes`.
    public static func checksum(_ bytes: [UInt8]) -> UInt32 { bytes.withUnsafeBytes { checksum($0) } }
}
