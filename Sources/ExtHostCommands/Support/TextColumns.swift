extension String {
    /// The string followed by spaces up to `width` characters (unchanged when it is already as wide).
    func padded(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }

    /// The string preceded by spaces up to `width` characters (right-aligned).
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
