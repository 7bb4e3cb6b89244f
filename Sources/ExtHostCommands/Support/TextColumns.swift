/// Column padding for every table and listing the commands print (`help`, `types list`,
/// `payload show`, the share report, …): the one place text is padded with spaces.
extension String {
    /// The string followed by spaces up to `width` characters (unchanged when it is already as wide).
    func padded(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }

    /// The string preceded by spaces up to `width` characters (right-aligned).
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }

    /// The string as a column `width` wide before another: padded to `width`, or, when it is
    /// already as wide, followed by two spaces so the columns never touch.
    func column(_ width: Int) -> String {
        count >= width ? self + "  " : padded(width)
    }
}
