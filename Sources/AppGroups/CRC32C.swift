/// CRC-32C (Castagnoli), the checksum of each journal record's frame.
///
/// The frame only has to detect a torn or half-written tail after a crash, where a CRC is the
/// standard tool (ext4 and btrfs journals use CRC-32C) and is far cheaper than ``SHA256``.
public enum CRC32C {
    private static let table: [UInt32] = (0..<256).map { index -> UInt32 in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? (value >> 1) ^ 0x82F6_3B78 : value >> 1 }
        return value
    }

    /// The CRC-32C of `bytes`, continuing from `previous` (0 to start).
    public static func checksum(_ bytes: UnsafeRawBufferPointer, continuing previous: UInt32 = 0) -> UInt32 {
        var crc = ~previous
        table.withUnsafeBufferPointer { table in
            for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xff)] ^ (crc >> 8) }
        }
        return ~crc
    }

    /// The CRC-32C of `bytes`.
    public static func checksum(_ bytes: [UInt8]) -> UInt32 { bytes.withUnsafeBytes { checksum($0) } }
}
